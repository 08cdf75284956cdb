"""A server's shutdown waits for its own threads before the store is closed under them.

Whoever runs the app (`arbiter serve`'s worker, the tests' servers) closes the store once the
app has shut down, and SQLite crashed the process (a segmentation fault) when a connection
closed under another thread's read: the live streams' watcher did so in a suite run. The
stream reads, the embedded projector and clock and the bots' threads read and write the store
the same way, so the shutdown stops each and waits for what it is doing."""

import asyncio
import threading
import time
import uuid

import pytest

from service.lifecycle import THINKERS, BotRunner
from service.live import ServerClosing

from ..conftest import Served
from .helpers import SlowCall, run_apart


def answered_after_the_loop_closed(test):
    """For a test whose request is answered after its server's event loop has closed: the
    answer's last send (a2wsgi's) is then never awaited, the warning such a test expects."""
    test = pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")(test)
    return pytest.mark.filterwarnings("ignore:coroutine 'Queue.put' was never awaited:RuntimeWarning")(test)


def last_sends_done(server) -> None:
    """Wait for the server's WSGI threads, their last sends included: the warning comes here,
    not in whichever test runs when they end."""
    server.app.wsgi.executor.shutdown(wait=True)


def started_threads(before: set[threading.Thread]) -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread not in before]


def test_a_shut_down_server_leaves_no_thread_of_its_own_running(sqlite_env):
    """Its projector and clock embedded, bots-only matches being played by search bots (each
    move keeps a thinker busy for the search's budget) and a live stream open: once the
    server has shut down, every thread it started has ended, so the store can be closed."""
    before = set(threading.enumerate())
    server = Served({**sqlite_env, "ARBITER_PROJECTOR": "embedded", "ARBITER_CLOCK": "embedded"})
    try:
        client = server.flask.test_client()
        matches = [client.post("/v1/matches", json={"game": "cyberiad", "seats": [{"bot": "search"}] * 2}).json
                   for _ in range(3)]
        assert all("match_id" in match for match in matches), matches
        followed = threading.Thread(target=server.stream, args=(f"/v1/matches/{matches[0]['match_id']}/stream",),
                                    kwargs={"until": lambda events: len(events) > 2, "timeout": 20}, daemon=True)
        followed.start()
        deadline = time.monotonic() + 20
        while not any(t.name.startswith("arbiter-bots-only") for t in started_threads(before)):
            assert time.monotonic() < deadline, "no bot thread started"
            time.sleep(0.02)
        followed.join(20)
        names = {thread.name.rstrip("-0123456789_") for thread in started_threads(before)}
        assert {"arbiter-projector", "arbiter-clock", "arbiter-live-watcher", "arbiter-live-read",
                "arbiter-bots-only"} <= names, names  # what the shutdown must stop, all running
    finally:
        server.stop()
        running = [thread.name for thread in started_threads(before) if thread.is_alive()]
        server.flask.extensions["arbiter"].store.close()
    assert not running, f"threads still running after the shutdown, the store about to close: {running}"


def test_shutting_down_the_streams_waits_for_their_store_read_in_progress(sqlite_env):
    """And a read asked for after that finds the server closing (the stream ends, or is
    refused with 503 shutting_down), never a store that is closed."""
    server = Served(sqlite_env)
    streams = server.app.streams
    slow_read = SlowCall()
    loop = asyncio.new_event_loop()
    reader = threading.Thread(target=lambda: loop.run_until_complete(streams._read(slow_read)))
    try:
        reader.start()
        assert slow_read.started.wait(5), "the read did not start"
        streams.shut_down()
        assert slow_read.finished.is_set(), "shut_down() returned while a stream's read was still reading the store"
        with pytest.raises(ServerClosing):
            run_apart(streams._read(slow_read))
    finally:
        reader.join(5)
        loop.close()
        server.close()


