"""A seat's listed actions as a menu a person reads: grouped by type, each in the game's words,
and choices of several things (a discard, a payment, targets) picked item by item.

Pure functions of the legal-actions answer (`actions` and their parallel `words`): no terminal,
no store, so the same menu is built for a local and a remote match, and tested alone.

- An action whose `params` describe a list field (a JSON schema with `items.enum`, perhaps
  `worth`, `worth_at_least` and `no_spare`, or a sentence such as "any of your creature cards") is one
  entry played as listed; it can also be opened as a `Choice` whose items are the schema's
  enum (else every item the listings of that type name for the field).
- Listed actions of one type that differ only in list fields (HeroCard's discard: one listing
  a subset of the hand, 64 of them) are one `Choice` entry when there are more than
  FAMILY_INLINE of them and the lists read as sets of items (`reads_as_items`): the person
  ticks items, and the choice is accepted when it is one of the listed ones (the rules list
  every accepted subset). A Cybermen move's square is no set: each stays an entry.
"""

from collections import Counter
from dataclasses import dataclass, field

import orjson

from domain.kernel.words import humanize

FAMILY_INLINE = 4  # listed subsets of one kind: up to this many are shown one by one
FLAT_MOST = 24  # a menu of up to this many entries is shown whole; a longer one by type
PAGE = 20  # entries a page in a long list
OTHER_WAYS = " — or "  # the words of a listing's params start so ("… — or any of A, B worth at least 3")


def key(value) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def bag(values) -> tuple:
    """The items of a list as a multiset (order left out, repeats kept): two copies of a card
    in a hand are two items to tick."""
    return tuple(sorted(key(value) for value in values))


def list_paths(action: dict, prefix: tuple = ()) -> dict[tuple, list]:
    """The action's fields that are lists of scalars (card ids, seats), by path: ("cards",),
    ("duel", "cards")."""
    found = {}
    for name, value in action.items():
        if name == "params":
            continue
        if isinstance(value, dict):
            found.update(list_paths(value, prefix + (name,)))
        elif isinstance(value, list) and all(isinstance(item, (str, int)) and not isinstance(item, bool)
                                              for item in value):
            found[prefix + (name,)] = value
    return found


def without(action: dict, paths) -> dict:
    """The action with the fields at `paths` left out (what a family's members share)."""
    def strip(value, prefix):
        if not isinstance(value, dict):
            return value
        return {k: strip(v, prefix + (k,)) for k, v in value.items() if prefix + (k,) not in paths and k != "params"}
    return strip(action, ())


def put(action: dict, path: tuple, value) -> dict:
    """A copy of the action with `value` at `path`."""
    if len(path) == 1:
        return {**action, path[0]: value}
    return {**action, path[0]: put(action[path[0]], path[1:], value)}


def get(action: dict, path: tuple):
    for name in path:
        action = action[name]
    return action


@dataclass
class Item:
    path: tuple  # the field it goes in
    value: object  # what is sent
    label: str  # what is shown
    worth: int = 1


