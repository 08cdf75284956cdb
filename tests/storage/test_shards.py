"""Three PostgreSQL databases as shards of one store (ARBITER_DATABASE_URLS): matches spread
over them by the documented rule, every operation works across them, and the read models a
projector per shard builds equal those of one projector for all, even with one killed mid-batch."""

import os
import signal
import sqlite3
import subprocess
import sys
import uuid
from pathlib import Path

import psycopg

from domain.kernel.store import MatchStore, shard_name, shard_rank
from projections.projector import Projector
from projections.readstore import SQLiteReadStore
from service.api import create_app

from ..projections.test_projections import assert_read_models_equal_replay, play_matches
from ..projections.test_resilience import wait_until
from ..service.helpers import bearer, create

ARBITER = str(Path(sys.executable).with_name("arbiter"))
ADMIN = {"Authorization": "Bearer open-sesame"}


def shard_holding(store: MatchStore, stream_id: uuid.UUID) -> list[str]:
    return [name for name, shard in store.shards.items() if shard.stream_exists(stream_id)]


def test_matches_lobbies_and_rematches_live_on_the_shard_the_rule_picks(sharded_env):
    app = create_app(sharded_env)
    client = app.test_client()
    store = app.extensions["arbiter"].store
    assert store.sharded and len(store.shards) == 3
    created = play_matches(client, 3, seed=3) + [create(client, seats=("ann", "bob")) for _ in range(27)]
    homes = []
    for match in created:  # 30 matches miss a shard once in 60,000 runs
        match_id = uuid.UUID(match["match_id"])
        # the documented rule, recomputed from the shard names alone
        expected = max(store.shards, key=lambda name: shard_rank(name, match_id))
        assert shard_holding(store, match_id) == [expected]
        homes.append(expected)
    assert set(homes) == set(store.shards), f"30 matches all landed on {set(homes)}"

    lobby = client.post("/v1/matches", json={"game": "cyberiad", "seats": ["ann", {"open": True}]}).json
    joined = client.post(f"/v1/matches/{lobby['match_id']}/join", json={"name": "bob"})
    assert joined.status_code == 201, joined.json
    lobby_match = uuid.UUID(lobby["match_id"])
    assert shard_holding(store, lobby_match) == [max(store.shards, key=lambda n: shard_rank(n, lobby_match))]

    duel = create(client, seats=("ann", "bob"))
    tokens = [s["token"] for s in duel["seats"]]
    assert client.post(f"/v1/matches/{duel['match_id']}/resign", headers=bearer(tokens[0])).status_code == 201
    for _ in range(3):  # a chain of rematches stays with its first match
        again = client.post(f"/v1/matches/{duel['match_id']}/rematch", headers=bearer(tokens[1]))
        assert again.status_code == 201, again.json
        assert shard_holding(store, uuid.UUID(again.json["match_id"])) == \
            shard_holding(store, uuid.UUID(duel["match_id"]))
        duel = again.json
        tokens = [tokens[1], tokens[0]]
        assert client.post(f"/v1/matches/{duel['match_id']}/resign", headers=bearer(tokens[0])).status_code == 201
    store.close()


def test_export_audit_import_list_and_stats_work_across_shards(sharded_env, tmp_path):
    app = create_app(sharded_env)
    client = app.test_client()
    created = play_matches(client, 5, seed=5)
    app.extensions["projector"].catch_up()
    listed = {m["match_id"] for m in client.get("/v1/matches", query_string={"limit": 100}).json["matches"]}
    assert listed == {m["match_id"] for m in created}
    assert client.get("/v1/stats/cyberiad").json["matches_started"] == len(created)
    assert_read_models_equal_replay(client, created)
    for match in created:
        report = client.get(f"/v1/matches/{match['match_id']}/audit").json
        running = client.get(f"/v1/matches/{match['match_id']}").json["status"] == "running"
        assert report["checks"]["chain"] == "ok" and (running or report["ok"]), report["checks"]

    # a match exported from a single-database server imports onto its home shard
    single = create_app({"ARBITER_DATA_DIR": str(tmp_path / "single"), "ARBITER_PROJECTOR": "off",
                         "ARBITER_CLOCK": "off"}).test_client()
    elsewhere = play_matches(single, 1, seed=9)[0]
    exported = single.get(f"/v1/matches/{elsewhere['match_id']}/export", headers=ADMIN)
    assert exported.status_code == 200
    imported = client.post("/v1/imports", data=exported.data, content_type="application/x-ndjson", headers=ADMIN)
    assert imported.status_code == 201, imported.json
    store = app.extensions["arbiter"].store
    match_id = uuid.UUID(elsewhere["match_id"])
    assert shard_holding(store, match_id) == [max(store.shards, key=lambda n: shard_rank(n, match_id))]
    assert client.get(f"/v1/matches/{match_id}/export", headers=ADMIN).data == exported.data
    again = client.post("/v1/imports", data=exported.data, content_type="application/x-ndjson", headers=ADMIN)
    assert again.status_code == 409, "an id taken on any shard is refused"
    store.close()


