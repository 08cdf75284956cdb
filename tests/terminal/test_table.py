"""The terminal's loop (service/terminal/play.py) without a terminal: scripted answers, a
recording console, and a session that refuses a move once."""

import io
import uuid

from rich.console import Console

from domain.kernel.store import MatchStore
from service.matches import Arbiter
from service.terminal.play import Leave, Table
from service.terminal.session import LocalSession, Refused


class RefusingOnce(LocalSession):
    refused = False

    def act(self, seat, action):
        if not self.refused:
            self.refused = True
            raise Refused("illegal_action", "Gnostotron is not in your hand (a test's refusal)")
        return super().act(seat, action)


def table_with(sqlite_env, answers, session_type=LocalSession):
    arbiter = Arbiter(MatchStore(sqlite_env))
    created = arbiter.create_match("cyberiad", [{"name": "ann"}, {"bot": "random"}])
    console = Console(file=io.StringIO(), width=100, record=True)
    script = iter(answers)

    def ask(prompt):
        console.print(prompt, markup=False)
        answer = next(script, None)
        if answer is None:
            raise EOFError  # the script ran out: the person leaves
        return answer

    session = session_type(arbiter, uuid.UUID(created["match_id"]))
    return Table(session, [0], console, ask=ask), console


def test_a_refusal_shows_the_problems_detail_and_asks_again(sqlite_env):
    table, console = table_with(sqlite_env, ["1", "1", "q", "l"], RefusingOnce)
    try:
        table.play()
    except Leave:
        pass
    text = console.export_text()
    assert "refused (illegal_action): Gnostotron is not in your hand (a test's refusal)" in text
    assert text.count("ann (seat 0), your choice") >= 2, "asked again after the refusal"


def test_the_line_above_the_menu_names_the_seat_asked_and_unknown_keys_are_explained(sqlite_env):
    table, console = table_with(sqlite_env, ["?", "zz", "d", "99"])
    try:
        table.play()
    except Leave:
        pass
    text = console.export_text()
    assert "ann (seat 0) to choose" in text
    assert "'zz' is not a choice: type a number from 1 to" in text and "'99' is not a choice" in text
    assert "cards and tiles you can see" in text and "constructor" in text, "d: the catalog's details"
    assert "is asked to choose: pick" in text


def test_the_table_asks_at_the_terminal_through_keyboard_ask(sqlite_env, monkeypatch):
    """Without a scripted `ask`, the table reads each answer with keyboard.ask (where a Ctrl-C
    is never lost: tests/terminal/test_keyboard.py), not input()."""
    from service.terminal import keyboard

    arbiter = Arbiter(MatchStore(sqlite_env))
    created = arbiter.create_match("cyberiad", [{"name": "ann"}, {"bot": "random"}])
    console = Console(file=io.StringIO(), width=100)
    asked = []
    monkeypatch.setattr(keyboard, "ask", lambda console_, prompt: asked.append((console_, prompt)) or "7")
    table = Table(LocalSession(arbiter, uuid.UUID(created["match_id"])), [0], console)
    assert table.ask("your choice: ") == "7" and asked == [(console, "your choice: ")]
