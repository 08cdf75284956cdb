"""A save on PostgreSQL is one call of OneCallRecorder's function with the events as one binary
parameter (domain/kernel/postgres.py): the rows stored are the events the library encoded,
byte for byte."""

import random
import uuid

import psycopg
from psycopg import sql

from domain.kernel.store import MatchStore
from service.matches import Arbiter

from ..conftest import postgres_url
from .test_stores import play_some

NAMES = ["Ånnä", "Бob", "李雷 🃏𝄞", 'q"uo\\te\\"s']  # seats' names are user input


def test_the_stored_rows_are_the_encoded_events_byte_for_byte(postgres_env):
    store = MatchStore(postgres_env)
    try:
        (shard,) = store.shards.values()
        recorder, encoded = shard.recorder, []
        assert "%b" in recorder.sql_invoke_pg_function_insert_events.as_string(None)
        insert = recorder.insert_events

        def keeping(stored_events, **kwargs):
            encoded.extend(stored_events)
            return insert(stored_events, **kwargs)

        recorder.insert_events = keeping
        arbiter = Arbiter(store)
        plain = uuid.UUID(arbiter.create_match("cyberiad", ["ann", "bob", "cat"])["match_id"])
        play_some(arbiter, plain, 12, random.Random(7))
        named = uuid.UUID(arbiter.create_match("cyberiad", NAMES)["match_id"])
        play_some(arbiter, named, 4, random.Random(8))
        with psycopg.connect(postgres_url()) as conn:
            rows = conn.execute(sql.SQL("SELECT originator_id, originator_version, topic, state FROM {}.{}").format(
                sql.Identifier(postgres_env["ARBITER_DB_SCHEMA"]), sql.Identifier(recorder.events_table_name))).fetchall()
        stored = {(row[0], row[1]): (row[2], bytes(row[3])) for row in rows}
        assert len(encoded) > 16 and len(stored) == len(encoded)
        for event in encoded:
            assert stored[(event.originator_id, event.originator_version)] == (event.topic, event.state)
        assert any(NAMES[2].encode() in state for _, state in stored.values()), "the names went through as UTF-8"
        assert store.stored_events(named)[0]["data"]["seats"] == NAMES
    finally:
        store.close()
