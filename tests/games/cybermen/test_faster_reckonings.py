"""The second round of issue 32's shortcuts against what they stand for, reckoned afresh at
every step of whole matches: a group's reach and its distance maps (kept by the figures'
squares), the greedy bot's choice made without the movement phase's listing, the abilities'
hits (the terrain's lines of fire kept by the terrain function), the rules' check of a
chosen action against the part of the listing it could be in; a Mind Controlled group's move
(kept by its square, the Cybermen's, the figures' and its roll)."""

import random

import pytest

from domain.games.cybermen import RULESET
from domain.games.cybermen import board
from domain.games.cybermen.actions import _listed
from domain.games.cybermen.board import distances, human_passable, manhattan, neighbours, toward
from domain.games.cybermen.bots import EXITS, _human_square, _untried_units, score_action
from domain.games.cybermen.data import CONST, DIRECTIONS
from domain.games.cybermen.effects import ENERGY_BEAM_RANGE, GUN_RANGE, MIND_CONTROL_RANGE, ability_hits
from domain.games.cybermen.legal import _attack_actions, allowance_moves, legal_actions
from domain.games.cybermen.state import abilities, cyberman_abilities
from domain.kernel.errors import IllegalAction
from domain.kernel.rng import RandomStream

from .helpers import act, fresh, place
from .test_kept_reckonings import play


def square_afresh(state, seat, to):
    """bots._human_square as it read before its maps were kept and its danger skipped."""
    exits_open = state["round"] >= CONST["exits_open_round"] - 1
    danger = min((manhattan(to, c["pos"]) for c in state["cybermen"].values()), default=9)
    untried = _untried_units(state, seat)
    if untried:
        to_unit = distances([n for pos in untried for n in neighbours(pos)], human_passable(state)).get(tuple(to), 30)
        return -to_unit + min(danger, 4) * 2 + (10 if to_unit == 0 else 0)
    to_exit = distances(list(EXITS), human_passable(state)).get(tuple(to), 30)
    return -to_exit + (0 if exits_open else min(danger, 4) * 2) + (100 if to_exit == 0 and exits_open else 0)


def greedy_afresh(state, seat):
    """The greedy bot's choice scored action by action over the whole listing."""
    actions = legal_actions(state, seat)
    memo = {}
    scores = [score_action(state, seat, action, memo) for action in actions]
    return actions[scores.index(max(scores))]


def hits_afresh(state, cid):
    """effects.ability_hits walked square by square, nothing kept."""
    cyb = state["cybermen"][cid]
    hits = []
    for ability in cyberman_abilities(state, cid):
        if ability == "mind_control":
            hit = [s for s, g in enumerate(state["groups"])
                   if g["members"] and manhattan(g["pos"], cyb["pos"]) <= MIND_CONTROL_RANGE]
            effect, immune = "mind", "mind_shield"
        else:
            stops = {tuple(c["pos"]) for c in state["cybermen"].values()} | {tuple(p) for p in state["units"].values()}
            dr, dc = DIRECTIONS[cyb["facing"]]
            here, squares = tuple(cyb["pos"]), []
            for _ in range(ENERGY_BEAM_RANGE if ability == "energy_beam" else GUN_RANGE):
                here = (here[0] + dr, here[1] + dc)
                if not board.on_map(here) or board.terrain(here) in "BH" or here in stops:
                    break
                squares.append(here)
            hit = [s for s, g in enumerate(state["groups"]) if g["members"] and tuple(g["pos"]) in squares]
            effect, immune = ("stunned", "no_stun") if ability == "energy_beam" else ("injured", "no_injury")
        hits += [(s, effect) for s in hit if immune not in abilities(state, s)]
    return hits


def probes(state, seat):
    """Every listed action and near misses of each: a field too many, another square, token
    count or Cyberman."""
    listed = legal_actions(state, seat)
    found = list(listed)
    for action in listed:
        if "seat" not in action:  # a field too many: never listed
            found.append({**action, "seat": seat})
        if "to" in action:
            found.append({**action, "to": [action["to"][0] + 1, action["to"][1]]})
        if "fatigue" in action:
            found += [{**action, "fatigue": action["fatigue"] + k} for k in (-1, 1)]
        if "id" in action:
            found.append({**action, "id": "c" + str(int(action["id"][1:]) + 1)})
            found.append({k: v for k, v in action.items() if k != "to"})
    return found


@pytest.mark.parametrize("seats,policy", [(2, "greedy"), (3, "random"), (4, "greedy"), (6, "random"),
                                          (3, "greedy"), (2, "random")])
