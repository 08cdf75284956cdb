"""What the rules and the greedy bot keep to make the search bot faster (issue 32) agrees with
what it stands for: a Cyberman's moves, kept by the figures within its reach, and a square's
distance to the nearest rival group, kept by the groups' squares, against the same reckoned
afresh; and what the greedy bot's faster scoring must keep: the first of equally good moves,
and no hit on a group counter without members."""

import random

import pytest

from domain.games.cybermen import RULESET
from domain.games.cybermen.board import OPEN_GROUND, CybermanGround, distances, manhattan
from domain.games.cybermen.bots import _nearest_group
from domain.games.cybermen.data import MARKS
from domain.games.cybermen.effects import ability_hits
from domain.kernel.rng import RandomStream

from .helpers import act, fresh, place


def moves_afresh(state, cid):
    cyb = state["cybermen"][cid]
    passable = CybermanGround(state).passable(cid)
    return sorted(distances([cyb["pos"]], passable, limit=MARKS[cyb["mark"]]["speed"]))


def kept_moves(state, cid):
    return CybermanGround(state).moves(cid, MARKS[state["cybermen"][cid]["mark"]]["speed"])


def test_a_cyberman_on_the_same_square_moves_again_around_whatever_now_stands_near_it():
    # c1 (speed 2) on an open row; a second figure on each square within reach in turn, one at
    # the edge of its reach (two squares south) among them: each changes what c1 may reach.
    alone = place(fresh(2), cybermen=[{"id": "c1", "pos": [7, 6], "mark": 2}], tech=2)
    assert kept_moves(alone, "c1") == moves_afresh(alone, "c1") and (9, 6) in kept_moves(alone, "c1")
    for square in [(7, 7), (8, 6), (9, 6), (7, 8), (7, 4)]:
        assert square in OPEN_GROUND
        state = place(fresh(2), cybermen=[{"id": "c1", "pos": [7, 6], "mark": 2},
                                          {"id": "c2", "pos": list(square), "mark": 2}], tech=2)
        assert kept_moves(state, "c1") == moves_afresh(state, "c1")
        assert square not in kept_moves(state, "c1")
    assert kept_moves(alone, "c1") == moves_afresh(alone, "c1")


def play(seats, policy, seed):
    """Every state of one match, and the seat to act in it."""
    rand = random.Random(seed)
    key = rand.randbytes(32)
    state = RULESET.setup({}, [f"p{i}" for i in range(seats)], RandomStream(key, "kept", 1))
    for seq in range(2, 5000):
        if RULESET.outcome(state) is not None:
            return
        seat = min(RULESET.to_act(state))
        yield state, seat
        action = RULESET.bots[policy](state, seat, rand)
        for fact in RULESET.decide(state, seat, action, RandomStream(key, "kept", seq)):
            state = RULESET.evolve(state, fact)


@pytest.mark.parametrize("seats,policy", [(2, "greedy"), (3, "random"), (4, "greedy"), (6, "random")])
def test_kept_moves_and_distances_are_reckoned_afresh_at_every_step(seats, policy):
    for state, seat in play(seats, policy, f"kept-{seats}-{policy}"):
        for cid in state["cybermen"]:
            assert kept_moves(state, cid) == moves_afresh(state, cid)
        rivals = [g["pos"] for s, g in enumerate(state["groups"]) if g["members"] and s != seat]
        for action in RULESET.legal_actions(state, seat):
            if "to" in action:
                nearest = min((manhattan(action["to"], pos) for pos in rivals), default=0)
                assert _nearest_group(state, seat, action["to"], {}) == nearest


def test_the_same_square_is_as_far_from_the_nearest_rival_as_the_rivals_now_stand():
    for rival, distance in [([7, 8], 4), ([7, 1], 3), ([2, 4], 5), ([7, 8], 4)]:
        state = place(fresh(2), groups={0: rival, 1: [11, 11]}, cybermen=[{"id": "c1", "pos": [7, 4]}], turn=1)
        assert _nearest_group(state, 1, [7, 4], {}) == distance


def test_among_equally_good_moves_the_greedy_bot_plays_the_first_listed():
    # Neither Cyberman's abilities reach a group (both face off the map's north edge, the
    # groups far south): every use scores alike, and the first listed is used.
    state = place(fresh(2), cybermen=[{"id": "c1", "pos": [0, 2], "facing": "N"},
                                      {"id": "c2", "pos": [0, 3], "facing": "N"}], turn=0)
    state, _ = act(state, 0, {"type": "roll"}, 1)
    state, _ = act(state, 0, {"type": "end_cyber"}, 1)
    assert RULESET.legal_actions(state, 0) == [{"type": "use_ability", "id": "c1"}, {"type": "use_ability", "id": "c2"}]
    assert RULESET.bots["greedy"](state, 0, random.Random(0)) == {"type": "use_ability", "id": "c1"}


def test_a_group_counter_whose_members_are_all_carried_is_not_hit():
    # Group 1's counter stays on the map while its members are carried; in front of c1's
    # beam and within its Mind Control it is hit by neither, with or without a kept memo.
    state = place(fresh(2), groups={1: [7, 6]}, cybermen=[{"id": "c1", "pos": [7, 4], "facing": "E"}])
    assert ability_hits(state, "c1") == [(1, "stunned"), (1, "mind")]
    state["cybermen"]["c1"]["carrying"] = state["groups"][1]["members"]
    state["groups"][1]["members"] = []
    assert ability_hits(state, "c1") == [] and ability_hits(state, "c1", {}) == []