def test_a_match_stored_before_a_shard_was_added_is_still_found(sharded_env):
    urls = sharded_env["ARBITER_DATABASE_URLS"].split(",")
    two = create_app({**sharded_env, "ARBITER_DATABASE_URLS": ",".join(urls[:2])}).test_client()
    created = play_matches(two, 6, seed=7, finish=False)
    three = create_app(sharded_env)
    client = three.test_client()
    store = three.extensions["arbiter"].store
    third = shard_name(urls[2], None)
    moved = [m for m in created if max(store.shards, key=lambda n: shard_rank(n, uuid.UUID(m["match_id"]))) == third]
    for match in created:  # every match reads and acts where it was stored, not where the new rule points
        tokens = [s["token"] for s in match["seats"]]
        summary = client.get(f"/v1/matches/{match['match_id']}").json
        if summary["status"] != "running":
            continue
        seat = summary["to_act"][0]
        action = client.get(f"/v1/matches/{match['match_id']}/legal-actions", headers=bearer(tokens[seat])).json
        posted = client.post(f"/v1/matches/{match['match_id']}/actions", headers=bearer(tokens[seat]),
                             json={"action": action["actions"][0], "expected_version": summary["version"]})
        assert posted.status_code == 201, posted.json
        assert third not in shard_holding(store, uuid.UUID(match["match_id"]))
    assert all(client.get(f"/v1/matches/{m['match_id']}/audit").json["checks"]["chain"] == "ok" for m in created)
    print(f"{len(moved)} of {len(created)} matches would now hash to the added shard")
    store.close()


def read_model_rows(path: Path) -> dict:
    """Everything a SQLite read store holds but its tracking positions (which differ by design)."""
    with sqlite3.connect(path) as conn:
        return {table: sorted(conn.execute(f"SELECT * FROM {table}").fetchall())
                for table in ("docs", "lists", "counters", "indexes")}


def test_a_projector_per_shard_builds_what_one_projector_for_all_builds(sharded_env, tmp_path):
    app = create_app(sharded_env)
    client = app.test_client()
    play_matches(client, 10, seed=8)
    store = app.extensions["arbiter"].store
    one = Projector(store, SQLiteReadStore(tmp_path / "one.sqlite"), batch_size=40)
    one.catch_up()
    per_shard = SQLiteReadStore(tmp_path / "per-shard.sqlite")
    runners = [Projector(store, per_shard, batch_size=40, shards=[name]) for name in reversed(list(store.shards))]
    while sum(runner.run_once() for runner in runners):  # interleaved: each shard a batch in turn
        pass
    assert read_model_rows(tmp_path / "one.sqlite") == read_model_rows(tmp_path / "per-shard.sqlite")
    positions = per_shard.positions()
    assert {key.split("@", 1)[1] for key in positions} == set(store.shards)
    assert read_model_rows(tmp_path / "one.sqlite")["indexes"], "ratings and listings were projected"
    store.close()


def test_a_shard_projector_killed_mid_batch_loses_nothing(sharded_env):
    app = create_app(sharded_env)
    client = app.test_client()
    created = play_matches(client, 7, seed=11)
    store = app.extensions["arbiter"].store
    busiest = max(store.shards, key=lambda name: store.shards[name].recorder.max_notification_id() or 0)
    env = {**os.environ, **sharded_env}
    projector = app.extensions["projector"]
    key = f"matches@{busiest}"
    slow = subprocess.Popen([ARBITER, "projector", "--shard", busiest, "--batch-size", "100", "--throttle", "200"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_until(lambda: projector.models.positions().get(key, 0) > 0, timeout=60)  # one batch committed ...
        wait_until(lambda: 0 < projector.models.positions()[key] < store.shards[busiest].recorder.max_notification_id(),
                   timeout=5)                                                     # ... and more to read
        slow.send_signal(signal.SIGKILL)
        slow.wait(timeout=10)
    finally:
        if slow.poll() is None:
            slow.kill()
    killed_at = projector.models.positions()
    assert 0 < killed_at[key] < store.shards[busiest].recorder.max_notification_id(), killed_at
    others = [name for name in store.shards if name != busiest]
    assert not any(killed_at.get(f"matches@{name}") for name in others), "a shard projector read another shard"
    rest = [subprocess.Popen([ARBITER, "projector", *(f"--shard={name}" for name in shards)], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for shards in ([busiest], others)]
    try:
        wait_until(lambda: all(projector.models.positions().get(f"{p}@{name}", 0) ==
                               (store.shards[name].recorder.max_notification_id() or 0)
                               for name in store.shards for p in ("matches", "stats", "players", "ratings")),
                   timeout=90)
    finally:
        for process in rest:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=20)
    assert_read_models_equal_replay(client, created)
    store.close()


def test_an_unknown_shard_is_refused_by_name(sharded_env):
    env = {**os.environ, **sharded_env}
    refused = subprocess.run([ARBITER, "projector", "--shard", "nowhere:5432/none"], env=env,
                             capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and "no shard ['nowhere:5432/none']" in refused.stderr


def test_one_url_in_the_list_is_the_single_database(sharded_env):
    one = sharded_env["ARBITER_DATABASE_URLS"].split(",")[1]
    app = create_app({**sharded_env, "ARBITER_DATABASE_URLS": one})
    store = app.extensions["arbiter"].store
    assert not store.sharded
    match = create(app.test_client(), seats=("ann", "bob"))
    with psycopg.connect(one) as conn:
        stored = conn.execute("SELECT count(*) FROM arbiter_events WHERE originator_id = %s",
                              (match["match_id"],)).fetchone()[0]
    assert stored >= 1
    store.close()
