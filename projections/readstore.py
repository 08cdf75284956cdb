"""Where read models live: Redis in production, a SQLite file in the embedded default.

Both offer the same few shapes, so the projections are written once:
documents (JSON by key), lists (append, range), counters (a hash of integers) and
sorted indexes (member by score). Changes are collected in a Batch and committed in
one transaction together with each projection's tracking position, so an event is
applied exactly once even when the projector dies mid-batch.
"""

import sqlite3
import threading
from pathlib import Path

import orjson
import redis


class ReadStoreUnavailable(Exception):
    """The read-model store cannot be reached (e.g. Redis is down)."""


class ProjectionConflict(Exception):
    """Another projector committed first; the batch is dropped and read again."""


class Batch:
    """Changes to commit atomically, with the new tracking positions."""

    def __init__(self):
        self.docs: dict[str, dict | None] = {}
        self.appends: list[tuple[str, dict]] = []
        self.increments: dict[tuple[str, str], int] = {}
        # The last word on each (index, member) in this batch wins: a match created and ended
        # in one batch leaves the running index it entered, whatever order the stores apply.
        self._index_changes: dict[tuple[str, str], float | None] = {}
        self.positions: dict[str, int] = {}

    def set(self, key: str, doc: dict) -> None:
        self.docs[key] = doc

    def append(self, key: str, item: dict) -> None:
        self.appends.append((key, item))

    def incr(self, key: str, field: str, by: int = 1) -> None:
        self.increments[(key, field)] = self.increments.get((key, field), 0) + by

    def index(self, name: str, member: str, score: float) -> None:
        self._index_changes[(name, member)] = score

    def unindex(self, name: str, member: str) -> None:
        self._index_changes[(name, member)] = None

    @property
    def indexed(self) -> list[tuple[str, str, float]]:
        return [(name, member, score) for (name, member), score in self._index_changes.items() if score is not None]

    @property
    def unindexed(self) -> list[tuple[str, str]]:
        return [key for key, score in self._index_changes.items() if score is None]


