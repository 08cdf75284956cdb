"""The match lifecycle over HTTP with real stores: lobby, bots, resign, abort, clocks,
idle abandonment, rematch; and the audit catching a forged timeout."""

import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import orjson
import pytest

from domain.kernel.audit import audit
from domain.kernel.clock import iso_time, parse_time
from service.api import create_app

from ..conftest import Served
from .helpers import bearer, rechain

ROOT = Path(__file__).resolve().parents[2]
ARBITER = str(Path(sys.executable).parent / "arbiter")


@pytest.fixture
def app(store_env):
    app = create_app(store_env)
    yield app
    app.extensions["arbiter"].store.close()  # give the PostgreSQL pool's connections back


@pytest.fixture
def http(app):
    return app.test_client()


def caught_up(app):
    app.extensions["projector"].catch_up()


def records(http, match_id) -> list[dict]:
    return [orjson.loads(line) for line in http.get(f"/v1/matches/{match_id}/export").data.splitlines()]


def play_out(http, match_id, tokens: dict[int, str], seed=0, limit=5000):
    """Seats with tokens take random legal actions until the match is over (bots answer inline)."""
    rand = random.Random(seed)
    for _ in range(limit):
        summary = http.get(f"/v1/matches/{match_id}").json
        if summary["status"] != "running":
            return summary
        seat = summary["to_act"][0]
        listed = http.get(f"/v1/matches/{match_id}/legal-actions", headers=bearer(tokens[seat])).json
        answer = http.post(f"/v1/matches/{match_id}/actions", headers=bearer(tokens[seat]),
                           json={"action": rand.choice(listed["actions"]), "expected_version": listed["version"]})
        assert answer.status_code == 201, answer.json
    raise AssertionError("the match did not end")


def test_a_three_seat_lobby_filled_by_two_joiners_and_a_bot(app, http):
    created = http.post("/v1/matches", json={"game": "cybermancy",
                                             "seats": [{"open": True}, {"open": True}, {"bot": "greedy"}]})
    assert created.status_code == 201, created.json
    body = created.json
    match_id, host = body["match_id"], body["host_token"]
    assert body["status"] == "open" and [s["open"] for s in body["seats"]] == [True, True, False]
    assert "token" not in body["seats"][2] and body["seats"][2]["bot"] == "greedy"
    caught_up(app)
    listed = http.get("/v1/lobbies?game=cybermancy").json["lobbies"]
    assert [(lobby["match_id"], lobby["open_seats"]) for lobby in listed] == [(match_id, [0, 1])]
    assert "seed" not in orjson.dumps(listed).decode() and "token" not in orjson.dumps(listed).decode()
    # Before the start nobody acts, and the host token is no seat token.
    assert http.get(f"/v1/matches/{match_id}").json["status"] == "open"
    assert http.post(f"/v1/matches/{match_id}/resign", headers=bearer(host)).status_code == 404
    ann = http.post(f"/v1/matches/{match_id}/join", json={"name": "ann", "entropy": "ann's dice"})
    assert ann.status_code == 201 and ann.json["seat"] == 0 and ann.json["status"] == "open"
    taken = http.post(f"/v1/matches/{match_id}/join", json={"name": "cat", "seat": 0})
    assert taken.status_code == 409 and taken.json["code"] == "seat_unavailable"
    bob = http.post(f"/v1/matches/{match_id}/join", json={"name": "bob"})
    assert bob.status_code == 201 and bob.json["seat"] == 1 and bob.json["status"] == "running"
    late = http.post(f"/v1/matches/{match_id}/join", json={"name": "dan"})
    assert late.status_code == 409 and late.json["code"] == "lobby_closed"
    summary = http.get(f"/v1/matches/{match_id}").json
    assert [s["name"] for s in summary["seats"]] == ["ann", "bob", "bot-greedy-2"] and summary["bots"] == {"2": "greedy"}
    assert summary["commitment"] == body["commitment"], "the seed committed at opening is the match's"
    caught_up(app)
    assert http.get("/v1/lobbies?game=cybermancy").json["lobbies"] == []
    ended = play_out(http, match_id, {0: ann.json["token"], 1: bob.json["token"]})
    assert ended["status"] == "ended"
    seats_acting = {r["data"]["seat"] for r in records(http, match_id) if r["type"] == "ActionTaken"}
    assert seats_acting == {0, 1, 2}, "the server's bot played its seat"
    report = http.get(f"/v1/matches/{match_id}/audit").json
    assert report["ok"], report["summary"]
    assert records(http, match_id)[0]["data"]["entropy"] == {"ann": "ann's dice"}


