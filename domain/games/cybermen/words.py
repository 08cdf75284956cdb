"""Cybermen in words: each fact of the log and each listed action for a person, and the details
of item cards, groups, characters and Marks (from data.json), in the expansion's terms and the
designed host's: groups of wedding guests and their characters, Escape and Fatigue tokens, item
cards, Cybermen of Mark I to V, the Cyberleader and Cyberlieutenants, partial conversions,
Cyberconversion Units, capture, carrying and conversion. See domain/kernel/words.py.

Squares read "(row, column)", as the map is drawn. A Cyberman is known by an id ("c6"): the
words call it "Cyberman 6", with the role the reader has seen it take (from the facts it has
read, `learn`, or its view): "the Cyberleader (Cyberman 6)"."""

from domain.kernel.words import Context, Words, first_up, listing, plural

from .data import DATA, ITEMS, MARKS, character

FACING = {"N": "north", "E": "east", "S": "south", "W": "west"}
ABILITIES = {"energy_beam": "Energy Beam", "guns": "Cyberguns", "mind_control": "Mind Control"}
PHASES = {"group": "The group phase began", "leader": "The Cyberleader may spend item cards",
          "trade": "The Cyberlieutenant may trade its item card", "partials": "Partial conversions may move",
          "cyber_move": "The Cyberman movement phase began", "abilities": "The special abilities phase began"}
ENDS = {"round_limit": "the last round was played", "no_humans_left": "no human was left in play"}
HITS = {"stunned": "was stunned (no move next turn)", "injured": "was injured (half movement for two turns)",
        "mind": "fell under Mind Control"}


def item(card) -> str:
    return DATA["item_names"].get(card, "an item card") if card else "an item card"


def square(pos) -> str:
    return f"({pos[0]}, {pos[1]})"


def group(seat, ctx: Context) -> str:
    """"The Band (ann)": a group by its name and its player."""
    name = DATA["groups"][seat]["name"] if isinstance(seat, int) and 0 <= seat < len(DATA["groups"]) else "a group"
    return f"{name} ({ctx.who(seat)})"


def person(char_id, ctx: Context) -> str:
    """"the Bride of The Happy Couple"."""
    found = character(char_id)
    return f"the {found['name']} of {DATA['groups'][found['seat']]['name']}"


def _cyber_info(cid, ctx: Context) -> dict | None:
    if ("cyberman", cid) in ctx.known:
        return ctx.known[("cyberman", cid)]
    return ((ctx.view or {}).get("cybermen") or {}).get(cid)


def cyberman(cid, ctx: Context) -> str:
    number = f"Cyberman {cid[1:]}" if isinstance(cid, str) and cid[1:].isdigit() else "a Cyberman"
    info = _cyber_info(cid, ctx) or {}
    role = info.get("role")
    if role == "leader":
        return f"the Cyberleader ({number})"
    if role == "lieutenant":
        return f"{ctx.whose(info.get('seat'))} Cyberlieutenant ({number})"
    if role == "partial":
        return f"{ctx.whose(info.get('seat'))} partial conversion ({number})"
    return number


def target(aim, ctx: Context) -> str:
    if isinstance(aim, str) and aim.startswith("group"):
        return group(int(aim[5:]), ctx)
    if isinstance(aim, str) and aim.startswith("u"):
        pos = ctx.known.get(("unit", aim)) or ((ctx.view or {}).get("units") or {}).get(aim)
        return f"the Cyberconversion Unit at {square(pos)}" if pos else "a Cyberconversion Unit"
    return cyberman(aim, ctx)


# ---------------------------------------------------------------------------------------
# Facts
# ---------------------------------------------------------------------------------------

