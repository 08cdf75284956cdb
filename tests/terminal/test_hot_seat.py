"""`arbiter play` in a pseudo-terminal, every game to its end, typing only what the menus
offer: seat 0 is the person (both seats in Cyberiad, passing the terminal), the other a bot.
Small set-ups keep each match short (Algomancy's turn limit, a 5x5 Cyberspace with Bit Duels)."""

import re

import orjson
import pytest

from .driver import Person, environment, spawn

GAMES = {
    "algomancy": ["--options", orjson.dumps({"turn_limit": 2}).decode(), "--bot", "1"],
    "cyberiad": [],  # two people at one keyboard
    "cybermancy": ["--bot", "1", "--bot-kind", "greedy"],
    "cybermen": ["--bot", "1"],
    "cyberspace": ["--options", orjson.dumps({"size": 5, "duels": "bit"}).decode(), "--bot", "1"],
    "herocard": ["--bot", "1", "--bot-kind", "greedy"],
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_whole_match_is_played_by_menu_choices_alone(game, tmp_path):
    child = spawn(["play", game, *GAMES[game]], environment(tmp_path))
    person = Person(child, seed=sum(map(ord, game)))
    end = person.play_to_end(most=8000)  # a random person's Cybermen match may take thousands of answers
    child.expect(pexpect_eof())
    assert person.moves > 3 and re.search(r"game over: (ended|abandoned)", end), end
    seen = "".join(person.screens)
    assert not re.search(r'\{"type"|"type":', seen), "an action shown as raw JSON"
    if game == "cyberiad":
        assert set(person.asked) == {0, 1}, "both people were asked, each by name"
        assert "Pass the terminal to seat1 (seat 1)" in seen
    # what happened since the last turn, in the game's words: the bot's moves read as sentences
    assert re.search(r"#\d+ (bot-\w+-1|seat1) \w+", seen), seen[-3000:]


def pexpect_eof():
    import pexpect
    return pexpect.EOF
