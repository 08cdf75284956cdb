"""The expansion's effects: combat and capture, carrying to a Cyberconversion Unit, conversion
and upgrades, technology levels, the Cyberleader and Cyberlieutenants, destruction and Victory
Points, and the special abilities (Energy Beam, Guns, Mind Control). Each writes facts through
the Decision `d`; none checks legality (rules.py does)."""

from .board import fire_stops, line_of_fire, manhattan, open_ray, terrain
from .data import CONST, FIRST_TAKEN, LATEST_MARK, MARKS, SABOTAGE, character
from .state import (abilities, abilities_of, carried_of, humans_left, in_play, mover, order_key, partials_of,
                    uses_tokens)

ENERGY_BEAM_RANGE, GUN_RANGE, MIND_CONTROL_RANGE = 4, 8, 3


def die(d, purpose):
    value = d.rng.randbelow(6) + 1
    d.emit({"f": "roll", "purpose": purpose, "value": value})
    return value


def new_id(state):
    return f"c{state['next_id']}"


def on_open_exit(state, seat):
    group = state["groups"][seat]
    return bool(group["members"]) and terrain(group["pos"]) == "E" and state["round"] >= CONST["exits_open_round"]


def escape(d, seat):
    """Designed: the whole group leaves by the exit, 2 Victory Points a character."""
    escaped = len(d.state["groups"][seat]["members"])
    d.emit({"f": "escape", "seat": seat})
    d.emit({"f": "vp", "seat": seat, "n": CONST["escape_vp"] * escaped})
    if not carried_of(d.state, seat):  # nobody left to wait for: the player is done
        d.emit({"f": "group", "seat": seat, "set": {"status": "escaped"}})


def sabotage_targets(state, seat):
    """Designed (two players): the Units next to the group that it has not tried yet."""
    group = state["groups"][seat]
    if state["seats"] not in SABOTAGE["players"] or not group["members"]:
        return []
    return sorted(uid for uid, pos in state["units"].items()
                  if manhattan(pos, group["pos"]) == 1 and uid not in group["tried"])


def sabotage(d, seat):
    """Designed (two players): one attempt on an untried Unit next to the group's new square: 4-6
    scores 3 Victory Points; 1-3, the Unit takes a member (a Cyberman of the current Mark appears on
    it carrying the character, converted in the next Cyberman phase) and the turn ends."""
    targets = sabotage_targets(d.state, seat)
    if not targets:
        return
    uid = targets[0]
    roll = die(d, "sabotage")
    success = roll >= SABOTAGE["wins_on"]
    d.emit({"f": "sabotage", "seat": seat, "unit": uid, "roll": roll, "success": success})
    if success:
        award(d, seat, SABOTAGE["vp"])
        return
    cid = new_id(d.state)
    d.emit({"f": "spawn", "id": cid, "pos": d.state["units"][uid], "facing": "N", "mark": d.state["tech"],
            "role": "normal", "seat": None, "origin": None})
    capture(d, cid, seat)


# ---------------------------------------------------------------------------------------
# Combat
# ---------------------------------------------------------------------------------------

def attack_threshold(state, seat):
    return CONST["tough_attack_wins_on"] if "tough" in abilities(state, seat) else CONST["attack_wins_on"]


def cyberman_attacks_group(d, cid, seat):
    """A Cyberman wins on 4-6; the group may then spend tokens or a weakness card (prompt)."""
    roll = die(d, "combat")
    threshold = attack_threshold(d.state, seat)
    d.emit({"f": "attack", "id": cid, "target": f"group{seat}", "roll": roll})
    if roll < threshold:
        return
    offer_defence(d, cid, seat, roll, threshold)


def defence_options(state, cid, seat):
    group = state["groups"][seat]
    options = []
    if group["fatigue"] > 0:
        options.append("fatigue")
    if group["escape"] > 0:
        options.append("escape")
    if MARKS[state["cybermen"][cid]["mark"]]["weakness"] in group["hand"]:
        options.append("weakness")
    return options


def offer_defence(d, cid, seat, roll, threshold):
    """The group is asked whenever it holds a token or any item card, so that an immediate
    capture never tells the table that its hand lacks the weakness card."""
    group = d.state["groups"][seat]
    if defence_options(d.state, cid, seat) or group["hand"]:
        d.emit({"f": "prompt", "prompt": {"kind": "defend", "seat": seat, "attacker": cid, "roll": roll,
                                          "needs": threshold}})
    else:
        capture(d, cid, seat)


