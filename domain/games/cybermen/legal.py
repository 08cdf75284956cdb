"""The actions listed for a seat (`legal_actions`) and the listing's helpers that `decide`, the
refusals and the bots read (`listing`, `allowance_moves`, `free_cyber_moves`, `free_squares`,
`_reach`...). Apart from actions.py (decide, refusals, handlers), which imports from here and
never the reverse: what may be done, apart from what doing it does."""

from .board import (CybermanGround, cyberman_squares, group_squares, human_blocked, human_map, human_reach,
                    human_toward, manhattan, neighbours, open_ground, toward, unit_squares)
from .data import COLS, DIRECTIONS, LATEST_MARK, MARKS, ROWS
from .effects import defence_options
from .flow import ability_users, movable
from .state import order_key, partials_of, to_act, uses_tokens

FACINGS = list(DIRECTIONS)


def legal_actions(state, seat):
    if state["over"] or seat not in to_act(state):
        return []
    if state["prompt"]:
        return _prompt_actions(state)
    if state["active"]:
        return _active_actions(state)
    phase = state["phase"]
    if phase == "group":
        return [{"type": "roll"}]
    if phase == "group_move":
        return _group_moves(state, state["turn"])
    if phase == "leader":
        return _leader_actions(state, seat)
    if phase == "trade":
        return [{"type": "trade", "seat": s} for s in range(state["seats"])
                if s != seat and state["groups"][s]["hand"]] + [{"type": "discard"}]
    if phase == "partials":
        return [{"type": "partial_move", "id": pid, "to": list(to)}
                for pid in partials_of(state, seat) if pid not in state["moved"]
                for to in _reach(state, pid)] + [{"type": "end_partials"}]
    if phase == "cyber_move":
        return _cyber_move_actions(state)
    if phase == "abilities":
        if state["queue"]:
            return [{"type": "use_ability", "id": state["queue"][0]["id"]}, {"type": "decline"}]
        return [{"type": "use_ability", "id": cid} for cid in ability_users(state)]
    return []


def _prompt_actions(state):
    prompt = state["prompt"]
    if prompt["kind"] == "defend":
        return [{"type": o} for o in defence_options(state, prompt["attacker"], prompt["seat"])] + [{"type": "submit"}]
    if prompt["kind"] == "capture":
        return [{"type": "capture", "character": c} for c in prompt["options"]]
    if prompt["kind"] == "glitch":  # asked of any card holder, so that no_glitch reveals nothing
        held = "glitch" in state["groups"][prompt["seat"]]["hand"]
        return [{"type": "glitch"}] * held + [{"type": "no_glitch"}]
    listed = [{"type": "lieutenant", "id": cid} for cid in prompt["options"]]
    if prompt["kind"] == "offer":  # 'may instead play the Cyberman who represents their last Human'
        listed.append({"type": "stand_down"})
    return listed


def _active_actions(state):
    active = state["active"]
    if active["stage"] == "face":
        return [{"type": "face", "facing": f} for f in FACINGS]
    return [*_attack_actions(state, active["id"]), {"type": "no_attack"}]


def _attack_actions(state, cid):
    cyb = state["cybermen"][cid]
    near = _adjacent_squares(cyb["pos"])
    if cyb["role"] == "partial":  # "If attacking a Cyberman of any sort, or a Cyberconversion Unit"
        targets = [oid for oid, o in state["cybermen"].items() if tuple(o["pos"]) in near and not _own_piece(o, cyb)]
        targets += [uid for uid, pos in state["units"].items() if tuple(pos) in near]
        tokens = state["groups"][cyb["seat"]]["fatigue"] if uses_tokens(state, cyb["seat"]) else 0
        return [{"type": "attack", "target": t, "fatigue": k} for t in sorted(targets) for k in range(tokens + 1)]
    targets = [f"group{s}" for s, g in enumerate(state["groups"]) if g["members"] and tuple(g["pos"]) in near]
    targets += sorted((oid for oid, o in state["cybermen"].items() if o["role"] == "partial"
                       and tuple(o["pos"]) in near), key=order_key)
    return [{"type": "attack", "target": t} for t in targets]


def _own_piece(other, partial):
    """'It will destroy the opponent': a player's own partial conversions, Cyberleader or
    Cyberlieutenant figure are no opponents."""
    return other["seat"] == partial["seat"]


def _adjacent_squares(pos) -> frozenset:
    """`pos` and the four squares next to it (on the map or off), read once a square: every
    Cyberman's facing asks whether it may attack."""
    square = (pos[0], pos[1])
    near = _ADJACENT.get(square)
    if near is None:
        near = _ADJACENT[square] = frozenset([square] + [(pos[0] + dr, pos[1] + dc) for dr, dc in DIRECTIONS.values()])
    return near


_ADJACENT: dict[tuple, frozenset] = {}


def allowance_moves(state, seat):
    """Destinations with the fewest Fatigue tokens that reach them (each token: one more square)."""
    group = state["groups"][seat]
    if group["mind"]:  # "must move towards the nearest Cyberman ... their entire possible movement"
        blocked, start = human_blocked(state), (group["pos"][0], group["pos"][1])
        squares = {to for goal in mind_control_goals(state, start, blocked)
                   for to in human_toward(start, (goal,), blocked, state["roll"])}
        return {to: 0 for to in sorted(squares) or [start]}
    tokens = group["fatigue"] if uses_tokens(state, seat) else 0
    reach = human_reach(group["pos"], human_blocked(state), state["roll"] + tokens)
    return {to: max(0, dist - state["roll"]) for to, dist in reach.items()}


