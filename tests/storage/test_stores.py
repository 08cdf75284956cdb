"""The same behaviour on the embedded SQLite file and on the PostgreSQL server."""

import copy
import random
import threading
import uuid

import psycopg
import pytest

from domain.games.cyberiad import RULESET
from domain.kernel.errors import VersionConflict
from domain.kernel.match import Match
from domain.kernel.store import MatchStore
from service.api import create_app
from service.matches import Arbiter

from ..service.helpers import bearer, create

THREADS = 8


def play_some(arbiter, match_id, actions, rand):
    for _ in range(actions):
        summary = arbiter.summary(match_id)
        if summary["status"] != "running":
            return
        seat = summary["to_act"][0]
        arbiter.submit_action(match_id, seat, rand.choice(arbiter.legal_actions(match_id, seat)["actions"]))


def test_events_round_trip_and_replay_at_every_version(store_env):
    store = MatchStore(store_env)
    arbiter = Arbiter(store)
    match_id = uuid.UUID(arbiter.create_match("cyberiad", ["ann", "bob", "cat"])["match_id"])
    play_some(arbiter, match_id, 60, random.Random(2))
    live = store.match(match_id)
    fresh = MatchStore(store_env)  # another process: an empty cache
    assert fresh.match(match_id).state == live.state and fresh.match(match_id).version == live.version
    events = fresh.stored_events(match_id)
    assert [e["seq"] for e in events] == list(range(1, live.version + 1))
    assert all(b["prev_hash"] == a["hash"] for a, b in zip(events, events[1:]))
    for version in (1, live.version // 2, live.version):
        state = state_from_export(events, version)
        assert fresh.match(match_id, version=version).state == state
    store.close()
    fresh.close()


def state_from_export(events, version):
    state = copy.deepcopy(events[0]["data"]["setup"])
    for event in events[1:version]:
        for fact in event["data"].get("facts", []):
            state = RULESET.evolve(state, fact)
    return state


def test_a_stale_cached_copy_never_overwrites_a_newer_event(store_env):
    first, second = MatchStore(store_env), MatchStore(store_env)
    seed = bytes(32)
    match = Match.start(uuid.uuid4(), RULESET, ["a", "b"], {}, {}, seed)
    first.save_match(match)
    one, two = first.match(match.id), second.match(match.id)
    one.act(one.to_act()[0], {"type": "pick", "constructor": "turl"}, seed)
    two.act(two.to_act()[0], {"type": "pick", "constructor": "klapaucius"}, seed)
    first.save_match(one)
    with pytest.raises(VersionConflict):
        second.save_match(two)
    # The loser's cache forgot its unsaved change and reads the winner's event.
    assert second.match(match.id).state["constructors"] == one.state["constructors"]
    first.close()
    second.close()


@pytest.mark.parametrize("separate_workers", [False, True], ids=["one-worker", "eight-workers"])
def test_eight_concurrent_submissions_one_wins_the_rest_get_409(store_env, separate_workers):
    """One worker: its per-match lock serialises them. Eight workers (eight caches): whoever
    loses the race at the store's unique (stream, version) constraint gets 409 as well."""
    apps = [create_app(store_env) for _ in range(THREADS if separate_workers else 1)]
    clients = [apps[i % len(apps)].test_client() for i in range(THREADS)]
    created = create(clients[0], seats=("ann", "bob"))
    match_id = created["match_id"]
    summary = clients[0].get(f"/v1/matches/{match_id}").json
    seat = summary["to_act"][0]
    token = created["seats"][seat]["token"]
    for client in clients:  # every worker has the match cached at the same version
        assert client.get(f"/v1/matches/{match_id}/board").status_code == 200
    barrier = threading.Barrier(THREADS)
    statuses = [None] * THREADS

    def submit(i):
        body = {"action": {"type": "pick", "constructor": ["turl", "cerebron"][i % 2]},
                "expected_version": summary["version"]}
        barrier.wait()
        statuses[i] = clients[i].post(f"/v1/matches/{match_id}/actions", headers=bearer(token), json=body)

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    codes = sorted(r.status_code for r in statuses)
    assert codes == [201] + [409] * (THREADS - 1), [r.json for r in statuses]
    assert all(r.json["code"] == "version_conflict" for r in statuses if r.status_code == 409)
    log = clients[0].get(f"/v1/matches/{match_id}/log").json["events"]
    assert [e["seq"] for e in log] == [1, 2]
    for app in apps:
        app.extensions["arbiter"].store.close()


def test_a_postgres_save_waits_while_an_earlier_writer_holds_a_lower_notification_id(postgres_env):
    """The projector reads the notification log in id order and never goes back (the library's
    tracking position), so ids must commit in the order they are issued: a save waits while
    another writer's transaction, holding a lower id, is still open (the table lock every
    write takes; domain/kernel/postgres.py OneCallRecorder)."""
    from tests.conftest import postgres_url

    store = MatchStore(postgres_env)
    arbiter = Arbiter(store)
    arbiter.create_match("cyberiad", ["ann", "bob"])  # the tables exist
    recorder = store.recorder
    table = f'"{recorder.datastore.schema}"."{recorder.events_table_name}"'
    saved = threading.Event()
    with psycopg.connect(postgres_url()) as other:  # not autocommit: its transaction stays open
        earlier = other.execute(f"INSERT INTO {table} (originator_id, originator_version, topic, state) "
                                "VALUES (gen_random_uuid(), 1, 'another writer', '\\x7b7d') "
                                "RETURNING notification_id").fetchone()[0]
        writer = threading.Thread(target=lambda: (arbiter.create_match("cyberiad", ["cat", "dan"]), saved.set()))
        writer.start()
        assert not saved.wait(1.5), "a save committed while a lower notification id was still uncommitted"
        other.rollback()
    writer.join(20)
    assert saved.is_set()
    assert recorder.max_notification_id() > earlier
    store.close()


def test_a_worker_whose_cache_is_a_move_behind_answers_from_the_store(store_env):
    """Workers cache the match at version v; one of them stores v+1. A worker trusts its cache
    when a request expects exactly the cached version (it does not read the store first), so on
    a worker still at v: a move expecting v is refused as a conflict that names the store's
    version, and stores nothing; the request already stored, retried with its Idempotency-Key,
    gets the stored answer, not a conflict; a move expecting v+1 is read through and played."""
    apps = [create_app(store_env) for _ in range(4)]
    writer, refusing, retrying, reading = [app.test_client() for app in apps]
    created = create(writer, seats=("ann", "bob"))
    match_id = created["match_id"]
    summary = writer.get(f"/v1/matches/{match_id}").json
    seat, version = summary["to_act"][0], summary["version"]
    for client in (refusing, retrying, reading):  # each caches the match at v
        assert client.get(f"/v1/matches/{match_id}/board").status_code == 200
    pick = {"action": {"type": "pick", "constructor": "turl"}, "expected_version": version}
    key = {**bearer(created["seats"][seat]["token"]), "Idempotency-Key": "pick-1"}
    stored = writer.post(f"/v1/matches/{match_id}/actions", headers=key, json=pick)
    assert stored.status_code == 201
    other = {"action": {"type": "pick", "constructor": "cerebron"}, "expected_version": version}
    refused = refusing.post(f"/v1/matches/{match_id}/actions", headers=bearer(created["seats"][seat]["token"]),
                            json=other)
    assert refused.status_code == 409 and refused.json["code"] == "version_conflict"
    assert f"expected version {version}, the match is at {version + 1}" in refused.json["detail"]
    retried = retrying.post(f"/v1/matches/{match_id}/actions", headers=key, json=pick)
    assert retried.status_code == 200 and retried.json == {**stored.json, "replayed": True}
    seat = writer.get(f"/v1/matches/{match_id}").json["to_act"][0]
    after = {"action": {"type": "pick", "constructor": "cerebron"}, "expected_version": version + 1}
    played = reading.post(f"/v1/matches/{match_id}/actions", headers=bearer(created["seats"][seat]["token"]),
                          json=after)
    assert played.status_code == 201, played.json
    log = writer.get(f"/v1/matches/{match_id}/log").json["events"]
    assert [e["seq"] for e in log] == list(range(1, version + 3))
    for app in apps:
        app.extensions["arbiter"].store.close()


# Found by a review of the cached-version shortcut: a worker a move behind judged a stale request
# on its copy (422) where a worker that reads the store answered 409 or idempotency_key_reused.
def three_workers(env):
    apps = [create_app(env) for _ in range(3)]
    return apps, [app.test_client() for app in apps]


def test_a_stale_expected_version_is_409_on_every_worker_even_for_a_move_illegal_at_that_version(store_env):
    """The store is at v+1; a seat that was not to act at v posts a move expecting v. The
    worker that reads the store refuses it as version_conflict (409); the worker whose cache
    is still at v must too, not 422 not_your_turn from deciding on its stale copy."""
    apps, (writer, stale, fresh) = three_workers(store_env)
    created = create(writer, seats=("ann", "bob"))
    match_id = created["match_id"]
    summary = writer.get(f"/v1/matches/{match_id}").json
    seat, version = summary["to_act"][0], summary["version"]
    other = 1 - seat
    assert stale.get(f"/v1/matches/{match_id}/board").status_code == 200  # caches v
    pick = {"action": {"type": "pick", "constructor": "turl"}, "expected_version": version}
    assert writer.post(f"/v1/matches/{match_id}/actions", headers=bearer(created["seats"][seat]["token"]),
                       json=pick).status_code == 201
    late = {"action": {"type": "pick", "constructor": "cerebron"}, "expected_version": version}
    headers = bearer(created["seats"][other]["token"])
    read_through = fresh.post(f"/v1/matches/{match_id}/actions", headers=headers, json=late)
    from_cache = stale.post(f"/v1/matches/{match_id}/actions", headers=headers, json=late)
    assert read_through.status_code == 409 and read_through.json["code"] == "version_conflict"
    assert (from_cache.status_code, from_cache.json["code"]) == (409, "version_conflict"), from_cache.json
    for app in apps:
        app.extensions["arbiter"].store.close()


def test_a_reused_idempotency_key_is_named_on_every_worker(store_env):
    """Key K stored a pick at v. The same seat reuses K for another body (an action not listed
    at v). The worker that reads the store says idempotency_key_reused; the worker whose cache
    is at v must say the same, not judge the new body on its stale copy."""
    apps, (writer, stale, fresh) = three_workers(store_env)
    created = create(writer, seats=("ann", "bob"))
    match_id = created["match_id"]
    summary = writer.get(f"/v1/matches/{match_id}").json
    seat, version = summary["to_act"][0], summary["version"]
    assert stale.get(f"/v1/matches/{match_id}/board").status_code == 200  # caches v
    key = {**bearer(created["seats"][seat]["token"]), "Idempotency-Key": "k-1"}
    pick = {"action": {"type": "pick", "constructor": "turl"}, "expected_version": version}
    assert writer.post(f"/v1/matches/{match_id}/actions", headers=key, json=pick).status_code == 201
    reused = {"action": {"type": "no_such_move"}, "expected_version": version}
    read_through = fresh.post(f"/v1/matches/{match_id}/actions", headers=key, json=reused)
    from_cache = stale.post(f"/v1/matches/{match_id}/actions", headers=key, json=reused)
    assert read_through.json["code"] == "idempotency_key_reused", read_through.json
    assert (from_cache.status_code, from_cache.json["code"]) == (read_through.status_code, "idempotency_key_reused"), \
        from_cache.json
    for app in apps:
        app.extensions["arbiter"].store.close()


def test_a_database_made_by_the_previous_recorder_takes_saves_and_conflicts(postgres_env, monkeypatch):
    """(From the review.) Tables made by the library's own recorder (no arbiter_insert_events): a store of this
    build creates the function at start, saves through it, and a stale second save is a
    VersionConflict."""
    from domain.kernel import store as store_module

    current = store_module.store_environment

    def previous(environ):
        env = current(environ)
        env.pop("APPLICATION_RECORDER_TOPIC"), env.pop("POSTGRES_ENABLE_DB_FUNCTIONS")
        return env

    monkeypatch.setattr(store_module, "store_environment", previous)
    old = MatchStore(postgres_env)
    match_id = uuid.UUID(Arbiter(old).create_match("cyberiad", ["ann", "bob"])["match_id"])
    old.close()
    monkeypatch.setattr(store_module, "store_environment", current)
    first, second = MatchStore(postgres_env), MatchStore(postgres_env)
    assert type(first.recorder).__name__ == "OneCallRecorder"
    seat = first.match(match_id).to_act()[0]
    action = first.match(match_id).legal_actions(seat)[0]
    seed = first.secret(match_id).seed
    a, b = first.match_to_change(match_id), second.match_to_change(match_id)
    a.act(seat, action, seed)
    b.act(seat, action, seed)
    first.save_match(a)
    try:
        second.save_match(b)
        raise AssertionError("the stale save was stored")
    except VersionConflict:
        pass
    assert [e["seq"] for e in MatchStore(postgres_env).stored_events(match_id)] == [1, 2]
    first.close(), second.close()


def test_a_person_whose_move_is_stored_is_answered_201_when_another_worker_plays_the_bot_first(store_env):
    """(From the review.) Worker A stores a person's move, then plays the server's bot; worker B
    plays that bot first. A's bot move then loses at the store's constraint: the person's move
    is stored all the same, so they get its answer (201), not the bot's conflict (409), and the
    bot's move is stored once."""
    first, second = create_app(store_env), create_app(store_env)
    a = first.test_client()
    created = a.post("/v1/matches", json={"game": "cyberiad", "seats": ["ann", {"bot": "random"}]}).json
    match_id, token = created["match_id"], created["seats"][0]["token"]
    assert a.get(f"/v1/matches/{match_id}").json["to_act"] == [0], "the bot plays until the person is asked"
    store_a, other_worker = first.extensions["arbiter"].store, second.extensions["arbiter"]
    real_save, saves = store_a.save_match, []

    def save_after_the_other_worker(match, *others):
        saves.append(match.version)
        if len(saves) == 2:  # A's first bot move: B has just played the bots
            other_worker._play_bots(uuid.UUID(match_id))
        return real_save(match, *others)

    store_a.save_match = save_after_the_other_worker
    version = a.get(f"/v1/matches/{match_id}").json["version"]
    answer = a.post(f"/v1/matches/{match_id}/actions", headers=bearer(token),
                    json={"action": {"type": "pick", "constructor": "turl"}, "expected_version": version})
    assert answer.status_code == 201, answer.json
    assert len(saves) >= 2, "the bot was not played after the person's move"
    log = a.get(f"/v1/matches/{match_id}/log").json["events"]
    assert [e["seq"] for e in log] == list(range(1, len(log) + 1))
    summary = a.get(f"/v1/matches/{match_id}").json
    # (one suite run on a loaded machine found [] here, not reproduced in 500 runs since: the
    # summary and the log's last events say why, should it come again)
    assert summary["to_act"] == [0], (summary, [(e["type"], e["data"]) for e in log[-3:]])
    for app in (first, second):
        app.extensions["arbiter"].store.close()


@pytest.mark.parametrize("read_path", ["rows", "library"])  # the library's: with a compressor
def test_a_listing_is_of_one_version_while_another_request_brings_the_cached_match_forward(store_env, monkeypatch,
                                                                                           read_path):
    """(From a red-team read.) A worker works out a seat's listing from its cached match, then
    reads the match's version and seats to act. Meanwhile another worker stored a move, and
    another request on the first worker brought its cached match forward in place: the listing
    went out labelled with the new version and its seats to act, holding the old version's
    actions (here none), and a page at that version waited for a turn it had. A listing's
    version, seats to act and actions are those of one version."""
    if read_path == "library":
        monkeypatch.setenv("COMPRESSOR_TOPIC", "eventsourcing.compressor:ZlibCompressor")
    apps = [create_app(store_env) for _ in range(2)]
    writer, lister = [app.test_client() for app in apps]
    created = create(writer, seats=("ann", "bob"))
    match_id, tokens = created["match_id"], [seat["token"] for seat in created["seats"]]
    summary = writer.get(f"/v1/matches/{match_id}").json
    mover, waiter = summary["to_act"][0], 1 - summary["to_act"][0]
    assert lister.get(f"/v1/matches/{match_id}/legal-actions", headers=bearer(tokens[waiter])).json["actions"] == []

    worked_out, go_on = threading.Event(), threading.Event()
    listing_actions = Match.legal_actions

    def held_after_working_out(match, seat):
        actions = listing_actions(match, seat)
        if threading.current_thread().name == "listing":
            worked_out.set()
            go_on.wait(10)
        return actions

    monkeypatch.setattr(Match, "legal_actions", held_after_working_out)
    answers = {}
    listing = threading.Thread(name="listing", target=lambda: answers.update(
        listed=lister.get(f"/v1/matches/{match_id}/legal-actions", headers=bearer(tokens[waiter])).json))
    listing.start()
    assert worked_out.wait(10)
    move = writer.get(f"/v1/matches/{match_id}/legal-actions", headers=bearer(tokens[mover])).json
    assert writer.post(f"/v1/matches/{match_id}/actions", headers=bearer(tokens[mover]),
                       json={"action": move["actions"][0], "expected_version": move["version"]}).status_code == 201
    assert lister.get(f"/v1/matches/{match_id}").json["version"] == move["version"] + 1  # brought forward
    go_on.set()
    listing.join(10)
    listed = answers["listed"]
    then = apps[0].extensions["arbiter"].store.match(uuid.UUID(match_id), version=listed["version"])
    assert (listed["to_act"], listed["actions"]) == (then.to_act(), then.legal_actions(waiter)), listed
    for app in apps:
        app.extensions["arbiter"].store.close()