@dataclass
class Choice:
    """Several things picked one by one: the items, the base action they are put into, and what
    is accepted (`listed`: the chosen sets the rules listed, else any set the schema allows)."""

    base: dict
    items: list[Item]
    title: str
    chosen: list[int] = field(default_factory=list)  # indexes into items, in the order picked
    listed: list[dict] | None = None  # {path: bag} a listing, when only those are accepted
    members: list[dict] | None = None  # the listed actions themselves, beside `listed`
    at_least: dict = field(default_factory=dict)  # path -> worth the chosen items of the path must reach
    most: dict = field(default_factory=dict)  # path -> how many at most (maxItems)
    fewest: dict = field(default_factory=dict)  # path -> how many at least (minItems)
    no_spare: set = field(default_factory=set)  # paths whose worth must be reached with no item to spare

    @property
    def paths(self) -> list[tuple]:
        return list(dict.fromkeys(item.path for item in self.items))

    def toggle(self, index: int) -> None:
        if index in self.chosen:
            self.chosen.remove(index)
        else:
            self.chosen.append(index)

    def picked(self, path) -> list[Item]:
        return [self.items[i] for i in self.chosen if self.items[i].path == path]

    def total(self, path) -> int:
        return sum(item.worth for item in self.picked(path))

    def chosen_sets(self) -> dict:
        return {path: bag(item.value for item in self.picked(path)) for path in self.paths}

    def action(self) -> dict:
        """The action to send: the listed one when the choice is one of a listed family (sent
        exactly as listed), else the base with the chosen items in their fields."""
        if self.listed is not None and self.chosen_sets() in self.listed:
            return self.members[self.listed.index(self.chosen_sets())]
        action = self.base
        for path in self.paths:
            action = put(action, path, [item.value for item in self.picked(path)])
        return action

    def problem(self) -> str | None:
        """Why the choice would be refused as it stands, or None (the rules have the last word)."""
        if self.listed is not None:
            if self.chosen_sets() not in self.listed:
                sizes = sorted({sum(len(s) for s in listing.values()) for listing in self.listed})
                return f"not one of the listed choices (they take {listing_numbers(sizes)} items)"
            return None
        for path in self.paths:
            n = len(self.picked(path))
            if path in self.fewest and n < self.fewest[path]:
                return f"choose at least {self.fewest[path]} for {humanize(path[-1])}"
            if path in self.most and n > self.most[path]:
                return f"choose at most {self.most[path]} for {humanize(path[-1])}"
            if path in self.at_least and self.total(path) < self.at_least[path]:
                return f"{humanize(path[-1])} worth {self.total(path)} of at least {self.at_least[path]}"
            if path in self.no_spare and n and self.total(path) - min(i.worth for i in self.picked(path)) >= \
                    self.at_least.get(path, 0):
                return f"{humanize(path[-1])} worth {self.total(path)}: one fewer still pays {self.at_least.get(path, 0)}"
        return None


def listing_numbers(numbers) -> str:
    numbers = [str(n) for n in numbers]
    return numbers[0] if len(numbers) == 1 else f"{', '.join(numbers[:-1])} or {numbers[-1]}"


@dataclass
class Entry:
    """One line of a menu: an action played as listed (`action`), a family of listed subsets
    chosen item by item (`choice`), or a listed action that may also be opened as a choice."""

    label: str
    kind: str  # the action type, for grouping
    action: dict | None = None
    choice: Choice | None = None  # opened at once (a family), or with "N+" (a listing's params)


def item_label(value, name_of) -> str:
    name = name_of(value) if isinstance(value, str) else None
    return name or humanize(value)


def build(actions: list[dict], words: list[str | None], name_of=lambda value: None) -> list[Entry]:
    """The menu's entries in the order of the listing's types. `name_of(id)` names a card or
    tile from the game's catalog (None where it is not one)."""
    said = [w or f"{humanize(a.get('type'))} ({key({k: v for k, v in a.items() if k != 'params'}).decode()})"
            for a, w in zip(actions, words)]
    families: dict[bytes, list[int]] = {}
    for index, action in enumerate(actions):
        paths = list_paths(action)
        if paths and "params" not in action:
            families.setdefault(key([action.get("type"), sorted(paths), without(action, set(paths))]), []).append(index)
    folded = {}
    for members in families.values():
        if len(members) > FAMILY_INLINE and reads_as_items([actions[i] for i in members]):
            for index in members:
                folded[index] = members
    entries, done = [], set()
    for index, action in enumerate(actions):
        if index in done:
            continue
        kind = str(action.get("type"))
        if index in folded:
            members = folded[index]
            done.update(members)
            entries.append(Entry(f"{humanize(kind)}: choose one by one ({len(members)} ways)", kind,
                                 choice=family_choice([actions[i] for i in members],
                                                      [said[i] for i in members], name_of)))
            continue
        done.add(index)
        choice = params_choice(action, actions, name_of)
        label = said[index]
        if choice is not None and OTHER_WAYS in label:
            label = label.split(OTHER_WAYS)[0]
        entries.append(Entry(label, kind, action=action, choice=choice))
    return entries


def reads_as_items(members: list[dict]) -> bool:
    """Whether a family's list fields read as multisets of items to tick one by one: ids
    (strings), or lists of different lengths (a discard of any number of cards), and no two
    members the same items (the choice matches what is ticked). A square's coordinates ([row,
    column]: two numbers, whose order matters) are no such set."""
    paths = list(list_paths(members[0]))
    values = [[get(member, path) for path in paths] for member in members]
    bags = {tuple(bag(listed) for listed in lists) for lists in values}
    ids = all(isinstance(item, str) for lists in values for listed in lists for item in listed)
    lengths = {tuple(len(listed) for listed in lists) for lists in values}
    return len(bags) == len(members) and (ids or len(lengths) > 1)