def test_leave_and_host_start(app, http):
    body = http.post("/v1/matches", json={"game": "cyberiad", "seats": ["ann", {"open": True}, {"open": True}]}).json
    match_id = body["match_id"]
    bob = http.post(f"/v1/matches/{match_id}/join", json={"name": "bob"}).json
    left = http.post(f"/v1/matches/{match_id}/leave", headers=bearer(bob["token"]))
    assert left.status_code == 200 and left.json["open_seats"] == [1, 2]
    assert http.post(f"/v1/matches/{match_id}/start", headers=bearer(body["seats"][0]["token"])).status_code == 403
    few = http.post(f"/v1/matches/{match_id}/start", headers=bearer(body["host_token"]))
    assert few.status_code == 409 and few.json["code"] == "not_enough_players"
    cat = http.post(f"/v1/matches/{match_id}/join", json={"name": "cat"}).json
    started = http.post(f"/v1/matches/{match_id}/start", headers=bearer(body["host_token"]))
    assert started.status_code == 200 and started.json["status"] == "running"
    assert [s["name"] for s in started.json["seats"]] == ["ann", "cat"], "open seats are dropped at a host start"
    assert http.get(f"/v1/matches/{match_id}/legal-actions", headers=bearer(cat["token"])).json["seat"] == 1


def test_resign_in_two_players_then_rematch(app, http):
    body = http.post("/v1/matches", json={"game": "cyberiad", "seats": ["ann", "bob"]}).json
    match_id, tokens = body["match_id"], [s["token"] for s in body["seats"]]
    resigned = http.post(f"/v1/matches/{match_id}/resign", headers=bearer(tokens[0]))
    assert resigned.status_code == 201, resigned.json
    assert resigned.json["status"] == "ended" and resigned.json["outcome"]["winners"] == [1]
    assert resigned.json["outcome"]["reason"] == "resigned" and resigned.json["outcome"]["resigned"] == [0]
    assert [r["type"] for r in records(http, match_id)][-2:] == ["SeatResigned", "MatchEnded"]
    assert http.post(f"/v1/matches/{match_id}/resign", headers=bearer(tokens[1])).status_code == 409
    assert http.get(f"/v1/matches/{match_id}/audit").json["ok"]
    caught_up(app)
    stats = http.get("/v1/stats/cyberiad").json
    assert stats["resigns"] == 1 and stats["end_reasons"] == {"resigned": 1}
    assert http.get("/v1/players/ann").json["by_game"]["cyberiad"]["resigned"] == 1
    # Rematch: seats rotated, each player's old token opens their new seat; asked twice, one rematch.
    again = http.post(f"/v1/matches/{match_id}/rematch", headers=bearer(tokens[1]))
    assert again.status_code == 201 and again.json["rematch_of"] == match_id
    assert [s["name"] for s in again.json["seats"]] == ["bob", "ann"]
    new_id = again.json["match_id"]
    assert http.get(f"/v1/matches/{new_id}/legal-actions", headers=bearer(tokens[0])).json["seat"] == 1
    assert http.get(f"/v1/matches/{new_id}/legal-actions", headers=bearer(tokens[1])).json["seat"] == 0
    twice = http.post(f"/v1/matches/{match_id}/rematch", headers=bearer(tokens[0]))
    assert twice.status_code == 200 and twice.json["match_id"] == new_id


