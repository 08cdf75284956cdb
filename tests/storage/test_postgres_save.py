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


def test_the_stored_rows_are_the_encoded_events_byte_for_byte(postgres_env):
    store = MatchStore(postgres_env)
    (shard,) = store.shards.values()
    recorder, encoded = shard.recorder, []
    insert = recorder.insert_events

    def keeping(stored_events, **kwargs):
        encoded.extend(stored_events)
        return insert(stored_events, **kwargs)

    recorder.insert_events = keeping
    arbiter = Arbiter(store)
    match_id = uuid.UUID(arbiter.create_match("cyberiad", ["ann", "bob", "cat"])["match_id"])
    play_some(arbiter, match_id, 12, random.Random(7))
    assert len(encoded) > 12
    with psycopg.connect(postgres_url()) as conn:
        rows = conn.execute(sql.SQL("SELECT originator_id, originator_version, topic, state FROM {}.{}").format(
            sql.Identifier(postgres_env["ARBITER_DB_SCHEMA"]), sql.Identifier(recorder.events_table_name))).fetchall()
    stored = {(row[0], row[1]): (row[2], bytes(row[3])) for row in rows}
    assert len(stored) == len(encoded)
    for event in encoded:
        assert stored[(event.originator_id, event.originator_version)] == (event.topic, event.state)
    # non-ASCII text survives too: a seat's name in the match's first event
    names = arbiter.create_match("cyberiad", ["Ånnä", "Бob"])
    first = store.stored_events(uuid.UUID(names["match_id"]))[0]
    assert first["data"]["seats"] == ["Ånnä", "Бob"]
    store.close()
