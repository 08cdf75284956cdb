"""Algomancy in words: each fact of the log and each listed action for a person, and each
card's, token's and resource's details (from cards.json), in the rulebook's terms: regions,
the initiative, the draft, dormant and active resources, Prismites and Shards, units, spells
and tokens, augments, grafts and viruses, the stack and priority, formations, blocks, the bin.
See domain/kernel/words.py. The actions' words are in action_words.py, and the names of
cards, regions, targets and formations that both use are in names.py.

Algomancy's facts are differences at a path of the state (`{"f": "set", "path": [...],
"value": ...}`), so a fact kind is the path's shape ("set players.#.life", "del units.*"), and
each shape has its words. A value alone says where a thing stands now ("bob's life: 28"); the
words say what changed ("bob lost 2 life") by remembering, per reader, the values its earlier
facts and the set-up showed (`learn`, `setup`); never anything the redaction hid from it."""

from domain.kernel.canonical import json_copy
from domain.kernel.words import Words, humanize, listing, plural

from .action_words import ACTIONS
from .cards import CARDS, RESOURCES, TOKENS, data_of, name_of
from .names import aim, card, cards, columns, region

STEPS = {
    "draft": "The draft step began", "cube": "The cube draft began", "pick": "Picking from the packs began",
    "build": "Deck building began", "resources": "The resource step began", "haste": "The haste step began",
    "battle": "The battle phase began", "attack": "Attacks are declared", "block": "Blocks are declared",
    "form": "Formations are arranged", "window": "A priority window opened", "combat": "Combat damage",
    "phase2": "Battle, phase 2: counter-attacks", "regroup": "Regroup: units return home and heal",
    "deploy": "The deployment step began", "end_of_turn": "The end of the turn",
}
ENDS = {"eliminated": "every enemy was eliminated", "turn_limit": "the turn limit was reached (most life wins)",
        "draw": "nobody was left standing"}
CHOICES = {"assign": "how much combat damage the front unit takes", "each_sacrifice": "a unit to sacrifice",
           "give": "who gets the card"}


# ---------------------------------------------------------------------------------------
# Counts and changes
# ---------------------------------------------------------------------------------------

def count_of(value) -> int | None:
    if isinstance(value, list):
        return len(value)
    if isinstance(value, dict) and "count" in value:
        return value["count"]
    return None


def _diff(before: list, after: list) -> tuple[list, list]:
    gone, came = list(before), []
    for item in after:
        if item in gone:
            gone.remove(item)
        else:
            came.append(item)
    return came, gone


def _seat(fact) -> int:
    return fact["path"][1]


# ---------------------------------------------------------------------------------------
# Facts about players
# ---------------------------------------------------------------------------------------

def _life(fact, ctx):
    seat, life = _seat(fact), fact["value"]
    before = ctx.known.get(("life", seat))
    if before is None or before == life:
        return f"{ctx.whose(seat)} life is {life}"
    change = "lost" if life < before else "gained"
    return f"{ctx.who(seat)} {change} {abs(life - before)} life ({life} left)"


def _zone_change(fact, ctx, zone: str, mine: str, theirs: str):
    """A hand or a pack set anew: the cards that came and went (the reader's own, shown), or how
    many it holds now (another's, hidden)."""
    seat, value = _seat(fact), fact["value"]
    before = ctx.known.get((zone, seat))
    if isinstance(value, list) and isinstance(before, list):
        came, gone = _diff(before, value)
        said = []
        if came:
            said.append(f"{cards(came)} came into {ctx.whose(seat)} {mine}")
        if gone:
            said.append(f"{cards(gone)} left it" if came else f"{cards(gone)} left {ctx.whose(seat)} {mine}")
        return "; ".join(said) + f" ({plural(len(value), 'card')} now)" if said else None
    now = count_of(value)
    if now is None:
        return None
    was = count_of(before)
    if was is not None and now > was:
        return f"{ctx.who(seat)} took {plural(now - was, 'card')} into {theirs} ({now} now)"
    if was is not None and now == was:
        return None  # the same number: an exchange, worded by the action
    return f"{ctx.verb(seat, 'holds', 'hold')} {plural(now, 'card')} in {'hand' if zone == 'hand' else 'the pack'}"


