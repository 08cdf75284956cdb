"""The projector: follows the event store's notification log and applies each event to
every read model exactly once.

Each read model (projection) keeps its own tracking position, committed in the same
transaction as the changes of the batch; the commit is compare-and-set on those
positions, so a crash mid-batch, a restart or even a second projector can never apply
an event twice or skip one. A projection can be dropped and rebuilt from the events.
"""

import fcntl
import os
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

import orjson
from eventsourcing.utils import get_topic

from domain.kernel.lobby import Lobby
from domain.kernel.store import MATCH_TOPICS, MatchStore, event_type

from .models import PROJECTIONS, Reader
from .batch import Batch, ProjectionConflict, ReadStoreUnavailable
from .retention import TRIM_BATCH, TRIM_EVERY_SECONDS, trim_ended_logs

LOBBY_TOPICS = [get_topic(getattr(Lobby, name)) for name in ("Opened", "SeatTaken", "SeatLeft", "Started")]
LIBRARY_FIELDS = ("originator_id", "originator_version", "timestamp", "originator_topic")
_LOBBY_TYPES = {topic: event_type(topic) for topic in LOBBY_TOPICS}
_MATCH_TYPES = {topic: event_type(topic) for topic in MATCH_TOPICS}


def as_record(notification) -> dict:
    stored = orjson.loads(notification.state)
    topic = notification.topic
    if topic in _LOBBY_TYPES:
        return {"stream": "lobby", "lobby_id": str(notification.originator_id), "type": _LOBBY_TYPES[topic],
                "data": {k: v for k, v in stored.items() if k not in LIBRARY_FIELDS}, "timestamp": stored["timestamp"]}
    record = {"stream": "match", "match_id": str(notification.originator_id), "seq": notification.originator_version,
              "type": _MATCH_TYPES.get(topic) or event_type(topic), "data": stored["data"]}
    if stored.get("public") is not None:  # export_fields, inline: this runs for every event
        record["public"] = stored["public"]
    if stored.get("commit") is not None:
        record["commit"] = stored["commit"]
    record["prev_hash"], record["hash"], record["timestamp"] = stored["prev_hash"], stored["hash"], stored["timestamp"]
    return record


