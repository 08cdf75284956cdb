"""The turn: draw, move the group, move partial conversions, the Cyberman movement phase, the
Cyberman special abilities phase; then the next player, and at the end of a round the arrival of
new Cybermen (the host's stand-in for the reveal tile phase) and the round limit."""

from .board import cyberman_squares, group_squares, unit_squares
from .data import CONST, DATA
from .effects import die, escape, figure, new_id, on_open_exit, upgrade_technology
from .state import (abilities, abilities_of, controller, cyberman_abilities, humans_left, next_turn, order_key,
                    partials_of)


def start_turn(d, seat, round_number):
    d.emit({"f": "turn", "seat": seat, "round": round_number})
    group = d.state["groups"][seat]
    status = group["status"]
    if status == "human":
        for _ in range(2 if "extra_item" in abilities(d.state, seat) else 1):
            draw(d, seat)
        d.emit({"f": "phase", "phase": "group"})
    elif status == "leader":  # designed: enough drawn in one turn for any of the three spends
        for _ in range(CONST["leader_draw"]):
            draw(d, seat)
        d.emit({"f": "phase", "phase": "leader"})
    elif status == "lieutenant":
        draw(d, seat)
        d.emit({"f": "phase", "phase": "trade"})
    else:  # escaped or out, but a partial conversion of theirs is still on the map
        d.emit({"f": "phase", "phase": "partials"})


def draw(d, seat):
    state = d.state
    if not state["deck"] and state["discard"]:
        d.emit({"f": "refill", "cards": len(state["discard"])})
    if state["deck"]:
        d.emit({"f": "draw", "seat": seat, "card": state["deck"][d.rng.randbelow(len(state["deck"]))]})


def advance(d):
    """Run every step that needs no choice, until someone must act or the game is over."""
    while True:
        state = d.state
        if state["over"]:
            return
        if not humans_left(state):  # "as soon as": before any facing, attack or offer still asked
            finish(d, "no_humans_left")
            return
        if state["prompt"] or state["active"]:
            return
        phase = state["phase"]
        group = state["groups"][state["turn"]]
        if phase == "group":
            if on_open_exit(state, state["turn"]):  # waiting on an exit: gone before anything can stop it
                escape(d, state["turn"])
            if not group["members"] or group["stunned"]:  # "stunned and may not move next turn"
                # The player's turn passes, and the hits on its group with it, whether the group
                # could not move or had no member on the map: "next turn", "for the next two
                # turns", Mind Control "in their next turn".
                if group["stunned"] or group["mind"] or group["injured"]:
                    d.emit({"f": "group", "seat": state["turn"],
                            "set": {"stunned": False, "mind": False, "injured": max(0, group["injured"] - 1)}})
                d.emit({"f": "phase", "phase": "partials"})
            else:
                return
        elif phase == "trade" and not group["hand"]:
            d.emit({"f": "phase", "phase": "partials"})
        elif phase in ("group_move", "leader", "trade"):
            return
        elif phase == "partials":
            if any(p not in state["moved"] for p in partials_of(state, state["turn"])):
                return
            enter_cyber_move(d)
        elif phase == "cyber_move":
            if state["queue"]:
                if state["queue"][0]["id"] in state["cybermen"]:
                    return
                d.emit({"f": "queue", "queue": state["queue"][1:]})
            elif (state["count"] is None or state["used"] < state["count"]) and any_movable(state):
                return
            else:
                enter_abilities(d)
        elif phase == "abilities":
            if state["queue"]:
                if state["used"] < state["count"] and state["queue"][0]["id"] in state["cybermen"]:
                    return
                d.emit({"f": "queue", "queue": state["queue"][1:]})
            elif state["used"] < state["count"] and any_ability_user(state):
                return
            else:
                d.emit({"f": "phase", "phase": "end"})
        elif phase == "end":
            end_turn(d)
        else:
            raise AssertionError(f"no step for phase {phase!r}")