def _roll(fact, ctx):
    value, purpose = fact["value"], fact["purpose"]
    who = ctx.who(ctx.actor) if ctx.actor is not None else "The die"
    if purpose == "move":
        return f"{who} rolled {value} for the group's move: {plural(fact['allowance'], 'square')} allowed"
    if purpose == "cybermen":
        return f"{who} rolled {value}: up to {plural(value, 'Cyberman', 'Cybermen')} move"
    if purpose == "abilities":
        return f"The abilities die rolled {value}: up to {plural(value, 'Cyberman', 'Cybermen')} use their abilities"
    if purpose == "arrival":
        return f"The arrival die rolled {value}"
    if purpose in ("combat", "sabotage"):
        return None  # the attack or sabotage fact beside it gives the roll
    return f"The {purpose} die rolled {value}"


def _group_set(fact, ctx):
    seat, change = fact["seat"], fact["set"]
    name, said = group(seat, ctx), []
    for token in ("escape", "fatigue"):
        if token in change:
            said.append(f"{plural(change[token], token.capitalize() + ' token')} left")
    if "injured" in change:
        said.append(f"injured for {plural(change['injured'], 'more turn')}" if change["injured"] else "no longer injured")
    if change.get("mind") is False:
        said.append("free of Mind Control")
    if change.get("stunned") is False:
        said.append("no longer stunned")
    status = change.get("status")
    if status == "escaped":
        return f"{name} {'are' if seat == ctx.viewer else 'is'} done: no member of the group is left to save"
    if status == "out":
        return f"{ctx.verb(seat, 'is', 'are')} out of the game"
    if status == "converted":
        return f"{group(seat, ctx)} lost every member to cyberconversion"
    if status == "leader":
        return f"{ctx.who(seat)} now {'play' if seat == ctx.viewer else 'plays'} the Cyberleader"
    elif status == "lieutenant":
        return f"{ctx.who(seat)} now {'play' if seat == ctx.viewer else 'plays'} a Cyberlieutenant"
    return f"{name}: {', '.join(said)}" if said else f"{name} changed"


def _move_group(fact, ctx):
    spent = f", spending {plural(fact['fatigue'], 'Fatigue token')}" if fact.get("fatigue") else ""
    return f"{group(fact['seat'], ctx)} moved to {square(fact['to'])}{spent}"


def _spawn(fact, ctx):
    mark = MARKS[fact["mark"]]["name"]
    cid = fact["id"]
    where = f"{square(fact['pos'])}, facing {FACING.get(fact['facing'], fact['facing'])}"
    if fact["role"] == "partial":
        return f"{first_up(person(fact['origin'], ctx))} became a partial conversion (Cyberman {cid[1:]}) at {where}"
    return f"A {mark} Cyberman (Cyberman {cid[1:]}) arrived at {where}"


def _cyberman_set(fact, ctx):
    cid, change = fact["id"], fact["set"]
    name = cyberman(cid, ctx)
    if change.get("role") == "leader":
        mark = f" ({MARKS[change['mark']]['name']})" if "mark" in change else ""
        return f"Cyberman {cid[1:]} became the Cyberleader{mark}"
    if change.get("role") == "lieutenant":
        return f"Cyberman {cid[1:]} became {ctx.whose(change.get('seat'))} Cyberlieutenant"
    if "mark" in change:
        return f"{name} was upgraded to {MARKS[change['mark']]['name']}"
    return f"{name} changed"


def _hit(fact, ctx):
    return f"{group(fact['seat'], ctx)} {HITS.get(fact['effect'], 'was hit')}, by {cyberman(fact['by'], ctx)}"


def _attack(fact, ctx):
    spent = f", spending {plural(fact['fatigue'], 'Fatigue token')}" if fact.get("fatigue") else ""
    return f"{cyberman(fact['id'], ctx)} attacked {target(fact['target'], ctx)}: rolled {fact['roll']}{spent}"


