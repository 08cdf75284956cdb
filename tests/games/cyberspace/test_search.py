"""What the search bot is given for Cyberspace (search.py): a determinization that re-deals only
what the searching seat cannot see, and an evaluation that is each side's lead in Network
Points over its best rival."""

import random

from domain.games.cyberspace import RULESET
from domain.games.cyberspace.search import determinize, evaluate

from .boards import E, W, avatar, new_state, put, rng


def test_determinize_redeals_the_hidden_cards_and_keeps_what_the_seat_sees():
    state = RULESET.setup({}, ["a", "b", "c"], rng(1))
    secret = state["cards"]["players"][1]["deck"].pop()
    state["cards"]["players"][1]["stacks"]["x"] = [{"uid": 9, "card": secret, "face": "down", "cost": 4, "turn": 1}]
    before = RULESET.view(state, 0)
    samples = [determinize(state, 0, random.Random(seed)) for seed in range(6)]
    for sample in samples:
        assert RULESET.view(sample, 0) == before  # what seat 0 sees is untouched
        assert sample["board"] == state["board"] and sample["stack"] == state["stack"]
        for seat in (1, 2):
            mine, theirs = sample["cards"]["players"][seat], state["cards"]["players"][seat]
            assert len(mine["hand"]) == len(theirs["hand"]) and len(mine["deck"]) == len(theirs["deck"])
            pool = mine["hand"] + mine["deck"] + [e["card"] for s in mine["stacks"].values() for e in s]
            assert sorted(pool) == sorted(theirs["hand"] + theirs["deck"] + [secret] * (seat == 1))
    assert any(s["cards"]["players"][1]["hand"] != state["cards"]["players"][1]["hand"] for s in samples)
    assert all(s["cards"]["players"][0]["hand"] == state["cards"]["players"][0]["hand"] for s in samples)
    assert state["cards"]["players"][1]["stacks"]["x"][0]["card"] == secret  # the state itself is not changed
    bit = new_state()
    assert determinize(bit, 0, random.Random(1)) == bit and determinize(bit, 0, random.Random(1)) is not bit


def test_evaluate_is_the_lead_in_network_points_over_the_best_rival_side():
    state = new_state(seats=3)
    put(state, 1, 1, "server", [E]), put(state, 2, 1, "client", [W])  # closed: worth 1 + 3
    put(state, 1, 3, "server", [E]), put(state, 2, 3, "client", [W, E])  # open: worth 1
    avatar(state, 0, 1, 1)
    avatar(state, 1, 1, 3)
    assert evaluate(state) == [0.5 + 0.5 * (4 - 1) / 4, 0.5 + 0.5 * (1 - 4) / 4, 0.5 + 0.5 * (0 - 4) / 4]
    level = new_state(seats=2)
    assert evaluate(level) == [0.5, 0.5]  # nobody holds anything: level, not a lead
    assert evaluate(new_state(seats=1)) == [0.5]  # the puzzle


def test_in_teams_a_partners_points_are_not_a_rivals():
    state = new_state(seats=4, options={"teams": True})
    put(state, 1, 1, "server", [E]), put(state, 2, 1, "client", [W])  # worth 4, held by seat 0
    put(state, 1, 3, "server", [E]), put(state, 2, 3, "client", [W, E])  # worth 1, held by seat 2
    avatar(state, 0, 1, 1)
    avatar(state, 2, 1, 3)
    scores = evaluate(state)
    assert scores[2] == 0.5 + 0.5 * (1 - 0) / 4  # seat 2's rivals (1 and 3) hold nothing
    assert scores[1] == scores[3] == 0.5 + 0.5 * (0 - 4) / 4
