"""The listing's plays need no payment check of their own (issue 32): every payment it lists is
one `play_refusal` accepts, and every play `play_refusal` accepts with the cheapest payment is
listed; the search's progress reads a play area once and gives what fame and trouble give."""

import pytest

from domain.games.cyberiad import RULESET
from domain.games.cyberiad.board import fame, trouble
from domain.games.cyberiad.rules import FAME_TO_WIN, TROUBLE_TO_LOSE, play_refusal
from domain.games.cyberiad.search import progress

from ..replay import random_play
from .table import table


@pytest.mark.parametrize("seats,policy", [(2, "random"), (3, "greedy"), (4, "random"), (2, "greedy")])
def test_every_listed_play_is_accepted_and_every_payable_card_listed(seats, policy):
    def listing_holds(state):
        for seat in RULESET.to_act(state):
            plays = [a for a in RULESET.legal_actions(state, seat) if a["type"] == "play"]
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
                assert progress(state, s) == fame(state, s) / FAME_TO_WIN - (trouble(state, s) / TROUBLE_TO_LOSE) ** 2

    def checks(setup):
        listing_holds(setup)
        return lambda step: listing_holds(step.state)
    for match in range(3):
        random_play(RULESET, {}, seats, f"listed-{seats}-{policy}-{match}", bots=(policy,), checks=checks)


def test_no_listed_payment_names_a_card_twice():
    # A hand holding an instance twice (no play deals one: a guard) never pays with it twice,
    # as `payment_refusal` would refuse: Altruizine costs X, one listing per X.
    state = table(hands=[["altruizine", "thinking-machine", "thinking-machine"], []])
    pays = [a["pay"] for a in RULESET.legal_actions(state, 0) if a["type"] == "play" and a["card"] == "altruizine"]
    assert pays == [["thinking-machine"]]