def test_a_stopped_bot_runner_waits_for_the_moves_in_progress_and_plays_no_more():
    """More matches queued than it has thinkers: the ones being played end, the queued ones are
    left (to the clock of a process still running), and nothing new is taken."""
    playing, go_on, calls, lock = threading.Semaphore(0), threading.Event(), [], threading.Lock()

    def play_on(match_id):
        with lock:
            calls.append(match_id)
        playing.release()
        go_on.wait(10)  # each move in progress lasts until the runner is stopping
        time.sleep(0.05)
        with lock:
            calls.append(f"{match_id} done")

    runner = BotRunner(play_on, "test-bots")
    for n in range(THINKERS * 3):
        runner.submit(f"match-{n}")
    for _ in range(THINKERS):
        assert playing.acquire(timeout=5), "the runner's thinkers did not all start"
    stopping = threading.Thread(target=runner.stop)
    stopping.start()
    deadline = time.monotonic() + 5
    while not runner._stopping:
        assert time.monotonic() < deadline, "stop() did not begin"
        time.sleep(0.01)
    go_on.set()
    stopping.join(10)
    assert not any(thread.is_alive() for thread in runner._thinkers), "stop() returned during a move"
    started = [call for call in calls if not call.endswith("done")]
    assert len(started) == THINKERS and all(f"{match} done" in calls for match in started), calls
    runner.submit("another-match")
    runner.at(time.time(), "another-match", lambda: calls.append("timed"))
    assert len(calls) == 2 * THINKERS and runner._timer is None and not runner._thinkers[0].is_alive()


def test_stopped_bots_play_no_further_move_in_any_match(sqlite_env):
    """Bots-only matches played in the background: from stop_bots() on, each thinker records at
    most the move it is making, queued matches are left, and once it returns no match moves
    on; a runner made after it (a process that had none yet) plays nothing."""
    from domain.kernel.store import MatchStore
    from service.matches import Arbiter

    store = MatchStore(sqlite_env)
    try:
        fresh, before = Arbiter(store), set(threading.enumerate())
        fresh.stop_bots()  # before it made any runner
        later = fresh.create_match("cyberiad", [{"bot": "greedy"}] * 2)["match_id"]
        assert not [t.name for t in started_threads(before) if t.name.startswith("arbiter-bots")], \
            "a runner made after stop_bots started threads"

        arbiter = Arbiter(store)
        matches = [arbiter.create_match("cyberiad", [{"bot": "greedy"}] * 2)["match_id"] for _ in range(THINKERS * 2)]
        saved_since = []  # the saves after stop_bots() set its flag, the one the bots' loop reads
        store.after_save.append(lambda: arbiter._bots_stopped and saved_since.append(1))
        arbiter.stop_bots()
        assert len(saved_since) <= THINKERS, f"{len(saved_since)} moves recorded after stop_bots() began"
        versions = [arbiter.summary(uuid.UUID(match))["version"] for match in matches]
        time.sleep(0.5)
        assert [arbiter.summary(uuid.UUID(match))["version"] for match in matches] == versions
        assert any(arbiter.summary(uuid.UUID(match))["status"] == "running" for match in matches), \
            "the bots were stopped mid-match (or the test's matches are too short to show it)"
        assert arbiter.summary(uuid.UUID(later))["version"] == 1, "a runner made after stop_bots played"
    finally:
        store.close()


def test_shutting_down_the_app_waits_for_the_projector_batch_in_progress(sqlite_env, monkeypatch):
    from service.asgi import create

    app = create({**sqlite_env, "ARBITER_PROJECTOR": "embedded"})
    projector = app.flask_app.extensions["projector"]
    slow_batch = SlowCall(projector.run_once)
    monkeypatch.setattr(projector, "run_once", slow_batch)
    try:
        assert slow_batch.started.wait(5), "the embedded projector did not look for events"
        app.shut_down()
        assert slow_batch.finished.is_set(), "the app's shutdown returned during the projector's batch"
    finally:
        app.flask_app.extensions["arbiter"].store.close()