def family_choice(members: list[dict], said: list[str], name_of) -> Choice:
    paths = list(list_paths(members[0]))
    listed = [{path: bag(get(m, path)) for path in paths} for m in members]
    # an item reads as the game words the listing that takes it alone ("discard Scalpel Strike")
    alone = {}
    for member, words in zip(members, said):
        picked = [(path, v) for path in paths for v in get(member, path)]
        if len(picked) == 1:
            alone[(picked[0][0], key(picked[0][1]))] = words
    # each item as many times as the listing that takes it most often does (two copies of a
    # card): a union of Counters keeps each count's largest
    copies, values = Counter(), {}
    for member in members:
        for path in paths:
            copies |= Counter((path, key(value)) for value in get(member, path))
            values.update(((path, key(value)), value) for value in get(member, path))
    items = [Item(path, values[(path, item)], alone.get((path, item)) or item_label(values[(path, item)], name_of))
             for (path, item), count in copies.items() for _ in range(count)]
    smallest = min(members, key=lambda m: sum(len(get(m, p)) for p in paths))
    return Choice(base=without(smallest, set()), items=items,
                  title=f"{humanize(members[0].get('type'))}: tick items, then Enter", listed=listed,
                  members=[without(m, set()) for m in members])


def params_choice(action: dict, actions: list[dict], name_of) -> Choice | None:
    params = action.get("params")
    if not isinstance(params, dict):
        return None
    paths = [path for path in list_paths(action) if path[-1] in params and len(path) == 1]
    if not paths:
        return None
    choice = Choice(base=without(action, set()), items=[], title="")
    for path in paths:
        schema = params[path[-1]]
        if isinstance(schema, dict) and isinstance(schema.get("items", {}).get("enum"), list):
            values = schema["items"]["enum"]
            worth = schema.get("worth") or {}
            if "worth_at_least" in schema:
                choice.at_least[path] = schema["worth_at_least"]
            if schema.get("no_spare"):
                choice.no_spare.add(path)
            if "maxItems" in schema:
                choice.most[path] = schema["maxItems"]
            if "minItems" in schema:
                choice.fewest[path] = schema["minItems"]
        else:  # described in words only: the items are those the listings of this type name
            values = list(dict.fromkeys(v for other in actions if other.get("type") == action.get("type")
                                        and path[0] in other and isinstance(other[path[0]], list)
                                        for v in other[path[0]] if isinstance(v, (str, int))))
            worth = {}
        for value in values:
            label = item_label(value, name_of)
            if len(paths) > 1:
                label = f"{humanize(path[-1])}: {label}"
            choice.items.append(Item(path, value, label, int(worth.get(value, 1)) if isinstance(value, str) else 1))
    for path in paths:
        for value in get(action, path):
            index = next((i for i, item in enumerate(choice.items) if item.path == path and item.value == value), None)
            if index is not None:
                choice.chosen.append(index)
    choice.title = f"{humanize(action.get('type'))}: tick items, then Enter"
    return choice


@dataclass
class Page:
    """What the menu shows now: numbered lines (entries, or type groups opening a submenu)."""

    lines: list[tuple[str, str, object]]  # (heading or "", label, Entry or list[Entry])
    page: int = 0
    pages: int = 1


def top_level(entries: list[Entry]) -> list[tuple[str, str, object]]:
    """All entries under their type headings when they are few; else one line a type (a type with
    one entry shows it), which opens that type's entries."""
    if len(entries) <= FLAT_MOST:
        return [(humanize(e.kind), e.label, e) for e in entries]
    kinds: dict[str, list[Entry]] = {}
    for entry in entries:
        kinds.setdefault(entry.kind, []).append(entry)
    lines = []
    for kind, group in kinds.items():
        if len(group) == 1:
            lines.append((humanize(kind), group[0].label, group[0]))
        else:
            lines.append(("", f"{humanize(kind)} … ({len(group)} choices)", group))
    return lines