class SQLiteReadStore:
    name = "sqlite"

    def __init__(self, path: Path):
        self.path = Path(path)
        self._local = threading.local()
        with self._conn() as conn:
            conn.executescript("""
                CREATE TABLE IF NOT EXISTS docs (key TEXT PRIMARY KEY, value BLOB);
                CREATE TABLE IF NOT EXISTS lists (key TEXT, idx INTEGER, value BLOB, PRIMARY KEY (key, idx));
                CREATE TABLE IF NOT EXISTS counters (key TEXT, field TEXT, value INTEGER, PRIMARY KEY (key, field));
                CREATE TABLE IF NOT EXISTS indexes (name TEXT, member TEXT, score REAL, PRIMARY KEY (name, member));
                CREATE INDEX IF NOT EXISTS indexes_by_score ON indexes (name, score, member);
                CREATE TABLE IF NOT EXISTS tracking (projection TEXT PRIMARY KEY, position INTEGER);
            """)

    def _conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, timeout=10, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")  # a read model can always be rebuilt
            self._local.conn = conn
        return conn

    def ping(self) -> None:
        self._conn().execute("SELECT 1")

    def get(self, key: str) -> dict | None:
        row = self._conn().execute("SELECT value FROM docs WHERE key=?", (key,)).fetchone()
        return orjson.loads(row[0]) if row else None

    def fetch(self, keys: list[str]) -> dict[str, bytes | None]:
        """The stored JSON of each document (None: none), in as few statements as SQLite allows."""
        found: dict[str, bytes | None] = dict.fromkeys(keys)
        for start in range(0, len(keys), 500):
            chunk = keys[start:start + 500]
            found.update(self._conn().execute(
                f"SELECT key, value FROM docs WHERE key IN ({','.join('?' * len(chunk))})", chunk).fetchall())
        return found

    def list_range(self, key: str, start: int, count: int) -> list[dict]:
        rows = self._conn().execute("SELECT value FROM lists WHERE key=? AND idx>=? ORDER BY idx LIMIT ?",
                                    (key, start, count)).fetchall()
        return [orjson.loads(r[0]) for r in rows]

    def list_length(self, key: str) -> int:
        return self._conn().execute("SELECT COUNT(*) FROM lists WHERE key=?", (key,)).fetchone()[0]

    def counters(self, key: str) -> dict[str, int]:
        return dict(self._conn().execute("SELECT field, value FROM counters WHERE key=?", (key,)).fetchall())

    def index_page(self, name: str, low: float, high: float, offset: int, count: int) -> list[str]:
        rows = self._conn().execute(
            "SELECT member FROM indexes WHERE name=? AND score>=? AND score<=? ORDER BY score, member "
            "LIMIT ? OFFSET ?", (name, low, high, count, offset)).fetchall()
        return [r[0] for r in rows]

    def index_scored(self, name: str, low: float, high: float) -> list[tuple[str, float]]:
        return [tuple(row) for row in self._conn().execute(
            "SELECT member, score FROM indexes WHERE name=? AND score>=? AND score<=? ORDER BY score, member",
            (name, low, high)).fetchall()]

    def positions(self) -> dict[str, int]:
        return dict(self._conn().execute("SELECT projection, position FROM tracking").fetchall())

    def commit(self, batch: Batch, expected: dict[str, int]) -> None:
        conn = self._conn()
        conn.execute("BEGIN IMMEDIATE")
        try:
            stored = dict(conn.execute("SELECT projection, position FROM tracking").fetchall())
            if any(stored.get(name, 0) != position for name, position in expected.items()):
                raise ProjectionConflict(f"positions moved from {expected} to {stored}")
            conn.executemany("INSERT OR REPLACE INTO docs VALUES (?, ?)",
                             [(k, orjson.dumps(v)) for k, v in batch.docs.items()])
            lengths = {}
            rows = []
            for key, item in batch.appends:
                if key not in lengths:
                    lengths[key] = conn.execute("SELECT COALESCE(MAX(idx) + 1, 0) FROM lists WHERE key=?",
                                                (key,)).fetchone()[0]
                rows.append((key, lengths[key], orjson.dumps(item)))
                lengths[key] += 1
            conn.executemany("INSERT INTO lists VALUES (?, ?, ?)", rows)
            conn.executemany("INSERT INTO counters VALUES (?, ?, ?) ON CONFLICT (key, field) "
                             "DO UPDATE SET value = value + excluded.value",
                             [(k, f, n) for (k, f), n in batch.increments.items()])
            conn.executemany("DELETE FROM indexes WHERE name=? AND member=?", batch.unindexed)
            conn.executemany("INSERT OR REPLACE INTO indexes VALUES (?, ?, ?)", batch.indexed)
            conn.executemany("INSERT OR REPLACE INTO tracking VALUES (?, ?)", list(batch.positions.items()))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def drop(self, prefixes: list[str], tracking: list[str]) -> None:
        """Forget every key under `prefixes` and the projection's positions, in one transaction."""
        conn = self._conn()
        conn.execute("BEGIN IMMEDIATE")
        for prefix in prefixes:
            pattern = prefix.replace("%", r"\%") + "%"
            for table, column in (("docs", "key"), ("lists", "key"), ("counters", "key"), ("indexes", "name")):
                conn.execute(f"DELETE FROM {table} WHERE {column} LIKE ? ESCAPE '\\'", (pattern,))
        conn.executemany("DELETE FROM tracking WHERE projection=?", [(key,) for key in tracking])
        conn.execute("COMMIT")


