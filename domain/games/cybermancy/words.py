"""Cybermancy in words: each fact of the log and each listed action for a person, and each
creature's and power card's details (from cards.json), in the rulebook's terms: the
Cybermancer, the Summoning Deck and Creature Hand, CPU and RAM cards and tracks, the Frontline
and the Main Area, Battle-Ready, Promote, Call-to-arms, Last Gasp, Undead Crawlers. See
domain/kernel/words.py.

A creature in play is known by an instance id ("c12"); its card is public from its summon on.
The words learn it from the summon fact (`learn`), or read it in the reader's view, and say
"a creature" where neither holds it (a log read from the middle)."""

from domain.kernel.words import Context, Words, counted, listing, plural

from .cards import CREATURES, POWER, POWER_VALUE

KEYWORDS = {"battle_ready": "Battle-Ready", "frontline": "Frontline", "promote": "Promote"}
AREAS = {"main": "the Main Area", "frontline": "the Frontline"}
EFFECT = {"health": "health", "attack": "attack", "damage": "damage"}
PHASES = {
    "draft": "The draft began: each player picks creatures in turn",
    "mulligan": "Set-up: each player may redraw cards once, in turn order",
    "main": "The Main Phase began",
    "last_summon": "Every player passed: each has one last chance to summon",
    "advance": "Advance Power: each player moves a power marker up one track",
    "over": "The game is over",
}
ENDS = {"cybermancer_defeated": "a Cybermancer was defeated", "stalemate": "ten rounds passed without an attack",
        "no_creatures_left": "nobody had a creature left to fight with"}


def creature_name(card_id) -> str:
    card = CREATURES.get(card_id) if isinstance(card_id, str) else None
    return card["name"] if card else "a creature card"


def power_name(card_id) -> str:
    """"a 2 CPU card", as the rulebook says."""
    kind, _, _ = str(card_id).partition("-")
    value = POWER_VALUE.get(card_id)
    return f"a {value} {kind.upper()} card" if value is not None else f"a {kind.upper()} card"


def power_cards(card_ids) -> list[str]:
    """Power cards grouped by value: ["three 1 CPU cards", "a 2 RAM card"]."""
    groups = {}
    for card_id in card_ids:
        key = (card_id.partition("-")[0], POWER_VALUE.get(card_id))
        groups[key] = groups.get(key, 0) + 1
    return [f"a {value} {kind.upper()} card" if n == 1 else f"{counted(n)} {value} {kind.upper()} cards"
            for (kind, value), n in groups.items()]


def _creature(uid, ctx: Context) -> dict | None:
    """What the reader knows of a creature in play: learned from earlier facts, or in its view."""
    if uid in ctx.known:
        return ctx.known[uid]
    for player in (ctx.view or {}).get("players", []):
        for creature in player["frontline"] + player["main"]:
            if creature["uid"] == uid:
                return creature
    return None


def creature(uid, ctx: Context, stats: bool = False, crawler: bool = True) -> str:
    if isinstance(uid, str) and uid.startswith("cybermancer:"):
        return f"{ctx.whose(int(uid.split(':')[1]))} Cybermancer"
    known = _creature(uid, ctx)
    if known is None:
        return "a creature"
    name = creature_name(known["card"])
    if known.get("crawler") and crawler:
        name += " (Crawler)"
    if stats:
        name += f" ({known['attack']}/{known['health'] - known.get('damage', 0)})"
    return name


# ---------------------------------------------------------------------------------------
# Facts
# ---------------------------------------------------------------------------------------

def _summon(fact, ctx):
    card = CREATURES[fact["card"]]
    ready = "ready to attack" if fact["status"] == "active" else "buffered until next round"
    return (f"{ctx.who(fact['seat'])} summoned {card['name']} ({card['attack']}/{card['health']}) "
            f"into {AREAS.get(fact['area'], fact['area'])}, {ready}")


def _changed(fact, ctx):
    name, change = creature(fact["uid"], ctx), fact["set"]
    if change.get("crawler"):
        return f"{name} rose again as an Undead Crawler ({change['attack']}/{change['health']})"
    said = []
    known = _creature(fact["uid"], ctx)
    if "damage" in change:
        left = f" ({max(0, known['health'] - change['damage'])} health left)" if known else ""
        said.append(f"{name} has {change['damage']} damage{left}")
    if "health" in change:
        said.append(f"{name}'s health rose to {change['health']}")
    if "attack" in change:
        said.append(f"{name}'s attack rose to {change['attack']}")
    if change.get("status") == "exhausted":
        said.append(f"{name} is exhausted until next round")
    elif "status" in change:
        said.append(f"{name} is {change['status']}")
    return "; ".join(said) or f"{name} changed"


