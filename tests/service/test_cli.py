"""The `arbiter` command: games, play (bots and a human at the keyboard), show, export."""

import json
import re

import pytest

from click.testing import CliRunner

from service.cli import main


@pytest.fixture(autouse=True)
def sessions_file(tmp_path, monkeypatch):
    """The matches a terminal remembers, kept in the test's folder (not the user's home)."""
    monkeypatch.setenv("ARBITER_SESSIONS", str(tmp_path / "sessions.json"))


def run(env, *args, input=None):
    result = CliRunner().invoke(main, list(args), env=env, input=input)
    assert result.exit_code == 0, result.output
    return result.output


def test_games_lists_cyberiad(sqlite_env):
    assert "cyberiad" in run(sqlite_env, "games")


def test_bots_play_a_whole_match_then_show_and_export(sqlite_env):
    output = run(sqlite_env, "play", "cyberiad", "--seats", "3", "--bot", "0", "--bot", "1", "--bot", "2")
    match_id = re.search(r"match (\S+) created", output).group(1)
    assert "game over" in output and "seed revealed" in output
    shown = json.loads(run(sqlite_env, "show", match_id))
    assert shown["summary"]["status"] == "ended" and shown["summary"]["match_id"] == match_id
    assert "board" in shown
    pretty = run(sqlite_env, "show", match_id, "--pretty")
    assert re.search(r"status\s+│?\s*ended", pretty) and "Cyberiad · " in pretty
    exported = CliRunner().invoke(main, ["export", match_id], env=sqlite_env)
    events = [json.loads(line) for line in exported.stdout_bytes.splitlines()]
    assert events[0]["type"] == "MatchCreated" and events[-1]["type"] == "MatchEnded"


def human_plays_entry_one(env) -> str:
    """Seat 0 is human: entry 1 whenever asked; the input runs out and the person leaves."""
    result = CliRunner().invoke(main, ["play", "cyberiad", "--seats", "2", "--bot", "1"],
                                env=env, input="1\n" * 400)
    return result.output


def first_match_where(sqlite_env, tmp_path, play, holds, what: str, matches: int = 5) -> tuple[dict, str]:
    """(the store's environment, `play(env)`'s output) of the first match whose output `holds`,
    each played in a new store: the deal is the store's, not the test's, so a match whose deal
    never brings the position a test reads is set aside and a fresh one played."""
    for attempt in range(matches):
        env = {**sqlite_env, "ARBITER_DATA_DIR": str(tmp_path / f"match{attempt}")}
        output = play(env)
        if holds(output):
            return env, output
    raise AssertionError(f"in {matches} matches {what}")


def test_a_human_seat_sees_its_own_hand_and_picks_by_number(sqlite_env, tmp_path):
    # Entry 1 can be "use Machine to Ask Questions" again and again, which puts the person out
    # on the first turn (20 Trouble points) before the bot has had one: such a match is set aside.
    _, output = first_match_where(sqlite_env, tmp_path, human_plays_entry_one,
                                  lambda output: "bot-random-1's turn began" in output.split("the match is over")[0],
                                  "the person went out before the bot had a turn")
    running = output.split("the match is over")[0]
    assert "seat0 (seat 0), your choice" in output
    # The board is drawn, not dumped: the human sees their own cards by name, the bot's as backs.
    assert re.search(r"seat 0 · \w+", output) and re.search(r"FP \d+  TP \d+", output)
    assert re.search(r"hand \d+/10\s+[A-Z]", output), "the human's own hand by card names"
    assert re.search(r"hand \d+/10\s+▒+ \d+ cards", output), "the bot's hand as backs"
    assert "'hand'" not in output
    # the bot's moves are told in words as seat 0 may read them: its draws, never the cards drawn
    # (once the match is over every card is public: its last telling shows them, by design)
    assert re.search(r"^\s+bot-random-1 drew a card$", running, re.M)
    assert not re.search(r"bot-random-1 drew (?!a card|\d+ cards)", running)


def test_unknown_match_is_a_clear_error(sqlite_env):
    run(sqlite_env, "play", "cyberiad", "--bot", "0", "--bot", "1")  # the store exists
    result = CliRunner().invoke(main, ["show", "not-a-match"], env=sqlite_env)
    assert result.exit_code != 0 and "no match 'not-a-match' in the store at" in result.output


def test_greedy_bots_play_cybermancy_teams(sqlite_env):
    output = run(sqlite_env, "play", "cybermancy", "--seats", "4", "--options", '{"mode": "teams"}',
                 "--bot", "0", "--bot", "1", "--bot", "2", "--bot", "3", "--bot-kind", "greedy")
    assert "game over" in output and "'winners': [" in output


def test_replay_steps_event_by_event(sqlite_env, tmp_path):
    output = run(sqlite_env, "play", "cyberiad", "--seats", "2", "--bot", "0", "--bot", "1")
    match_id = re.search(r"match (\S+) created", output).group(1)
    exported = tmp_path / "match.ndjson"
    run(sqlite_env, "export", match_id, "-o", str(exported))
    stepped = run(sqlite_env, "replay", str(exported), "--step", input="\n\nq\n")
    assert stepped.count("Cyberiad · ") == 3, "one board a step, stopping at q"
    assert "#4" in stepped and "#5" not in stepped, "q after the third event stops the replay"


def test_bot_moves_and_replays_read_as_words_not_json(sqlite_env, tmp_path):
    """The terminal tells the log in the games' own words (domain/games/<game>/words.py): each
    bot move and what it caused, and `arbiter replay` event by event, as the seat saw it.

    Seat 1 may move first and put itself out (20 Trouble points) before seat 0 has had a turn,
    so seat 0 never draws a card to read as its own (one deal in about 1,700): such a match is
    set aside."""
    env, output = first_match_where(sqlite_env, tmp_path,
                                    lambda env: run(env, "play", "cyberiad", "--seats", "2", "--bot", "0", "--bot", "1"),
                                    lambda output: "bot-random-0's turn began" in output, "seat 0 never had a turn")
    told = [line for line in output.splitlines() if re.match(r"#\d+ ", line)]
    assert len(told) > 10 and re.search(r"#\d+ bot-random-[01] (picked|played|ended|used)", output)
    match_id = re.search(r"match (\S+) created", output).group(1)
    exported = tmp_path / "match.ndjson"
    run(env, "export", match_id, "-o", str(exported))
    replayed = run(env, "replay", str(exported), "--seat", "0")
    lines = [line for line in replayed.splitlines() if re.match(r"#\d+ ", line.strip())]
    assert lines and not [line for line in replayed.splitlines() if re.search(r"[{}=]|\"f\":", line)]
    assert re.search(r"#\d+ you (picked|played|ended|used)", replayed) and re.search(r"^\s+you drew [A-Z]", replayed, re.M)
