"""The event store: the eventsourcing library's Application, configured for Arbiter.

SQLite file by default, PostgreSQL when ARBITER_STORE=postgres: one database
(ARBITER_DATABASE_URL), or several shards (ARBITER_DATABASE_URLS, comma-separated), each its
own database with its own tables, notification log and write lock. A match, its lobby, its
secret and its rematches live on one shard: the one rendezvous hashing picks for the match
id (`shard_rank`: the shard whose name hashes highest with the id), a rule anyone can
recompute; a rematch's id is drawn until it falls on its original's shard. A stream not
found where the rule points (one stored before a shard was added) is looked for on the
others, so shards can be added without moving matches. Events are stored as lean orjson
documents. Aggregates are cached per process and fast-forwarded from the
store before every use, so the cache saves replay work but never hides a newer event
or a conflict: a write at a taken version fails on the store's unique
(stream, version) constraint whatever the cache held. A match is replayed (and
fast-forwarded) straight from its stored JSON rows by the Match methods its events apply
with (`ShardStore._replayed`), keeping the library's cache semantics but not building its
event objects, and as a copy: a cached match is never changed, so a thread that read it
keeps one whole version.

Any number of processes may start together against an empty PostgreSQL database or
schema (web workers, several hosts, the projector): the tables are created by one of
them at a time, under a PostgreSQL advisory lock, so concurrent CREATE TABLE IF NOT
EXISTS statements cannot collide in the catalog. The others wait for the lock, then
find the tables there. No start-up order or one-shot init step is needed.
"""

import hashlib
import logging
import os
from collections.abc import Callable
from copy import deepcopy
from datetime import datetime
from pathlib import Path
from urllib.parse import unquote, urlparse
from uuid import UUID, uuid4

import msgspec
import orjson
from eventsourcing.application import AggregateNotFoundError, Application, LRUCache, ProcessingEvent
from eventsourcing.domain import OriginatorVersionError
from eventsourcing.persistence import IntegrityError, Transcoder
from eventsourcing.sqlite import SQLiteAggregateRecorder
from eventsourcing.utils import get_topic

from .errors import MatchNotFound, VersionConflict
from .lobby import Lobby, lobby_id
from .match import EVENT_TYPES, Match, MatchSecret, secret_id
from .sqlite import KeptConnectionsRecorder, use_wal

log = logging.getLogger("arbiter.store")


class OrjsonTranscoder(Transcoder):
    """Plain JSON on disk: readable by any tool, and 3-4x faster than the default transcoder."""

    def encode(self, obj) -> bytes:
        return orjson.dumps(obj)

    def decode(self, data: bytes):
        decoded = orjson.loads(data)
        timestamp = decoded.get("timestamp")
        if timestamp is not None:
            decoded["timestamp"] = datetime.fromisoformat(timestamp)
        return decoded


def store_environment(environ=os.environ) -> dict[str, str]:
    """Translate Arbiter's documented variables into the library's settings."""
    kind = environ.get("ARBITER_STORE", "sqlite")
    env = {
        "AGGREGATE_CACHE_MAXSIZE": environ.get("ARBITER_CACHE_SIZE", "1000"),
        # Commands change a private copy of a match (ShardStore.match_to_change), never the
        # cached one, so the library's deep copy on every read would only cost time.
        "DEEPCOPY_FROM_AGGREGATE_CACHE": "n",
    }
    if kind == "sqlite":
        data_dir = Path(environ.get("ARBITER_DATA_DIR", "./var"))
        data_dir.mkdir(parents=True, exist_ok=True)
        use_wal(data_dir / "arbiter.sqlite")  # before the library's first connection would switch it, unguarded
        env.update(PERSISTENCE_MODULE="eventsourcing.sqlite",
                   SQLITE_DBNAME=str(data_dir / "arbiter.sqlite"),
                   SQLITE_LOCK_TIMEOUT="10",
                   # saves and replays on connections the recorder keeps (domain/kernel/sqlite.py)
                   APPLICATION_RECORDER_TOPIC=get_topic(KeptConnectionsRecorder))
    elif kind == "postgres":
        url = urlparse(environ.get("ARBITER_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/arbiter"))
        env.update(PERSISTENCE_MODULE="eventsourcing.postgres",
                   POSTGRES_DBNAME=url.path.lstrip("/") or "arbiter",
                   POSTGRES_HOST=url.hostname or "127.0.0.1",
                   POSTGRES_PORT=str(url.port or 5432),
                   POSTGRES_USER=unquote(url.username or "postgres"),
                   POSTGRES_PASSWORD=unquote(url.password or ""),
                   POSTGRES_POOL_SIZE=environ.get("ARBITER_DB_POOL_SIZE", "10"))
        if environ.get("ARBITER_DB_SCHEMA"):
            env["POSTGRES_SCHEMA"] = environ["ARBITER_DB_SCHEMA"]
        # The library's own CREATE TABLE IF NOT EXISTS races between processes (a
        # UniqueViolation in pg_type); ShardStore creates the tables under a lock instead.
        env["CREATE_TABLE"] = "n"
        # A save is one prepared call of OneCallRecorder's function (same lock, one statement).
        from .postgres import OneCallRecorder  # psycopg only where PostgreSQL is the store
        env["APPLICATION_RECORDER_TOPIC"] = get_topic(OneCallRecorder)
        env["POSTGRES_ENABLE_DB_FUNCTIONS"] = "y"
    else:
        raise ValueError(f"ARBITER_STORE must be 'sqlite' or 'postgres', not {kind!r}")
    return env


