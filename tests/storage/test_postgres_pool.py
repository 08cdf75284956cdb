"""The PostgreSQL store's connection pool hands out the connection returned last
(domain/kernel/postgres.py LastReturnedFirstPool): a process making one request at a time
keeps to one PostgreSQL backend, whose caches stay warm."""

import random
import uuid

from domain.kernel.store import MatchStore
from service.matches import Arbiter

from .test_stores import play_some


def only_datastore(store: MatchStore):
    (shard,) = store.shards.values()
    return shard.recorder.datastore


def test_one_request_at_a_time_runs_on_one_backend_of_a_full_pool(postgres_env):
    store = MatchStore(postgres_env)
    arbiter = Arbiter(store)
    match_id = uuid.UUID(arbiter.create_match("cyberiad", ["ann", "bob"])["match_id"])
    datastore = only_datastore(store)
    datastore.pool.wait(timeout=30)  # all twelve connections open: a queue would go round them all
    assert datastore.pool.get_stats()["pool_available"] >= 12
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
    datastore.pool.wait(timeout=30)
    with datastore.get_connection() as first:
        with datastore.get_connection() as second:
            returned_first = second.info.backend_pid
        returned_last = first.info.backend_pid
    with datastore.get_connection() as conn:
        assert conn.info.backend_pid == returned_last
        with datastore.get_connection() as another:
            assert another.info.backend_pid == returned_first
    store.close()