class RedisReadStore:
    name = "redis"

    def __init__(self, url: str, prefix: str = "arbiter:"):
        self.url, self.prefix = url, prefix
        self.client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=1)

    def _k(self, key: str) -> str:
        return self.prefix + key

    def _call(self, function, *args):
        try:
            return function(*args)
        except redis.exceptions.ConnectionError as error:
            raise ReadStoreUnavailable(f"Redis at {self.url} is unreachable: {error}") from None
        except redis.exceptions.TimeoutError as error:
            raise ReadStoreUnavailable(f"Redis at {self.url} timed out: {error}") from None

    def ping(self) -> None:
        self._call(self.client.ping)

    def get(self, key: str) -> dict | None:
        raw = self._call(self.client.get, self._k(key))
        return orjson.loads(raw) if raw else None

    def fetch(self, keys: list[str]) -> dict[str, bytes | None]:
        """The stored JSON of each document (None: none), in one MGET."""
        return dict(zip(keys, self._call(self.client.mget, [self._k(key) for key in keys])))

    def list_range(self, key: str, start: int, count: int) -> list[dict]:
        return [orjson.loads(r) for r in self._call(self.client.lrange, self._k(key), start, start + count - 1)]

    def list_length(self, key: str) -> int:
        return self._call(self.client.llen, self._k(key))

    def counters(self, key: str) -> dict[str, int]:
        return {f.decode(): int(v) for f, v in self._call(self.client.hgetall, self._k(key)).items()}

    def index_page(self, name: str, low: float, high: float, offset: int, count: int) -> list[str]:
        members = self._call(self.client.zrangebyscore, self._k(name), low, high, offset, count)
        return [m.decode() for m in members]

    def index_scored(self, name: str, low: float, high: float) -> list[tuple[str, float]]:
        pairs = self._call(lambda: self.client.zrangebyscore(self._k(name), low, high, withscores=True))
        return [(member.decode(), score) for member, score in pairs]

    def positions(self) -> dict[str, int]:
        names = sorted(m.decode() for m in self._call(self.client.smembers, self._k("tracking:names")))
        if not names and self._call(self.client.exists, self._k("tracking")):
            return self._moved_tracking_hash()
        values = self._call(self.client.mget, [self._k(f"tracking:{name}") for name in names]) if names else []
        return {name: int(value) for name, value in zip(names, values) if value is not None}

    def _moved_tracking_hash(self) -> dict[str, int]:
        """Read models written before positions had a key each kept them in one hash: move them
        (once, atomically), so an upgraded projector goes on where the old one stopped."""
        old = {f.decode(): int(v) for f, v in self._call(self.client.hgetall, self._k("tracking")).items()}
        pipe = self.client.pipeline(transaction=True)
        pipe.mset({self._k(f"tracking:{name}"): position for name, position in old.items()})
        pipe.sadd(self._k("tracking:names"), *old)
        pipe.delete(self._k("tracking"))
        self._call(pipe.execute)
        return old

    def commit(self, batch: Batch, expected: dict[str, int]) -> None:
        """WATCH the positions this batch expects (one key each, so projectors of other shards
        commit beside it), then MULTI/EXEC every change of the batch with its new positions."""
        watched = [self._k(f"tracking:{name}") for name in expected]
        try:
            with self.client.pipeline(transaction=True) as pipe:
                pipe.watch(*watched)
                stored = [int(value) if value is not None else 0 for value in pipe.mget(watched)]
                if stored != list(expected.values()):
                    raise ProjectionConflict(f"positions moved from {expected} to {stored}")
                pipe.multi()
                self._queue(pipe, batch)
                pipe.execute()
        except redis.exceptions.WatchError:
            raise ProjectionConflict("another projector committed first") from None
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as error:
            raise ReadStoreUnavailable(f"Redis at {self.url} is unreachable: {error}") from None

    def _queue(self, pipe, batch: Batch) -> None:
        """Few commands, each carrying many changes (the transaction's cost is per command):
        one MSET for the documents, one RPUSH per list, one ZREM and one ZADD per index."""
        if batch.docs:
            pipe.mset({self._k(key): orjson.dumps(doc) for key, doc in batch.docs.items()})
        grouped: dict[str, list[bytes]] = {}
        for key, item in batch.appends:
            grouped.setdefault(key, []).append(orjson.dumps(item))
        for key, items in grouped.items():
            pipe.rpush(self._k(key), *items)
        for (key, field), n in batch.increments.items():
            pipe.hincrby(self._k(key), field, n)
        removed: dict[str, list[str]] = {}
        for name, member in batch.unindexed:
            removed.setdefault(name, []).append(member)
        for name, members in removed.items():
            pipe.zrem(self._k(name), *members)
        added: dict[str, dict[str, float]] = {}
        for name, member, score in batch.indexed:
            added.setdefault(name, {})[member] = score
        for name, scores in added.items():
            pipe.zadd(self._k(name), scores)
        if batch.positions:
            pipe.mset({self._k(f"tracking:{name}"): position for name, position in batch.positions.items()})
            pipe.sadd(self._k("tracking:names"), *batch.positions)

    def drop(self, prefixes: list[str], tracking: list[str]) -> None:
        keys = [k for prefix in prefixes for k in self._call(self.client.keys, self._k(prefix) + "*")]
        pipe = self.client.pipeline(transaction=True)
        if keys:
            pipe.delete(*keys)
        pipe.delete(*[self._k(f"tracking:{name}") for name in tracking])
        pipe.srem(self._k("tracking:names"), *tracking)
        self._call(pipe.execute)


def open_read_store(environ, data_dir: Path):
    """Redis when ARBITER_REDIS_URL is set, else a SQLite file beside the event store."""
    url = environ.get("ARBITER_REDIS_URL")
    if url:
        return RedisReadStore(url, environ.get("ARBITER_REDIS_PREFIX", "arbiter:"))
    data_dir.mkdir(parents=True, exist_ok=True)
    return SQLiteReadStore(data_dir / "readmodels.sqlite")