MATCH_CREATED_TOPIC = get_topic(Match.MatchCreated)
MATCH_TOPICS = frozenset(get_topic(getattr(Match, name)) for name in EVENT_TYPES)
# topic -> the Match method its event class applies (Match.Event.on): replay without events
MATCH_APPLIERS = {get_topic(getattr(Match, name)): getattr(Match, getattr(Match, name).on) for name in EVENT_TYPES}
SCHEMA_LOCK_KEY = int.from_bytes(b"arbiter\0", "big")  # any fixed 64-bit key; "arbiter" for pg_locks readers


class ReplayedFields(msgspec.Struct):
    """What a replay reads of a stored event. msgspec steps over the other fields (the public
    copy of the facts, prev_hash, the commitment: the audit's) without building them: a
    replay decodes an event in two thirds of orjson's time for the whole document."""

    timestamp: str
    data: dict
    hash: str


decode_replayed = msgspec.json.Decoder(ReplayedFields).decode


def event_type(topic: str) -> str:
    return topic.rsplit(".", 1)[1]


class ShardStore(Application):
    """One database of events: the SQLite file, or one PostgreSQL database (a shard)."""

    name = "Arbiter"

    def __init__(self, environ=os.environ):
        super().__init__(env=store_environment(environ))
        self._secrets: LRUCache[UUID, MatchSecret] = LRUCache(maxsize=10_000)
        mapper = self.mapper
        # Matches are replayed from the stored JSON directly (`_replayed`) unless something
        # stands between the rows and that JSON (a cipher, a compressor) or snapshots are on.
        self._replays_rows = (isinstance(mapper.transcoder, OrjsonTranscoder) and not mapper.cipher
                              and not mapper.compressor and self.repository.snapshot_store is None)
        if not self.factory.env_create_table():
            self._create_tables_once()

    def _create_tables_once(self) -> None:
        """Create the schema and tables if missing, one process at a time (see the module doc)."""
        from .postgres import create_tables_once
        create_tables_once(self.recorder, SCHEMA_LOCK_KEY)

    def construct_transcoder(self) -> Transcoder:
        return OrjsonTranscoder()

    def match(self, match_id: UUID, version: int | None = None) -> Match:
        try:
            if self._replays_rows:
                match = self._match_from_rows(match_id, version)
            else:
                match = self.repository.get(match_id, version=version, projector_func=_forwarded_as_a_copy)
        except AggregateNotFoundError:
            raise MatchNotFound(f"no match {match_id}") from None
        if not isinstance(match, Match):
            raise MatchNotFound(f"no match {match_id}")
        if not self._replays_rows and version is None and self.repository.cache is not None:
            self.repository.cache.put(match_id, match)  # the copy brought forward, in the old one's place
        return match

    def _match_from_rows(self, match_id: UUID, version: int | None) -> Match:
        """The library's Repository.get (eventsourcing 9.5.6) with its cache, fast-forward
        lock and version reads as they are, but the stored rows applied by `_replayed`."""
        repository, cache = self.repository, self.repository.cache
        if not cache or version is not None:
            return self._replayed(match_id, None, version)
        try:
            match = cache.get(match_id)
        except KeyError:
            match = self._replayed(match_id, None, None)
            cache.put(match_id, match)
        else:
            if not isinstance(match, Match):
                raise MatchNotFound(f"no match {match_id}")
            if repository.fastforward:
                lock = repository._use_fastforward_lock(match_id)
                try:
                    if lock.acquire(blocking=not repository.fastforward_skipping):
                        try:
                            forwarded = self._replayed(match_id, match, None)
                            if forwarded is not match:
                                cache.put(match_id, forwarded)
                                match = forwarded
                        finally:
                            lock.release()
                finally:
                    repository._disuse_fastforward_lock(match_id)
        if repository.deepcopy_from_cache:
            match = deepcopy(match)
        return match

    def _replayed(self, match_id: UUID, match: Match | None, version: int | None) -> Match:
        """`match` (None: a new one) brought forward by its stored events after its version, up
        to `version`, as a copy (`match` itself is left as it was): each event's data applied by
        the Match method its class applies it with, and the version, head hash and timestamps
        set as the library's events set them, without building the library's event objects
        (their UUIDs, datetimes and checks were half the cost of a replay)."""
        rows = self._event_rows(match_id, gt=match.version if match is not None else None, lte=version)
        if not rows:
            if match is None:
                raise AggregateNotFoundError(f"Aggregate {match_id!r} version {version!r} not found.")
            return match
        appliers = MATCH_APPLIERS
        if not all(topic in appliers for _, topic, _ in rows):  # a lobby's or a secret's stream
            raise MatchNotFound(f"no match {match_id}")
        decode = decode_replayed
        if match is not None:
            # The cached match is read by any thread without a lock, and a reader reads several
            # of its fields (a listing's actions, then its version and seats to act): it is
            # brought forward as a copy, cached in its place, so that each reader keeps the
            # version it took whole. (Forwarded in place, a listing worked out at version v
            # went out labelled v+1, with v+1's seats to act.)
            match = match.to_change()
        else:
            (seq, topic, stored), rows = rows[0], rows[1:]
            if topic != MATCH_CREATED_TOPIC:
                raise MatchNotFound(f"no match {match_id}")
            event = decode(stored)
            match = Match.__new__(Match)
            match.__base_init__(match_id, seq, datetime.fromisoformat(event.timestamp))
            match._on_created(seq, event.data)
            match.head_hash = event.hash
        for seq, topic, stored in rows:
            if seq != match._version + 1:
                raise OriginatorVersionError(seq, match._version + 1)
            event = decode(stored)
            appliers[topic](match, seq, event.data)
            match.head_hash = event.hash
            match._version = seq
        if rows:
            match._modified_on = datetime.fromisoformat(event.timestamp)
        return match

    def _event_rows(self, match_id: UUID, gt: int | None, lte: int | None) -> list:
        """(version, topic, stored JSON) of a stream's events after `gt` up to `lte`, in order:
        the library's select_events without its StoredEvent objects and its UUID per row
        (a quarter of a replay's time), from the same table."""
        recorder = self.recorder
        sqlite = isinstance(recorder, SQLiteAggregateRecorder)  # store_environment names KeptConnectionsRecorder
        mark = "?" if sqlite else "%s"
        where = f"originator_id = {mark}"
        params: list = [match_id.hex if sqlite else match_id]
        if gt is not None:
            where += f" AND originator_version > {mark}"
            params.append(gt)
        if lte is not None:
            where += f" AND originator_version <= {mark}"
            params.append(lte)
        if sqlite:
            return recorder.select_rows(f"SELECT originator_version, topic, state FROM {recorder.events_table_name} "
                                        f"WHERE {where} ORDER BY originator_version", params)
        from .postgres import event_rows  # loaded with the store (store_environment)
        return event_rows(recorder, where, params)

    def save(self, *aggregates, **kwargs):
        """The library's save (eventsourcing 9.5.6) with the aggregates' pending events collected
        directly: its ProcessingEvent.collect_events first tests each object against two
        runtime-checkable Protocols, 11 µs a save (a move's own work is about 300 µs). Only
        aggregates (a match, its secret, a lobby: save_match and save_lobby), never None or a
        bare event, which the library's save also takes."""
        processing_event = ProcessingEvent()
        for aggregate in aggregates:
            processing_event.events.extend(aggregate.collect_events())
            processing_event.aggregates[aggregate.id] = aggregate
        processing_event.saved_kwargs.update(kwargs)
        recordings = self._record(processing_event)
        self._take_snapshots(processing_event)
        self._notify(recordings)
        return recordings

    def secret(self, match_id: UUID) -> MatchSecret:
        """A match's secret never changes after creation, so it is cached without re-reading."""
        try:
            return self._secrets.get(match_id)
        except KeyError:
            pass
        try:
            secret = self.repository.get(secret_id(match_id), projector_func=_apply_events)
        except AggregateNotFoundError:
            raise MatchNotFound(f"no match {match_id}") from None
        self._secrets.put(match_id, secret)
        return secret

    def lobby(self, match_id: UUID) -> Lobby:
        try:
            lobby = self.repository.get(lobby_id(match_id))
        except AggregateNotFoundError:
            raise MatchNotFound(f"no match {match_id}") from None
        if not isinstance(lobby, Lobby):
            raise MatchNotFound(f"no match {match_id}")
        return lobby

    def lobby_to_change(self, match_id: UUID) -> Lobby:
        """The lobby for a command: a private copy (Lobby.to_change), which `save_lobby` puts in
        the cache once the store has its events."""
        return self.lobby(match_id).to_change()

    def match_to_change(self, match_id: UUID, expected_version: int | None = None) -> Match:
        """The match for a command: a private copy (Match.to_change), which `save_match` puts in
        the cache once the store has its events; the cached match is never changed.

        With the version the command expects, and this process's cache holding the match at
        that very version, the store is not read: had the stream moved on, the command's save
        would fail on the store's (stream, version) constraint, which is the conflict the
        command must get anyway. (The read was a third of a PostgreSQL move's store time.)"""
        cache = self.repository.cache
        if expected_version is not None and cache is not None:
            try:
                cached = cache.get(match_id)
            except KeyError:
                cached = None
            if isinstance(cached, Match) and cached.version == expected_version:
                return cached.to_change()
        return self.match(match_id).to_change()

    def save_match(self, match: Match, *others) -> None:
        """Store the match's new events and cache the match as saved, or fail with VersionConflict
        and forget the cached copy."""
        try:
            self.save(match, *others)
            if self.repository.cache is not None:
                self.repository.cache.put(match.id, match)
        except IntegrityError:
            self.forget(match.id)
            raise VersionConflict(f"match {match.id} was changed by another request; "
                                  "fetch it again and retry") from None
        except BaseException:
            self.forget(match.id)
            raise

    def save_lobby(self, lobby: Lobby, *others) -> None:
        """Store a lobby's new events (with the match it starts, if any) and cache the lobby as
        saved, or fail with VersionConflict and forget the cached copies."""
        try:
            self.save(lobby, *others)
            if self.repository.cache is not None:
                self.repository.cache.put(lobby.id, lobby)
        except IntegrityError:
            for aggregate in (lobby, *others):
                self.forget(aggregate.id)
            raise VersionConflict(f"match {lobby.match_id} was changed by another request; "
                                  "fetch it again and retry") from None
        except BaseException:
            for aggregate in (lobby, *others):
                self.forget(aggregate.id)
            raise

    def close(self) -> None:
        super().close()
        if isinstance(self.recorder, KeptConnectionsRecorder):
            self.recorder.close()

    def forget(self, match_id: UUID) -> None:
        cache = self.repository.cache
        if cache is not None:
            try:
                cache.get(match_id, evict=True)
            except KeyError:
                pass

    def stored_events(self, match_id: UUID, after: int = 0, upto: int | None = None,
               limit: int | None = None) -> list[dict]:
        """Stored events as export records: seq, type, data, public (where it differs), commit,
        prev_hash, hash."""
        decode = orjson.loads
        records = []
        for stored in self.recorder.select_events(match_id, gt=after or None, lte=upto, limit=limit):
            if stored.topic not in MATCH_TOPICS:  # a lobby's or a secret's stream is not a match
                raise MatchNotFound(f"no match {match_id}")
            records.append({"seq": stored.originator_version, "type": event_type(stored.topic),
                            **export_fields(decode(stored.state))})
        return records

    def last_event(self, match_id: UUID) -> tuple[int, str] | None:
        """The version and type of the last stored event of a stream (None: no stream)."""
        last = self.recorder.select_events(match_id, desc=True, limit=1)
        return (last[0].originator_version, event_type(last[0].topic)) if last else None

    def stream_exists(self, stream_id: UUID) -> bool:
        """Whether any aggregate (a match, a lobby, a secret) has events under this id."""
        return bool(self.recorder.select_events(stream_id, limit=1))

    def created_matches(self, start: int, limit: int):
        """MatchCreated notifications from notification id `start` on, oldest first."""
        return self.recorder.select_notifications(start=start, limit=limit, topics=[MATCH_CREATED_TOPIC])