def test_resign_in_four_players(app, http):
    body = http.post("/v1/matches", json={"game": "cybermancy", "seats": ["ann", "bob", "cat", "dan"]}).json
    match_id, tokens = body["match_id"], {s["seat"]: s["token"] for s in body["seats"]}
    resigned = http.post(f"/v1/matches/{match_id}/resign", headers=bearer(tokens[2])).json
    assert resigned["left"] == {"2": "resigned"}
    if resigned["status"] == "running":  # the game takes the seat out and goes on
        assert 2 not in resigned["to_act"]
        ended = play_out(http, match_id, tokens)
        acted_after = [r["data"]["seat"] for r in records(http, match_id)[resigned["seq"]:] if r["type"] == "ActionTaken"]
        assert 2 not in acted_after, "a resigned seat never acts again"
    else:
        ended = resigned
    assert 2 not in ended["outcome"]["winners"] and ended["outcome"]["resigned"] == [2]
    assert http.get(f"/v1/matches/{match_id}/audit").json["ok"]


def test_abort_only_before_any_action(http):
    body = http.post("/v1/matches", json={"game": "cyberiad", "seats": ["ann", "bob"]}).json
    aborted = http.post(f"/v1/matches/{body['match_id']}/abort", headers=bearer(body["seats"][1]["token"]))
    assert aborted.status_code == 201 and aborted.json["status"] == "abandoned"
    assert aborted.json["outcome"] == {"abandoned": "aborted"} and aborted.json["seed"]
    assert http.get(f"/v1/matches/{body['match_id']}/audit").json["ok"]
    body = http.post("/v1/matches", json={"game": "cyberiad", "seats": ["ann", "bob"]}).json
    seat = http.get(f"/v1/matches/{body['match_id']}").json["to_act"][0]
    token = body["seats"][seat]["token"]
    action = http.get(f"/v1/matches/{body['match_id']}/legal-actions", headers=bearer(token)).json["actions"][0]
    assert http.post(f"/v1/matches/{body['match_id']}/actions", headers=bearer(token),
                     json={"action": action}).status_code == 201
    late = http.post(f"/v1/matches/{body['match_id']}/abort", headers=bearer(token))
    assert late.status_code == 422 and late.json["code"] == "match_started"


def test_idle_matches_are_abandoned_and_stay_auditable(app, http):
    body = http.post("/v1/matches", json={"game": "cyberiad", "seats": ["ann", "bob"]}).json
    caught_up(app)
    arbiter = app.extensions["arbiter"]
    assert arbiter.enforce_clocks(idle_seconds=60)["abandoned"] == 0
    later = iso_time(time.time() + 61)
    assert arbiter.enforce_clocks(now=later, idle_seconds=60)["abandoned"] == 1
    summary = http.get(f"/v1/matches/{body['match_id']}").json
    assert summary["status"] == "abandoned" and summary["outcome"] == {"abandoned": "inactive"} and summary["seed"]
    assert http.get(f"/v1/matches/{body['match_id']}/audit").json["ok"]


def clocked_match(http, seconds=1, effect="loss", game="cyberiad"):
    body = http.post("/v1/matches", json={"game": game, "seats": ["ann", "bob"],
                                          "clock": {"move_seconds": seconds, "on_timeout": effect}})
    assert body.status_code == 201, body.json
    return body.json


