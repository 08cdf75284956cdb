"""The read-model store on Redis (projections/readstore.py has the contract and the SQLite
store): each document, list, counter and index under the deployment's key prefix, a batch
committed in one MULTI/EXEC watched on the projections' tracking keys."""

import orjson
import redis

from .batch import Batch, ProjectionConflict, ReadStoreUnavailable


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
                if watched:  # a batch that moves no position (retention.py) watches nothing
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
        if batch.dropped_lists:
            pipe.delete(*[self._k(key) for key in batch.dropped_lists])
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