def enter_cyber_move(d):
    """'Cyberlieutenants are always moved first in the Cyberman Phase ... oldest to youngest',
    then every Cyberman carrying a human moves toward the nearest Cyberconversion Unit."""
    state = d.state
    queue = [{"id": figure(state, seat), "seat": seat, "kind": "lieutenant"}
             for seat in state["lieutenants"]]
    listed = {slot["id"] for slot in queue}
    for cid in sorted(state["cybermen"], key=order_key):
        if state["cybermen"][cid]["carrying"] and cid not in listed:
            queue.append({"id": cid, "kind": "carrier"})  # moved by whoever controls the Cybermen then
    d.emit({"f": "phase", "phase": "cyber_move", "queue": queue})


def enter_abilities(d):
    """'A die worth of Cyberman must use their abilities'; Cyberlieutenants may use theirs first."""
    state = d.state
    queue = [{"id": figure(state, seat), "seat": seat, "kind": "lieutenant"}
             for seat in state["lieutenants"]]
    queue = [slot for slot in queue if cyberman_abilities(state, slot["id"])]
    d.emit({"f": "phase", "phase": "abilities", "queue": queue})
    die(d, "abilities")


def movable(state):
    """Cybermen the controller may still move this phase: not partial conversions, not
    Cyberlieutenants (their players move them), not already moved."""
    return sorted((cid for cid, c in state["cybermen"].items()
                   if c["role"] in ("normal", "leader") and cid not in state["moved"]), key=order_key)


def may_move(state, cid):
    """Whether `cid` is among `movable(state)`, without listing them all in order."""
    cyb = state["cybermen"].get(cid)
    return cyb is not None and cyb["role"] in ("normal", "leader") and cid not in state["moved"]


def any_movable(state):
    """Whether `movable(state)` names any Cyberman, read without sorting them (the movement
    phase asks after every step)."""
    moved = state["moved"]
    return any(c["role"] in ("normal", "leader") and cid not in moved for cid, c in state["cybermen"].items())


def ability_users(state):
    return sorted((cid for cid, c in state["cybermen"].items() if c["role"] in ("normal", "leader")
                   and cid not in state["moved"] and abilities_of(c)), key=order_key)


def uses_ability(state, cid):
    """Whether `cid` is among `ability_users(state)`, without listing them all in order."""
    cyb = state["cybermen"].get(cid)
    return (cyb is not None and cyb["role"] in ("normal", "leader") and cid not in state["moved"]
            and bool(abilities_of(cyb)))


def any_ability_user(state):
    """Whether `ability_users(state)` names any Cyberman (the phase goes on), read without
    sorting them: the abilities phase asks after every step."""
    moved = state["moved"]
    return any(c["role"] in ("normal", "leader") and cid not in moved and abilities_of(c)
               for cid, c in state["cybermen"].items())


def end_turn(d):
    state = d.state
    following = next_turn(state)
    if following is None:
        finish(d, "no_humans_left")
        return
    seat, new_round = following
    if new_round:
        arrivals(d)
        if state["round"] >= CONST["round_limit"]:
            finish(d, "round_limit")
            return
    start_turn(d, seat, state["round"] + (1 if new_round else 0))


def arrivals(d):
    """End of round: a Cyberman of the current Mark arrives on a square chosen by a die. When no
    current Mark counter is left to place, the Cybermen upgrade (rules: 'there are no more
    current Mark counters able to be placed in the reveal tile phase')."""
    state = d.state
    if state["supply"][str(state["tech"])] == 0:
        upgrade_technology(d)
    if state["supply"][str(state["tech"])] == 0:
        return
    arrival = DATA["arrivals"][die(d, "arrival") - 1]
    taken = cyberman_squares(state) | unit_squares(state) | group_squares(state)
    if tuple(arrival["pos"]) not in taken:
        d.emit({"f": "spawn", "id": new_id(state), "pos": arrival["pos"], "facing": arrival["facing"],
                "mark": state["tech"], "role": "normal", "seat": None, "origin": None, "supply": True})


def finish(d, reason):
    """Most Victory Points wins; players level on the most share the win. A player out of the game
    (its Cyberlieutenant destroyed) wins nothing; if every player is out, nobody wins."""
    points = {s: g["vp"] for s, g in enumerate(d.state["groups"]) if g["status"] != "out"}
    best = max(points.values(), default=None)
    d.emit({"f": "over", "reason": reason, "winners": [s for s, p in points.items() if p == best]})
