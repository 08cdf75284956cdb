"""The live stream's watcher (service/live.py): it polls the notification log, and a save made
by its own process nudges it to read at once."""

import threading

import service.live

from .helpers import SlowCall, bearer, run_apart


def test_a_save_in_this_process_reaches_its_followers_without_waiting_for_the_poll(served, monkeypatch):
    # A poll and a heartbeat far longer than the wait below: only the nudge can bring the event.
    monkeypatch.setattr(service.live, "HEARTBEAT_SECONDS", 120.0)
    served.app.streams.watcher.poll_seconds = 120.0
    client = served.flask.test_client()
    created = client.post("/v1/matches", json={"game": "cyberiad", "seats": ["ann", "bob"]}).json
    match_id, tokens = created["match_id"], [s["token"] for s in created["seats"]]
    summary = client.get(f"/v1/matches/{match_id}").json
    seat, version = summary["to_act"][0], summary["version"]
    got, read_all = {}, threading.Event()

    def until(events):
        if events and events[-1]["id"] >= version:
            read_all.set()  # the stream has read what there was: what comes next needs a wake
        return bool(events) and events[-1]["id"] > version

    follower = threading.Thread(target=lambda: got.update(zip(("status", "events"), served.stream(
        f"/v1/matches/{match_id}/stream", until=until, timeout=20))))
    follower.start()
    assert read_all.wait(20), "the stream did not send the match's first events"
    action = client.get(f"/v1/matches/{match_id}/legal-actions", headers=bearer(tokens[seat])).json["actions"][0]
    posted = client.post(f"/v1/matches/{match_id}/actions", headers=bearer(tokens[seat]), json={"action": action})
    assert posted.status_code == 201, posted.json
    follower.join(30)
    assert got, "the event did not reach the follower within 20 s (the stream's own timeout)"
    assert got["status"] == 200 and got["events"][-1]["id"] == version + 1, got


def test_a_stream_that_reads_nothing_new_ends_only_after_sending_the_final_event(client, monkeypatch):
    """A read that finds nothing, then the match's last events stored before the stream asks
    whether the match is over: the stream goes on (and sends them), it does not end early."""
    created = client.post("/v1/matches", json={"game": "cyberiad", "seats": ["ann", "bob"]}).json
    match_id, tokens = created["match_id"], [s["token"] for s in created["seats"]]
    arbiter = client.application.extensions["arbiter"]
    opened = arbiter.open_stream(match_id, tokens[1], None, None)
    sent = client.get(f"/v1/matches/{match_id}").json["version"]  # what the stream has sent so far
    assert client.post(f"/v1/matches/{match_id}/resign", headers=bearer(tokens[0])).status_code == 201
    final = client.get(f"/v1/matches/{match_id}").json["version"]
    assert final > sent
    reads = arbiter.store.stored_events
    early = [True]  # the first read ran just before the resignation's events were stored
    monkeypatch.setattr(arbiter.store, "stored_events", lambda *a, **k: [] if early and early.pop() else reads(*a, **k))
    assert arbiter.stream_batch(opened, sent) == ([], False)
    chunks, over = arbiter.stream_batch(opened, sent)
    assert [seq for seq, _ in chunks] == list(range(sent + 1, final + 1)) and over
    assert arbiter.stream_batch(opened, final) == ([], True)


def test_stopping_the_watcher_waits_for_its_read_in_progress(sqlite_env, monkeypatch):
    """(A suite run crashed: SQLite's connection was closed under the watcher's read, a
    segmentation fault.) The store is closed after the watcher stops, so stop() returns only
    once the read it interrupted is done."""
    from domain.kernel.store import MatchStore

    store = MatchStore(sqlite_env)
    watcher = service.live.Watcher(store)

    subscribe_apart(watcher, "a-match")  # the first follower starts the watcher's thread
    recorder = store.shards[""].recorder
    slow_read = SlowCall(recorder.max_notification_id)
    monkeypatch.setattr(recorder, "max_notification_id", slow_read)
    assert slow_read.started.wait(5), "the watcher polls the notification log"
    watcher.stop()
    assert slow_read.finished.is_set(), "stop() returned while the watcher was still reading"
    store.close()


def test_a_stopped_watcher_starts_no_thread_for_a_stream_that_subscribes_after(sqlite_env):
    from domain.kernel.store import MatchStore

    store = MatchStore(sqlite_env)
    watcher = service.live.Watcher(store)
    watcher.stop()

    try:
        subscribe_apart(watcher, "a-match")
        assert watcher._thread is None, "a watcher stopped for a shutdown went on reading the store"
    finally:
        store.close()


def subscribe_apart(watcher, match_id: str) -> None:
    """A stream's subscription, made on an event loop as a stream makes it (run_apart)."""
    async def follow():
        watcher.subscribe(match_id)

    run_apart(follow())