def _hand(fact, ctx):
    return _zone_change(fact, ctx, "hand", "hand", "hand")


def _pack(fact, ctx):
    return _zone_change(fact, ctx, "pack", "pack", "the pack")


def _bin(fact, ctx):
    seat, value = _seat(fact), fact["value"]
    came, gone = _diff(ctx.known.get(("bin", seat)) or [], value)
    said = []
    if came:
        said.append(f"{cards(came)} went to {ctx.whose(seat)} bin")
    if gone:
        said.append(f"{cards(gone)} left {ctx.whose(seat)} bin")
    return "; ".join(said) or f"{ctx.whose(seat)} bin holds {plural(len(value), 'card')}"


def _resource_name(resource) -> str:
    return resource.get("kind") or "resource" if isinstance(resource, dict) else "resource"


def _resources(fact, ctx):
    seat, value = _seat(fact), fact["value"]
    came, gone = _diff([r["id"] for r in ctx.known.get(("resources", seat)) or []], [r["id"] for r in value])
    ready = sum(1 for r in value if not r.get("expended"))
    if came:
        names = [_resource_name(r) for r in value if r["id"] in came]
        return f"{listing(names)} became active for {ctx.whom(seat)} ({ready} of {len(value)} ready)"
    if gone:
        return f"{ctx.whose(seat)} resources: {len(value)} ({ready} ready)"
    return f"{ctx.whose(seat)} resources were readied ({ready} of {len(value)})"


def _resource_part(fact, ctx):
    seat, index, part = fact["path"][1], fact["path"][3], fact["path"][4]
    known = ctx.known.get(("resources", seat)) or []
    name = _resource_name(known[index]) if index < len(known) else "resource"
    if part == "expended":
        return f"{ctx.who(seat)} expended {'a' if name == 'resource' else 'the'} {name}" if fact["value"] else None
    if part == "kind":
        return f"{ctx.whose(seat)} {name} became a {fact['value']}"
    return None


def _dormant(fact, ctx):
    seat, value = _seat(fact), fact["value"]
    if value is None:  # hidden below this path: something changed among the face-down resources
        return f"{ctx.whose(seat)} dormant resources changed"
    now = count_of(value)
    before = count_of(ctx.known.get(("dormant", seat)))
    if isinstance(value, list):
        names = listing([_resource_name(r) for r in value], empty="none")
        return f"{ctx.whose(seat)} dormant resources: {names}"
    if before is not None and now > before:
        return f"{ctx.who(seat)} gained {plural(now - before, 'dormant resource')} ({now} now)"
    return f"{ctx.verb(seat, 'has', 'have')} {plural(now, 'dormant resource')}"


def _recycle_owed(fact, ctx):
    owed = fact["value"]
    return f"{ctx.who(_seat(fact))} must recycle {plural(owed, 'card')}" if owed else None


def _intent(fact, ctx):
    seat, value = _seat(fact), fact["value"]
    if isinstance(value, list):
        targets = [ctx.whom(f.get("target")) for f in value if isinstance(f, dict)]
        return f"{ctx.whose(seat)} intent card: " + (f"attack {listing(targets)}" if targets else "no attack")
    if isinstance(value, dict) and value.get("hidden"):
        return f"{ctx.who(seat)} laid an intent card face down"
    return None  # the intent cards flipped: the formations they declared follow


def _deck_list(fact, ctx):
    seat, value = _seat(fact), fact["value"]
    size = count_of(value)  # another reader is shown that there is a list, not its length
    return f"{ctx.whose(seat)} deck list is set" + (f" ({plural(size, 'card')})" if size is not None else "")


