"""The boards mark the seat the rules ask to act, not the turn's seat alone. HeroCard's
panels marked the seat with priority (while a discard was pending another seat was asked);
Cyberspace's page marked the turn's seat (while a hijacker, a card duel's priority or a
duel's players were asked) and its terminal board the card duel's priority. Each view now carries `to_act`, the rules' own answer, for every step of
random play; the page (viewer.js) and the terminal board (render.py) read it."""

import os
import random

import pytest
from rich.console import Console

import domain.games  # noqa: F401  (registers the games)
from domain.kernel.rng import RandomStream
from domain.kernel.ruleset import latest

# (game, the seat its boards used to mark, a seat's panel title on the terminal board)
CASES = [
    ("herocard", lambda state: state["duel"]["priority"], lambda seat: f"▶ p{seat}"),
    # the card duel's panels marked its priority; the page marked the turn's seat
    ("cyberspace", lambda state: state["cards"]["priority"] if state["cards"] else state["turn"],
     lambda seat: f"▶ seat {seat}"),
]


@pytest.mark.parametrize("game, turns_seat, title", CASES, ids=[c[0] for c in CASES])
def test_the_view_and_the_terminal_board_name_whom_the_rules_ask(game, turns_seat, title):
    seats = 3
    ruleset = latest(game)
    differed = drawn_checked = 0
    for match in range(3):
        rand = random.Random(match)
        key = rand.randbytes(32)
        state = ruleset.setup({}, [f"p{s}" for s in range(seats)], RandomStream(key, "t", 1))
        for seq in range(2, 3000):
            if ruleset.outcome(state) is not None:
                break
            asked = sorted(ruleset.to_act(state))
            for seat in (None, *range(seats)):
                assert ruleset.view(state, seat)["to_act"] == asked
            if asked != [turns_seat(state)]:
                differed += 1
                if drawn_checked < 5 and (game != "cyberspace" or state["cards"] is not None):
                    # the terminal marks exactly the asked seats' panels
                    drawn_checked += 1
                    console = Console(record=True, width=160, file=open(os.devnull, "w"))
                    console.print(ruleset.render(ruleset.view(state, None)))
                    drawn = console.export_text()
                    assert [s for s in range(seats) if title(s) in drawn] == asked, drawn
            seat = rand.choice(asked)
            action = rand.choice(ruleset.legal_actions(state, seat))
            for fact in ruleset.decide(state, seat, action, RandomStream(key, "t", seq)):
                state = ruleset.evolve(state, fact)
    assert differed and drawn_checked, "no step asked another seat than the turn's: the test proves nothing"