def capture_choices(state, seat):
    """'If you have a Geek, Bride or Groom in your group, the Cyberman will choose them first.
    If not, then you choose one character to be captured.'"""
    members = state["groups"][seat]["members"]
    first = [c for c in members if character(c)["key"] in FIRST_TAKEN]
    return (first, "cybermen") if first else (list(members), "owner")


def capture(d, cid, seat):
    choices, chooser = capture_choices(d.state, seat)
    if len(choices) == 1:
        take(d, cid, choices[0])
        return
    chooser_seat = mover(d.state, cid) if chooser == "cybermen" else seat
    d.emit({"f": "prompt", "prompt": {"kind": "capture", "seat": chooser_seat, "attacker": cid,
                                      "victim": seat, "options": choices}})


def take(d, cid, char_id):
    """Place the character on the Cyberman, restore Escape and Fatigue to 3, end that player's turn."""
    seat = character(char_id)["seat"]
    d.emit({"f": "capture", "id": cid, "char": char_id})
    group = d.state["groups"][seat]
    restored = {k: max(group[k], CONST["tokens"]) for k in ("escape", "fatigue")}
    if restored != {k: group[k] for k in ("escape", "fatigue")}:
        d.emit({"f": "group", "seat": seat, "set": restored})
    if d.state["turn"] == seat:  # "Your turn is ended."
        d.emit({"f": "phase", "phase": "end"})


def partial_attacks(d, cid, target, fatigue):
    """'It will destroy the opponent on a 4-6. Fatigue tokens may be spent ... if the combat is
    lost, it is destroyed.'"""
    seat = d.state["cybermen"][cid]["seat"]
    if fatigue:
        d.emit({"f": "group", "seat": seat, "set": {"fatigue": d.state["groups"][seat]["fatigue"] - fatigue}})
    roll = die(d, "combat")
    d.emit({"f": "attack", "id": cid, "target": target, "roll": roll, "fatigue": fatigue})
    if roll + fatigue >= CONST["attack_wins_on"]:
        destroy(d, target, by=seat)
    else:
        destroy(d, cid, by=None)


def cyberman_attacks_partial(d, cid, target):
    """'Partial Conversions are not recaptured, but are destroyed by any Cyberman that wins a combat.'"""
    roll = die(d, "combat")
    d.emit({"f": "attack", "id": cid, "target": target, "roll": roll})
    if roll >= CONST["attack_wins_on"]:
        destroy(d, target, by=None)


# ---------------------------------------------------------------------------------------
# Destruction, Victory Points and the succession of the Cyberleader
# ---------------------------------------------------------------------------------------

def award(d, seat, points):
    """'Cyberlieutenants cannot earn Victory Points.'"""
    if seat is not None and d.state["groups"][seat]["status"] != "lieutenant":
        d.emit({"f": "vp", "seat": seat, "n": points})


def destroy(d, target, by):
    state = d.state
    if target in state["units"]:
        d.emit({"f": "remove_unit", "id": target})
        award(d, by, 1)
        return
    cyb = state["cybermen"][target]
    for char_id in list(cyb["carrying"]):  # a captive of a destroyed Cyberman rejoins its group
        d.emit({"f": "release", "id": target, "char": char_id})
    d.emit({"f": "remove_cyberman", "id": target})
    # "A destroyed Cyberman ... is worth 1 Victory Point": a partial conversion is "a Cyberman of any
    # sort" too, so another player's partial destroyed by yours scores; Cybermen (by=None) score nothing.
    award(d, by, 2 if cyb["role"] == "leader" else 1)
    if cyb["role"] == "partial":
        return
    if cyb["role"] == "lieutenant":  # "If a Cyberlieutenant is destroyed, the player is out of the game."
        d.emit({"f": "lieutenants", "order": [s for s in state["lieutenants"] if s != cyb["seat"]]})
        put_out(d, cyb["seat"])
    elif cyb["role"] == "leader":
        leader_destroyed(d, cyb["seat"])


def leader_destroyed(d, seat):
    """The oldest Cyberlieutenant becomes Cyberleader (or none until another player loses all);
    the destroyed Cyberleader's player upgrades a normal Cyberman to Cyberlieutenant."""
    d.emit({"f": "leader", "seat": None})
    promote_oldest_lieutenant(d)
    normal = [cid for cid, c in d.state["cybermen"].items() if c["role"] == "normal"]
    if not normal:
        put_out(d, seat)
    elif len(normal) == 1:
        make_lieutenant(d, seat, normal[0])
    else:
        d.emit({"f": "prompt", "prompt": {"kind": "lieutenant", "seat": seat,
                                          "options": sorted(normal, key=order_key)}})


