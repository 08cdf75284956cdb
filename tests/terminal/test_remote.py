"""`arbiter play --server`: a seat of a match on a running `arbiter serve`, over its public
HTTP API and live stream, with the same board and menus as hot-seat play. Every game is joined
(`--join`) and played against the server's bot; two terminals play a whole Cyberiad match
against each other; Ctrl-C then --resume takes a match up again."""

import re
import signal
import time

import pexpect
import pytest

from .driver import ITEMS, LEFT, MENU, OVER, Person, Server, environment, spawn

OPTIONS = {"algomancy": {"turn_limit": 2}, "cyberspace": {"size": 5, "duels": "bit"}}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    running = Server(tmp_path_factory.mktemp("served"))
    yield running
    running.close()


@pytest.mark.parametrize("game", ["algomancy", "cyberiad", "cybermancy", "cybermen", "cyberspace", "herocard"])
def test_a_person_joins_a_servers_match_and_plays_it(game, server, tmp_path):
    """A dozen moves in each game's menus, every one recorded by the server, then Ctrl-C and
    resign ends it (the two-terminal test below plays a whole match)."""
    lobby = server.post("/v1/matches", {"game": game, "seats": [{"open": True}, {"bot": "greedy"}],
                                        "options": OPTIONS.get(game, {})})
    assert lobby["status"] == "open"
    child = spawn(["play", "--server", server.url, "--join", lobby["match_id"], "--name", "ann"],
                  environment(tmp_path))
    child.expect(r"joined match \S+ as ann \(seat 0\)")
    person = Person(child, seed=len(game))
    ended = False
    while person.moves < 12 and not ended:
        ended = person.step() == OVER
    if not ended:
        played = server.get(f"/v1/matches/{lobby['match_id']}")
        mine = [r for r in server.get(f"/v1/matches/{lobby['match_id']}/log?limit=1000&min_version={played['version']}")["events"]
                if r["type"] == "ActionTaken" and r["data"]["seat"] == 0]
        assert mine, "the moves were the server's"
        ended = played["status"] != "running"  # the bot's reply to the last move may have ended it
    if not ended:
        # the last move, or the bot's reply to it, may end the match after the summary was read
        ended = child.expect([MENU, ITEMS, OVER]) == 2
    if not ended:
        child.sendintr()
        child.expect(r"\[r\]esign")
        child.sendline("r")
        child.expect(r"ann \(seat 0\) resigned")
        child.expect(OVER)
    child.expect(pexpect.EOF)
    summary = server.get(f"/v1/matches/{lobby['match_id']}")
    recorded = [r for r in server.get(f"/v1/matches/{lobby['match_id']}/log?limit=1000&min_version={summary['version']}")["events"]
                if r["type"] == "ActionTaken" and r["data"]["seat"] == 0]
    # each recorded action of seat 0 was chosen on this screen (a move may take several answers)
    assert summary["status"] == "ended" and 0 < len(recorded) <= person.moves
    assert set(person.asked) == {0}
    assert not re.search(r'\{"type"|"type":', "".join(person.screens))


def test_two_terminals_play_one_match_on_one_server(server, tmp_path):
    people = play_two_terminals(server, tmp_path)
    # each terminal told the other's moves in words, as its own seat may read them
    assert re.search(r"#\d+ bob \w+", "".join(people["ann"].screens))
    assert re.search(r"#\d+ ann \w+", "".join(people["bob"].screens))


def play_two_terminals(server, tmp_path, game="cyberiad", after_a_while=None) -> dict:
    """ann hosts a match of `game` in one terminal, bob joins it in another, and each answers
    its own questions to the end (`after_a_while(match_id)` is called once after a few moves); the
    two Persons check every screen before a question names no other seat as the one to play."""
    host = spawn(["play", game, "--server", server.url, "--name", "ann"], environment(tmp_path / "a"))
    host.expect(r"arbiter play --server (\S+) --join (\S+) --name THEIR_NAME")
    match_id = host.match.group(2)
    guest = spawn(["play", "--server", server.url, "--join", match_id, "--name", "bob"], environment(tmp_path / "b"))
    guest.expect(r"joined match \S+ as bob \(seat 1\)")
    people = {"ann": Person(host, seed=1), "bob": Person(guest, seed=2)}
    over, deadline = set(), time.monotonic() + 120
    while over != set(people) and time.monotonic() < deadline:
        if after_a_while and sum(p.moves for p in people.values()) >= 6:
            after_a_while, _ = None, after_a_while(match_id)
        for name, person in people.items():
            # each answers its own questions; a terminal whose seat is not asked is quiet a while
            if name not in over and person.step(until=(OVER,), timeout=0.1, quiet_ok=True) == OVER:
                over.add(name)
    assert over == set(people)
    assert set(people["ann"].asked) == {0} and set(people["bob"].asked) == {1}
    assert server.get(f"/v1/matches/{match_id}")["status"] == "ended"
    return people


