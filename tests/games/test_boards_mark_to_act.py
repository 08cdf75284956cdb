"""The boards mark the seats the rules ask to act, not the turn's seat alone: Cybermancy's
marked the turn's seat in a queued step (advance, mulligan, last summon, draft), Cyberiad's
the first player while Constructors were picked, HeroCard's the priority while a discard was
pending, Cyberspace's the turn's seat (a hijacker, the card duel's priority, a duel's players
asked) and its card duel's panels the priority.

Whom the rules ask comes beside the view (`render(view, to_act)`, the board answer's
`to_act` on the page), never inside it: the view of the set-up is part of every match's
audited public record, so a new key there would make every stored match fail its audit."""

import os
import random

import pytest
from rich.console import Console

import domain.games  # noqa: F401  (registers the games)
from domain.kernel.rng import RandomStream
from domain.kernel.ruleset import latest

SEATS = 3
# game: (the seat its boards used to mark, a seat's panel title on the terminal board,
#        whether the state has panels to mark)
CASES = {
    "cybermancy": (lambda state: state["turn"], lambda seat: f"▶ seat {seat}", lambda state: True),
    "cyberiad": (lambda state: state["turn"]["seat"], lambda seat: f"▶ seat {seat} ·", lambda state: True),
    "herocard": (lambda state: state["duel"]["priority"], lambda seat: f"▶ p{seat}", lambda state: True),
    # only a card duel draws seat panels on the terminal
    "cyberspace": (lambda state: state["cards"]["priority"] if state["cards"] else state["turn"],
                   lambda seat: f"▶ seat {seat}", lambda state: state["cards"] is not None),
}


def drawn(ruleset, state, asked) -> str:
    console = Console(record=True, width=160, file=open(os.devnull, "w"))
    console.print(ruleset.render(ruleset.view(state, None), asked))
    return console.export_text()


@pytest.mark.parametrize("game", sorted(CASES))
def test_the_terminal_board_marks_whom_the_rules_ask_where_the_turns_seat_is_not_asked(game):
    ruleset = latest(game)
    old_mark, title, has_panels = CASES[game]
    checked = 0
    for match in range(3):
        rand = random.Random(match)
        key = rand.randbytes(32)
        state = ruleset.setup({}, [f"p{s}" for s in range(SEATS)], RandomStream(key, "t", 1))
        for seq in range(2, 3000):
            if ruleset.outcome(state) is not None or checked >= 12:
                break
            asked = sorted(ruleset.to_act(state))
            if asked != [old_mark(state)] and has_panels(state):
                checked += 1
                text = drawn(ruleset, state, asked)
                assert [s for s in range(SEATS) if title(s) in text] == asked, text
            seat = rand.choice(asked)
            action = rand.choice(ruleset.legal_actions(state, seat))
            for fact in ruleset.decide(state, seat, action, RandomStream(key, "t", seq)):
                state = ruleset.evolve(state, fact)
    assert checked, "no step asked another seat than the one the board used to mark: the test proves nothing"


@pytest.mark.parametrize("game", sorted(CASES))
def test_whom_the_rules_ask_is_not_in_the_view(game):
    """The audited public form of a match's set-up is the view (kernel/redaction.py): it stays
    what earlier builds recorded."""
    ruleset = latest(game)
    state = ruleset.setup({}, [f"p{s}" for s in range(SEATS)], RandomStream(bytes(32), "t", 1))
    assert "to_act" not in ruleset.view(state, None)