def put_out(d, seat):
    """'The player is out of the game': it takes no more turns and wins nothing (flow.finish); its
    partial conversions leave the map with it, scoring nobody."""
    for cid in partials_of(d.state, seat):
        d.emit({"f": "remove_cyberman", "id": cid})
    d.emit({"f": "group", "seat": seat, "set": {"status": "out"}})


def discard_hand(d, seat):
    """'Any items cards they have in front of them are immediately discarded' (the Cyberleader and
    Cyberlieutenant cards): they 'may never use items'."""
    for card in list(d.state["groups"][seat]["hand"]):
        d.emit({"f": "discard", "seat": seat, "card": card})


def make_lieutenant(d, seat, cid):
    """Every way of becoming a Cyberlieutenant (last member converted, Cyberleader destroyed)
    discards the player's item cards."""
    discard_hand(d, seat)
    d.emit({"f": "cyberman", "id": cid, "set": {"role": "lieutenant", "seat": seat}})
    d.emit({"f": "group", "seat": seat, "set": {"status": "lieutenant"}})
    d.emit({"f": "lieutenants", "order": d.state["lieutenants"] + [seat]})


def promote_oldest_lieutenant(d):
    order = d.state["lieutenants"]
    if not order or d.state["tech"] < 2:
        return
    seat = order[0]
    cid = figure(d.state, seat)
    d.emit({"f": "lieutenants", "order": order[1:]})
    # "The oldest Cyberlieutenant is upgraded to Cyberleader when the Cybermen upgrade to Mark II"
    # and "Mark I Cybermen do not have a Cyberleader": the promoted figure takes the latest Mark.
    d.emit({"f": "cyberman", "id": cid, "set": {"role": "leader", "mark": d.state["tech"]}})
    d.emit({"f": "group", "seat": seat, "set": {"status": "leader"}})
    d.emit({"f": "leader", "seat": seat})


def figure(state, seat):
    """The Cyberleader's or a Cyberlieutenant's own Cyberman (a destroyed Cyberlieutenant's player is out)."""
    return next(cid for cid, c in state["cybermen"].items()
                if c["seat"] == seat and c["role"] in ("leader", "lieutenant"))


# ---------------------------------------------------------------------------------------
# Technology, conversion
# ---------------------------------------------------------------------------------------

def upgrade_technology(d):
    """'The Cybermen gain knowledge of how to improve themselves and upgrade.' At Mark II the
    oldest Cyberlieutenant becomes the Cyberleader."""
    if d.state["tech"] >= LATEST_MARK:
        return
    d.emit({"f": "tech", "mark": d.state["tech"] + 1})
    if d.state["tech"] == 2 and d.state["leader"] is None:
        promote_oldest_lieutenant(d)


def arrive_at_unit(d, cid):
    """'When a Cyberman carrying a human reaches a Cyberconversion Unit' each human is converted;
    an older carrier is upgraded; with a Cyberleader, an outdated Cyberman it moves into a
    chamber is upgraded too. A Conversion Glitch question pauses this; its answer resumes it."""
    while d.state["cybermen"][cid]["carrying"] and not d.state["prompt"]:
        char_id = d.state["cybermen"][cid]["carrying"][0]
        if may_glitch(d.state, char_id):
            d.emit({"f": "prompt", "prompt": {"kind": "glitch", "seat": character(char_id)["seat"],
                                              "carrier": cid, "char": char_id}})
            return
        convert(d, cid, char_id, glitch=False)
    if d.state["prompt"]:  # a player offered its Cyberlieutenant answers first; its answer resumes this
        return
    if d.state["cybermen"][cid]["mark"] < d.state["tech"]:
        d.emit({"f": "cyberman", "id": cid, "set": {"mark": d.state["tech"]}})


def may_glitch(state, char_id):
    """Whether the converted character's player is asked about a Conversion Glitch: whenever it
    holds any item card (not only a Glitch) and another of its humans is still in play (free or
    carried), so that a full conversion never tells the table its hand lacks a Glitch. The last
    member is always fully converted, so that player's role follows the Cyberleader rules."""
    seat = character(char_id)["seat"]
    others = state["groups"][seat]["members"] or [c for c in carried_of(state, seat) if c != char_id]
    return bool(state["groups"][seat]["hand"]) and bool(others) and uses_tokens(state, seat)


