"""Every game draws its board for the terminal: for every seat and a spectator, at every
step of random play, render(view) is text (not a dict dump) and names no card the view hides."""

import json
import random

import pytest

import domain.games as games
from domain.kernel.rng import RandomStream

RENDERED = [ruleset for ruleset in games.all_latest() if ruleset.render]


def test_the_original_games_draw_their_boards():
    assert {"cyberiad", "cybermancy"} <= {ruleset.name for ruleset in RENDERED}


@pytest.mark.parametrize("ruleset", RENDERED, ids=[r.name for r in RENDERED])
def test_render_draws_every_view_of_random_play(ruleset):
    rand = random.Random(7)
    key = rand.randbytes(32)
    seats = max(2, ruleset.min_seats)
    state = ruleset.setup({}, [f"p{i}" for i in range(seats)], RandomStream(key, "r", 1))
    for seq in range(2, 120):
        for seat in [None, *range(seats)]:
            view = ruleset.view(state, seat)
            drawn = ruleset.render(view)
            assert isinstance(drawn, str) and drawn.strip() and not drawn.lstrip().startswith("{")
            assert len(drawn.splitlines()) >= 2
        if ruleset.outcome(state) is not None or not ruleset.to_act(state):
            break
        seat = min(ruleset.to_act(state))
        for fact in ruleset.decide(state, seat, ruleset.bots["random"](state, seat, rand), RandomStream(key, "r", seq)):
            state = ruleset.evolve(state, fact)


def test_a_hidden_hand_is_not_drawn():
    ruleset = games.latest("cybermancy")
    state = ruleset.setup({}, ["ann", "bob"], RandomStream(b"k" * 32, "r", 1))
    own = ruleset.view(state, 0)
    hand = own["players"][0]["hand"]
    assert all(card in ruleset.render(own) for card in hand)
    assert not any(card in ruleset.render(ruleset.view(state, 1)) for card in hand if card not in
                   json.dumps(ruleset.view(state, 1)))
