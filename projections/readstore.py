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

from domain.kernel.sqlite import use_wal

from .batch import Batch, ProjectionConflict


class SQLiteReadStore:
    name = "sqlite"

    def __init__(self, path: Path):
        self.path = Path(path)
        self._local = threading.local()
        use_wal(self.path)
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
            conn.executemany("DELETE FROM lists WHERE key=?", [(key,) for key in batch.dropped_lists])
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


def open_read_store(environ, data_dir: Path):
    """Redis when ARBITER_REDIS_URL is set, else a SQLite file beside the event store."""
    url = environ.get("ARBITER_REDIS_URL")
    if url:
        from .redis_store import RedisReadStore  # imported only here: redis costs a start 0.3 s
        return RedisReadStore(url, environ.get("ARBITER_REDIS_PREFIX", "arbiter:"))
    data_dir.mkdir(parents=True, exist_ok=True)
    return SQLiteReadStore(data_dir / "readmodels.sqlite")