def _forwarded_as_a_copy(match, events):
    """`_apply_events` for the library's read of a match (with a cipher, a compressor or
    snapshots): a cached match it fast-forwards is brought forward as a copy, as `_replayed`
    does, never changed in place."""
    events = iter(events)
    first = next(events, None)
    if first is None:
        return match
    if isinstance(match, Match):
        match = match.to_change()
    return _apply_events(first.mutate(match), events)


def _apply_events(match, events):
    """The library's projector minus its per-event runtime Protocol check (15 µs an event)."""
    for domain_event in events:
        match = domain_event.mutate(match)
    return match


def export_fields(state: dict) -> dict:
    """An event's export fields: `public` only where it differs from `data`, `commit` from
    event format 2 on (canonical.py)."""
    fields = {"data": state["data"]}
    if state.get("public") is not None:
        fields["public"] = state["public"]
    if state.get("commit") is not None:
        fields["commit"] = state["commit"]
    fields["prev_hash"], fields["hash"] = state["prev_hash"], state["hash"]
    return fields


def database_urls(environ) -> list[str]:
    """The PostgreSQL shards: ARBITER_DATABASE_URLS (comma-separated), else ARBITER_DATABASE_URL."""
    urls = [url.strip() for url in environ.get("ARBITER_DATABASE_URLS", "").split(",") if url.strip()]
    return urls or [environ.get("ARBITER_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/arbiter")]