def _out(fact, ctx):
    return f"{ctx.verb(_seat(fact), 'is', 'are')} out of the game" if fact["value"] else None


# ---------------------------------------------------------------------------------------
# Facts about units, tokens, the stack and the battle
# ---------------------------------------------------------------------------------------

def _unit_stats(unit) -> str:
    data = data_of(unit["card"]) if isinstance(unit.get("card"), str) else {}
    power, defense = data.get("power"), data.get("defense")
    if power == "X":
        power = defense = unit.get("x", 0)
    return f" ({power}/{defense})" if power is not None else ""


def _unit_entered(fact, ctx):
    uid, unit = fact["path"][1], fact["value"]
    token = " token" if unit.get("token") else ""
    return (f"{card(uid)}{token}{_unit_stats(unit)} entered play in {region(unit.get('region'), ctx)}, "
            f"under {ctx.whose(unit.get('controller'))} control")


def _unit_part(fact, ctx):
    uid, part, value = fact["path"][1], fact["path"][2], fact.get("value")
    name = card(uid)
    if part == "region":
        return f"{name} set out on a counter-attack" if value is None else f"{name} moved to {region(value, ctx)}"
    if part == "damage":
        return f"{name} has {value} damage" if value else None
    if part == "counters":
        return f"{name} has {plural(value, 'counter')} (+{value}/+{value})"
    if part == "temp":
        return f"{name} gets {value[0]:+d}/{value[1]:+d} until regroup" if any(value) else None
    if part == "temp_attributes":
        return f"{name} gains {listing([humanize(a).title() for a in value])} until regroup" if value else None
    if part == "protected":
        return f"{name} is protected" if value else None
    if part == "mods":
        mods = [f"{card(m['card'])} ({m['kind']})" for m in value]
        return f"{name} now carries {listing(mods)}" if mods else f"{name} carries no mods"
    if part == "controller":
        return f"{ctx.who(value)} took control of {name}"
    if part == "deadly_hit":
        return f"{name} was dealt deadly damage" if value else None
    if part == "unstable":
        return f"{name} is unstable" if value else f"{name} is no longer unstable"
    if part == "x":
        return f"{name}'s X became {value}"
    return None  # "used": abilities used this turn, said by the activation


def _token(fact, ctx):
    token_id, value = fact["path"][1], fact["value"]
    x = f" {value['x']}" if value.get("x") else ""
    return f"{ctx.who(value.get('controller'))} got a {card(token_id)}{x} spell token in {region(value.get('region'), ctx)}"


def _stack(fact, ctx):
    stack = fact["value"]
    before = ctx.known.get("stack")
    if before is not None:
        had, has = {i["id"] for i in before}, {i["id"] for i in stack}
        resolved = [item for item in before if item["id"] not in has]
        added = [item for item in stack if item["id"] not in had]
        if resolved or added:  # each added item bottom first: an ability and the despawn its
            # sacrifice triggered, or a despawn triggered while the top resolved
            done = [f"{listing([_item(i, ctx) for i in resolved])} resolved"
                    + ("" if stack else "; the stack is empty")] if resolved else []
            return "; ".join(done + [_put(i, ctx) for i in added])
    if not stack:
        return None  # emptied with nothing to say (set again as it was)
    return _put(stack[-1], ctx)


def _put(item, ctx) -> str:
    targets = [aim(t, ctx) for t in item.get("targets") or []]
    return (f"{ctx.who(item.get('controller'))} put {_item(item, ctx)} on the stack"
            + (f", targeting {listing(targets)}" if targets else ""))


def _triggered(fact, ctx):
    """Effects triggered in battle that wait for their region's priority window (a despawn)."""
    had = {i["id"] for i in ctx.known.get("triggered") or []}
    added = [item for item in fact["value"] or [] if item["id"] not in had]
    if not added:
        return None  # they went on the stack: its fact says so
    return "; ".join(f"{ctx.whose(i.get('controller'))} {_item(i, ctx)} triggered, waiting for a priority window "
                     f"in {region(i.get('region'), ctx)}" for i in added)


