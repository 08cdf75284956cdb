"""Whom the rules ask (to_act) tells no reader anything its view hides.

The board answer, the state answer (service/matches.py state_at, at any past version) and
the summary give every reader, spectators included, `to_act` beside the view, and the boards
now mark it. Were to_act to read a hidden zone (a prompt only when a hand or deck holds a
card, a duel whose seats are asked only when they hold a playable card), the mark would say
it. So the rules' own to_act, run on each reader's view (renamed into the state's shape, and
nothing else taken from the state), must name the same seats as on the full state, at every
position of random matches, for the spectator and every seat."""

import random
import uuid

import pytest

import domain.games  # noqa: F401  (registers the games)
from domain.kernel.match import Match
from domain.kernel.ruleset import latest


def _as_state(game, view):
    """The view in the shape to_act reads: only fields renamed or regrouped from the view."""
    if game == "herocard":
        return {"duel": view}
    if game == "cybermancy":
        return {**view, "queue": view["to_act_queue"]}
    if game == "cyberiad":
        players = view["players"]
        return {**view, "seats": len(players), "constructors": [p["constructor"] for p in players],
                "out": [p["out"] for p in players]}
    return view


@pytest.mark.parametrize("game", ["algomancy", "cyberiad", "cybermancy", "cybermen", "cyberspace", "herocard"])
def test_to_act_follows_from_every_readers_view(game):
    ruleset = latest(game)
    positions = 0
    for number in range(6):
        seats = 2 + number % 2
        choose = random.Random(number)
        seed = number.to_bytes(32, "big")
        match = Match.start(uuid.UUID(int=number + 1), ruleset, [f"p{i}" for i in range(seats)], {}, {}, seed)
        while match.to_act() and positions < 1500 * (number + 1):
            truth = set(ruleset.to_act(match.state))
            for reader in [None, *range(seats)]:
                seen = set(ruleset.to_act(_as_state(game, ruleset.view(match.state, reader))))
                assert seen == truth, (number, match.version, reader)
            positions += 1
            seat = choose.choice(match.to_act())
            match.act(seat, ruleset.bots["random"](match.state, seat, choose), seed, listed=True)
    assert positions > 100