def shard_name(url: str, schema: str | None) -> str:
    """A shard's stable name: where its database is, without credentials (host:port/db[/schema])."""
    parsed = urlparse(url)
    return f"{parsed.hostname or '127.0.0.1'}:{parsed.port or 5432}/{parsed.path.lstrip('/') or 'arbiter'}" + (
        f"/{schema}" if schema else "")


def shard_rank(name: str, stream_id: UUID) -> bytes:
    """Rendezvous (highest random weight) hashing: a match lives on the shard with the highest
    sha256(shard name + ":" + match id); adding a shard moves only the matches it would win."""
    return hashlib.sha256(f"{name}:{stream_id}".encode()).digest()


class MatchStore:
    """The event store Arbiter uses: one shard, or several, behind the same few methods. Every
    method takes the match id, from which the shard follows (`shard_for`).

    `after_save` holds callables run, with no argument, after each save of this process has
    committed: a nudge for whoever follows the notification log (the live streams), never a way
    to learn what was saved. They must be quick; one that raises is logged, and the save stands."""

    def __init__(self, environ=os.environ):
        if environ.get("ARBITER_STORE", "sqlite") == "postgres" and len(database_urls(environ)) > 1:
            schema = environ.get("ARBITER_DB_SCHEMA")
            self.shards = {shard_name(url, schema): ShardStore({**environ, "ARBITER_DATABASE_URL": url})
                           for url in database_urls(environ)}
        elif environ.get("ARBITER_STORE", "sqlite") == "postgres":  # one shard, named "": a single database
            self.shards = {"": ShardStore({**environ, "ARBITER_DATABASE_URL": database_urls(environ)[0]})}
        else:
            self.shards = {"": ShardStore(environ)}
        self._located: LRUCache[UUID, ShardStore] = LRUCache(maxsize=100_000)
        self.after_save: list[Callable[[], None]] = []

    @property
    def sharded(self) -> bool:
        return len(self.shards) > 1

    @property
    def recorder(self):
        """The one shard's recorder (the notification log and health of a single database)."""
        if self.sharded:
            raise AttributeError("a sharded store has a recorder per shard: use .shards")
        return self.shards[""].recorder

    def home(self, match_id: UUID) -> ShardStore:
        """The shard the rule picks for a match (where a new match is stored)."""
        if not self.sharded:
            return self.shards[""]
        return self.shards[max(self.shards, key=lambda name: shard_rank(name, match_id))]

    def shard_for(self, match_id: UUID) -> ShardStore:
        """The shard a match's streams are on: the rule's, unless it was stored elsewhere before a
        shard was added (then found by looking, and remembered)."""
        home = self.home(match_id)
        if not self.sharded:
            return home
        found = self._found(match_id)
        if found is not None:
            return found
        for shard in [home, *(s for s in self.shards.values() if s is not home)]:
            if any(shard.stream_exists(stream) for stream in (match_id, lobby_id(match_id))):
                self._located.put(match_id, shard)
                return shard
        return home

    def _found(self, match_id: UUID) -> ShardStore | None:
        """The shard this process last found the match's streams on, if any."""
        try:
            return self._located.get(match_id)
        except KeyError:
            return None

    def new_id_near(self, match_id: UUID) -> UUID:
        """A fresh random id whose home is `match_id`'s shard (a rematch stays with its original):
        where the match was found, else (a match being created) its home."""
        if not self.sharded:
            return uuid4()
        shard = self._found(match_id) or self.home(match_id)
        while True:
            candidate = uuid4()
            if self.home(candidate) is shard:
                return candidate

    def match(self, match_id: UUID, version: int | None = None) -> Match:
        return self.shard_for(match_id).match(match_id, version)

    def secret(self, match_id: UUID) -> MatchSecret:
        return self.shard_for(match_id).secret(match_id)

    def lobby(self, match_id: UUID) -> Lobby:
        return self.shard_for(match_id).lobby(match_id)

    def lobby_to_change(self, match_id: UUID) -> Lobby:
        return self.shard_for(match_id).lobby_to_change(match_id)

    def match_to_change(self, match_id: UUID, expected_version: int | None = None) -> Match:
        return self.shard_for(match_id).match_to_change(match_id, expected_version)

    def save_match(self, match: Match, *others) -> None:
        self._stored_with(match.id, match).save_match(match, *others)
        self._saved()

    def save_lobby(self, lobby: Lobby, *others) -> None:
        match_id = UUID(lobby.match_id)
        self._stored_with(match_id, lobby).save_lobby(lobby, *others)
        self._saved()

    def _saved(self) -> None:
        for nudge in list(self.after_save):
            try:
                nudge()
            except Exception:  # the save has committed: a failing listener must not turn it into an error
                log.exception("an after_save callable failed")

    def _stored_with(self, match_id: UUID, aggregate) -> ShardStore:
        """Where new events go: where the match's streams were found (every command reads its
        match or lobby first, which finds and remembers it); a stream not read before, being new
        (its first event pending), goes to its home."""
        if not self.sharded:
            return self.shards[""]
        found = self._found(match_id)
        if found is not None:
            return found
        pending = aggregate.pending_events
        return self.home(match_id) if pending and pending[0].originator_version == 1 else self.shard_for(match_id)

    def forget(self, match_id: UUID) -> None:
        for shard in self.shards.values():
            shard.forget(match_id)

    def stored_events(self, match_id: UUID, after: int = 0, upto: int | None = None,
                      limit: int | None = None) -> list[dict]:
        return self.shard_for(match_id).stored_events(match_id, after, upto, limit)

    def last_event(self, match_id: UUID) -> tuple[int, str] | None:
        return self.shard_for(match_id).last_event(match_id)

    def stream_exists(self, stream_id: UUID) -> bool:
        return any(shard.stream_exists(stream_id) for shard in self.shards.values())

    def ping(self) -> None:
        for shard in self.shards.values():
            shard.recorder.max_notification_id()

    def close(self) -> None:
        for shard in self.shards.values():
            shard.close()
