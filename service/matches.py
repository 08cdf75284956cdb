"""Use cases: one function per thing a client can do. No Flask here; the HTTP and CLI
layers parse input, call one of these and render the result or the error."""

import copy
import os
import re
import threading
import time
import uuid
from collections import OrderedDict
from typing import NamedTuple

import orjson

import domain.games  # noqa: F401  (registers every ruleset)
from domain.kernel import ruleset as rulesets
from domain.kernel.audit import audit
from domain.kernel.canonical import digest
from domain.kernel.redaction import redact_record
from domain.kernel.words import Context, reading, record_words, remember
from domain.kernel.errors import DomainError, MatchNotFound, VersionConflict
from domain.kernel.lobby import lobby_id
from domain.kernel.match import RUNNING, Match, MatchSecret, secret_id
from domain.kernel.store import MatchStore
from projections.queries import ReadModels
from projections.batch import ReadStoreUnavailable

from .auth import token_opens
from .bot_pace import BotPace
from .errors import (BadRequest, ExportRefused, ImportRefused, MatchExists, ReadModelsUnavailable, TokenInvalid,  # noqa: F401
                     TokenMissing, VersionNotFound)
from .lifecycle import LifecycleCommands
from .schemas import LARGEST_SEQ

LOCK_STRIPES = 64
READINGS_KEPT = 512
SEQ_TEXT = re.compile(r"[0-9]{1,18}")  # ASCII digits only: str.isdigit() also takes "²"
FINAL_EVENTS = ("MatchEnded", "MatchAbandoned")


def parse_ndjson(lines) -> list[dict]:
    records = []
    for number, line in enumerate(lines, start=1):
        if line.strip():
            try:
                records.append(orjson.loads(line))
            except orjson.JSONDecodeError as error:
                raise ImportRefused(f"line {number} is not JSON: {error}") from None
    if not records:
        raise ImportRefused("the file holds no events")
    return records


class Readings:
    """What a reader's words remember after the last record of a page of the log, keyed by
    (match, seat, seq): the next page, or a stream resumed there, starts from it instead of
    reading the log again from its first event. In-process and small; a miss costs only time."""

    def __init__(self, size: int = READINGS_KEPT):
        self.size = size
        self._kept: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key) -> tuple[rulesets.Ruleset, Context] | None:
        with self._lock:
            kept = self._kept.get(key)
            if kept is not None:
                self._kept.move_to_end(key)
        return None if kept is None else (kept[0], copy.deepcopy(kept[1]))

    def put(self, key, ruleset: rulesets.Ruleset, reader: Context) -> None:
        kept = (ruleset, copy.deepcopy(reader))
        with self._lock:
            self._kept[key] = kept
            self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)


class OpenStream(NamedTuple):
    match_id: uuid.UUID
    ruleset: rulesets.Ruleset
    seat: int | None
    since: int
    reader: Context  # the stream's words: seat names and what its earlier events showed


def parse_since(since: str | None, last_event_id: str | None) -> int:
    """Last-Event-ID (a browser's resume) wins over ?since=; each is a seq in ASCII digits."""
    for name, text in (("Last-Event-ID", last_event_id), ("since", since)):
        if text is None:
            continue
        if not (SEQ_TEXT.fullmatch(text) and int(text) <= LARGEST_SEQ):
            raise BadRequest("bad_last_event_id" if name == "Last-Event-ID" else "bad_since",
                             f"{name} must be the seq of an event, in ASCII digits, not {text!r}")
        return int(text)
    return 0


def parse_match_id(text: str) -> uuid.UUID:
    try:
        return uuid.UUID(text)
    except (ValueError, TypeError):
        raise MatchNotFound(f"no match {text!r}") from None