def _prompt(fact, ctx):
    prompt = fact["prompt"]
    if prompt is None:
        return None  # answered: the action that answers it says how
    kind, seat = prompt["kind"], prompt["seat"]
    if kind == "defend":
        return (f"{cyberman(prompt['attacker'], ctx)} won its attack on {group(seat, ctx)} (rolled {prompt['roll']}, "
                f"needed {prompt['needs']}): {ctx.who(seat)} may spend a token or an item card, or give in")
    if kind == "capture":
        return (f"{ctx.who(seat)} must choose whom {cyberman(prompt['attacker'], ctx)} captures from "
                f"{group(prompt['victim'], ctx)}")
    if kind == "glitch":
        return f"{ctx.who(seat)} may play a Conversion Glitch as {person(prompt['char'], ctx)} is converted"
    if kind == "lieutenant":
        return f"{ctx.who(seat)} must choose a Cyberman to become a Cyberlieutenant"
    if kind == "offer":
        return (f"{ctx.who(seat)} may play {cyberman(prompt['options'][0], ctx)}, the Cyberman of "
                f"{'your' if seat == ctx.viewer else 'their'} last human, as a Cyberlieutenant, or stand down")
    return f"{ctx.who(seat)} must choose"


def _sabotage(fact, ctx):
    unit = target(fact["unit"], ctx)
    if fact["success"]:
        return (f"{group(fact['seat'], ctx)} sabotaged {unit}: rolled {fact['roll']}, "
                f"{plural(DATA['sabotage']['vp'], 'Victory Point')}")
    return f"{group(fact['seat'], ctx)} failed to sabotage {unit}: rolled {fact['roll']}, the Unit takes one of the group"


def _leader(fact, ctx):
    if fact["seat"] is None:
        return "There is no Cyberleader now"
    return f"{ctx.who(fact['seat'])} now {'control' if fact['seat'] == ctx.viewer else 'controls'} the Cyberleader"


def _give(fact, ctx):
    return f"{ctx.who(fact['from'])} gave {item(fact.get('card'))} to {ctx.whom(fact['to'])}"


FACTS = {
    "turn": lambda f, ctx: f"Round {f['round']}: {ctx.whose(f['seat'])} turn, with {DATA['groups'][f['seat']]['name']}",
    "phase": lambda f, ctx: PHASES.get(f["phase"]),
    "roll": _roll,
    "draw": lambda f, ctx: f"{ctx.who(f['seat'])} drew {item(f.get('card'))}",
    "refill": lambda f, ctx: f"The discard pile ({plural(f['cards'], 'item card')}) became the draw pile",
    "discard": lambda f, ctx: f"{ctx.who(f['seat'])} discarded {item(f['card'])}",
    "give": _give,
    "group": _group_set,
    "move_group": _move_group,
    "escape": lambda f, ctx: f"{group(f['seat'], ctx)} escaped by the exit",
    "vp": lambda f, ctx: f"{ctx.who(f['seat'])} scored {plural(f['n'], 'Victory Point')}",
    "spawn": _spawn,
    "cyberman": _cyberman_set,
    "move": lambda f, ctx: f"{cyberman(f['id'], ctx)} moved to {square(f['to'])}",
    "face": lambda f, ctx: f"{cyberman(f['id'], ctx)} turned to face {FACING.get(f['facing'], f['facing'])}",
    "hit": _hit,
    "capture": lambda f, ctx: f"{cyberman(f['id'], ctx)} captured {person(f['char'], ctx)}",
    "release": lambda f, ctx: f"{first_up(person(f['char'], ctx))} was set free",
    "convert": lambda f, ctx: f"{first_up(person(f['char'], ctx))} was converted",
    "remove_cyberman": lambda f, ctx: f"{cyberman(f['id'], ctx)} was destroyed",
    "unit": lambda f, ctx: f"A new Cyberconversion Unit stands at {square(f['pos'])}",
    "remove_unit": lambda f, ctx: first_up(f"{target(f['id'], ctx)} was destroyed"),
    "tech": lambda f, ctx: f"The Cybermen's technology rose to {MARKS[f['mark']]['name']}",
    "leader": _leader,
    "prompt": _prompt,
    "attack": _attack,
    "sabotage": _sabotage,
    "over": lambda f, ctx: f"The game ended: {ENDS.get(f['reason'], 'it is over')}",
    "queue": None,  # who moves or acts next within a phase: the next action shows it
    "used": None,  # a Cyberman has moved or used its abilities this phase: the action says so
    "active": None,  # the Cyberman that must now face and may attack: the next action shows it
    "lieutenants": None,  # the Cyberlieutenants' order: the facts beside it say who became or left one
}
SOMETIMES_QUIET = frozenset({"prompt", "phase", "roll"})  # the group-move and end phases: the roll and the next turn say so


