"""The Ruleset protocol (Decider style) and the registry of rulesets by (game, version).

A game is plain functions over plain JSON data, with no I/O:

- setup(options, seat_names, rng) -> state            (raises InvalidSetup)
- legal_actions(state, seat) -> [action]               (each can be posted back unchanged)
- decide(state, seat, action, rng) -> [fact]           (raises IllegalAction; never mutates state)
- evolve(state, fact) -> state                         (may update `state` in place; no checks, no randomness)
- to_act(state) -> set[seat]; outcome(state) -> None | result
- view(state, seat | None) -> dict                     (what that seat, or a spectator, may see)
- redact(fact, seat | None) -> fact                    (the same rule for one fact of the log)
- redact_action(action, actor, seat | None) -> action  (an action as another seat may see it)
- render(view, to_act) -> rich renderable               (optional: a view drawn for terminals, the seats
                                                          the rules ask to act marked)
- resign(state, seat) -> [fact]                         (optional: the facts that take a leaving seat
                                                          out as the rules eliminate a player; without
                                                          it a seat leaving ends the match)
- default_action(state, seat) -> action                 (optional: the move a timed-out seat makes,
                                                          such as a pass, when a clock says so)
- determinize(state, seat, rng) -> state                (optional: a copy that agrees with all `seat`
                                                          sees, its hidden zones refilled at random;
                                                          with it the game gets the "search" bot)
- evaluate(state) -> [float per seat]                   (optional: 0..1, how near each seat is to
                                                          winning, for the search bot's cut-off playouts)
- search_settings: {playouts, width, depth, ...}        (optional: the search bot's budget in this
                                                          game, where the kernel's default is not the
                                                          measured best buy; SearchBot's arguments,
                                                          a `challengers` ranking among them)
- words: Words                                           (optional: facts and listed actions in plain
                                                          English, card and tile details: words.py)

Games register themselves when `domain.games` is imported; a match pins the version it
was created with, so a change of rules never silently re-interprets an old match.
"""

from collections.abc import Callable
from dataclasses import dataclass, field

from .canonical import canonical_json
from .errors import UnknownRuleset
from .rng import RandomStream
from .search import SearchBot
from .words import Words

State = dict
Action = dict
Fact = dict


def stray_field_refusal(listing: list[Action], action: Action) -> tuple[str, str] | None:
    """("malformed", why) when `action` is of a type the listing holds but carries a field no
    listed action of that type has (`{"type": "end_turn", "card": ...}`); None otherwise."""
    kind = action.get("type") if isinstance(action, dict) else None
    fields = {key for listed in listing if listed.get("type") == kind for key in listed if key != "params"}
    stray = sorted(set(action) - fields) if fields else []
    return ("malformed", f"{kind} takes the fields {sorted(fields)}, not {stray}") if stray else None


def malformed_refusal(listing: list[Action], action: Action) -> tuple[str, str] | None:
    """("malformed", why) when `action` is of a type the listing holds but carries a field no
    listed action of that type has, or a value of another JSON type than the listing gives that
    field (its listed values and its `params` schema): a boolean or a fraction where the listing
    has an integer, a number where it has a string. Python reads `true` as 1 and `1.0` as 1, so
    the rules alone would accept, and the log record, a move no client was offered."""
    stray = stray_field_refusal(listing, action)
    if stray or not isinstance(action, dict):
        return stray
    kind = action.get("type")
    same = [listed for listed in listing if listed.get("type") == kind]
    for key, value in action.items():
        examples = [listed[key] for listed in same if key in listed]
        schemas = [listed["params"][key] for listed in same if isinstance(listed.get("params", {}).get(key), dict)]
        problem = _unlike(value, examples, schemas)
        if problem:
            return "malformed", f"{kind}.{key}: {problem}"
    return None