def _health(fact, ctx):
    delta = fact["delta"]
    if delta < 0:
        return f"{ctx.who(fact['seat'])} took {-delta} damage"
    return f"{ctx.who(fact['seat'])} gained {delta} health"


ASKED = {"promote": "a creature to promote to the Frontline", "health": "where {source}'s effect puts a health point",
         "attack": "where {source}'s effect puts an attack point", "damage": "where {source}'s effect deals a point of damage"}


def _prompt(fact, ctx):
    prompt = fact["prompt"]
    if prompt is None:
        return None  # answered: the choose action says how
    asked = ASKED.get(prompt["kind"], "an option").format(source=creature(prompt["source"], ctx, crawler=False))
    return f"{ctx.who(prompt['seat'])} must choose {asked}"


FACTS = {
    "draw": lambda f, ctx: f"{ctx.who(f['seat'])} drew {creature_name(f['card']) if f['card'] else 'a creature card'}",
    "to_deck": lambda f, ctx: (f"{ctx.who(f['seat'])} put {creature_name(f['card']) if f['card'] else 'a creature card'}"
                               " back into the Summoning Deck"),
    "deck_order": lambda f, ctx: f"{ctx.whose(f['seat'])} Summoning Deck was shuffled",
    "power": lambda f, ctx: f"{ctx.who(f['seat'])} drew {power_name(f['card'])}",
    "power_back": lambda f, ctx: f"{ctx.who(f['seat'])} put {power_name(f['card'])} back",
    "power_order": lambda f, ctx: f"The {f['kind'].upper()} deck was shuffled",
    "spend": lambda f, ctx: f"{ctx.who(f['seat'])} spent {power_name(f['card'])}",
    "summon": _summon,
    "creature": _changed,
    "destroyed": lambda f, ctx: f"{creature(f['uid'], ctx)} was destroyed",
    "promote": lambda f, ctx: f"{creature(f['uid'], ctx)} was promoted to the Frontline",
    "health": _health,
    "out": lambda f, ctx: f"{ctx.verb(f['seat'], 'is', 'are')} defeated",
    "over": lambda f, ctx: f"The game ended: {ENDS.get(f['reason'], 'it is over')}",
    "drafted": lambda f, ctx: f"{ctx.who(f['seat'])} drafted {creature_name(f['card'])}",
    "phase": lambda f, ctx: PHASES.get(f["phase"], f"The {f['phase']} phase began"),
    "turn": lambda f, ctx: f"{ctx.whose(f['seat'])} turn",
    "round": lambda f, ctx: f"Round {f['number']} began; {ctx.verb(f['initiative'], 'has', 'have')} the initiative",
    "refresh": lambda f, ctx: "Every creature was refreshed",
    "track": lambda f, ctx: f"{ctx.who(f['seat'])} advanced the {f['kind'].upper()} track",
    "pass": lambda f, ctx: "The turn was a pass (nothing summoned, no attack)",
    "passes": None,  # a leaver's pass no longer counts toward the passes in a row
    "prompt": _prompt,
    "acted": None,  # the summon or attack beside it says so
    "queue": None,  # whose turn next within a phase: the next action shows it
    "pending": None,  # effect steps waiting behind a choice: the prompt says what is asked
    "owed": None,  # a step owed after a player left: the "proceed" action makes it
}
SOMETIMES_QUIET = frozenset({"prompt"})


def learn(fact, known):
    """A creature's card and stats, public from its summon on, for the facts that name it by id."""
    kind = fact.get("f")
    if kind == "summon":
        card = CREATURES[fact["card"]]
        known[fact["uid"]] = {"card": fact["card"], "owner": fact["seat"], "attack": card["attack"],
                              "health": card["health"], "damage": 0}
    elif kind == "creature" and fact["uid"] in known:
        known[fact["uid"]] = {**known[fact["uid"]], **fact["set"]}


# ---------------------------------------------------------------------------------------
# Actions
# ---------------------------------------------------------------------------------------

def _cost(card) -> str:
    return f"CPU {card['cpu']}, RAM {card['ram']}"


