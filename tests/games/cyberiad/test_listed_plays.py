"""The listing's plays need no payment check of their own (issue 32): every payment it lists is
one `play_refusal` accepts, and every play `play_refusal` accepts with the cheapest payment is
listed; the search's progress reads a play area once and gives what fame and trouble give."""

import random

import pytest

from domain.games.cyberiad import RULESET
from domain.games.cyberiad.board import fame, trouble
from domain.games.cyberiad.rules import FAME_TO_WIN, TROUBLE_TO_LOSE, play_refusal
from domain.games.cyberiad.search import progress
from domain.kernel.rng import RandomStream

from .table import table


@pytest.mark.parametrize("seats,policy", [(2, "random"), (3, "greedy"), (4, "random"), (2, "greedy")])
def test_every_listed_play_is_accepted_and_every_payable_card_listed(seats, policy):
    rand = random.Random(f"listed-{seats}-{policy}")
    for match in range(3):
        key = rand.randbytes(32)
        state = RULESET.setup({}, [f"p{i}" for i in range(seats)], RandomStream(key, "listed", 1))
        for seq in range(2, 3000):
            if RULESET.outcome(state) is not None:
                break
            seat = min(RULESET.to_act(state))
            listed = RULESET.legal_actions(state, seat)
            plays = [a for a in listed if a["type"] == "play"]
            for action in plays:
                assert play_refusal(state, seat, action["card"], action["pay"]) is None
                assert len(set(action["pay"])) == len(action["pay"]) and action["card"] not in action["pay"]
            if not state["prompt"] and state["phase"] == "play":
                hand = state["hands"][seat]
                for instance in hand:  # paying with every other card covers any cost there is
                    everything = [i for i in hand if i != instance]
                    if everything and play_refusal(state, seat, instance, everything) is None:
                        assert any(a["card"] == instance for a in plays), instance
            for s in range(seats):
                if not state["out"][s]:
                    assert progress(state, s) == (fame(state, s) / FAME_TO_WIN
                                                  - (trouble(state, s) / TROUBLE_TO_LOSE) ** 2)
            action = RULESET.bots[policy](state, seat, rand)
            for fact in RULESET.decide(state, seat, action, RandomStream(key, "listed", seq)):
                state = RULESET.evolve(state, fact)


def test_no_listed_payment_names_a_card_twice():
    # A hand holding an instance twice (no play deals one: a guard) never pays with it twice,
    # as `payment_refusal` would refuse: Altruizine costs X, one listing per X.
    state = table(hands=[["altruizine", "thinking-machine", "thinking-machine"], []])
    pays = [a["pay"] for a in RULESET.legal_actions(state, 0) if a["type"] == "play" and a["card"] == "altruizine"]
    assert pays == [["thinking-machine"]]