def learn(fact, known):
    kind = fact.get("f")
    if kind == "spawn":
        known[("cyberman", fact["id"])] = {"role": fact["role"], "seat": fact["seat"], "mark": fact["mark"]}
    elif kind == "cyberman" and ("cyberman", fact["id"]) in known:
        known[("cyberman", fact["id"])] = {**known[("cyberman", fact["id"])], **fact["set"]}
    elif kind == "unit":
        known[("unit", fact["id"])] = fact["pos"]
    elif kind == "active":
        known["active"] = (fact["active"] or {}).get("id")
    elif kind == "phase":
        known["phase"] = fact["phase"]


# ---------------------------------------------------------------------------------------
# Actions
# ---------------------------------------------------------------------------------------

def _active(ctx) -> str:
    """The Cyberman that has just moved (to face, then attack): in the reader's view, or the last
    "active" fact read."""
    active = ((ctx.view or {}).get("active") or {}).get("id") if ctx.view else ctx.known.get("active")
    return cyberman(active, ctx) if active else "the Cyberman"


def _roll_action(action, ctx):
    phase = (ctx.view or {}).get("phase") if ctx.view else ctx.known.get("phase")
    if phase == "cyber_move":
        return "roll the die for how many Cybermen move"
    if phase == "group":
        return "roll the die for the group's move"
    return "roll the die"


def _move(action, ctx):
    spent = f", spending {plural(action['fatigue'], 'Fatigue token')}" if action.get("fatigue") else ""
    return f"move the group to {square(action.get('to'))}{spent}"


def _attack_action(action, ctx):
    spent = f", spending {plural(action['fatigue'], 'Fatigue token')}" if action.get("fatigue") else ""
    return f"attack {target(action.get('target'), ctx)} with {_active(ctx)}{spent}"


def _weakness(action, ctx):
    prompt = (ctx.view or {}).get("prompt") or {}
    attacker = _cyber_info(prompt.get("attacker"), ctx) if prompt else None
    card = MARKS[attacker["mark"]]["weakness"] if attacker and "mark" in attacker else None
    return f"discard {item(card) if card else 'the weakness card'} to drive the Cyberman off"


def _use_ability(action, ctx):
    info = _cyber_info(action.get("id"), ctx)
    if info and "mark" in info:
        column = "leader_abilities" if info.get("role") == "leader" else "abilities"
        names = [ABILITIES.get(a, a) for a in MARKS[info["mark"]][column]]
        if names:
            return f"use {cyberman(action.get('id'), ctx)}'s {listing(names)}"
    return f"use {cyberman(action.get('id'), ctx)}'s special abilities"