def test_a_terminal_shows_the_match_as_it_stands_while_the_read_models_lag_behind(tmp_path):
    """(Found by a suite run with a slower projector.) The board and the log are read models,
    kept by a projector that may lag behind the store (in its own process, up to 100 ms after a
    quiet spell, or paused): the terminal reads them at the version its summary says, or a
    seat was asked to choose under a board naming the other seat to play. Here the projector is
    paused after a few moves for the rest of the match."""
    (tmp_path / "served").mkdir()
    server = Server(tmp_path / "served", own_projector=True)
    try:
        def pause_the_projector_once_it_has_the_match(match_id):
            deadline = time.monotonic() + 30
            while server.get(f"/v1/matches/{match_id}/board")["source"] != "read_model":
                assert time.monotonic() < deadline, "the projector never projected the match"
                time.sleep(0.05)
            server.projector.send_signal(signal.SIGSTOP)

        people = play_two_terminals(server, tmp_path, after_a_while=pause_the_projector_once_it_has_the_match)
        assert server.projector.poll() is None, "the projector was paused, not gone"
        assert sum(p.moves for p in people.values()) > 12, "most of the match was played with the read models behind"
    finally:
        server.close()


def test_ctrl_c_leaves_and_resume_takes_the_same_match_up(server, tmp_path):
    env = environment(tmp_path)
    child = spawn(["play", "herocard", "--server", server.url, "--name", "ann", "--bot", "1", "--bot-kind", "greedy"],
                  env)
    person = Person(child, seed=5)
    for _ in range(4):
        person.step()
    child.expect([MENU, ITEMS])  # a question: Ctrl-C may come at any
    child.sendintr()
    child.expect(r"\[l\]eave")
    child.sendline("l")
    child.expect(LEFT)
    match_id = child.match.group(1)
    child.expect(pexpect.EOF)
    summary = server.get(f"/v1/matches/{match_id}")
    assert summary["status"] == "running", "leaving leaves the match as it is"
    listed = spawn(["matches"], env)
    listed.expect(pexpect.EOF)
    assert match_id[:8] in listed.before and "running" in listed.before
    again = spawn(["play", "--resume", match_id], env)
    resumed = Person(again, seed=6)
    for _ in range(30):  # a step may be one item of a choice: step until a move is posted
        resumed.step()
        if server.get(f"/v1/matches/{match_id}")["version"] > summary["version"]:
            break
    assert resumed.moves > 0 and set(resumed.asked) == {0}
    assert server.get(f"/v1/matches/{match_id}")["version"] > summary["version"], "the same match went on"
    again.expect([MENU, ITEMS])
    again.sendintr()
    again.expect(r"\[r\]esign")
    again.sendline("r")
    again.expect(r"ann \(seat 0\) resigned")
    again.expect(r"game over: ended; won by bot-greedy-1 \(seat 1\)")
    assert server.get(f"/v1/matches/{match_id}")["outcome"]["winners"] == [1]


def test_ctrl_c_in_the_lobby_gives_the_seat_up(server, tmp_path):
    host = spawn(["play", "herocard", "--server", server.url, "--name", "ann"], environment(tmp_path))
    host.expect(r"--join (\S+) --name THEIR_NAME")
    match_id = host.match.group(1)
    host.expect(r"waiting for 1 more player to join")
    host.sendintr()
    host.expect(r"left the lobby of match \S+: your seat is open again")
    host.expect(pexpect.EOF)
    seats = server.get(f"/v1/matches/{match_id}")["seats"]
    assert [seat["open"] for seat in seats] == [True, True]
