"""The boards mark the seat the rules ask to act (a page showed "ann to act" in the advance
step while the rules, the header and the panel waited for bob): the view carries `to_act`,
the rules' own answer, for every step of random play, and it is not always the turn's seat."""

import random

from domain.games.cybermancy import RULESET
from domain.kernel.rng import RandomStream


def test_the_view_names_whom_the_rules_ask_to_act_in_every_step_not_the_turns_seat():
    rand = random.Random(5)
    key = rand.randbytes(32)
    state = RULESET.setup({}, ["ann", "bob"], RandomStream(key, "t", 1))
    differed = 0
    for seq in range(2, 3000):
        if RULESET.outcome(state) is not None:
            break
        asked = sorted(RULESET.to_act(state))
        for seat in (None, 0, 1):
            assert RULESET.view(state, seat)["to_act"] == asked
        differed += asked != [state["turn"]]
        (seat,) = asked
        action = rand.choice(RULESET.legal_actions(state, seat))
        for fact in RULESET.decide(state, seat, action, RandomStream(key, "t", seq)):
            state = RULESET.evolve(state, fact)
    assert differed, "no step asked another seat than the turn's: the test proves nothing"