def _item(item, ctx) -> str:
    if item.get("card"):
        return card(item["card"])
    if item.get("source"):
        return f"{card(item['source'])}'s ability"
    return "an effect"


def _battle(fact, ctx):
    if fact["value"] is not None:
        return "The battle began"
    waiting = ctx.known.get("triggered") or []  # resolved as regroup began: no window was left
    resolved = [f"{listing([_item(i, ctx) for i in waiting])} resolved"] if waiting else []
    return "; ".join(resolved + ["The battle is over"])


def _formations(fact, ctx):
    formations = fact["value"]
    before = ctx.known.get("formations") or []
    new = formations[len(before):] if len(formations) >= len(before) else formations
    said = [f"{ctx.who(f['attacker'])} attacked {region(f.get('destination'), ctx)} with {columns(f['columns'])}"
            + (" and spell tokens" if f.get("tokens") else "") for f in new]
    return "; ".join(said) or None


def _formation(fact, ctx) -> dict | None:
    known = ctx.known.get("formations") or []
    index = fact["path"][2]
    return known[index] if index < len(known) else None


def _formation_part(fact, ctx):
    part, value = fact["path"][3], fact["value"]
    formation = _formation(fact, ctx)
    defender = ctx.who(formation["defender"]) if formation else "the defender"
    if part == "blocks":
        if len(fact["path"]) > 4:
            return f"{defender} blocked column {fact['path'][4] + 1} with {columns([value])}" if value else None
        blocked = [c for c in value or [] if c]
        return f"{defender} blocked with {columns(blocked)}" if blocked else f"{defender} did not block"
    if part == "blocked":
        held = [str(i + 1) for i, b in enumerate(value) if b]
        return f"Columns blocked: {listing(held)}" if held else "No column was blocked"
    if part == "columns":
        shown = [value] if len(fact["path"]) > 4 else value
        return f"The attack now stands: {columns(shown)}"
    if part == "region":
        return f"The counter-attack arrived in {region(value, ctx)}"
    return None


def _choice(fact, ctx):
    choice = fact["value"]
    if choice is None:
        return None  # made: the choose action says how
    queue = choice.get("queue") or []
    who = ctx.who(queue[0]) if queue else "a player"
    return f"{who} must choose {CHOICES.get(choice.get('kind'), 'an option')}"


def _step(fact, ctx):
    return STEPS.get(fact["value"], f"The {humanize(fact['value'])} step began")


def _initiative(fact, ctx):
    seat = fact["value"]
    return f"{ctx.who(seat)} {'have' if seat == ctx.viewer else 'has'} the initiative"


def _erased(fact, ctx):
    came, _ = _diff(ctx.known.get("erased") or [], fact["value"])
    return f"{cards(came)} {'was' if len(came) == 1 else 'were'} erased from the game" if came else None