def convert(d, cid, char_id, glitch):
    state = d.state
    who = character(char_id)
    seat = who["seat"]
    pos = state["cybermen"][cid]["pos"]
    d.emit({"f": "convert", "id": cid, "char": char_id})
    if glitch:  # a Cyberman that "retains their humanity"
        d.emit({"f": "discard", "seat": seat, "card": "glitch"})
        d.emit({"f": "spawn", "id": new_id(state), "pos": pos, "facing": state["cybermen"][cid]["facing"],
                "mark": state["tech"], "role": "partial", "seat": seat, "origin": char_id})
        return
    if who["key"] == "geek":  # "Whenever a Geek character is cyberconverted ... upgrade"
        upgrade_technology(d)
    new = new_id(state)
    d.emit({"f": "spawn", "id": new, "pos": pos, "facing": state["cybermen"][cid]["facing"],
            "mark": state["tech"], "role": "normal", "seat": None, "origin": char_id})
    if state["leader"] is not None:  # "A converted human is worth 1 Victory Point to the current Cyberleader."
        award(d, state["leader"], 1)
    if not in_play(state, seat):
        group_lost(d, seat, new, cid)


def group_lost(d, seat, last, carrier):
    """Every member converted: Cyberleader if there is none (from Mark II); else the player 'may
    instead play the Cyberman who represents their last Human' (a Cyberlieutenant) or stand down,
    keeping its Victory Points ('converted'). A group some of whose members escaped has simply
    escaped."""
    state = d.state
    if state["groups"][seat]["escaped"]:
        d.emit({"f": "group", "seat": seat, "set": {"status": "escaped"}})
        return
    discard_hand(d, seat)  # 'Any items cards they have in front of them are immediately discarded.'
    if state["leader"] is None and state["tech"] >= 2:
        d.emit({"f": "cyberman", "id": last, "set": {"role": "leader", "seat": seat}})
        d.emit({"f": "group", "seat": seat, "set": {"status": "leader"}})
        d.emit({"f": "leader", "seat": seat})
    else:
        d.emit({"f": "group", "seat": seat, "set": {"status": "converted"}})
        if humans_left(state):  # else the game ends here ("as soon as no human is left"): nothing to offer
            d.emit({"f": "prompt", "prompt": {"kind": "offer", "seat": seat, "options": [last], "carrier": carrier}})


# ---------------------------------------------------------------------------------------
# Special abilities
# ---------------------------------------------------------------------------------------

def ability_hits(state, cid, memo=None) -> list[tuple[int, str]]:
    """(seat, effect) for every group the Cyberman's abilities would hit now, immune groups
    left out: what `use_abilities` does, and what a bot weighs before choosing a Cyberman.
    `memo` keeps what every Cyberman of one unchanged state reads alike (a bot weighing each
    Cyberman in turn): the groups' squares, the squares that stop a line of fire and each
    group's abilities."""
    memo = {} if memo is None else memo
    cyb = state["cybermen"][cid]
    targets = memo.get("targets")
    if targets is None:  # (seat, square) of every group with members on the map
        targets = memo["targets"] = [(s, tuple(g["pos"])) for s, g in enumerate(state["groups"]) if g["members"]]
    hits = []
    row, col = cyb["pos"]
    for ability in abilities_of(cyb):
        if ability == "mind_control":  # "within 3 squares ... in any direction, whether in line of sight or not"
            hit = [s for s, pos in targets if abs(pos[0] - row) + abs(pos[1] - col) <= MIND_CONTROL_RANGE]
            effect, immune = "mind", "mind_shield"
        else:
            reach = ENERGY_BEAM_RANGE if ability == "energy_beam" else GUN_RANGE
            # The figures that stop a line of fire are read only for a group in the terrain's
            # line (most often none is): the line of fire is the start of that line.
            ray = open_ray(cyb["pos"], cyb["facing"], reach)
            in_line = [(s, pos) for s, pos in targets if pos in ray]
            if in_line:
                if "stops" not in memo:
                    memo["stops"] = fire_stops(state)
                squares = line_of_fire(state, cyb["pos"], cyb["facing"], reach, memo["stops"])  # a few squares
                hit = [s for s, pos in in_line if pos in squares]
            else:
                hit = []
            effect, immune = ("stunned", "no_stun") if ability == "energy_beam" else ("injured", "no_injury")
        for seat in hit:
            if ("abilities", seat) not in memo:
                memo[("abilities", seat)] = abilities(state, seat)
            if immune not in memo[("abilities", seat)]:
                hits.append((seat, effect))
    return hits


def use_abilities(d, cid):
    # A hit changes no position, member or ability, so every hit can be read before the first.
    for seat, effect in ability_hits(d.state, cid):
        d.emit({"f": "hit", "seat": seat, "effect": effect, "by": cid})

