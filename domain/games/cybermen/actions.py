"""Decide and the action handlers. Every action is checked against the listing of `legal_actions`
(legal.py); a refused action gets the code of the rule it breaks (see `_refusal`)."""

from domain.kernel.decision import Decision
from domain.kernel.errors import IllegalAction
from domain.kernel.ruleset import stray_field_refusal

from .board import human_passable, unit_squares
from .data import COLS, MARKS, ROWS
from .effects import (arrive_at_unit, capture, convert, cyberman_attacks_group, cyberman_attacks_partial,
                      die, escape, make_lieutenant, new_id, offer_defence, on_open_exit, partial_attacks,
                      sabotage, take,
                      upgrade_technology, use_abilities)
from .facts import evolve
from .flow import advance, enter_abilities, enter_cyber_move, may_move, uses_ability
from .legal import FACINGS, _attack_actions, _own_piece, _reach, allowance_moves, can_break_free, legal_actions
from .state import abilities, to_act, uses_tokens


# ---------------------------------------------------------------------------------------
# Deciding
# ---------------------------------------------------------------------------------------

def decide(state, seat, action, rng):
    if state["over"]:
        raise IllegalAction("game_over", "the game is over")
    if seat not in to_act(state):
        raise IllegalAction("not_your_turn", f"seat {seat} is not to act; {sorted(to_act(state))} is")
    action = _well_formed(action)
    if not _listed(state, seat, action) and not _extra_fatigue(state, seat, action):
        raise IllegalAction(*_refusal(state, seat, action))
    d = Decision(state, rng, evolve)
    HANDLERS[action["type"]](d, seat, action)
    advance(d)
    return d.facts


def _listed(state, seat, action):
    """Whether `action` is in `legal_actions(state, seat)` (the seat being to act), reading only
    the part of the listing it could be in where the whole costs: a free Cyberman move is
    listed for every Cyberman and square, and listing them all again for every move that the
    seat had just chosen from the listing was a quarter of a playout's time."""
    if (action["type"] == "cyber_move" and state["phase"] == "cyber_move" and not state["prompt"]
            and not state["active"] and not state["queue"] and state["count"] is not None):
        cid = action.get("id")
        return (action.keys() == {"type", "id", "to"} and may_move(state, cid)
                and action["to"] in [list(to) for to in _reach(state, cid)])
    if action["type"] == "move" and state["phase"] == "group_move" and not state["prompt"] and not state["active"]:
        # listed as a move to each square the group reaches, with the fewest Fatigue tokens
        to = action.get("to")
        return (action.keys() == {"type", "to", "fatigue"}
                and allowance_moves(state, state["turn"]).get((to[0], to[1])) == action["fatigue"])
    if action["type"] == "face" and not state["prompt"] and state["active"] and state["active"]["stage"] == "face":
        return action.keys() == {"type", "facing"} and action["facing"] in FACINGS  # listed for each facing
    if (action["type"] == "use_ability" and state["phase"] == "abilities" and not state["prompt"]
            and not state["active"] and not state["queue"]):  # listed for every Cyberman that may use one
        return action.keys() == {"type", "id"} and uses_ability(state, action["id"])
    return action in legal_actions(state, seat)


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


FIELDS = {  # every field an action may carry, and the shape its value must have
    "type": (lambda v: isinstance(v, str), "a string"),
    "to": (lambda v: isinstance(v, list) and len(v) == 2 and all(_is_int(x) for x in v), "[row, column]"),
    "id": (lambda v: isinstance(v, str), "a Cyberman's id"),
    "target": (lambda v: isinstance(v, str), "a Cyberman's, Unit's or group's id"),
    "fatigue": (_is_int, "a whole number of Fatigue tokens"),
    "seat": (_is_int, "a seat number"),
    "character": (lambda v: isinstance(v, str), "a character's id"),
    "facing": (lambda v: isinstance(v, str), "N, E, S or W"),
}