def test_clock_in_board_and_timeout_recorded_once(app, http):
    body = clocked_match(http, seconds=30)
    match_id = body["match_id"]
    board = http.get(f"/v1/matches/{match_id}/board").json
    to_act = board["to_act"][0]
    clock = {s["seat"]: s for s in board["clock"]["seats"]}
    assert clock[to_act]["running"] and 29_000 < clock[to_act]["remaining_ms"] <= 30_000
    caught_up(app)
    arbiter = app.extensions["arbiter"]
    assert arbiter.enforce_clocks()["timeouts"] == 0
    deadline = parse_time(clock[to_act]["deadline"])
    assert arbiter.enforce_clocks(now=iso_time(deadline - 0.5))["timeouts"] == 0, "not before the deadline"
    assert arbiter.enforce_clocks(now=iso_time(deadline + 0.001))["timeouts"] == 1
    assert arbiter.enforce_clocks(now=iso_time(deadline + 5))["timeouts"] == 0, "at most once"
    summary = http.get(f"/v1/matches/{match_id}").json
    assert summary["outcome"]["reason"] == "timeout" and summary["outcome"]["winners"] == [1 - to_act]
    assert [r["type"] for r in records(http, match_id)][1:] == ["SeatTimedOut", "MatchEnded"]
    assert http.get(f"/v1/matches/{match_id}/audit").json["ok"]


def test_a_forged_timeout_is_a_divergence(app, http):
    body = clocked_match(http, seconds=30)
    caught_up(app)
    deadline = parse_time(http.get(f"/v1/matches/{body['match_id']}/board").json["clock"]["seats"][0]["deadline"]
                          or http.get(f"/v1/matches/{body['match_id']}/board").json["clock"]["seats"][1]["deadline"])
    app.extensions["arbiter"].enforce_clocks(now=iso_time(deadline + 1))
    exported = records(http, body["match_id"])
    assert audit(exported).ok
    # The timeout moved to 10 s after the start: the chain is rewritten to match, yet the
    # recorded times do not justify it.
    forged = [dict(r) for r in exported]
    timed_out = next(r for r in forged if r["type"] == "SeatTimedOut")
    timed_out["data"] = {**timed_out["data"], "at": iso_time(parse_time(forged[0]["data"]["at"]) + 10)}
    ended = forged[timed_out["seq"]]
    ended["data"] = {**ended["data"], "at": timed_out["data"]["at"]}
    rechain(forged)
    report = audit(forged)
    assert not report.ok and report.first_divergence.seq == timed_out["seq"]
    assert "not justified by the recorded times" in report.first_divergence.detail
    # And a resign forged onto a bot's seat.
    bots = http.post("/v1/matches", json={"game": "cyberiad", "seats": ["ann", {"bot": "random"}]}).json
    http.post(f"/v1/matches/{bots['match_id']}/resign", headers=bearer(bots["seats"][0]["token"]))
    forged = [dict(r) for r in records(http, bots["match_id"])]
    resign = next(r for r in forged if r["type"] == "SeatResigned")
    resign["data"] = {**resign["data"], "seat": 1}
    rechain(forged)
    report = audit(forged)
    assert not report.ok and report.first_divergence.seq == resign["seq"]
    assert "holds no player" in report.first_divergence.detail


def clock_process(env, interval="0.05"):
    return subprocess.Popen([ARBITER, "clock", "--interval", interval], env={**os.environ, **env, "PYTHONPATH": str(ROOT)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)


def stop(process):
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=10)


