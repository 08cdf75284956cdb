"""Parquet for data tools: the tables load in DuckDB, and their counts and aggregates equal
what the store and the stats projection say; an incremental export adds only new matches."""

import random
import uuid

import duckdb
import pytest
from click.testing import CliRunner

from service.api import create_app
from service.cli import main

from .helpers import bearer, play_to_end


def play(client, seats, seed):
    created = client.post("/v1/matches", json={"game": "cyberiad", "seats": seats}).json
    return created, play_to_end(client, created, seed)


@pytest.fixture
def env(sqlite_env, monkeypatch):
    for key, value in sqlite_env.items():
        monkeypatch.setenv(key, value)
    return sqlite_env


def test_parquet_tables_agree_with_the_store_and_the_stats(env, tmp_path):
    app = create_app(env)
    client = app.test_client()
    rand = random.Random(3)
    finished = [play(client, rand.choice([["ann", "bob"], ["ann", "bob", "cat"]]), seed) for seed in range(4)]
    running = client.post("/v1/matches", json={"game": "cyberiad", "seats": ["dan", "eve"]}).json
    aborted = client.post("/v1/matches", json={"game": "cyberiad", "seats": ["fay", "gus"]}).json
    client.post(f"/v1/matches/{aborted['match_id']}/abort", headers=bearer(aborted["seats"][0]["token"]))
    app.extensions["projector"].catch_up()
    out = tmp_path / "tables"
    result = CliRunner().invoke(main, ["analytics", "export", "--out", str(out)])
    assert result.exit_code == 0, result.output
    db = duckdb.connect()
    table = lambda name: f"read_parquet('{out}/{name}/*.parquet')"  # noqa: E731
    assert db.execute(f"SELECT count(*) FROM {table('matches')}").fetchone()[0] == 5
    assert db.execute(f"SELECT count(*) FROM {table('matches')} WHERE status = 'abandoned'").fetchone()[0] == 1
    assert running["match_id"] not in {r[0] for r in db.execute(f"SELECT match_id FROM {table('matches')}").fetchall()}
    # actions: one row a recorded action, as the store holds them
    store = app.extensions["arbiter"].store
    stored = sum(1 for created, _ in finished for r in store.stored_events(uuid.UUID(created["match_id"]))
                 if r["type"] == "ActionTaken")
    assert db.execute(f"SELECT count(*) FROM {table('actions')}").fetchone()[0] == stored
    # seats: wins by seat position equal the stats projection's counts
    stats = client.get("/v1/stats/cyberiad").json
    for seats, rates in stats["win_rate_by_seat"].items():
        wins = dict(db.execute(f"SELECT s.seat, count(*) FILTER (WHERE result = 'won') FROM {table('seats')} s "
                           f"JOIN {table('matches')} m USING (match_id) WHERE m.seats = {seats} AND m.status = 'ended' "
                           "GROUP BY s.seat").fetchall())
        assert [wins[seat] for seat in range(int(seats))] == [rate["wins"] for rate in rates]
    cards = dict(db.execute(f"SELECT card, count(*) FROM {table('cards')} GROUP BY card").fetchall())
    assert cards == {card: row["plays"] for card, row in stats["cards"].items()}
    rated = db.execute(f"SELECT count(*) FROM {table('seats')} WHERE rating_after IS NOT NULL").fetchone()[0]
    assert rated == sum(len(created["seats"]) for created, _ in finished), "every seat of an ended match is rated"
    # Incremental: the next run adds only the match that ends after the first export.
    play_to_end(client, running, seed=9)
    app.extensions["projector"].catch_up()
    again = CliRunner().invoke(main, ["analytics", "export", "--out", str(out)])
    assert again.exit_code == 0 and "exported 1 matches" in again.output, again.output
    assert db.execute(f"SELECT count(DISTINCT match_id) FROM {table('matches')}").fetchone()[0] == 6
    csv = CliRunner().invoke(main, ["analytics", "export", "--out", str(tmp_path / "csv"), "--format", "csv"])
    assert csv.exit_code == 0
    assert db.execute(f"SELECT count(*) FROM read_csv('{tmp_path}/csv/seats/*.csv')").fetchone()[0] == \
        db.execute(f"SELECT count(*) FROM {table('seats')}").fetchone()[0]