def test_the_shortcuts_agree_with_the_reckoning_afresh_at_every_step(seats, policy):
    for state, seat in play(seats, policy, f"faster-{seats}-{policy}"):
        assert RULESET.bots["greedy"](state, seat, random.Random(0)) == greedy_afresh(state, seat)
        for cid in state["cybermen"]:
            assert ability_hits(state, cid) == ability_hits(state, cid, {}) == hits_afresh(state, cid)
        for action in probes(state, seat):
            assert _listed(state, seat, action) == (action in legal_actions(state, seat)), action
        if state["phase"] == "group_move" and not state["prompt"]:
            group = state["groups"][seat]
            if not group["mind"]:
                limit = state["roll"] + (group["fatigue"] if group["status"] == "human" else 0)
                reach = distances([group["pos"]], human_passable(state), limit=limit)
                assert allowance_moves(state, seat) == {to: max(0, d - state["roll"]) for to, d in reach.items()}
            else:
                assert allowance_moves(state, seat) == mind_moves_afresh(state, seat)
            for action in legal_actions(state, seat):
                if action["type"] == "move":
                    assert _human_square(state, seat, action["to"], {}) == square_afresh(state, seat, action["to"])


def mind_moves_afresh(state, seat):
    """legal.allowance_moves of a Mind Controlled group reckoned afresh, one search from each
    Cyberman: the nearest in squares that a legal route reaches (the unobstructed among equals:
    route no longer than the distance), and the squares toward any of them."""
    group, passable = state["groups"][seat], human_passable(state)
    start = tuple(group["pos"])
    found = []  # (squares, route, Cyberman's square)
    for cyb in state["cybermen"].values():
        route = distances([cyb["pos"]], lambda p: p == start or passable(p)).get(start)
        if cyb["role"] != "partial" and route is not None:
            found.append((manhattan(start, cyb["pos"]), route, tuple(cyb["pos"])))
    nearest = min((squares for squares, _, _ in found), default=None)
    tied = [(route, goal) for squares, route, goal in found if squares == nearest]
    goals = [goal for route, goal in tied if route == nearest] or [goal for _, goal in tied]
    reached = {to for goal in goals for to in toward(start, [goal], passable, state["roll"], True)}
    return {to: 0 for to in sorted(reached) or [start]}


def test_a_mind_controlled_group_moves_by_its_roll_and_whatever_stands_in_its_way():
    # The same group and Cyberman asked again with another roll, another Cyberman aside, a
    # partial conversion (no goal) or a Unit on its route: each move as reckoned afresh.
    cyberman = {"id": "c1", "pos": [7, 2]}
    layouts = [[cyberman], [cyberman, {"id": "c2", "pos": [7, 10]}], [cyberman, {"id": "c2", "pos": [6, 6]}],
               [cyberman, {"id": "c2", "pos": [7, 10], "role": "partial", "seat": 1}]]
    seen = []
    for cybermen in layouts:
        for units in ({}, {"u1": [7, 4]}):
            for roll in (1, 2, 3):
                state = place(fresh(2), groups={0: [7, 7]}, cybermen=cybermen, phase="group_move")
                state["units"], state["roll"] = dict(units), roll
                state["groups"][0]["mind"] = True
                moves = allowance_moves(state, 0)
                assert moves == mind_moves_afresh(state, 0), (cybermen, units, roll)
                seen.append(tuple(sorted(moves)))
    assert len(set(seen)) >= 6  # the roll, the goals and the figures each change the move


def test_among_equally_good_cyberman_moves_the_greedy_bot_plays_the_first_listed():
    # Alone on the map (group 1 parked far away has no members): every move of c1 and c2 that
    # keeps its distance from the seat's own group scores alike; the first listed is played.
    state = place(fresh(2), groups={0: [7, 6]}, cybermen=[{"id": "c1", "pos": [3, 6]}, {"id": "c2", "pos": [9, 9]}])
    state["groups"][1]["members"] = []
    state["count"] = 2
    assert RULESET.bots["greedy"](state, 0, random.Random(0)) == greedy_afresh(state, 0)
    hunting = place(fresh(2), groups={0: [11, 11], 1: [7, 6]}, cybermen=[{"id": "c1", "pos": [7, 4]},
                                                                         {"id": "c2", "pos": [7, 8]}])
    hunting["count"] = 2
    assert RULESET.bots["greedy"](hunting, 0, random.Random(0)) == greedy_afresh(hunting, 0)


def test_a_line_of_fire_follows_the_terrain_in_force(monkeypatch):
    # c1 faces east along row 0 toward group 1; the terrain's hedges and buildings stop the
    # beam wherever they stand, read afresh once the terrain function is replaced and again
    # once it is restored.
    state = place(fresh(2), groups={1: [0, 4]}, cybermen=[{"id": "c1", "pos": [0, 0], "facing": "E", "mark": 3}],
                  tech=3)
    walls = {(0, 2)}
    monkeypatch.setattr(board, "terrain", lambda pos: "H" if tuple(pos) in walls else ".")
    assert ability_hits(state, "c1") == hits_afresh(state, "c1") == []
    monkeypatch.setattr(board, "terrain", lambda pos: ".")
    assert ability_hits(state, "c1") == hits_afresh(state, "c1") and (1, "stunned") in hits_afresh(state, "c1")
    monkeypatch.undo()
    assert ability_hits(state, "c1") == hits_afresh(state, "c1")