ACTIONS = {
    "roll": _roll_action,
    "move": _move,
    "break_free": lambda a, ctx: "spend an Escape token to break the Mind Control",
    "cyber_move": lambda a, ctx: f"move {cyberman(a.get('id'), ctx)} to {square(a.get('to'))}",
    "partial_move": lambda a, ctx: f"move {cyberman(a.get('id'), ctx)} to {square(a.get('to'))}",
    "face": lambda a, ctx: f"turn {_active(ctx)} to face {FACING.get(a.get('facing'), 'a direction')}",
    "attack": _attack_action,
    "no_attack": lambda a, ctx: "do not attack",
    "fatigue": lambda a, ctx: "spend a Fatigue token to lower the Cyberman's roll by one",
    "escape": lambda a, ctx: "spend an Escape token to get away",
    "weakness": _weakness,
    "submit": lambda a, ctx: "give in: the Cyberman captures one of the group",
    "capture": lambda a, ctx: f"give up {person(a.get('character'), ctx)} to be captured",
    "glitch": lambda a, ctx: "play the Conversion Glitch: a partial conversion instead",
    "no_glitch": lambda a, ctx: "play no Conversion Glitch",
    "lieutenant": lambda a, ctx: f"make {cyberman(a.get('id'), ctx)} your Cyberlieutenant",
    "stand_down": lambda a, ctx: "stand down: play no Cyberlieutenant and keep your Victory Points",
    "teleport": lambda a, ctx: f"teleport a Cyberman to {square(a.get('to'))} (1 item card)",
    "unit": lambda a, ctx: f"place a Cyberconversion Unit at {square(a.get('to'))} (2 item cards)",
    "upgrade_tech": lambda a, ctx: "raise the Cybermen's technology by one Mark (3 item cards)",
    "done": lambda a, ctx: "spend no more item cards (the rest drawn this turn are discarded)",
    "trade": lambda a, ctx: f"trade your item card with {ctx.whom(a.get('seat'))}",
    "discard": lambda a, ctx: "discard the item card drawn",
    "end_partials": lambda a, ctx: "end the partial conversions' moves",
    "pass": lambda a, ctx: "leave the Cyberlieutenant where it stands",
    "decline": lambda a, ctx: "decline the Cyberlieutenant's abilities",
    "use_ability": _use_ability,
    "end_cyber": lambda a, ctx: "end the Cyberman movement",
}


# ---------------------------------------------------------------------------------------
# Details
# ---------------------------------------------------------------------------------------

def details(card_id):
    if not isinstance(card_id, str):
        return None
    if card_id in ITEMS:
        weak = [MARKS[m]["name"] for m in MARKS if MARKS[m]["weakness"] == card_id]
        text = (f"Discard it when a {listing(weak, 'or')} Cyberman has won its attack on your group: it is driven off."
                if weak else "Play it when one of your humans is converted: a partial conversion instead.")
        return {"id": card_id, "name": item(card_id), "kind": "item card", "copies": ITEMS[card_id], "text": text,
                "designed": True}
    for seat, found in enumerate(DATA["groups"]):
        if card_id == found["name"]:
            members = [f"{name} ({DATA['abilities'][ability]})" for _, name, ability in found["characters"]]
            return {"id": card_id, "name": found["name"], "kind": "group", "seat": seat,
                    "characters": [name for _, name, _ in found["characters"]],
                    "text": f"{found['name']}: {'; '.join(members)}.", "designed": True}
    return None


def mark_details(mark: int) -> dict:
    row = MARKS[mark]
    return {"id": f"mark-{mark}", "name": row["name"], "kind": "Cyberman Mark", "speed": row["speed"],
            "weakness": item(row["weakness"]), "abilities": [ABILITIES[a] for a in row["abilities"]],
            "leader_abilities": [ABILITIES[a] for a in row["leader_abilities"]],
            "text": (f"Moves up to {plural(row['speed'], 'square')}; weakness: {item(row['weakness'])}; abilities: "
                     f"{listing([ABILITIES[a] for a in row['abilities']], empty='none')}; as Cyberleader: "
                     f"{listing([ABILITIES[a] for a in row['leader_abilities']], empty='none')}."), "designed": False}


def catalog():
    return ([details(c) for c in ITEMS] + [details(g["name"]) for g in DATA["groups"]]
            + [mark_details(m) for m in MARKS])


WORDS = Words(facts=FACTS, actions=ACTIONS, details=details, catalog=catalog, learn=learn, reasons=ENDS,
              sometimes_quiet=SOMETIMES_QUIET)
