"""The greedy bot's shortcuts (issue 32) weigh every move as working it out afresh does: a
program's value afterwards remembered by the position (`_board_values`), its what-if drawn
from a stream that always takes the first item, and a program's what-if sharing the card
duel with the state it starts from. States from random and greedy matches of every variant."""

import os
import random

import pytest

from domain.games.cyberspace import bots as G
from domain.games.cyberspace import rules as R
from domain.kernel.canonical import canonical_json, json_copy
from domain.kernel.rng import RandomStream
# bots._value as first written: each seat's points by scoring.network_points over network_table
from tests.kernel.search_reference import _value as value_by_the_table

from .test_layout import MODES, states

MODES = MODES + [({"teams": True}, 4), ({"assistance": True}, 3), ({}, 1)]


def sampled_states(options, seats, every=3):
    for bot in ("random", "greedy"):
        for number, state in enumerate(states(options, seats, seed=seats + 7, bot=bot)):
            if number % every == 0:
                yield state


def value_afresh(state, seat, action):
    """`_value` after `action` decided on a copy of its own with a real random stream."""
    return G._value(R._decided(state, seat, action, RandomStream(b"k" * 32, "afresh", 1)).state, seat)


@pytest.mark.parametrize("options, seats", MODES, ids=[f"{o}-{s}" for o, s in MODES])
def test_remembered_values_are_the_values_worked_out_afresh(options, seats):
    G._VALUES.clear()
    weighed = []
    for state in sampled_states(options, seats):
        seat = min(R.to_act(state))
        moves = [a for a in R.legal_actions(state, seat) if a["type"] in G.BOARD_PROGRAMS]
        weighed.append((state, seat, random.Random(len(weighed)).sample(moves, min(8, len(moves)))))
    assert sum(len(moves) for _, _, moves in weighed) >= 50
    for _ in range(2):  # the second time round, every value comes from what was remembered
        for state, seat, moves in reversed(weighed):
            values = G._board_values(state, seat)
            for action in moves:
                assert G._value_after(state, seat, action, values) == value_afresh(state, seat, action)
            assert values.get(b"", G._value(state, seat)) == G._value(state, seat)


def test_positions_apart_in_what_a_value_reads_are_remembered_apart():
    """The key holds the seat, the board, the pieces, the round, whose pieces a program moves
    (a hijacked session), the drawn tile to place and the stack's size; not the duel, the
    face-up tiles, nor the turn's programs."""
    state = next(s for s in states({}, 3, seed=5, bot="greedy") if len(s["board"]) >= 4 and s["stack"])
    values = G._board_values(state, 0)

    def changed(change):
        variant = json_copy(state)
        change(variant)
        return variant

    for variant, seat in [
        (state, 1),
        (changed(lambda s: s.update(held=sorted(s["stack"])[0])), 0),
        (changed(lambda s: s.update(hijack={"target": 1, "by": 0, "programs": 0, "menu": []})), 0),
        (changed(lambda s: s["stack"].pop()), 0),
        (changed(lambda s: s["board"].popitem()), 0),
        (changed(lambda s: s["players"][2]["links"].append("0,0")), 0),
        (changed(lambda s: s.update(final_round=True)), 0),
    ]:
        assert G._board_values(variant, seat) is not values
    for variant in [changed(lambda s: s["cards"]["players"][1]["hand"].reverse()),
                    changed(lambda s: s["face_up"].reverse()),
                    changed(lambda s: s.update(programs=2, menu=["probe", "spawn"]))]:
        assert G._board_values(variant, 0) is values


def test_a_probe_is_told_apart_by_where_its_tile_comes_from():
    """A face-up tile is replaced from the stack, a set-aside one is not."""
    state = next(s for s in states({}, 2, seed=3, bot="greedy") if s["face_up"])
    tile = state["face_up"][0]
    probe = {"type": "probe", "tile": tile, "x": 0, "y": 0, "rot": 0}
    waiting = json_copy(state)
    waiting["face_up"].remove(tile)
    waiting["waiting"].append(tile)
    assert G._action_key(state, probe) != G._action_key(waiting, probe)


@pytest.mark.parametrize("options, seats", [({}, 2), ({"teams": True}, 4), ({"assistance": True}, 3)])
def test_a_lookahead_leaves_its_state_as_it_was_and_is_the_decision(options, seats):
    """A program's what-if shares the card duel: it must not change it, nor anything else of
    the state looked ahead from; and it reaches the state `decide` reaches."""
    tried = 0
    for state in sampled_states(options, seats, every=5):
        seat = min(R.to_act(state))
        before = canonical_json(state)
        for action in random.Random(tried).sample(R.legal_actions(state, seat), min(10, len(R.legal_actions(state, seat)))):
            after = R.lookahead(state, seat, action, G.SIMULATED)
            assert canonical_json(state) == before
            assert canonical_json(after) == canonical_json(R._decided(state, seat, action, G.SIMULATED).state)
            tried += 1
    assert tried >= 100


def test_the_what_if_stream_takes_the_first_item():
    assert G.SIMULATED.randbelow(5) == 0
    assert G.SIMULATED.shuffle((3, 1, 2)) == [3, 1, 2]
    with pytest.raises(ValueError):
        G.SIMULATED.randbelow(0)


def test_a_forked_child_starts_without_the_remembered_values():
    """As herocard/test_listing.py's: mutation testing forks from a process that ran the tests."""
    state = next(states({}, 2, seed=1, bot="random"))
    G._board_values(state, 0)
    assert G._VALUES
    child = os.fork()
    if child == 0:
        os._exit(1 if G._VALUES else 0)
    assert os.waitstatus_to_exitcode(os.waitpid(child, 0)[1]) == 0


def test_only_programs_are_remembered_by_the_board():
    """A card play, an attack, a reboot or the turn's end reads and changes the duel, which
    the key leaves out: those are always weighed afresh."""
    assert G.BOARD_PROGRAMS <= set(R.PROGRAM_ACTIONS)
    assert "draw" not in G.BOARD_PROGRAMS  # its tile is drawn at random: what-ifs never draw


@pytest.mark.parametrize("options, seats", MODES, ids=[f"{o}-{s}" for o, s in MODES])
def test_the_value_is_the_value_by_the_scoring_table(options, seats):
    """_value reads the networks' worth from its own table (a number, not scoring's dict):
    the same float, to the last bit, for every seat at sampled states."""
    from domain.games.cyberspace.scoring import network_table
    scored = 0
    for state in sampled_states(options, seats, every=2):
        assert [(list(cells), worth, held) for cells, worth, held in G._worth_table(state)] == \
            [(cells, worth["worth"], held) for cells, worth, held in network_table(state)]
        for seat in range(len(state["players"])):
            assert G._value(state, seat) == value_by_the_table(state, seat)
            scored += G._value(state, seat) != 0
    assert scored >= 10