def _well_formed(action):
    """Refuse, with the code `malformed`, any action whose fields are not of the shape the game
    reads, before any rule looks at them; `params` (a listing's description) is dropped."""
    if not isinstance(action, dict) or "type" not in action:
        raise IllegalAction("malformed", "an action is an object with a type")
    action = {k: v for k, v in action.items() if k != "params"} if "params" in action else dict(action)
    for key, value in action.items():
        if key not in FIELDS:
            raise IllegalAction("malformed", f"an action has no field {key!r}; fields are {sorted(FIELDS)}")
        check, shape = FIELDS[key]
        if not check(value):
            raise IllegalAction("malformed", f"{key} is {shape}")
    return action


def _extra_fatigue(state, seat, action):
    """A move may spend more Fatigue tokens than the listing's fewest, up to those held."""
    if state["phase"] != "group_move" or state["prompt"] or action.get("type") != "move":
        return False
    group = state["groups"][seat]
    to, k = action.get("to"), action.get("fatigue")
    needed = allowance_moves(state, seat).get(tuple(to)) if to is not None else None
    return k is not None and needed is not None and needed <= k <= group["fatigue"] and not group["mind"] \
        and uses_tokens(state, seat)


def _refusal(state, seat, action):
    """The rule an unlisted action breaks."""
    kind = action.get("type")
    stray = stray_field_refusal(legal_actions(state, seat), action)  # the right action, a field too many
    if stray:
        return stray
    if state["prompt"]:
        prompt = state["prompt"]
        if prompt["kind"] == "capture" and kind == "capture":
            return "capture_order", ("'If you have a Geek, Bride or Groom in your group, the Cyberman will choose "
                                     f"them first': choose one of {prompt['options']}")
        if prompt["kind"] == "defend" and kind in ("fatigue", "escape"):
            return "no_tokens", f"the group has no {kind.capitalize()} tokens left"
        if prompt["kind"] == "glitch" and kind == "glitch":
            return "no_glitch_card", "the player holds no Conversion Glitch card"
        if prompt["kind"] == "defend" and kind == "weakness":
            return "no_weakness_card", "the group holds no item card of this Cyberman's weakness"
        return "answer_prompt", f"first answer the {prompt['kind']} prompt"
    if state["active"]:
        if state["active"]["stage"] == "face":
            return "facing", "'the moving player determines which of the four possible directions it faces': N, E, S or W"
        return _attack_refusal(state, action)
    phase = state["phase"]
    if kind == "move" and phase == "group_move":
        return _move_refusal(state, seat, action)
    if kind == "break_free" and phase == "group_move":
        if not state["groups"][seat]["mind"]:
            return "not_mind_controlled", "an Escape token breaks a Mind Control, and the group is under none"
        return "no_tokens", "the group has no Escape tokens left"
    if kind == "pass" and phase == "cyber_move" and state["queue"]:
        return "carrying_to_unit", "'move any Cyberman carrying a human towards the nearest Cyberconversion Unit'"
    if kind == "cyber_move" and phase == "cyber_move":
        return _cyber_move_refusal(state, action)
    if kind in ("teleport", "unit", "upgrade_tech") and phase == "leader":
        need = {"teleport": 1, "unit": 2, "upgrade_tech": 3}[kind]
        if len(state["groups"][seat]["hand"]) < need:
            return "leader_cards", f"{kind} needs {need} item card(s) drawn by the Cyberleader"
        if kind == "upgrade_tech":
            return "latest_mark", "the Cybermen are already Mark V"
        return "legal_space", "only onto an empty space of open ground"
    if kind in ("trade", "discard") and phase == "trade":
        return "trade", "trade with another player who holds an item card"
    if kind == "partial_move" and phase == "partials":
        return "partial_move", ("a partial conversion moves once in its original player's turn, as a Cyberman "
                                "without die rolls, up to its Mark's speed over open ground")
    if kind == "use_ability" and phase == "abilities":
        if state["queue"]:
            return "lieutenant_first", "'Cyberlieutenants may always use their abilities first': use or decline"
        return "abilities_die", "only a Cyberman that has not used its abilities this phase and has any"
    return "not_now", f"{kind!r} is not an action of the {phase} phase"