FACTS = {
    "set players.#.life": _life,
    "set players.#.out": _out,
    "set players.#.hand": _hand,
    "set players.#.pack": _pack,
    "set players.#.bin": _bin,
    "set players.#.resources": _resources,
    "set players.#.resources.#.expended": _resource_part,
    "set players.#.resources.#.kind": _resource_part,
    "set players.#.resources.#.element": None,  # comes with its kind
    "set players.#.resources.#.id": None,  # comes with its kind
    "set players.#.dormant": _dormant,
    "set players.#.recycle_owed": _recycle_owed,
    "set players.#.intent": _intent,
    "set players.#.deck_list": _deck_list,
    "set players.#.activations": None,  # resources activated this turn: the action says which
    "set players.#.exchanges_left": None,  # exchanges left in the draft step
    "set units.*": _unit_entered,
    "del units.*": lambda f, ctx: f"{card(f['path'][1])} left play",
    "set units.*.region": _unit_part,
    "set units.*.damage": _unit_part,
    "set units.*.counters": _unit_part,
    "set units.*.temp": _unit_part,
    "set units.*.temp_attributes": _unit_part,
    "set units.*.protected": _unit_part,
    "set units.*.mods": _unit_part,
    "set units.*.controller": _unit_part,
    "set units.*.deadly_hit": _unit_part,
    "set units.*.unstable": _unit_part,
    "set units.*.x": _unit_part,
    "set units.*.used": None,  # abilities used this turn: the activation says so
    "set spell_tokens.*": _token,
    "set spell_tokens.*.region": lambda f, ctx: f"{card(f['path'][1])} moved to {region(f['value'], ctx)}",
    "del spell_tokens.*": lambda f, ctx: f"{card(f['path'][1])} was used up",
    "set stack": _stack,
    "set battle": _battle,
    "set battle.phase": lambda f, ctx: f"Battle, phase {f['value']}",
    "set battle.triggered": _triggered,
    "set battle.formations": _formations,
    "set battle.formations.#.blocks": _formation_part,
    "set battle.formations.#.blocks.#": _formation_part,
    "set battle.formations.#.blocked": _formation_part,
    "set battle.formations.#.columns": _formation_part,
    "set battle.formations.#.columns.#": _formation_part,
    "set battle.formations.#.region": _formation_part,
    "set battle.formations.#.tokens": None,  # spell tokens following the attack: the attack said so
    "set battle.next": None,  # the next formation's number
    "set battle.damage": None,  # combat damage being dealt: the damage facts on units say how much
    "set battle.damage.moment": None,
    "set battle.damage.dealt": None,  # the units that have dealt combat damage: the damage facts say how much
    "set battle.damage.chosen.*": None,
    "del battle.damage.chosen.*": None,
    "set choice": _choice,
    "set choice.key": None,  # which column's damage is asked: the choice says so
    "set choice.options": None,
    "set choice.queue": None,
    "set step.k": _step,
    "set step.seats": None,  # who acts in the step: the next actions show it
    "set step.region": None,
    "set step.stage": None,
    "set step.counter": None,
    "set step.intent": None,
    "del step.seats": None,
    "del step.region": None,
    "del step.stage": None,
    "del step.counter": None,
    "del step.intent": None,
    "set step": None,  # a step object set whole: its "k" is worded when it changes
    "set turn": lambda f, ctx: f"Turn {f['value']} began",
    "set initiative": _initiative,
    "set over": lambda f, ctx: f"The game ended: {ENDS.get(f['value'], humanize(f['value']))}",
    "set erased": _erased,
    "set cube.round": lambda f, ctx: f"Cube draft, round {f['value']}",
    "set cube.pool": None,  # the cube's cards: hidden
    "set decks.*": None,  # a deck's cards (hidden) or size: the draws say what left it
    "set pack_turns.*": None,  # how often the packs have passed
    "set next_id": None,  # the next instance number
    "set done": None,  # who has finished the step: the next actions show it
    "set script": None,  # the steps left this turn: each is worded as it begins
    "set window": None,  # a priority window: passes and plays say what happens in it
    "set window.holder": None,
    "set window.passes": None,
    "set window.stage": None,
    "set window.region": None,
}
SOMETIMES_QUIET = frozenset(kind for kind, wording in FACTS.items() if wording is not None and kind not in (
    "set players.#.life", "set players.#.bin", "set players.#.resources", "set players.#.dormant",
    "set players.#.deck_list", "set units.*", "del units.*", "set spell_tokens.*", "set spell_tokens.*.region",
    "del spell_tokens.*", "set battle", "set battle.phase", "set step.k", "set turn", "set initiative",
    "set over", "set cube.round", "set units.*.counters", "set units.*.controller", "set units.*.x",
    "set units.*.mods", "set units.*.unstable", "set players.#.resources.#.kind",
    "set battle.formations.#.blocks", "set battle.formations.#.blocked", "set battle.formations.#.columns",
    "set battle.formations.#.columns.#", "set battle.formations.#.region"))