def wait_for_end(http, match_id, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        summary = http.get(f"/v1/matches/{match_id}").json
        if summary["status"] != "running":
            return summary
        time.sleep(0.1)
    raise AssertionError("the clock process recorded no timeout")


def test_clock_processes_restarted_and_racing_record_one_timeout(app, http, store_env):
    """A real `arbiter clock` killed before the deadline and started again, and two more
    racing each other: exactly one SeatTimedOut."""
    body = clocked_match(http, seconds=3)  # the kill below comes about 1 s in: 2 s to spare
    caught_up(app)  # the clock process finds running matches through the read models
    first = clock_process(store_env)
    time.sleep(0.8)
    stop(first)  # killed mid-wait, before the deadline
    assert http.get(f"/v1/matches/{body['match_id']}").json["status"] == "running"
    racing = [clock_process(store_env), clock_process(store_env)]
    try:
        summary = wait_for_end(http, body["match_id"])
    finally:
        for process in racing:
            stop(process)
    assert summary["outcome"]["reason"] == "timeout"
    kinds = [r["type"] for r in records(http, body["match_id"])]
    assert kinds.count("SeatTimedOut") == 1 and kinds[-1] == "MatchEnded"
    assert http.get(f"/v1/matches/{body['match_id']}/audit").json["ok"]


def test_bad_lifecycle_input_changes_nothing(http):
    for seats, code in ((["ann", {"bot": "oracle"}], "invalid_setup"), ([{"open": False}], "invalid_body"),
                        (0, "invalid_body"), ([{"name": "a", "bot": "random"}], "invalid_body")):
        answer = http.post("/v1/matches", json={"game": "cyberiad", "seats": seats})
        assert answer.status_code in (400, 422) and answer.json["code"] == code, (seats, answer.json)
    for clock in ({"move_seconds": 0}, {"base_seconds": 60, "move_seconds": 5}, {"move_days": 1, "on_timeout": "x"}):
        answer = http.post("/v1/matches", json={"game": "cyberiad", "seats": ["a", "b"], "clock": clock})
        assert answer.status_code in (400, 422), (clock, answer.json)
    answer = http.post(f"/v1/matches/{uuid.uuid4()}/join", json={"name": "ann"})
    assert answer.status_code == 404


def test_the_live_stream_carries_the_clock(store_env):
    server = Served(store_env)
    try:
        body = clocked_match(server.flask.test_client(), seconds=300)
        status, events = server.stream(f"/v1/matches/{body['match_id']}/stream", bearer(body["seats"][0]["token"]),
                                       until=lambda events: len(events) >= 1)
    finally:
        server.close()
    clock = events[0]["data"]["clock"]
    assert status == 200 and clock["kind"] == "per_move" and [s["running"] for s in clock["seats"]].count(True) == 1
    assert 0 < max(s["remaining_ms"] for s in clock["seats"]) <= 300_000

def test_a_seat_is_seen_taken_only_once_the_store_has_it(sqlite_env):
    """A join whose save waits on the database (another writer holds it) shows nothing to a
    reader meanwhile: the cached lobby is the committed one, the command changes a copy."""
    app = create_app(sqlite_env)
    http = app.test_client()
    created = http.post("/v1/matches", json={"game": "cyberiad", "seats": [{"open": True}, {"open": True}]}).json
    match_id = created["match_id"]
    assert http.get(f"/v1/matches/{match_id}").json["open_seats"] == [0, 1]
    answers = []
    blocker = sqlite3.connect(Path(sqlite_env["ARBITER_DATA_DIR"]) / "arbiter.sqlite", isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")  # a writer's lock: readers go on, the join's save waits
    joining = threading.Thread(target=lambda: answers.append(http.post(f"/v1/matches/{match_id}/join",
                                                                       json={"name": "ada"})))
    joining.start()
    time.sleep(0.5)
    try:
        assert not answers, "the join did not wait on the database"
        assert http.get(f"/v1/matches/{match_id}").json["open_seats"] == [0, 1]
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    joining.join(10)
    assert answers[0].status_code == 201, answers[0].json
    assert http.get(f"/v1/matches/{match_id}").json["open_seats"] == [1]
    app.extensions["arbiter"].store.close()


def test_a_clock_pass_told_to_stop_records_nothing_more(app, http):
    """A process shutting down ends its clock pass between matches (the next pass, here or in
    another process, takes up the rest): a pass over many matches could outlast its wait."""
    matches = [http.post("/v1/matches", json={"game": "cyberiad", "seats": ["ann", "bob"]}).json["match_id"]
               for _ in range(3)]
    caught_up(app)
    arbiter, later, stop = app.extensions["arbiter"], iso_time(time.time() + 61), threading.Event()
    stop.set()
    assert arbiter.enforce_clocks(now=later, idle_seconds=60, stop=stop)["abandoned"] == 0
    assert {http.get(f"/v1/matches/{match}").json["status"] for match in matches} == {"running"}
    assert arbiter.enforce_clocks(now=later, idle_seconds=60)["abandoned"] == 3
