"""The projector killed mid-batch, and Redis going away while players act."""

import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import redis

from projections.projector import MATCH_TOPICS
from service.api import create_app

from ..service.helpers import bearer, create, step
from ..services import redis_server_binary
from .test_projections import assert_read_models_equal_replay, play_matches

ARBITER = str(Path(sys.executable).with_name("arbiter"))


def wait_until(condition, timeout=30.0, every=0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(every)
    raise AssertionError("timed out waiting")


def caught_up_with_store(app) -> bool:
    """No match event waits beyond the slowest projection's position."""
    projector = app.extensions["projector"]
    start = min(projector.positions().values()) + 1
    return not projector.events.recorder.select_notifications(start=start, limit=1, topics=MATCH_TOPICS)


def test_projector_killed_mid_batch_applies_nothing_twice_and_skips_nothing(read_env):
    app = create_app(read_env)
    client = app.test_client()
    created = play_matches(client, 6, seed=11)
    env = {**os.environ, **read_env}
    slow = subprocess.Popen([ARBITER, "projector", "--batch-size", "150", "--throttle", "250"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    projector = app.extensions["projector"]
    try:
        wait_until(lambda: projector.positions()["matches"] > 0)  # one batch committed ...
        time.sleep(0.15)                                            # ... and the next one half read
        slow.send_signal(signal.SIGKILL)
        slow.wait(timeout=10)
    finally:
        if slow.poll() is None:
            slow.kill()
    killed_at = projector.positions()
    assert 0 < killed_at["matches"], "the projector was killed before its first commit"
    assert not caught_up_with_store(app), "the projector finished before it could be killed"
    reads = app.extensions["arbiter"].reads
    for match in created:  # what was committed is whole: each document matches its log
        doc = reads.match(match["match_id"])
        if doc:
            assert reads.store.list_length(f"log:{match['match_id']}") == doc["version"]
    restarted = subprocess.Popen([ARBITER, "projector"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_until(lambda: caught_up_with_store(app))
    finally:
        restarted.send_signal(signal.SIGTERM)
        restarted.wait(timeout=10)
    assert_read_models_equal_replay(client, created)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_redis(port):
    process = subprocess.Popen([redis_server_binary(), "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_until(lambda: _pings(port), timeout=10)
    return process


def _pings(port) -> bool:
    try:
        return redis.Redis(port=port, socket_connect_timeout=0.2).ping()
    except redis.exceptions.ConnectionError:
        return False


def test_redis_down_players_still_act_reads_fall_back_and_the_projector_catches_up(sqlite_env):
    port = free_port()
    server = start_redis(port)
    env = {**sqlite_env, "ARBITER_REDIS_URL": f"redis://127.0.0.1:{port}/0", "ARBITER_PROJECTOR": "embedded"}
    app = create_app(env)
    client = app.test_client()
    try:
        created = play_matches(client, 2, seed=12, finish=False)
        match = create(client, seats=("ann", "bob"))
        created.append(match)
        wait_until(lambda: caught_up_with_store(app))
        server.terminate()
        server.wait(timeout=10)

        tokens = [s["token"] for s in match["seats"]]
        rand = random.Random(1)
        for _ in range(6):  # the event store is the truth: actions go on
            assert step(client, match["match_id"], tokens, rand)
        version = client.get(f"/v1/matches/{match['match_id']}").json["version"]
        board = client.get(f"/v1/matches/{match['match_id']}/board", headers=bearer(tokens[0])).json
        assert board["source"] == "event_store" and board["version"] == version
        assert client.get(f"/v1/matches/{match['match_id']}/log").json["source"] == "event_store"
        for path in ("/v1/matches", "/v1/stats/cyberiad", "/v1/players/ann"):
            down = client.get(path)
            assert down.status_code == 503 and down.mimetype == "application/problem+json"
            assert down.json["code"] == "read_models_unavailable"

        server = start_redis(port)  # back, and empty: it keeps nothing on disk
        wait_until(lambda: caught_up_with_store(app))
        board = client.get(f"/v1/matches/{match['match_id']}/board").json
        assert board["source"] == "read_model" and board["version"] == version
        assert_read_models_equal_replay(client, created)
    finally:
        app.extensions["projector_thread"].stop()
        server.terminate()
        server.wait(timeout=10)