NAMED_AT_1 = frozenset({"units", "decks", "spell_tokens", "pack_turns"})


def pattern(path) -> str:
    """A path's shape: list indexes as "#", the name of a unit, token, deck or damage key as "*"."""
    shape = ["#" if type(part) is int else str(part) for part in path]
    if len(shape) > 1 and shape[0] in NAMED_AT_1:
        shape[1] = "*"
    elif len(shape) > 3 and shape[:3] == ["battle", "damage", "chosen"]:
        shape[3] = "*"
    return ".".join(shape)


def kind_of(fact) -> str:
    return f"{fact.get('f')} {pattern(fact.get('path') or [])}"


def learn(fact, known):
    """The values a reader has been shown, to word what the next fact changes (copies: the
    memory changes as facts come, the records it learned from never do)."""
    path, value = fact.get("path") or [], json_copy(fact.get("value"))
    if fact.get("f") != "set" or not path:
        return
    if path[0] == "players" and len(path) == 3 and path[2] in ("life", "hand", "pack", "bin", "resources", "dormant"):
        known[(path[2], path[1])] = value
    elif path[0] == "players" and len(path) == 5 and path[2] == "resources":
        resources = known.get(("resources", path[1]))
        if isinstance(resources, list) and path[3] < len(resources):
            resources[path[3]] = {**resources[path[3]], path[4]: value}
    elif path == ["stack"]:
        known["stack"] = value
    elif path == ["battle"]:
        known["formations"] = (value or {}).get("formations", [])
        known["triggered"] = (value or {}).get("triggered", [])
    elif path == ["battle", "triggered"]:
        known["triggered"] = value
    elif path == ["battle", "formations"]:
        known["formations"] = value
    elif path == ["erased"]:
        known["erased"] = value


def setup(view, known):
    """What the set-up shows every reader: whose region is whose, and each player's starting zones."""
    if not isinstance(view, dict):
        return
    known["home"] = json_copy(view.get("home"))
    for seat, player in enumerate(view.get("players") or []):
        for zone in ("life", "hand", "pack", "bin", "resources", "dormant"):
            known[(zone, seat)] = json_copy(player.get(zone))
    known["stack"], known["erased"] = json_copy(view.get("stack", [])), json_copy(view.get("erased", []))


# ---------------------------------------------------------------------------------------
# Details
# ---------------------------------------------------------------------------------------

def details(card_id):
    if not isinstance(card_id, str):
        return None
    name = name_of(card_id)
    data = CARDS.get(name)
    if data:
        stats = {k: data[k] for k in ("power", "defense") if k in data}
        return {"id": name, "name": name, "kind": data["type"].replace("_", " "), "cost": data["cost"],
                "element": data.get("element") or "/".join(data.get("hybrid", [])), "affinity": data["affinity"],
                "timing": data.get("timing", "normal"), "attributes": data["attributes"], **stats,
                "text": data["text"] or "No rules text.", "designed": not data.get("printed_in_rulebook", False)}
    token = TOKENS.get(name)
    if token:
        stats = {k: token[k] for k in ("power", "defense") if k in token}
        return {"id": name, "name": name, "kind": token["type"].replace("_", " "), **stats, "text": token["text"],
                "designed": True}
    resource = RESOURCES.get(name)
    if resource:
        return {"id": name, "name": name, "kind": "resource", "element": resource["element"], "text": resource["text"],
                "designed": True}
    return None


def catalog():
    return [details(n) for n in list(CARDS) + list(TOKENS) + list(RESOURCES)]


WORDS = Words(facts=FACTS, actions=ACTIONS, details=details, catalog=catalog, kind_of=kind_of, learn=learn,
              setup=setup, reasons=ENDS, sometimes_quiet=SOMETIMES_QUIET)