def _summon_action(action, ctx):
    card = CREATURES.get(action.get("card"))
    if card is None:
        return "summon a creature"
    keywords = [KEYWORDS[k] for k in card["keywords"] if k in KEYWORDS]
    text = f"summon {card['name']} ({card['attack']}/{card['health']}, costs {_cost(card)}"
    text += (f"; {', '.join(keywords)})" if keywords else ")")
    paid = power_cards([c for kind in ("cpu", "ram") for c in action.get(kind) or []])
    text += f", paying {listing(paid)}" if paid else ", paid from power already spent this round"
    params = action.get("params") or {}
    others = [f"{kind.upper()} cards worth at least {schema['worth_at_least']}" for kind, schema in params.items()
              if isinstance(schema, dict) and schema.get("items", {}).get("enum") and schema.get("worth_at_least")]
    return text + (f" — or any of your face-up {listing(others)}" if others else "")


def _attack(action, ctx):
    return (f"attack {creature(action.get('target'), ctx, stats=ctx.offered)} with "
            f"{creature(action.get('attacker'), ctx, stats=ctx.offered)}")


def _mulligan(action, ctx):
    creatures, cpu, ram = action.get("creatures", []), action.get("cpu", []), action.get("ram", [])
    if isinstance(creatures, int):  # another player's mulligan: only how many
        redrawn = [plural(creatures, "creature card")] if creatures else []
    else:
        redrawn = [creature_name(c) for c in creatures]
    redrawn += power_cards(cpu + ram)
    text = f"redraw {listing(redrawn)}" if redrawn else "keep the opening hand"
    if action.get("params"):
        text += " — or redraw any of your creature, CPU and RAM cards"
    return text


def _choose(action, ctx):
    if "option" not in action:
        return "make a choice"
    option = action["option"]
    kind = ((ctx.view or {}).get("prompt") or {}).get("kind")
    target = creature(option, ctx, stats=ctx.offered)
    return {"promote": f"promote {target} to the Frontline", "health": f"give {target} a health point",
            "attack": f"give {target} an attack point", "damage": f"deal a point of damage to {target}"
            }.get(kind, f"choose {target}")


ACTIONS = {
    "draft": lambda a, ctx: f"draft {creature_name(a.get('card'))}",
    "mulligan": _mulligan,
    "summon": _summon_action,
    "attack": _attack,
    "end_turn": lambda a, ctx: "end the turn",
    "advance": lambda a, ctx: f"advance the {str(a.get('track')).upper()} track",
    "choose": _choose,
    "proceed": lambda a, ctx: "go on with the game",
}


# ---------------------------------------------------------------------------------------
# Details
# ---------------------------------------------------------------------------------------

def _effect_text(trigger, effect) -> str:
    what = {"health": "health points to other creatures or a Cybermancer", "attack": "attack points to other creatures",
            "damage": "points of damage to other creatures"}[effect["kind"]]
    return f"{trigger}: {effect['amount']} {what}, one at a time"


def details(card_id):
    if not isinstance(card_id, str):
        return None
    card = CREATURES.get(card_id)
    if card:
        text = [KEYWORDS[k] for k in card["keywords"] if k in KEYWORDS]
        if card.get("call_to_arms"):
            text.append(_effect_text("Call-to-arms", card["call_to_arms"]))
        if card.get("last_gasp"):
            text.append(_effect_text("Last Gasp", card["last_gasp"]))
        if card.get("crawler"):
            text.append(f"Undead Crawler: rises once more as a {card['crawler']['attack']}/{card['crawler']['health']}")
        return {"id": card["id"], "name": card["name"], "kind": "creature", "faction": card["faction"],
                "cpu": card["cpu"], "ram": card["ram"], "attack": card["attack"], "health": card["health"],
                "keywords": [KEYWORDS[k] for k in card["keywords"] if k in KEYWORDS],
                "text": ". ".join(text) + "." if text else "No keyword, no effect.", "designed": True}
    if card_id in POWER_VALUE:
        kind = card_id.split("-")[0]
        return {"id": card_id, "name": f"{POWER_VALUE[card_id]} {kind.upper()} card", "kind": kind,
                "value": POWER_VALUE[card_id],
                "text": f"A {kind.upper()} power card worth {POWER_VALUE[card_id]}: spend it to summon.", "designed": True}
    return None


def catalog():
    return [details(c) for c in CREATURES] + [details(c["id"]) for kind in POWER for c in POWER[kind]]


WORDS = Words(facts=FACTS, actions=ACTIONS, details=details, catalog=catalog, learn=learn, reasons=ENDS,
              sometimes_quiet=SOMETIMES_QUIET)