def _attack_refusal(state, action):
    cyb = state["cybermen"][state["active"]["id"]]
    target = str(action.get("target"))
    if action.get("type") != "attack":
        return "attack_or_not", "attack an adjacent target or declare no_attack"
    if cyb["role"] == "partial":
        if target.startswith("group"):
            return "partial_never_attacks_humans", "'Partial Conversions may never attack a human.'"
        if action.get("fatigue", 0) and not uses_tokens(state, cyb["seat"]):
            return "no_items_or_tokens", "'Cyberlieutenants and the Cyberleader may never use items or tokens.'"
        if action.get("fatigue", 0):
            return "no_tokens", "not that many Fatigue tokens"
        if target in state["cybermen"] and _own_piece(state["cybermen"][target], cyb):
            return "not_an_opponent", "'it will destroy the opponent': not a figure of your own"
        return "adjacent_only", "only an adjacent Cyberman or Cyberconversion Unit"
    if target in state["cybermen"] and state["cybermen"][target]["role"] != "partial":
        return "only_partials_destroy", "'Only a partially converted Cyberman may ever destroy other Cybermen in combat.'"
    return "adjacent_only", "only an adjacent human group or partial conversion"


def _move_refusal(state, seat, action):
    group = state["groups"][seat]
    to, k = action.get("to"), action.get("fatigue", 0)
    if to is None:
        return "malformed", "a move names its square: to is [row, column]"
    if group["mind"]:
        way_out = " (or break_free: spend an Escape token)" if can_break_free(state, seat) else ""
        return "mind_control", ("'The player must move towards the nearest Cyberman ... They must move their "
                                "entire possible movement.'" + way_out)
    if k < 0 or k > group["fatigue"]:
        return "no_tokens", "not that many Fatigue tokens"
    if not uses_tokens(state, seat) and k:
        return "no_items_or_tokens", "'Cyberlieutenants and the Cyberleader may never use items or tokens.'"
    if not (0 <= to[0] < ROWS and 0 <= to[1] < COLS) or not human_passable(state)(tuple(to)):
        return "impassable", "humans move over open ground, never onto buildings, hedges, Cybermen or Units"
    return "movement_roll", f"the roll allows {state['roll']} square(s) plus one a Fatigue token"


def _cyber_move_refusal(state, action):
    cid = action.get("id")
    if cid not in state["cybermen"]:
        return "not_a_cyberman", f"no Cyberman {cid!r}"
    cyb = state["cybermen"][cid]
    if state["queue"] and state["queue"][0]["id"] != cid:
        return "lieutenants_first", "'Cyberlieutenants are always moved first'; then carrying Cybermen"
    if state["count"] is None and not state["queue"]:
        return "roll_first", "roll the die for how many Cybermen move"
    if cyb["role"] == "partial":
        return "partial_moved_by_owner", "'This Cyberman character may be moved during the turn of original player.'"
    if cyb["role"] == "lieutenant" and not state["queue"]:
        return "lieutenant_moved_by_owner", "'A Cyberlieutenant ... only controlled by that player.'"
    if cid in state["moved"]:
        return "already_moved", "each Cyberman moves once a phase"
    if cyb["carrying"]:
        return "carrying_to_unit", "'move any Cyberman carrying a human towards the nearest Cyberconversion Unit'"
    return "cyberman_speed", f"{MARKS[cyb['mark']]['name']} moves up to {MARKS[cyb['mark']]['speed']} square(s)"


# ---------------------------------------------------------------------------------------
# Handlers (legality is already checked)
# ---------------------------------------------------------------------------------------

