"""Only a seat the rules ask acts: each game's own decide refuses any other seat's action, with
a reason, not only the kernel's Match.act in front of it. A bot, the search's playouts, the
audit and any tool that steps a state with the rules alone call decide directly.

Random matches of every game; at every position, each seat not asked posts each action the
asked seat has listed (the likeliest to pass a check that looks at the action, not the seat).
The state must be left as it was."""

import random
import uuid

import pytest

import domain.games  # noqa: F401  (registers the games)
from domain.kernel.canonical import canonical_json, json_copy
from domain.kernel.errors import IllegalAction
from domain.kernel.match import Match
from domain.kernel.rng import RandomStream
from domain.kernel.ruleset import latest

OPTIONS = {"algomancy": {"turn_limit": 3}, "cyberspace": {"size": 5, "duels": "bit"}}
MATCHES, POSITIONS = 4, 150  # per game: each match stops at its end or after POSITIONS


@pytest.mark.parametrize("game", ["algomancy", "cyberiad", "cybermancy", "cybermen", "cyberspace", "herocard"])
def test_the_rules_refuse_an_action_by_a_seat_they_do_not_ask(game):
    ruleset, refused = latest(game), 0
    for number in range(MATCHES):
        seats = 2 + number % 2 if game != "herocard" else 2
        choose = random.Random(number)
        seed = number.to_bytes(32, "big")
        match = Match.start(uuid.UUID(int=number + 1), ruleset, [f"p{i}" for i in range(seats)],
                            OPTIONS.get(game, {}), {}, seed)
        for position in range(POSITIONS):
            asked = match.to_act()
            if not asked:
                break
            seat = choose.choice(asked)
            listed = ruleset.legal_actions(match.state, seat)
            before = canonical_json(match.state)
            for other in sorted(set(range(seats)) - set(asked)):
                for action in listed[:8]:
                    rng = RandomStream(seed, str(match.id), match.version + 1)
                    with pytest.raises(IllegalAction) as refusal:
                        ruleset.decide(json_copy(match.state), other, json_copy(action), rng)
                    assert refusal.value.args and all(refusal.value.args), (game, position, other, action)
                    refused += 1
            assert canonical_json(match.state) == before
            match.act(seat, ruleset.bots["random"](match.state, seat, choose), seed, listed=True)
    assert refused >= 100, f"only {refused} actions by seats not asked were tried"