def json_kind(value) -> str:
    for python_type, name in ((bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"),
                              (list, "array"), (dict, "object")):
        if isinstance(value, python_type):
            return name
    return "null"


def _schema_kinds(schema: dict) -> set[str]:
    kinds = set()
    if "type" in schema:
        kinds |= set(schema["type"]) if isinstance(schema["type"], list) else {schema["type"]}
    for key in ("enum", "examples"):
        kinds |= {json_kind(value) for value in schema.get(key, [])}
    for key in ("anyOf", "oneOf"):
        for option in schema.get(key, []):
            kinds |= _schema_kinds(option)
    return kinds


def _unlike(value, examples: list, schemas: list[dict]) -> str | None:
    """Why `value` is not of the JSON kinds of `examples` and `schemas` (recursively), or None."""
    kind = json_kind(value)
    if kind == "number":
        return f"{value!r} is not an integer (no game takes a fraction)"
    allowed = {json_kind(example) for example in examples} | {k for s in schemas for k in _schema_kinds(s)}
    if allowed and kind not in allowed:
        return f"a {kind} where the listing has {' or '.join(sorted(allowed))}"
    if kind == "array":
        item_examples = [item for example in examples if isinstance(example, list) for item in example]
        item_schemas = [s["items"] for s in schemas if isinstance(s.get("items"), dict)]
        for index, item in enumerate(value):
            problem = _unlike(item, item_examples, item_schemas)
            if problem:
                return f"item {index}: {problem}"
    elif kind == "object":
        for key, item in value.items():
            problem = _unlike(item, [e[key] for e in examples if isinstance(e, dict) and key in e],
                              [s["properties"][key] for s in schemas
                               if isinstance(s.get("properties", {}).get(key), dict)])
            if problem:
                return f"{key}: {problem}"
    return None


@dataclass(frozen=True)
class GameProfile:
    """What statistics need to know of a game: which card an action plays, and, from the
    final state, the first player, each seat's faction (or Constructor, hero...) and rounds."""

    card_played: Callable[[Action], str | None]
    summary: Callable[[State, dict], dict]


HIDDEN_PER_SEAT = "per-seat"  # an option schema's "x-hidden": a map seat -> value only that seat may read
HIDDEN_VALUE = "hidden"


def seat_for_key(key: str, seat_names: list[str]) -> int | None:
    """The seat an option keyed "by seat name or number" means: a seat's name first (a seat may
    be named "1"), else a seat number in ASCII digits; None when it is neither. The one rule
    for the games that read such options and for their redaction."""
    if key in seat_names:
        return seat_names.index(key)
    if isinstance(key, str) and key.isascii() and key.isdigit() and int(key) < len(seat_names):
        return int(key)
    return None


def redact_options(schema: dict, options: dict, seat_names: list[str], seat: int | None) -> dict:
    """The match options as `seat` (None: a spectator, or a lobby's visitor) may read them while
    the match runs. A property the game's option schema marks `"x-hidden": "per-seat"` maps a
    seat (by name or number, `seat_for_key`) to what only that seat may read, such as its
    constructed deck list: every other seat's entry reads "hidden"."""
    shown = dict(options)
    for name, prop in schema.get("properties", {}).items():
        if prop.get("x-hidden") == HIDDEN_PER_SEAT and isinstance(options.get(name), dict):
            shown[name] = {key: value if seat is not None and seat_for_key(key, seat_names) == seat
                           else HIDDEN_VALUE for key, value in options[name].items()}
    return shown


def options_reseated(schema: dict, options: dict, seat_names: list[str], order: list[int]) -> dict:
    """The options of a match whose seats are taken in `order` (new seat i holds old seat
    order[i], as a rematch rotates them): every per-seat entry (`"x-hidden": "per-seat"`, such
    as a constructed deck) follows its player. A key by seat number is renumbered; a key by
    seat name already follows its player."""
    reseated = dict(options)
    for name, prop in schema.get("properties", {}).items():
        if prop.get("x-hidden") == HIDDEN_PER_SEAT and isinstance(options.get(name), dict):
            entries = {}
            for key, value in options[name].items():
                old = seat_for_key(key, seat_names)
                by_name = key in seat_names
                entries[key if by_name or old is None else str(order.index(old))] = value
            reseated[name] = entries
    return reseated


def options_refusal(schema: dict, options) -> str | None:
    """Why `options` do not fit the game's option schema (None when they do): an unknown name
    where the schema allows none, a value of another JSON type (a boolean or a fraction is not
    an integer, though Python's `True in (1, 2)` holds), a value outside its enum or bounds.
    The rules judge the rest (a deck's cards, the seats a mode needs)."""
    if not isinstance(options, dict):
        return "options are an object"
    properties = schema.get("properties", {})
    if schema.get("additionalProperties") is False:
        unknown = sorted(set(options) - set(properties))
        if unknown:
            return f"unknown options {unknown}; known: {sorted(properties)}"
    for name, value in options.items():
        problem = _value_refusal(properties.get(name, {}), value)
        if problem:
            return f"option {name!r}: {problem}"
    return None


KINDS_OF_TYPE = {"integer": {"integer"}, "number": {"integer", "number"}, "string": {"string"},
                 "boolean": {"boolean"}, "array": {"array"}, "object": {"object"}, "null": {"null"}}


def _value_refusal(schema: dict, value) -> str | None:
    kind = json_kind(value)
    if "enum" in schema:
        if not any(json_kind(allowed) == kind and allowed == value for allowed in schema["enum"]):
            return f"{value!r} is not one of {schema['enum']}"
        return None
    if "type" in schema and kind not in KINDS_OF_TYPE.get(schema["type"], {schema["type"]}):
        return f"a {kind} where {schema['type']} is wanted"
    if kind in ("integer", "number"):
        if "minimum" in schema and value < schema["minimum"] or "maximum" in schema and value > schema["maximum"]:
            return f"{value} is outside {schema.get('minimum')}..{schema.get('maximum')}"
    if kind == "array":
        if schema.get("uniqueItems") and len({canonical_json(item) for item in value}) < len(value):
            return "an item appears twice"
        for index, item in enumerate(value):
            problem = _value_refusal(schema.get("items", {}), item)
            if problem:
                return f"item {index}: {problem}"
    return None



@dataclass(frozen=True)
class Ruleset:
    name: str
    version: str
    title: str
    min_seats: int
    max_seats: int
    options_schema: dict
    setup: Callable[[dict, list[str], RandomStream], State]
    legal_actions: Callable[[State, int], list[Action]]
    decide: Callable[[State, int, Action, RandomStream], list[Fact]]
    evolve: Callable[[State, Fact], State]
    to_act: Callable[[State], set[int]]
    outcome: Callable[[State], dict | None]
    view: Callable[[State, int | None], dict]
    redact: Callable[[Fact, int | None], Fact]
    redact_action: Callable[[Action, int, int | None], Action]
    bots: dict[str, Callable] = field(default_factory=dict)
    profile: GameProfile | None = None
    # a rich renderable of a view; to_act (whom the rules ask) comes beside the view, never in it:
    # the view of the set-up is part of the audited public record, a board's marks are not
    render: Callable[[dict, list], object] | None = None
    resign: Callable[[State, int], list[Fact]] | None = None
    default_action: Callable[[State, int], Action] | None = None
    determinize: Callable[[State, int, object], State] | None = None
    evaluate: Callable[[State], list[float]] | None = None
    search_settings: dict = field(default_factory=dict)
    words: Words | None = None

    @classmethod
    def assemble(cls, *, rules, views, **fields) -> "Ruleset":
        """A game's ruleset from its rules module (setup ... outcome) and its views module.
        The optional hooks (resign, default_action, render...) come as fields, or from the
        rules module when it defines them; so does legal_actions, for a game whose listing is a
        module of its own that imports the rules (and so cannot be handed on by them)."""
        for hook in ("resign", "default_action", "legal_actions"):
            fields.setdefault(hook, getattr(rules, hook, None))
        if fields["legal_actions"] is None:
            raise TypeError("a ruleset needs legal_actions: from its rules module, or as a field")
        fields["bots"] = dict(fields.get("bots", {}))
        ruleset = cls(setup=rules.setup, decide=rules.decide, evolve=rules.evolve,
                      to_act=rules.to_act, outcome=rules.outcome, view=views.view, redact=views.redact,
                      redact_action=views.redact_action, **fields)
        if ruleset.determinize is not None:
            ruleset.bots["search"] = SearchBot(ruleset, **ruleset.search_settings)
        return ruleset

    def redact_options(self, options: dict, seat_names: list[str], seat: int | None) -> dict:
        return redact_options(self.options_schema, options, seat_names, seat)

    def describe(self) -> dict:
        return {
            "game": self.name,
            "title": self.title,
            "version": self.version,
            "seats": {"min": self.min_seats, "max": self.max_seats},
            "options": self.options_schema,
            "bots": sorted(self.bots),
            "lifecycle": {"resign": "the match goes on without the seat" if self.resign else "ends the match",
                          "default_move_on_timeout": self.default_action is not None},
        }


_BY_VERSION: dict[tuple[str, str], Ruleset] = {}
_LATEST: dict[str, Ruleset] = {}


def register(ruleset: Ruleset, latest: bool = True) -> Ruleset:
    _BY_VERSION[(ruleset.name, ruleset.version)] = ruleset
    if latest:
        _LATEST[ruleset.name] = ruleset
    return ruleset


def latest(name: str) -> Ruleset:
    try:
        return _LATEST[name]
    except KeyError:
        raise UnknownRuleset(f"no game named {name!r}; known: {sorted(_LATEST)}") from None


def pinned(name: str, version: str) -> Ruleset:
    try:
        return _BY_VERSION[(name, version)]
    except KeyError:
        have = sorted(v for (n, v) in _BY_VERSION if n == name)
        raise UnknownRuleset(
            f"{name} ruleset version {version!r} is not in this build (it has {have}); "
            "refusing to interpret the match with other rules"
        ) from None


def all_latest() -> list[Ruleset]:
    return [_LATEST[name] for name in sorted(_LATEST)]