def test_a_cyberman_without_abilities_is_not_asked_to_use_them():
    # A Mark I Cyberleader (placed by hand: the rules promote at Mark II) has no abilities of
    # its own column: in the abilities phase only c2 is listed, and c1's use is refused.
    state = place(fresh(2), cybermen=[{"id": "c1", "pos": [0, 2], "role": "leader", "seat": None},
                                      {"id": "c2", "pos": [0, 4]}], phase="abilities")
    state["count"] = 2
    assert legal_actions(state, 0) == [{"type": "use_ability", "id": "c2"}]
    assert not _listed(state, 0, {"type": "use_ability", "id": "c1"})
    with pytest.raises(IllegalAction):
        RULESET.decide(state, 0, {"type": "use_ability", "id": "c1"}, RandomStream(b"k" * 32, "t", 1))


def test_a_partial_conversion_on_a_units_square_may_attack_that_unit():
    # Any number of figures may share a Unit's square; a partial conversion standing on one
    # may attack it, and a Cyberman standing there may attack the partial conversion.
    state = place(fresh(2), cybermen=[{"id": "c1", "pos": [5, 5], "role": "partial", "seat": 0},
                                      {"id": "c2", "pos": [5, 5]}])
    state["units"] = {"u1": [5, 5]}
    assert {"type": "attack", "target": "u1", "fatigue": 0} in _attack_actions(state, "c1")
    assert _attack_actions(state, "c2") == [{"type": "attack", "target": "c1"}]


def test_the_movement_phase_ends_once_only_figures_the_controller_does_not_move_are_left():
    # Two Cybermen may move, but the only one the controller moves has moved: seat 0's partial
    # conversion (moved in its own phase) does not hold the phase open.
    state = place(fresh(2), groups={1: [7, 8]}, cybermen=[{"id": "c1", "pos": [7, 4]},
                                                           {"id": "c2", "pos": [3, 3], "role": "partial", "seat": 0}])
    state["count"] = 2
    state, _ = act(state, 0, {"type": "cyber_move", "id": "c1", "to": [7, 4]})
    state, _ = act(state, 0, {"type": "face", "facing": "E"}, 1)
    assert state["phase"] == "abilities"


def test_a_mind_controlled_group_keeps_its_escape_token_when_breaking_free_only_ties():
    # Dragged three squares south toward c1 (to (3, 0)) or free to run: both score 5, and the
    # listing's first of the best is the forced move, listed before break_free.
    state = place(fresh(3), groups={0: [0, 0]}, cybermen=[{"id": "c1", "pos": [7, 2]}], phase="group_move")
    state["roll"] = 3
    state["groups"][0].update(mind=True, escape=1)
    move = {"type": "move", "to": [3, 0], "fatigue": 0}
    assert legal_actions(state, 0) == [move, {"type": "break_free"}]
    assert score_action(state, 0, move, {}) == score_action(state, 0, {"type": "break_free"}, {})
    assert RULESET.bots["greedy"](state, 0, random.Random(0)) == greedy_afresh(state, 0) == move


def test_a_queued_cyberlieutenant_is_asked_only_about_its_own_abilities():
    # c1 would stun group 0 from its square, but the Cyberlieutenant c9 (seat 2) is asked
    # first: its own abilities or decline, never another Cyberman's.
    state = place(fresh(3), groups={0: [7, 6]}, cybermen=[{"id": "c1", "pos": [9, 6], "facing": "N"},
                                                          {"id": "c9", "pos": [0, 0], "role": "lieutenant", "seat": 2}],
                  phase="abilities")
    state["lieutenants"] = [2]
    state["groups"][2].update(status="lieutenant", members=[], converted=["2.x"])
    state.update(queue=[{"id": "c9", "seat": 2, "kind": "lieutenant"}], count=2)
    assert ability_hits(state, "c1")  # the free choice would be c1
    listed = legal_actions(state, 2)
    assert listed == [{"type": "use_ability", "id": "c9"}, {"type": "decline"}]
    assert RULESET.bots["greedy"](state, 2, random.Random(0)) == greedy_afresh(state, 2)


def test_a_cyberman_faces_once_after_its_move_and_a_face_at_its_attack_is_refused():
    """"After a Cyberman is moved, the moving player determines which of the four possible
    directions it faces": once. `_listed` accepts a face action without the listing only at
    that stage; past it (the attack), a face action is refused as the listing would."""
    checked = 0
    for seed in range(20):
        rand = random.Random(seed)
        key = rand.randbytes(32)
        state = RULESET.setup({}, ["a", "b", "c"], RandomStream(key, "m", 1))
        for seq in range(2, 3000):
            if RULESET.outcome(state) is not None:
                break
            seat = rand.choice(sorted(RULESET.to_act(state)))
            if state["active"] and state["active"]["stage"] != "face" and not state["prompt"]:
                for facing in ("N", "E", "S", "W"):
                    with pytest.raises(IllegalAction):
                        RULESET.decide(state, seat, {"type": "face", "facing": facing}, RandomStream(key, "m", seq))
                checked += 1
            for fact in RULESET.decide(state, seat, RULESET.bots["random"](state, seat, rand), RandomStream(key, "m", seq)):
                state = RULESET.evolve(state, fact)
        if checked >= 20:
            break
    assert checked >= 20, "too few Cybermen past their facing to test"