@answered_after_the_loop_closed
def test_a_request_still_answered_after_the_grace_period_is_waited_for(sqlite_env, monkeypatch):
    """uvicorn cancels a request's task once its grace period (1 s in the tests' servers) is
    over, but the WSGI thread answering it goes on: the shutdown waits for it."""
    server = Served(sqlite_env)
    arbiter = server.flask.extensions["arbiter"]
    match_id = arbiter.create_match("cyberiad", ["ann", "bob"])["match_id"]
    slow_summary = SlowCall(arbiter.summary, seconds=2.0)
    monkeypatch.setattr(arbiter, "summary", slow_summary)
    asking = threading.Thread(target=_ask, args=(f"{server.url}/v1/matches/{match_id}",), daemon=True)
    asking.start()
    assert slow_summary.started.wait(5), "the request did not reach the app"
    server.stop()
    done = slow_summary.finished.is_set()
    last_sends_done(server)
    arbiter.store.close()
    assert done, "the server shut down while a request was still being answered"


def _ask(url: str) -> None:
    import urllib.error
    import urllib.request

    try:
        urllib.request.urlopen(url, timeout=10).read()
    except (urllib.error.URLError, ConnectionError, OSError):
        pass  # its connection is closed at the shutdown: the answer is not the point


@answered_after_the_loop_closed
def test_a_slow_request_does_not_keep_the_other_threads_from_being_told_to_stop(sqlite_env, monkeypatch):
    """Every part is told to stop first, then each is waited for within what is left of the
    deadline: a request outlasting the whole wait must not leave the projector working on,
    unasked, when the store is closed."""
    import service.asgi

    monkeypatch.setattr(service.asgi, "SHUTDOWN_WAIT_SECONDS", 2.5)  # a batch (0.5 s) ends well within it
    server = Served({**sqlite_env, "ARBITER_PROJECTOR": "embedded"})
    arbiter, projector = server.flask.extensions["arbiter"], server.flask.extensions["projector"]
    match_id = arbiter.create_match("cyberiad", ["ann", "bob"])["match_id"]
    # a projector always in a batch: each takes 0.5 s and finds an event, so it looks again at once
    slow_batch, slow_summary = SlowCall(lambda: 1, seconds=0.5), SlowCall(arbiter.summary, seconds=5.0)
    monkeypatch.setattr(projector, "run_once", slow_batch)
    monkeypatch.setattr(arbiter, "summary", slow_summary)
    threading.Thread(target=_ask, args=(f"{server.url}/v1/matches/{match_id}",), daemon=True).start()
    assert slow_summary.started.wait(5) and slow_batch.started.wait(5)
    server.stop()
    projecting = server.flask.extensions["projector_thread"].thread.is_alive()
    slow_summary.finished.wait(10)  # the request's thread, before the store closes under it
    last_sends_done(server)
    arbiter.store.close()
    assert not projecting, "the projector was still working when the shutdown ended"


def test_ending_the_streams_ends_each_open_one_whole_and_refuses_new_ones(sqlite_env):
    """What the signal beginning a shutdown does (`arbiter serve`; tests/test_shutdown.py has the
    signal itself): a follower's response ends whole, at once, not at the end of uvicorn's grace
    period, and a stream asked for from then on is refused with 503 shutting_down."""
    server = Served(sqlite_env)
    try:
        match_id = server.flask.test_client().post("/v1/matches", json={"game": "cyberiad",
                                                                        "seats": ["ann", "bob"]}).json["match_id"]
        ended = {}

        def follow():
            ended["status"], ended["events"] = server.stream(f"/v1/matches/{match_id}/stream", timeout=20)
            ended["at"] = time.monotonic()

        follower = threading.Thread(target=follow, daemon=True)
        follower.start()
        deadline = time.monotonic() + 10
        while not server.app.streams.count:
            assert time.monotonic() < deadline, "the stream did not open"
            time.sleep(0.01)
        asked = time.monotonic()
        server.app.end_streams()
        follower.join(5)
        assert ended.get("status") == 200 and [e["event"] for e in ended["events"]] == ["MatchCreated"], ended
        # at once (milliseconds); else at its heartbeat (15 s) or timeout (20 s), past the join above
        assert ended["at"] - asked < 4.0, "the stream ended only when something else ended it"
        status, problem = server.stream(f"/v1/matches/{match_id}/stream")
        assert status == 503 and problem["code"] == "shutting_down", (status, problem)
    finally:
        server.close()
