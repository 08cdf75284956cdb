"""The PostgreSQL store's connection pool hands out the connection returned last
(domain/kernel/postgres.py LastReturnedFirstPool): a process making one request at a time
keeps to one PostgreSQL backend, whose caches stay warm."""

import random
import time
import uuid

import psycopg

from domain.kernel.store import MatchStore
from service.matches import Arbiter

from ..conftest import postgres_url
from .test_stores import play_some


def only_datastore(store: MatchStore):
    (shard,) = store.shards.values()
    return shard.recorder.datastore


def filled(pool) -> int:
    """Wait until every connection the pool opens is idle in it (a store's first request grows
    it past its minimum while it fills: one still connecting could land on top later)."""
    pool.wait(timeout=30)
    deadline = time.monotonic() + 30
    while (stats := pool.get_stats())["pool_available"] != stats["pool_size"]:
        assert time.monotonic() < deadline, stats
        time.sleep(0.01)
    return stats["pool_size"]


def test_one_request_at_a_time_runs_on_one_backend_of_a_full_pool(postgres_env):
    store = MatchStore(postgres_env)
    arbiter = Arbiter(store)
    match_id = uuid.UUID(arbiter.create_match("cyberiad", ["ann", "bob"])["match_id"])
    datastore = only_datastore(store)
    assert filled(datastore.pool) >= 12  # a queue would go round them all
    rand, backends = random.Random(5), []
    for _ in range(8):
        play_some(arbiter, match_id, 1, rand)  # a move: its save takes a connection and returns it
        with datastore.get_connection() as conn:
            backends.append(conn.execute("SELECT pg_backend_pid() AS pid").fetchone()["pid"])
    assert store.match(match_id).version > 8
    assert len(set(backends)) == 1, f"consecutive requests ran on {len(set(backends))} backends: {backends}"
    store.close()


def test_of_two_connections_in_use_the_one_returned_last_is_handed_out_next(postgres_env):
    store = MatchStore(postgres_env)
    Arbiter(store).create_match("cyberiad", ["ann", "bob"])
    datastore = only_datastore(store)
    filled(datastore.pool)
    with datastore.get_connection() as first:
        with datastore.get_connection() as second:
            returned_first = second.info.backend_pid
        returned_last = first.info.backend_pid
    with datastore.get_connection() as conn:
        assert conn.info.backend_pid == returned_last
        with datastore.get_connection() as another:
            assert another.info.backend_pid == returned_first
    store.close()


def test_a_replay_handed_connections_the_server_closed_is_read_on_another(postgres_env):
    """The connections under the one in use sit idle, and a server (idle_session_timeout) or a
    firewall may close them meanwhile: a replay handed one is read again on another."""
    store = MatchStore(postgres_env)
    arbiter = Arbiter(store)
    match_id = uuid.UUID(arbiter.create_match("cyberiad", ["ann", "bob"])["match_id"])
    play_some(arbiter, match_id, 6, random.Random(3))
    live = store.match(match_id)
    pool = only_datastore(store).pool
    size = filled(pool)
    held = [pool.getconn() for _ in range(size)]  # the pool's every connection, idle ones first
    backends = [conn.info.backend_pid for conn in held]
    for conn in reversed(held):  # back in the order they were: the same one on top
        pool.putconn(conn)
    with psycopg.connect(postgres_url(), autocommit=True) as admin:
        closed = admin.execute("SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                               "WHERE pid = ANY(%s)) AS terminated", (backends,)).fetchone()[0]
    assert closed == size
    store.forget(match_id)
    replayed = store.match(match_id)
    assert (replayed.state, replayed.version, replayed.head_hash) == (live.state, live.version, live.head_hash)
    store.close()