class Projector:
    """Follows the notification log of each of `shards` (default: every shard of the store) into
    the read models. Each projection keeps a tracking position per shard (its name, or
    "name@shard" when the store has several shards), committed with the batch's changes as a
    compare-and-set on exactly the positions the batch moves: projectors of different shards
    commit side by side (matches live on one shard; counters and index entries commute), and
    two on one shard cannot both apply a batch. A projection whose result depends on the order
    of matches across shards (ratings: `global_order`) also sets its positions on every other
    shard in that compare-and-set, so only one projector at a time applies it.

    `retain_ended_seconds` (retention.py): while following, caught up, it trims the logs of
    matches finished longer ago, every TRIM_EVERY_SECONDS; None keeps every log."""

    def __init__(self, events: MatchStore, models, names=None, batch_size: int = 500,
                 throttle_per_s: float | None = None, shards=None, retain_ended_seconds: float | None = None):
        self.events, self.models = events, models
        self.retain_ended_seconds = retain_ended_seconds
        self._trimmed_at = float("-inf")
        self.projections = [PROJECTIONS[name] for name in (names or PROJECTIONS)]
        self.shards = list(shards or events.shards)
        self.batch_size, self.throttle_per_s = batch_size, throttle_per_s
        # What each projection says it will read (see _read_ahead), looked up once.
        self._hints = {p.name: (getattr(p, "reads", None), getattr(p, "index_floor", None)) for p in self.projections}
        self.lags: list[float] = []  # seconds from append to commit, of recent events
        self.applied = 0

    def key(self, projection_name: str, shard: str) -> str:
        return projection_name if not shard else f"{projection_name}@{shard}"

    def store_positions(self) -> dict[str, int]:
        """The last notification id of each followed shard's log."""
        return {shard: self.events.shards[shard].recorder.max_notification_id() or 0 for shard in self.shards}

    def positions(self) -> dict[str, int]:
        stored = self.models.positions()
        return {self.key(p.name, shard): stored.get(self.key(p.name, shard), 0)
                for shard in self.shards for p in self.projections}

    def run_once(self) -> int:
        """Apply the next batch of each followed shard; returns how many events it read (0: caught up)."""
        return sum(self._run_shard(shard) for shard in self.shards)

    def _run_shard(self, shard: str) -> int:
        stored = self.models.positions()
        positions = {p.name: stored.get(self.key(p.name, shard), 0) for p in self.projections}
        notifications = self.events.shards[shard].recorder.select_notifications(
            start=min(positions.values()) + 1, limit=self.batch_size, topics=[*MATCH_TOPICS, *LOBBY_TOPICS])
        if not notifications:
            return 0
        batch = Batch()
        reader = Reader(self.models, batch)
        try:
            records = [as_record(notification) for notification in notifications]
            work = [(record, [p for p in self.projections
                              if notification.id > positions[p.name] and p.stream == record["stream"]])
                    for notification, record in zip(notifications, records)]
            self._read_ahead(reader, work)
            for record, projections in work:
                for projection in projections:
                    projection.apply(record, batch, reader)
                if self.throttle_per_s:
                    time.sleep(1 / self.throttle_per_s)
        except (KeyError, ValueError, TypeError):
            # Documents read mid-batch may already hold a racing projector's commit.
            if self.models.positions() != stored:
                raise ProjectionConflict("another projector moved on while this batch was read") from None
            raise
        last = notifications[-1].id
        batch.positions = {self.key(p.name, shard): max(positions[p.name], last) for p in self.projections}
        expected = {self.key(p.name, shard): positions[p.name] for p in self.projections}
        for projection in self.projections:  # order-dependent across shards: one projector at a time
            if projection.global_order:
                for other in self.events.shards:
                    key = self.key(projection.name, other)
                    expected[key] = stored.get(key, 0)
                    batch.positions.setdefault(key, expected[key])
        self.models.commit(batch, expected=expected)
        committed = datetime.now(timezone.utc)
        self.lags = (self.lags + [(committed - datetime.fromisoformat(r["timestamp"])).total_seconds()
                                  for r in records])[-20_000:]
        self.applied += len(records)
        return len(notifications)

    def _read_ahead(self, reader: Reader, work) -> None:
        """One request for the stored documents the batch's records will read (not those of a
        match or lobby the batch creates), and the lowest score its index searches start from."""
        created, keys, floors, hints = set(), [], [], self._hints
        for record, projections in work:
            stream = record.get("match_id") or record["lobby_id"]
            if record["type"] in ("MatchCreated", "Opened"):  # reads nothing stored
                created.add(stream)
                continue
            new = stream in created  # what it reads is in the batch
            for projection in projections:
                reads, index_floor = hints[projection.name]
                if reads and not new:
                    keys.extend(reads(record))
                if index_floor:
                    floor = index_floor(record)
                    if floor is not None:
                        floors.append(floor)
        reader.read_ahead(keys, min(floors, default=None))

    def catch_up(self) -> int:
        total = 0
        while True:
            try:
                n = self.run_once()
            except ProjectionConflict:
                continue
            if not n:
                return total
            total += n

    def rebuild(self, names=None, batch_size: int = 2000) -> int:
        """Drop the named projections (default: all) and replay every event into them,
        in larger batches than live following uses (fewer commits, same result)."""
        for projection in self.projections:
            if names is None or projection.name in names:
                self.models.drop(projection.prefixes, [self.key(projection.name, shard) for shard in self.events.shards])
        live_batch_size, self.batch_size = self.batch_size, batch_size
        try:
            return self.catch_up()
        finally:
            self.batch_size = live_batch_size

    def run_forever(self, stop: threading.Event, idle_seconds: float = 0.005, longest_idle_seconds: float = 0.1,
                    woken: threading.Event | None = None) -> None:
        """Follow the store until `stop` is set. Caught up, it looks again after `idle_seconds`,
        twice as long after each look that finds nothing, up to `longest_idle_seconds`; `woken`
        (set after each save of this process, see `start_embedded`) makes it look after
        `idle_seconds` whatever the wait. An
        idle server polled its stores 200 times a second before (3.4 % of a core on SQLite);
        an event from another process now waits at most `longest_idle_seconds` after a quiet
        spell, and the API reads what the read models lack from the store (`min_version`)."""
        woken = woken or threading.Event()
        wait = idle_seconds
        while not stop.is_set():
            try:
                if self.run_once():
                    wait = idle_seconds
                    continue
                self._trim_when_due()  # caught up: the logs of matches long finished go
            except ProjectionConflict:
                continue
            except ReadStoreUnavailable:
                stop.wait(1.0)  # the events wait in the store; catch up when it returns
                continue
            if woken.wait(wait):
                woken.clear()
                # the saves of a busy moment gather into one batch, as they did before the wake-up
                # (a look after every save cost 7 % of the moves a server makes)
                stop.wait(idle_seconds)
                wait = idle_seconds
            else:
                wait = min(wait * 2, longest_idle_seconds)

    def _trim_when_due(self) -> None:
        now = time.monotonic()
        if self.retain_ended_seconds is None or now - self._trimmed_at < TRIM_EVERY_SECONDS:
            return
        # one batch a look: a backlog is trimmed between batches of new events, not before them
        if trim_ended_logs(self.models, self.retain_ended_seconds, batches=1) < TRIM_BATCH:
            self._trimmed_at = now


class LeaderLock:
    """One projector per host: an exclusive lock on a file beside the data, freed when its holder dies."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self._handle = None

    def try_acquire(self) -> bool:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(self.path, "a+")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            return False
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        self._handle = handle
        return True


class Background:
    """A daemon thread running `work(stop)` until `stop()`: which sets the event `work` watches
    and waits (up to `timeout`) for the pass in progress, a projector's batch or a clock's,
    to end. The store is closed next at a shutdown, and SQLite crashed the process (a
    segmentation fault) when its connection closed under another thread's read."""

    def __init__(self, work, name: str, wake=lambda: None):
        self.stopping, self._wake = threading.Event(), wake
        self.thread = threading.Thread(target=work, args=(self.stopping,), name=name, daemon=True)
        self.thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self.stopping.set()
        self._wake()  # out of a wait that does not watch `stopping` (the projector's idle wait)
        if self.thread is not threading.current_thread():
            self.thread.join(timeout)


def start_embedded(projector: Projector, lock: LeaderLock, idle_seconds: float = 0.005,
                   longest_idle_seconds: float = 0.1) -> Background:
    """In each web worker: whoever holds the lock projects; the others wait to take over. A
    save by this worker wakes its projector at once; `stop()` on the returned handle stops it."""
    woken = threading.Event()
    projector.events.after_save.append(woken.set)

    def lead(stop: threading.Event):
        while not stop.is_set():
            if lock.try_acquire():
                projector.run_forever(stop, idle_seconds, longest_idle_seconds, woken)
                return
            stop.wait(2.0)

    return Background(lead, "arbiter-projector", wake=woken.set)