def mind_control_goals(state, start, blocked) -> list:
    """The Cybermen a Mind Controlled group at `start` may move towards: "the nearest Cyberman"
    in squares, counted through terrain as Mind Control's own range is ("If there is terrain in
    the way that is impassable, the player must move around it by the shortest legal route to
    the nearest Cyberman"); among several at the same distance, "the player may choose which one
    to move towards, but will always go towards an unobstructed Cyberman rather than towards one
    behind impassable terrain": one whose shortest legal route is no longer than its distance.
    Designed: a Cyberman no legal route reaches is left out (nothing can be moved towards it)."""
    reach = human_map((start,), blocked)  # legal route lengths from the group, figures in the way
    candidates = []  # (distance in squares, route length, square)
    for cyb in state["cybermen"].values():
        if cyb["role"] == "partial":
            continue
        square = (cyb["pos"][0], cyb["pos"][1])
        route = min((reach[n] + 1 for n in neighbours(square) if n in reach), default=None)
        if route is not None:
            candidates.append((manhattan(start, square), route, square))
    if not candidates:
        return []
    nearest = min(distance for distance, _, _ in candidates)
    tied = [(route, square) for distance, route, square in candidates if distance == nearest]
    unobstructed = [square for route, square in tied if route == nearest]
    return sorted(set(unobstructed or [square for _, square in tied]))


def _group_moves(state, seat):
    moves = [{"type": "move", "to": list(to), "fatigue": k} for to, k in sorted(allowance_moves(state, seat).items())]
    return moves + [{"type": "break_free"}] * can_break_free(state, seat)


def can_break_free(state, seat):
    """Designed: an Escape token also breaks a Mind Control, once the group has seen its roll."""
    group = state["groups"][seat]
    return group["mind"] and group["escape"] > 0 and uses_tokens(state, seat)


def _reach(state, cid, ground=None):
    """Where Cyberman `cid` may move; `ground`, when given, is `CybermanGround(state)`."""
    cyb = state["cybermen"][cid]
    speed = MARKS[cyb["mark"]]["speed"]
    ground = ground or CybermanGround(state)
    if cyb["carrying"]:  # "move any Cyberman carrying a human towards the nearest Cyberconversion Unit"
        return toward(cyb["pos"], list(unit_squares(state)), ground.passable(cid), speed, False)
    return ground.moves(cid, speed)


def _cyber_move_actions(state):
    if state["queue"]:
        slot = state["queue"][0]
        moves = [{"type": "cyber_move", "id": slot["id"], "to": list(to)} for to in _reach(state, slot["id"])]
        free_to_stay = slot["kind"] == "lieutenant" and not state["cybermen"][slot["id"]]["carrying"]
        return moves + ([{"type": "pass"}] if free_to_stay or not moves else [])
    if state["count"] is None:
        return [{"type": "roll"}]
    return [{"type": "cyber_move", "id": cid, "to": list(to)}
            for cid, squares in free_cyber_moves(state) for to in squares] + [{"type": "end_cyber"}]


def listing(state, seat):
    """Which listing `legal_actions(state, seat)` is, for those a bot may weigh without making
    it: "free_cyber_moves" (a movement phase's Cyberman moves, those of `free_cyber_moves`, then
    end_cyber), "facings" (a face action for each of FACINGS), "group_moves" (those of
    `allowance_moves(state, seat)` in order, then break_free if `can_break_free`),
    "ability_users" (use_ability for each of `ability_users(state)`); None for any other."""
    if state["over"] or state["prompt"] or seat not in to_act(state):
        return None
    if state["active"]:
        return "facings" if state["active"]["stage"] == "face" else None
    phase = state["phase"]
    if phase == "cyber_move" and not state["queue"] and state["count"] is not None:
        return "free_cyber_moves"
    if phase == "group_move":
        return "group_moves"
    if phase == "abilities" and not state["queue"]:
        return "ability_users"
    return None


def free_cyber_moves(state):
    """(Cyberman, the squares it may move to) for each Cyberman of a movement phase the
    controller may still move, in the listing's order."""
    ground = CybermanGround(state)
    return [(cid, _reach(state, cid, ground)) for cid in movable(state)]


def free_squares(state):
    taken = cyberman_squares(state) | unit_squares(state) | group_squares(state)
    return [[r, c] for r in range(ROWS) for c in range(COLS) if open_ground((r, c)) and (r, c) not in taken]


def _leader_actions(state, seat):
    hand = len(state["groups"][seat]["hand"])
    actions = []
    if hand >= 1:  # "discarded to teleport in another Cyberman onto any legal map space"
        actions += [{"type": "teleport", "to": sq} for sq in free_squares(state)]
    if hand >= 2:  # "Two item cards ... another Cyberconversion Unit"
        actions += [{"type": "unit", "to": sq} for sq in free_squares(state)]
    if hand >= 3 and state["tech"] < LATEST_MARK:  # "Three item cards ... technology level by 1"
        actions.append({"type": "upgrade_tech"})
    return actions + [{"type": "done"}]