def _roll(d, seat, action):
    state = d.state
    if state["phase"] == "cyber_move":  # the Cyberman movement die: how many Cybermen move
        die(d, "cybermen")
        return
    group = state["groups"][seat]
    value = d.rng.randbelow(6) + 1
    allowance = (value // 2 if group["injured"] else value) + (1 if "move_plus" in abilities(state, seat) else 0)
    d.emit({"f": "roll", "purpose": "move", "value": value, "allowance": allowance})
    if group["injured"]:  # "reduce their movement roll by half for the next two turns"
        d.emit({"f": "group", "seat": seat, "set": {"injured": group["injured"] - 1}})
    d.emit({"f": "phase", "phase": "group_move"})


def _break_free(d, seat, action):
    group = d.state["groups"][seat]
    d.emit({"f": "group", "seat": seat, "set": {"escape": group["escape"] - 1, "mind": False}})


def _move(d, seat, action):
    d.emit({"f": "move_group", "seat": seat, "to": action["to"], "fatigue": action["fatigue"]})
    if on_open_exit(d.state, seat):
        escape(d, seat)
    d.emit({"f": "phase", "phase": "partials"})
    sabotage(d, seat)  # designed, two players: a group ending its move next to an untried Unit


def _move_cyberman(d, seat, action):
    state = d.state
    cid = action["id"]
    slot = state["queue"][0] if state["queue"] else None
    d.emit({"f": "move", "id": cid, "to": action["to"]})
    if slot:
        d.emit({"f": "queue", "queue": state["queue"][1:]})
    else:
        d.emit({"f": "used", "id": cid})
    cyb = state["cybermen"][cid]
    if tuple(cyb["pos"]) in unit_squares(state):
        if cyb["carrying"]:
            arrive_at_unit(d, cid)
        elif seat == state["leader"] and cyb["mark"] < state["tech"]:
            # "the Cyberleader ... may move any outdated Cybermen into a Cyberconversion chamber and upgrade them"
            d.emit({"f": "cyberman", "id": cid, "set": {"mark": state["tech"]}})
    d.emit({"f": "active", "active": {"id": cid, "seat": seat, "stage": "face", "attack": True}})


def _partial_move(d, seat, action):
    d.emit({"f": "move", "id": action["id"], "to": action["to"]})
    d.emit({"f": "active", "active": {"id": action["id"], "seat": seat, "stage": "face", "attack": True}})


def _face(d, seat, action):
    state = d.state
    active = state["active"]
    d.emit({"f": "face", "id": active["id"], "facing": action["facing"]})
    if active["attack"] and _attack_actions(state, active["id"]):
        d.emit({"f": "active", "active": {**active, "stage": "attack"}})
    else:
        d.emit({"f": "active", "active": None})


def _attack(d, seat, action):
    state = d.state
    cid = state["active"]["id"]
    d.emit({"f": "active", "active": None})
    target = action["target"]
    if state["cybermen"][cid]["role"] == "partial":
        partial_attacks(d, cid, target, action["fatigue"])
    elif target.startswith("group"):
        cyberman_attacks_group(d, cid, int(target[5:]))
    else:
        cyberman_attacks_partial(d, cid, target)


def _no_attack(d, seat, action):
    d.emit({"f": "active", "active": None})


def _defend(d, seat, action):
    state = d.state
    prompt = state["prompt"]
    cid, kind = prompt["attacker"], action["type"]
    group = state["groups"][seat]
    d.emit({"f": "prompt", "prompt": None})
    if kind == "fatigue":  # a Fatigue token lowers the Cyberman's roll by one
        d.emit({"f": "group", "seat": seat, "set": {"fatigue": group["fatigue"] - 1}})
        if prompt["roll"] - 1 >= prompt["needs"]:
            offer_defence(d, cid, seat, prompt["roll"] - 1, prompt["needs"])
    elif kind == "escape":  # an Escape token: the group gets away
        d.emit({"f": "group", "seat": seat, "set": {"escape": group["escape"] - 1}})
    elif kind == "weakness":  # the Mark's weakness drives it off
        d.emit({"f": "discard", "seat": seat, "card": MARKS[state["cybermen"][cid]["mark"]]["weakness"]})
    else:
        capture(d, cid, seat)


def _capture(d, seat, action):
    cid = d.state["prompt"]["attacker"]
    d.emit({"f": "prompt", "prompt": None})
    take(d, cid, action["character"])


def _glitch(d, seat, action):
    """Play the Conversion Glitch (a partial conversion) or not; then the carrier's other captives."""
    prompt = d.state["prompt"]
    d.emit({"f": "prompt", "prompt": None})
    convert(d, prompt["carrier"], prompt["char"], glitch=action["type"] == "glitch")
    arrive_at_unit(d, prompt["carrier"])


def _lieutenant(d, seat, action):
    prompt = d.state["prompt"]
    d.emit({"f": "prompt", "prompt": None})
    make_lieutenant(d, seat, action["id"])
    if prompt["kind"] == "offer":  # the conversion that made the offer goes on
        arrive_at_unit(d, prompt["carrier"])


def _stand_down(d, seat, action):
    """The player does not take up its Cyberlieutenant: it plays no more (its partial conversions
    still move) and keeps its Victory Points; its last human's Cyberman stays a normal Cyberman."""
    prompt = d.state["prompt"]
    d.emit({"f": "prompt", "prompt": None})
    arrive_at_unit(d, prompt["carrier"])


def _teleport(d, seat, action):
    state = d.state
    d.emit({"f": "discard", "seat": seat, "card": sorted(state["groups"][seat]["hand"])[0]})
    cid = new_id(state)
    d.emit({"f": "spawn", "id": cid, "pos": action["to"], "facing": "N", "mark": state["tech"], "role": "normal",
            "seat": None, "origin": None})
    d.emit({"f": "active", "active": {"id": cid, "seat": seat, "stage": "face", "attack": False}})


def _unit(d, seat, action):
    state = d.state
    for card in sorted(state["groups"][seat]["hand"])[:2]:
        d.emit({"f": "discard", "seat": seat, "card": card})
    d.emit({"f": "unit", "id": f"u{state['next_id']}", "pos": action["to"]})


def _upgrade_tech(d, seat, action):
    for card in sorted(d.state["groups"][seat]["hand"])[:3]:
        d.emit({"f": "discard", "seat": seat, "card": card})
    upgrade_technology(d)


def _trade(d, seat, action):
    """'Any item cards that are drawn as part of their turn may be traded with any other player for
    another card': the other player gets the card and gives one at random, which the
    Cyberlieutenant (who never uses items) discards."""
    state = d.state
    other = action["seat"]
    card = state["groups"][seat]["hand"][0]
    theirs = sorted(state["groups"][other]["hand"])
    back = theirs[d.rng.randbelow(len(theirs))]
    d.emit({"f": "give", "from": seat, "to": other, "card": card})
    d.emit({"f": "give", "from": other, "to": seat, "card": back})
    d.emit({"f": "discard", "seat": seat, "card": back})


def _discard(d, seat, action):
    for card in sorted(d.state["groups"][seat]["hand"]):
        d.emit({"f": "discard", "seat": seat, "card": card})


def _done(d, seat, action):
    """'Any item cards that are drawn as part of their turn may be discarded to ...': the
    Cyberleader's cards not spent this turn are discarded, never pooled for a later turn."""
    for card in sorted(d.state["groups"][seat]["hand"]):
        d.emit({"f": "discard", "seat": seat, "card": card})
    d.emit({"f": "phase", "phase": "partials"})


def _end_partials(d, seat, action):
    enter_cyber_move(d)


def _pass(d, seat, action):
    d.emit({"f": "queue", "queue": d.state["queue"][1:]})


def _use_ability(d, seat, action):
    if d.state["queue"]:
        d.emit({"f": "queue", "queue": d.state["queue"][1:]})
    d.emit({"f": "used", "id": action["id"]})
    use_abilities(d, action["id"])


def _end_cyber(d, seat, action):
    enter_abilities(d)


HANDLERS = {
    "roll": _roll, "move": _move, "break_free": _break_free, "cyber_move": _move_cyberman,
    "partial_move": _partial_move, "face": _face,
    "attack": _attack, "no_attack": _no_attack, "fatigue": _defend, "escape": _defend, "weakness": _defend,
    "submit": _defend, "capture": _capture, "glitch": _glitch, "no_glitch": _glitch, "lieutenant": _lieutenant,
    "teleport": _teleport, "unit": _unit,
    "stand_down": _stand_down,
    "upgrade_tech": _upgrade_tech, "done": _done, "trade": _trade, "discard": _discard,
    "end_partials": _end_partials, "pass": _pass, "decline": _pass, "use_ability": _use_ability,
    "end_cyber": _end_cyber,
}
