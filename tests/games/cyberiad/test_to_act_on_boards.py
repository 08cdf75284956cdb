"""The boards mark the seat the rules ask to act: the view carries `to_act`, the rules' own
answer, for every step of random play. It is not always the turn's seat: while Constructors
are picked the turn's seat is the first player's, and a prompt may ask another seat; the
page marked the turn's seat "to play" there while the rules waited for someone else."""

import os
import random

from domain.games.cyberiad import RULESET
from domain.games.cyberiad.render import render
from domain.kernel.rng import RandomStream
from rich.console import Console


def test_the_view_names_whom_the_rules_ask_to_act_in_every_step_not_the_turns_seat():
    differed = 0
    for game in range(3):
        rand = random.Random(game)
        key = rand.randbytes(32)
        state = RULESET.setup({}, ["ann", "bob", "cat"], RandomStream(key, "t", 1))
        for seq in range(2, 3000):
            if RULESET.outcome(state) is not None:
                break
            asked = sorted(RULESET.to_act(state))
            for seat in (None, 0, 1, 2):
                assert RULESET.view(state, seat)["to_act"] == asked
            differed += asked != [state["turn"]["seat"]]
            (seat,) = asked
            action = rand.choice(RULESET.legal_actions(state, seat))
            for fact in RULESET.decide(state, seat, action, RandomStream(key, "t", seq)):
                state = RULESET.evolve(state, fact)
        assert RULESET.view(state, None)["to_act"] == [], "nobody is asked once the game is over"
    assert differed, "no step asked another seat than the turn's: the test proves nothing"


def test_the_terminal_board_marks_the_picker_not_the_first_player():
    state = RULESET.setup({}, ["ann", "bob", "cat"], RandomStream(bytes(32), "t", 1))
    first = state["turn"]["seat"]  # the turn's seat while Constructors are picked
    picker = min(RULESET.to_act(state))
    for fact in RULESET.decide(state, picker, RULESET.legal_actions(state, picker)[0], RandomStream(bytes(32), "t", 2)):
        state = RULESET.evolve(state, fact)
    (asked,) = RULESET.to_act(state)
    assert asked != first, "the second pick is another seat's than the turn's"
    view = RULESET.view(state, None)
    assert view["to_act"] == [asked]
    console = Console(record=True, width=140, file=open(os.devnull, "w"))
    console.print(render(view))
    drawn = console.export_text()
    assert f"▶ seat {asked} ·" in drawn and f"▶ seat {first} ·" not in drawn, drawn