class Arbiter(LifecycleCommands):
    """The application service over one event store."""

    def __init__(self, store: MatchStore, reads: ReadModels | None = None, bot_pace: BotPace | None = None):
        self.store = store
        self.reads = reads
        self.bot_pace = bot_pace or BotPace.from_environ(os.environ)  # when served bots' moves are public
        # Commands on one match are serialised within a process, so a cached match is
        # never changed by two requests at once; across processes the store's unique
        # (stream, version) constraint decides.
        self._locks = [threading.Lock() for _ in range(LOCK_STRIPES)]
        self.readings = Readings()

    def _lock(self, match_id: uuid.UUID) -> threading.Lock:
        return self._locks[match_id.int % LOCK_STRIPES]

    # -- games and matches ------------------------------------------------------------

    def games(self) -> list[dict]:
        return [r.describe() for r in rulesets.all_latest()]

    def seat_of(self, match_id: uuid.UUID, token: str | None, required: bool = True) -> int | None:
        """The seat a bearer token opens in this match; None for a spectator when allowed."""
        if token is None:
            if required:
                raise TokenMissing("this needs a seat token: Authorization: Bearer <token>")
            return None
        for seat, stored in enumerate(self.store.secret(match_id).token_hashes):
            if token_opens(token, stored):
                return seat
        raise TokenInvalid("the token does not hold a seat in this match")

    def summary(self, match_id: uuid.UUID) -> dict:
        """A started match's summary, or an open lobby's (status "open")."""
        try:
            match = self.store.match(match_id)
        except MatchNotFound:
            return self.lobby_summary(self.store.lobby(match_id))
        return {
            "match_id": str(match.id),
            "game": match.game,
            "ruleset_version": match.ruleset_version,
            "seats": [{"seat": i, "name": name} for i, name in enumerate(match.seats)],
            "status": match.status,
            "version": match.version,
            "to_act": match.to_act(),
            "outcome": match.outcome,
            "commitment": match.commitment,
            "seed": match.revealed_seed,
            "created_at": match.created_at,
            **({"bots": {str(seat): kind for seat, kind in match.bots.items()}} if match.bots else {}),
            **({"left": {str(seat): how for seat, how in match.out.items()}} if match.out else {}),
            **({"rematch_of": match.rematch_of} if match.rematch_of else {}),
            **({"clock": match.clocks.describe(time.time())} if match.clocks else {}),
        }

    def board(self, match_id: uuid.UUID, seat: int | None, min_version: int | None = None) -> dict:
        """From the board read model; from the event store when the model is behind
        `min_version`, has not seen the match yet, or cannot be reached."""
        fresh = self._from_read_model(lambda reads: reads.board(str(match_id), seat), min_version)
        if fresh:
            if fresh.pop("clocked", False):  # clocks run on between events: read them now
                fresh["clock"] = self.store.match(match_id).clocks.describe(time.time())
            return fresh
        match = self.store.match(match_id)
        return {"match_id": str(match.id), "version": match.version, "status": match.status,
                "seat": seat, "to_act": match.to_act(), "board": match.ruleset.view(match.state, seat),
                "as_of_version": match.version, "source": "event_store",
                **({"clock": match.clocks.describe(time.time())} if match.clocks else {})}

    def _from_read_model(self, query, min_version: int | None) -> dict | None:
        if self.reads is None:
            return None
        try:
            answer = query(self.reads)
        except ReadStoreUnavailable:
            return None
        if answer is None or min_version is not None and answer["as_of_version"] < min_version:
            return None
        return {**answer, "source": "read_model"}

    def _read_models(self) -> ReadModels:
        if self.reads is None:
            raise ReadModelsUnavailable("read models are not configured")
        return self.reads

    def stats(self, game: str, simulated: str = "exclude") -> dict:
        try:
            return self._read_models().stats(game, simulated)
        except ReadStoreUnavailable as error:
            raise ReadModelsUnavailable(str(error)) from None

    def leaderboard(self, game: str, cursor: int = 0, limit: int = 50) -> dict:
        try:
            return self._read_models().leaderboard(game, cursor, limit)
        except ReadStoreUnavailable as error:
            raise ReadModelsUnavailable(str(error)) from None

    def player(self, name: str) -> dict:
        try:
            return self._read_models().player(name)
        except ReadStoreUnavailable as error:
            raise ReadModelsUnavailable(str(error)) from None

    def legal_actions(self, match_id: uuid.UUID, seat: int) -> dict:
        """The seat's legal actions, and beside them (never inside: each action posts back
        unchanged) the words of each, made with the seat's own view."""
        match = self.store.match(match_id)
        actions = match.legal_actions(seat)
        words = match.ruleset.words
        if words and actions:
            ctx = Context(match.seats, viewer=seat, view=match.ruleset.view(match.state, seat))
            said = [words.action(action, ctx) for action in actions]
        else:
            said = [None] * len(actions)
        return {"version": match.version, "seat": seat, "to_act": match.to_act(), "actions": actions, "words": said}

    def catalog(self, game: str) -> dict:
        """Every card's, tile's, Hero's... details of a game, for a client's hover or pane."""
        ruleset = rulesets.latest(game)
        return {"game": ruleset.name, "version": ruleset.version,
                "entries": ruleset.words.catalog() if ruleset.words else []}

    def submit_action(self, match_id: uuid.UUID, seat: int, action: dict, expected_version: int | None = None,
                      idempotency_key: str | None = None) -> dict:
        request_digest = digest({"action": action, "expected_version": expected_version})
        with self._lock(match_id):
            match = self.store.match_to_change(match_id, expected_version)
            answered = self._answered_already(match, seat, expected_version, idempotency_key, request_digest)
            if answered is not None:
                return answered
            secret = self.store.secret(match_id)
            judged_at = match.version
            try:
                match.act(seat, action, secret.seed, idempotency_key, request_digest)
                recorded = [_as_record(event) for event in match.pending_events]
                self.store.save_match(match)
            except DomainError:
                # `match` may be this worker's cached copy a move behind the store (the version
                # the request expects, store.match_to_change), or another worker stored first: a
                # request the store has moved past gets the store's answer (the first answer to its
                # Idempotency-Key, or a conflict), the same on every worker, never a judgement of
                # a stale copy (422 not_your_turn where another worker says 409)
                stored = self.store.match(match_id)
                if stored.version != judged_at:
                    answered = self._answered_already(stored, seat, expected_version, idempotency_key,
                                                      request_digest)
                    if answered is not None:
                        return answered
                raise
            result = _action_result(match, recorded, seat)
        if match.bots:
            self._play_bots(match_id)
        return result

    def _answered_already(self, match: Match, seat: int, expected_version: int | None, idempotency_key: str | None,
                          request_digest: str) -> dict | None:
        """The answer `match` already holds for this request: the first answer to its
        Idempotency-Key (IdempotencyKeyReused for the key with another body), or VersionConflict
        when it expects another version; None when the request is still to be judged."""
        if idempotency_key is not None:
            seq = match.recorded_command(seat, idempotency_key, request_digest)
            if seq is not None:
                return self._recorded_result(match, seq, seat)
        if expected_version is not None and expected_version != match.version:
            raise VersionConflict(f"expected version {expected_version}, the match is at {match.version}")
        return None

    def open_stream(self, match_id_text: str, token: str | None, since: str | None,
                    last_event_id: str | None) -> "OpenStream":
        """A live stream's start: the match (404 before anything is sent), the bearer's seat
        (a spectator without a token) and where to resume (Last-Event-ID wins over ?since=)."""
        match_id = parse_match_id(match_id_text)
        match = self.store.match(match_id)
        seat = self.seat_of(match_id, token, required=False)
        after = parse_since(since, last_event_id)
        kept = self.readings.get((match_id, seat, after)) if after else None
        reader = kept[1] if kept else None
        if reader is None:
            reader = Context(match.seats, viewer=seat)
            over = match.status != RUNNING
            for record in self.store.stored_events(match_id, after=0, limit=after) if after else []:
                # resumed: the words remember what the events already sent showed
                remember(match.ruleset.words, record["type"], (record if over else redact_record(
                    match.ruleset, record, seat))["data"], reader)
        return OpenStream(match_id, match.ruleset, seat, after, reader)

    def stream_batch(self, opened: "OpenStream", after: int) -> tuple[list[tuple[int, bytes]], bool]:
        """The Server-Sent Events of every event after `after`, redacted for the stream's seat
        (as the log is; each carries the clock while the match runs), and whether the match is
        over with them (the stream then ends)."""
        # Only stored (committed) events decide what is sent and whether it is over: the cached
        # aggregate may already hold a command's events that its request has not yet stored.
        records = self.store.stored_events(opened.match_id, after=after)
        if not records:
            # Over only if the final event is one already sent: events stored since the read
            # above (the match's last, say) come with the next wake, not lost to an early end.
            last = self.store.last_event(opened.match_id)
            return [], last is not None and last[0] <= after and last[1] in FINAL_EVENTS
        over = any(r["type"] in FINAL_EVENTS for r in records)
        clock = None
        if records and not over:
            clocks = self.store.match(opened.match_id).clocks
            clock = clocks.describe(time.time()) if clocks else None
        chunks = []
        for record in records:
            shown = record if over else redact_record(opened.ruleset, record, opened.seat)
            shown = {**shown, "words": record_words(opened.ruleset.words, shown["type"], shown["data"], opened.reader,
                                                    opened.ruleset.title)}
            if clock:
                shown = {**shown, "clock": clock}
            chunks.append((record["seq"], b"id: %d\nevent: %s\ndata: %s\n\n" % (
                record["seq"], record["type"].encode(), orjson.dumps(shown))))
        return chunks, over

    def _recorded_result(self, match: Match, seq: int, seat: int) -> dict:
        """The response first given for the action at `seq`, rebuilt from the store."""
        return _action_result(match, self.store.stored_events(match.id, after=seq - 1, upto=seq + 1)[:2], seat,
                              replayed=True)

    def log(self, match_id: uuid.UUID, seat: int | None, since: int = 0, limit: int = 100,
            min_version: int | None = None) -> dict:
        fresh = self._from_read_model(lambda reads: reads.log(str(match_id), seat, since, limit), min_version)
        if fresh:
            return {**fresh, "events": self._worded(match_id, seat, fresh["events"],
                                                    lambda: self._earlier(match_id, seat, since))}
        match = self.store.match(match_id)

        def shown(events):
            return [redact_record(match.ruleset, event, seat) for event in events] if match.status == RUNNING else events

        events = shown(self.store.stored_events(match_id, after=since, limit=limit))
        events = self._worded(match_id, seat, events, lambda: shown(self.store.stored_events(match_id, after=0, limit=since)))
        last = events[-1]["seq"] if events else since
        return {"match_id": str(match_id), "version": match.version, "events": events,
                "next_since": last if last < match.version else None, "as_of_version": match.version,
                "source": "event_store"}

    def _worded(self, match_id: uuid.UUID, seat: int | None, events: list[dict], earlier) -> list[dict]:
        """The log's records (already as `seat` may read them), each with its words for that
        seat (`words`: a headline and one text or null per fact, beside `data`, which stays as
        chained). A page that starts after the first event starts from what the reader's words
        remembered at its start (`readings`), or else learns it from `earlier()`, the records
        before it read the same way: the names of creatures in play, say."""
        if not events:
            return events
        start = events[0]["seq"] - 1
        kept = self.readings.get((match_id, seat, start)) if start else None
        if kept is None:
            before = earlier() if start else []
            first = (before or events)[0]
            if first["type"] != "MatchCreated":
                return events
            ruleset = rulesets.pinned(first["data"]["game"], first["data"]["ruleset_version"])
            ctx = reading([first], seat)
            for record in before:
                remember(ruleset.words, record["type"], record["data"], ctx)
        else:
            ruleset, ctx = kept
        worded = [{**record, "words": record_words(ruleset.words, record["type"], record["data"], ctx, ruleset.title)}
                  for record in events]
        self.readings.put((match_id, seat, events[-1]["seq"]), ruleset, ctx)
        return worded

    def _earlier(self, match_id: uuid.UUID, seat: int | None, since: int) -> list[dict]:
        try:
            return (self.reads.log(str(match_id), seat, 0, since) or {}).get("events", [])
        except ReadStoreUnavailable:
            return []  # the page is then sent without words rather than not at all

    def state_at(self, match_id: uuid.UUID, version: int, seat: int | None) -> dict:
        current = self.store.match(match_id)
        if version > current.version:
            raise VersionNotFound(f"match {match_id} has {current.version} events; there is no version {version}")
        past = self.store.match(match_id, version=version)
        # Hidden zones stay hidden while the match runs, at every version; after the end all is public.
        state = past.state if current.status != RUNNING else _visible_state(past, past.state, seat)
        return {"match_id": str(match_id), "version": version, "seat": seat,
                "status": past.status, "to_act": past.to_act(), "state": state}

    def export_lines(self, match_id: uuid.UUID, admin: bool = False) -> list[bytes]:
        match = self.store.match(match_id)
        if match.status == RUNNING and not admin:
            raise ExportRefused("export is refused while the match runs: it would reveal hidden cards "
                                "(an admin token may export it)")
        return [orjson.dumps(event) + b"\n" for event in self.store.stored_events(match_id)]

    def records(self, match_id: uuid.UUID) -> list[dict]:
        """The stored rows as export records, without rebuilding the match (so a damaged
        stream can still be audited). Only a match's stream: a lobby's or a secret's is not one."""
        records = self.store.stored_events(match_id)
        if not records or records[0]["type"] != "MatchCreated":
            raise MatchNotFound(f"no match {match_id}")
        return records

    def audit(self, match_id: uuid.UUID) -> dict:
        """While the match runs only the chain can be checked: the seed is still secret. A
        running match of event format 1 is not audited at all: its hashes cover hidden cards."""
        records = self.records(match_id)
        if "commit" not in records[0] and records[-1]["type"] not in FINAL_EVENTS:
            raise ExportRefused("this match predates event format 2: its hashes would reveal hidden cards, "
                                "so it is audited once it is over")
        return audit(records).to_dict()

    def import_match(self, lines) -> dict:
        """Verify an exported match fully, then store it; refuse it whole otherwise. Its id must
        be new to this store: not a match, a lobby or any stream derived from one."""
        records = parse_ndjson(lines)
        report = audit(records)
        if not report.ok:
            raise ImportRefused(f"the file does not verify: {report.summary}", report.to_dict())
        match = Match.from_records(records)
        taken = [stream for stream in (match.id, lobby_id(match.id), secret_id(match.id))
                 if self.store.stream_exists(stream)]
        if taken:
            raise MatchExists(f"match {match.id} is already stored, or its id is taken by a lobby or a secret")
        secret = MatchSecret(match_id=str(match.id), seed_hex=match.revealed_seed, token_hashes=[])
        self.store.save_match(match, secret)
        return {"match_id": str(match.id), "version": match.version, "status": match.status,
                "audit": report.summary}

    def list_matches(self, **filters) -> dict:
        try:
            return self._read_models().list_matches(**filters)
        except ReadStoreUnavailable as error:
            raise ReadModelsUnavailable(str(error)) from None

def _as_record(event) -> dict:
    return {"seq": event.originator_version, "type": type(event).__name__, "data": event.data}


def _action_result(match: Match, records: list[dict], seat: int, replayed: bool = False) -> dict:
    """The response to an action: its event, and whether the game ended with it."""
    taken, *after = records
    ended = bool(after) and after[0]["type"] == "MatchEnded"
    return {
        "match_id": str(match.id),
        "seq": taken["seq"],
        "version": taken["seq"] + 1 if ended else taken["seq"],
        "status": "ended" if ended else RUNNING,
        "facts": [match.ruleset.redact(f, seat) for f in taken["data"]["facts"]],
        "replayed": replayed,
    }


def _visible_state(match: Match, state: dict, seat: int | None) -> dict:
    return state if match.status != RUNNING else match.ruleset.view(state, seat)
