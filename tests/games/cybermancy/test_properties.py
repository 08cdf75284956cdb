"""Random play in every mode to the end; replay equals live play; no seat sees another's
hand or any deck order; the greedy bot only plays legal moves."""

import random
import uuid

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.games.cybermancy import RULESET
from domain.kernel.canonical import json_copy
from domain.kernel.match import Match
from domain.kernel.rng import RandomStream
from domain.kernel.store import MatchStore

MODES = [({}, 2), ({}, 3), ({}, 4), ({"mode": "teams"}, 4), ({"draft": True}, 2), ({"draft": True}, 3),
         ({"draft": True, "mode": "teams"}, 4)]
MAX_ACTIONS = 20_000


def assert_nothing_hidden_leaks(state, facts, actor, action):
    for seat in [None, *range(state["seats"])]:
        seen = RULESET.view(state, seat)
        assert isinstance(seen["cpu_deck"], int) and isinstance(seen["ram_deck"], int)
        for player in seen["players"]:
            assert isinstance(player["deck"], int)
            assert isinstance(player["hand"], list) == (player["seat"] == seat)
        for fact in facts:
            shown = RULESET.redact(fact, seat)
            if fact["f"] in ("draw", "to_deck") and fact["seat"] != seat:
                assert shown["card"] is None
            if fact["f"] in ("deck_order", "power_order"):
                assert isinstance(shown["order"], int)
        if seat != actor and action["type"] == "mulligan":
            assert isinstance(RULESET.redact_action(action, actor, seat)["creatures"], int)


def play(options, seats, seed, bots=("random",), check=True):
    rand = random.Random(seed)
    key = rand.randbytes(32)
    state = RULESET.setup(options, [f"p{i}" for i in range(seats)], RandomStream(key, "m", 1))
    for seq in range(2, MAX_ACTIONS):
        if RULESET.outcome(state) is not None:
            return state
        (seat,) = RULESET.to_act(state)
        for other in set(range(seats)) - {seat}:
            assert RULESET.legal_actions(state, other) == []
        action = RULESET.bots[bots[seat % len(bots)]](state, seat, rand)
        before = json_copy(state)
        facts = RULESET.decide(state, seat, action, RandomStream(key, "m", seq))
        assert state == before, "decide mutated the state"
        for fact in facts:
            state = RULESET.evolve(state, fact)
        if check:
            assert_nothing_hidden_leaks(state, facts, seat, action)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("options, seats", MODES, ids=[f"{o}-{s}" for o, s in MODES])
@settings(max_examples=6)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_play_reaches_an_outcome_in_every_mode(options, seats, seed):
    state = play(options, seats, seed)
    result = RULESET.outcome(state)
    assert result["winners"] and set(result["winners"]) <= set(range(seats))
    if options.get("mode") == "teams":
        assert len({w % 2 for w in result["winners"]}) == 1  # one team wins


@settings(max_examples=4)
@given(seed=st.integers(0, 2**32 - 1), mode=st.sampled_from(MODES))
def test_greedy_and_random_bots_mixed_play_legally_to_the_end(seed, mode):
    options, seats = mode
    assert RULESET.outcome(play(options, seats, seed, bots=("greedy", "random"), check=False)) is not None


@settings(max_examples=5)
@given(seed=st.integers(0, 2**32 - 1), mode=st.sampled_from(MODES))
def test_replayed_state_equals_live_state_at_every_version(tmp_path_factory, seed, mode):
    options, seats = mode
    store = MatchStore({"ARBITER_DATA_DIR": str(tmp_path_factory.mktemp("cm"))})
    rand = random.Random(seed)
    seed_bytes = rand.randbytes(32)
    match = Match.start(uuid.uuid4(), RULESET, [f"p{i}" for i in range(seats)], options, {}, seed_bytes)
    store.save_match(match)
    live = {1: json_copy(match.state)}
    while match.status == "running":
        seat = match.to_act()[0]
        match.act(seat, RULESET.bots["greedy"](match.state, seat, rand), seed_bytes)
        store.save_match(match)
        live[match.version] = json_copy(match.state)
    store.forget(match.id)
    for version, state in live.items():
        assert store.match(match.id, version=version).state == state
    store.close()
