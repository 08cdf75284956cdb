"""The projector reads ahead what a batch will read (one MGET or SELECT ... IN for the
documents, one search per index above the batch's lowest score) and Redis commits a batch in
fewer, larger commands. Neither may change a read model: every key of every projection must be
as a projector that reads each document when asked leaves it, whatever the batch size."""

import random
import sqlite3
import uuid
from pathlib import Path

import pytest

from domain.kernel.store import MatchStore
from projections.models import Reader
from projections.projector import Projector
from projections.batch import Batch
from projections.readstore import SQLiteReadStore, open_read_store
from service.matches import Arbiter


def dump(models) -> dict:
    """Everything a read store holds (documents, lists, counters, indexes, positions)."""
    if isinstance(models, SQLiteReadStore):
        conn = sqlite3.connect(models.path)
        found = {table: conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
                 for table in ("docs", "lists", "counters", "indexes", "tracking")}
        conn.close()
        return found
    client, found = models.client, {}
    for key in sorted(client.keys(models.prefix + "*")):
        kind = client.type(key).decode()
        found[key] = {"string": client.get, "list": lambda k: client.lrange(k, 0, -1), "hash": client.hgetall,
                      "zset": lambda k: client.zrange(k, 0, -1, withscores=True),
                      "set": lambda k: sorted(client.smembers(k))}[kind](key)
    return found


def play(arbiter: Arbiter, rand: random.Random) -> None:
    """Matches of three games in every state a projection reads: played to the end, resigned,
    aborted, left running; lobbies opened, joined, left and started."""
    names = ["ann", "bob", "cat", "dan"]
    for n in range(14):
        game = ["cyberiad", "cybermancy", "herocard"][n % 3]
        bot = n % 5 == 0  # a bot seat: a ratings player of its own ("bot:random")
        seats = [rand.choice(names), {"bot": "random"}] if bot else rand.sample(names, 2)
        mid = uuid.UUID(arbiter.create_match(game, seats)["match_id"])
        for _ in range([10_000, 6, 0, 3][n % 4] if not bot else 0):
            summary = arbiter.summary(mid)
            if summary["status"] != "running":
                break
            seat = summary["to_act"][0]
            arbiter.submit_action(mid, seat, rand.choice(arbiter.legal_actions(mid, seat)["actions"]))
        summary = arbiter.summary(mid)
        if summary["status"] == "running" and n % 4 in (1, 2):
            (arbiter.abort if summary["version"] == 1 else arbiter.resign)(mid, 0)
    for n in range(3):
        opened = arbiter.create_match("cyberiad", [names[n], {"open": True}, {"open": True}])
        mid = uuid.UUID(opened["match_id"])
        joined = arbiter.join(mid, names[n + 1])
        if n == 1:
            arbiter.leave(mid, joined["token"])
        if n == 2:
            arbiter.join(mid, "eve")


@pytest.mark.parametrize("batch_size", [1, 7, 2000])
def test_read_ahead_and_grouped_commands_leave_every_read_model_as_reading_when_asked(
        read_env, batch_size, monkeypatch):
    store = MatchStore(read_env)
    play(Arbiter(store), random.Random(batch_size))
    models = open_read_store(read_env, Path(read_env["ARBITER_DATA_DIR"]))
    projector = Projector(store, models)
    assert projector.rebuild(batch_size=batch_size) > 0
    read_ahead = dump(models)
    with monkeypatch.context() as patched:
        patched.setattr(Reader, "read_ahead", lambda self, keys, index_floor=None: None)
        projector.rebuild(batch_size=batch_size)
    assert dump(models) == read_ahead
    store.close()


def test_an_index_read_ahead_answers_as_the_store_and_the_batch_would(tmp_path):
    read_store = SQLiteReadStore(tmp_path / "index.sqlite")
    stored = Batch()
    rand = random.Random(3)
    scores = {f"m{n}": float(rand.randrange(20)) for n in range(40)}
    for member, score in scores.items():
        stored.index("rorder:g", member, score)
    read_store.commit(stored, expected={})
    batch = Batch()  # a batch that moved, added and removed some members
    for member in rand.sample(sorted(scores), 10):
        batch.index("rorder:g", member, float(rand.randrange(20)))
    for member in rand.sample(sorted(scores), 5):
        batch.unindex("rorder:g", member)
    batch.index("rorder:g", "new", 12.0)
    plain, ahead = Reader(read_store, batch), Reader(read_store, batch)
    ahead.read_ahead([], index_floor=7.0)
    for low in (0.0, 6.5, 7.0, 9.0, 12.0, 19.0, 25.0):
        for high in (low, 15.0, float("inf")):
            assert ahead.index_scored("rorder:g", low, high) == plain.index_scored("rorder:g", low, high)


def test_documents_read_ahead_are_fresh_copies_and_a_batch_change_wins(tmp_path):
    read_store = SQLiteReadStore(tmp_path / "docs.sqlite")
    stored = Batch()
    stored.set("match:a", {"state": {"deck": [1, 2]}})
    read_store.commit(stored, expected={})
    batch = Batch()
    reader = Reader(read_store, batch)
    reader.read_ahead(["match:a", "match:missing"])
    first = reader.get("match:a")
    first["state"]["deck"].append(3)  # a projection changing what it read in place
    assert reader.get("match:a") == {"state": {"deck": [1, 2]}} and reader.get("match:missing") is None
    batch.set("match:a", {"state": {}})
    assert reader.get("match:a") == {"state": {}}
