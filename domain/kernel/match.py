"""The Match aggregate: one event stream per match, every event chained by hash.

Events carry plain JSON `data`; the aggregate applies them with the game's `evolve`.
`act` asks the pinned ruleset to decide facts, records them as one ActionTaken event and,
when the rules say the game is over, a MatchEnded event that reveals the seed. The
lifecycle commands are events too, so replay and audit see them: a seat resigns
(SeatResigned) or runs out of time (SeatTimedOut), a match with no action yet is aborted,
an idle match is abandoned (MatchAbandoned). MatchSecret keeps the seed and the hashed
seat tokens in a separate stream that is never exported or shown.

A seat that leaves (resigns, or times out with loss or elimination) is removed by the
game's own `resign` hook where the game has one (the match goes on without it while the
rules allow); a game without the hook, and a timeout whose effect is "loss", ends the
match at once with every other seat still in as winners. `lifecycle_outcome` says which,
for the aggregate and for the audit alike.
"""

import copy
from datetime import datetime, timezone
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate, event

from . import ruleset as rulesets
from .canonical import EVENT_FORMAT, GENESIS_HASH, chain_hash, commit_key, content_commit, format1_hash, json_copy
from .clock import Clocks, parse_time
from .errors import IdempotencyKeyReused, IllegalAction, MatchOver
from .redaction import redact_data
from .rng import RandomStream, commitment, stream_key

RUNNING, ENDED, ABANDONED = "running", "ended", "abandoned"


def utc_now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


class Match(Aggregate):
    class Event(Aggregate.Event):
        """`data` is the full content; `public` what everyone may read of it while the match
        runs (None: all of it); `commit` the keyed commitment to `data` (canonical.py)."""

        data: dict
        prev_hash: str
        hash: str
        public: dict | None = None
        commit: str | None = None

        # The Match method that applies this kind of event's data: `on(match, seq, data)`. The
        # store's replay (store.py) applies stored events through the same methods.
        on = ""

        def apply(self, match: "Match") -> None:
            if not self.on:
                raise TypeError(f"{type(self).__name__} does not say how it changes a match")
            getattr(match, self.on)(self.originator_version, self.data)
            match.head_hash = self.hash

    class MatchCreated(Event, Aggregate.Created):
        on = "_on_created"

    class ActionTaken(Event):
        on = "_on_action"

    class MatchEnded(Event):
        on = "_on_ended"

    class MatchAbandoned(Event):
        on = "_on_abandoned"

    class SeatResigned(Event):
        on = "_on_resigned"

    class SeatTimedOut(Event):
        on = "_on_timed_out"

    def __init__(self) -> None:
        """State is set by MatchCreated.apply, so replay and creation share one path."""

    # -- creation -------------------------------------------------------------------

    @classmethod
    def start(cls, match_id: UUID, ruleset: rulesets.Ruleset, seats: list[str], options: dict,
              entropy: dict[str, str], seed: bytes, lifecycle: dict | None = None) -> "Match":
        """`lifecycle` holds what only lifecycle matches record (so older matches hash as before):
        `clock` (see clock.py), `bots` {seat: kind} played by the server, `rematch_of`."""
        rng = RandomStream(stream_key_for(seed, seats, entropy), str(match_id), 1)
        initial_state = ruleset.setup(options, seats, rng)
        data = {**(lifecycle or {}),
            "event_format": EVENT_FORMAT,
            "match_id": str(match_id),
            "game": ruleset.name,
            "ruleset_version": ruleset.version,
            "seats": seats,
            "options": options,
            "entropy": entropy,
            "commitment": commitment(seed),
            "setup": initial_state,
            "at": utc_now_iso(),
        }
        return cls._create(cls.MatchCreated, id=match_id, data=data,
                           **chained(ruleset, GENESIS_HASH, 1, "MatchCreated", data, seed))

    @classmethod
    def from_records(cls, records: list[dict]) -> "Match":
        """A match rebuilt from export records, keeping their data and hashes (for import)."""
        first = records[0]
        match = cls._create(cls.MatchCreated, id=UUID(first["data"]["match_id"]), **_stored_fields(first))
        for record in records[1:]:
            match.trigger_event(getattr(cls, record["type"]), **_stored_fields(record))
        return match

    def _on_created(self, seq: int, data: dict) -> None:
        self.game = data["game"]
        self.event_format = data.get("event_format", 1)
        self.ruleset_version = data["ruleset_version"]
        self.seats = data["seats"]
        self.options = data["options"]
        self.commitment = data["commitment"]
        self.entropy = data["entropy"]
        self.created_at = data["at"]
        self.ruleset = rulesets.pinned(self.game, self.ruleset_version)
        # The stored setup must stay as recorded: evolve may update state in place.
        self.state = json_copy(data["setup"])
        self.status = RUNNING
        self.outcome = None
        self.revealed_seed = None
        self.commands: dict[str, dict] = {}
        self.bots = {int(seat): kind for seat, kind in data.get("bots", {}).items()}
        self.rematch_of = data.get("rematch_of")
        self.out: dict[int, str] = {}  # seats that left: "resigned" or "timed_out"
        self.actions_taken = 0
        self.last_event_at = data["at"]
        self.clock_config = data.get("clock")
        self.clocks = (Clocks(data["clock"], len(self.seats), parse_time(data["at"]), self.ruleset.to_act(self.state),
                              self.bots) if "clock" in data else None)

    _listing = None  # ((version, seat), that seat's legal actions): see legal_actions

    def to_change(self) -> "Match":
        """A private copy for one command (or for the store to bring forward in the cache's
        place: store.py). The store's cache holds matches as committed, read by any thread: a
        command that changed the cached match itself showed its move (say, the match ended) to
        readers before the store had it, and an audit read that instant found no end. What a command changes is copied (the state as JSON, the clocks, the books of
        commands and of seats out); the rest is replaced, never changed in place."""
        copied = copy.copy(self)
        copied.state = json_copy(self.state)
        copied.commands = dict(self.commands)
        copied.out = dict(self.out)
        copied.clocks = copy.deepcopy(self.clocks)
        copied._pending_events = []
        return copied

    # -- the one command --------------------------------------------------------------

    def act(self, seat: int, action: dict, seed: bytes, command_id: str | None = None,
            request_digest: str | None = None, *, listed: bool = False, at: str | None = None) -> None:
        """`listed`: the caller took `action` from `legal_actions` itself (a bot), so the check
        of its fields against the listing is skipped (it costs Cyberspace half its simulate speed).
        `at`: the time to record, when not now (a served bot's paced reply, service/bot_pace.py);
        an end of the match it brings is recorded at the same time."""
        if self.status != RUNNING:
            raise MatchOver(f"the match is {self.status}; no more actions are taken")
        if not isinstance(action.get("type"), str):
            raise IllegalAction("malformed", "an action is an object whose type is a string")
        if seat not in self.ruleset.to_act(self.state):
            raise IllegalAction("not_your_turn", f"seat {seat} is not to act now "
                                f"(to act: {sorted(self.ruleset.to_act(self.state))})")
        # A listed action may carry a `params` description; it is advice, not part of the move.
        action = {k: v for k, v in action.items() if k != "params"}
        # An action of its type alone (an end of turn, a pass: the commonest moves) can carry
        # neither a stray field nor a value of the wrong kind, so it needs no listing.
        if not listed and len(action) > 1:
            self._refuse_stray_fields(seat, action)
        seq = self.version + 1
        rng = RandomStream(stream_key_for(seed, self.seats, self.entropy), str(self.id), seq)
        facts = self.ruleset.decide(self.state, seat, action, rng)
        data = {"seat": seat, "action": action, "facts": facts, "at": at or utc_now_iso()}
        if command_id is not None:
            data["command_id"] = command_id
            data["request_digest"] = request_digest
        self._record(self.ActionTaken, data, seed)
        self._end_if_over(seed, None, at)

    def legal_actions(self, seat: int) -> list[dict]:
        """The seat's listing at this version, kept until the next event (one at a time, as one
        tuple so threads sharing the cached match never pair a key with another's listing): a
        client reads the listing, then posts one of its actions, whose fields are checked
        against that same listing."""
        kept = self._listing
        if kept is not None and kept[0] == (self.version, seat):
            return kept[1]
        actions = self.ruleset.legal_actions(self.state, seat) if self.status == RUNNING else []
        self._listing = ((self.version, seat), actions)
        return actions

    def _refuse_stray_fields(self, seat: int, action: dict) -> None:
        """An action whose type the listing holds may carry only the fields that type takes,
        each of the JSON type the listing gives it: the log would otherwise record
        `{"type": "end_turn", "card": ...}` or `"target": false` as posted, and an auditor or
        the analytics export read a card into a move that had none. The rules never see such
        an action. (Four of the six games' rules accepted a stray field; three a boolean.)"""
        refusal = rulesets.malformed_refusal(self.legal_actions(seat), action)
        if refusal:
            raise IllegalAction(*refusal)

    # -- the lifecycle commands -------------------------------------------------------

    def resign(self, seat: int, seed: bytes) -> None:
        self._check_running()
        if seat in self.bots or seat in self.out or not 0 <= seat < len(self.seats):
            raise IllegalAction("cannot_resign", f"seat {seat} holds no player who can resign")
        facts = self.ruleset.resign(self.state, seat) if self.ruleset.resign else []
        self._record(self.SeatResigned, {"seat": seat, "facts": facts, "at": utc_now_iso()}, seed)
        self._end_if_over(seed, "resigned")

    def time_out(self, now: str, seed: bytes) -> int | None:
        """Record the timeout of the seat whose clock ran out first by `now`, if any; its seat."""
        self._check_running()
        due = self.timeout_due(now)
        if due is None:
            return None
        seat, effect = due[1], self.clocks.config["on_timeout"]
        data = {"seat": seat, "effect": effect, "facts": [], "at": now}
        if effect == "default_move":
            data["action"] = self.ruleset.default_action(self.state, seat)
            rng = RandomStream(stream_key_for(seed, self.seats, self.entropy), str(self.id), self.version + 1)
            data["facts"] = self.ruleset.decide(self.state, seat, data["action"], rng)
        elif effect == "elimination" and self.ruleset.resign:
            data["facts"] = self.ruleset.resign(self.state, seat)
        self._record(self.SeatTimedOut, data, seed)
        self._end_if_over(seed, "timeout" if effect != "default_move" else None)
        return seat

    def abort(self, seat: int, seed: bytes) -> None:
        """Call the match off before anyone has acted; the seed is revealed as at any end."""
        self._check_running()
        if self.actions_taken:
            raise IllegalAction("match_started", f"the match has {self.actions_taken} actions; "
                                "only a match with no action yet can be aborted (resign instead)")
        self._record(self.MatchAbandoned, {"reason": "aborted", "by": seat, "seed": seed.hex(), "at": utc_now_iso()},
                     seed)

    def timeout_due(self, now: str):
        """(time, seat) of the first clock run out by `now`, or None: what `time_out` records."""
        due = self.clocks.first_due() if self.clocks else None
        return due if due is not None and due[0] <= parse_time(now) else None

    def idle_by(self, idle_seconds: int, now: str) -> bool:
        """Whether nothing has happened for `idle_seconds` by `now`: what `abandon_idle` records."""
        return parse_time(now) - self.last_at >= idle_seconds

    def abandon_idle(self, idle_seconds: int, now: str, seed: bytes) -> bool:
        """Abandon the match if nothing has happened in it for `idle_seconds` by `now`."""
        self._check_running()
        if not self.idle_by(idle_seconds, now):
            return False
        self._record(self.MatchAbandoned, {"reason": "inactive", "idle_seconds": idle_seconds,
                                           "seed": seed.hex(), "at": now}, seed)
        return True

    def _check_running(self) -> None:
        if self.status != RUNNING:
            raise MatchOver(f"the match is {self.status}; nothing more is recorded")

    def _end_if_over(self, seed: bytes, cause: str | None, at: str | None = None) -> None:
        outcome = lifecycle_outcome(self.ruleset, self.state, len(self.seats), self.out, cause,
                                    self.clocks.config["on_timeout"] if self.clocks else None)
        if outcome is not None:
            self._record(self.MatchEnded, {"outcome": outcome, "seed": seed.hex(), "at": at or utc_now_iso()}, seed)

    def recorded_command(self, seat: int, command_id: str, request_digest: str) -> int | None:
        """The seq of an action this seat already recorded under this idempotency key, if any.
        Keys are the seat's own: another seat's key is a new key (and never replays its action)."""
        recorded = self.commands.get((seat, command_id))
        if recorded is None:
            return None
        if recorded["digest"] != request_digest:
            raise IdempotencyKeyReused(
                f"Idempotency-Key {command_id!r} was used for another request (seq {recorded['seq']})")
        return recorded["seq"]

    def _record(self, event_class, data: dict, seed: bytes) -> None:
        seq, kind = self.version + 1, event_class.__name__
        if self.event_format == 1:  # a match begun before format 2 keeps its chain
            fields = {"prev_hash": self.head_hash, "hash": format1_hash(self.head_hash, seq, kind, data)}
        else:
            fields = chained(self.ruleset, self.head_hash, seq, kind, data, seed)
        self.trigger_event(event_class, data=data, **fields)

    def _on_action(self, seq: int, data: dict) -> None:
        self._evolve(data["facts"])
        self.actions_taken += 1
        if "command_id" in data:
            self.commands[(data["seat"], data["command_id"])] = {"seq": seq, "digest": data["request_digest"]}
        if "at" in data:  # actions recorded before clocks existed carry no time
            self._tick(data["at"], data["seat"])

    def _on_ended(self, seq: int, data: dict) -> None:
        self.status = ENDED
        self.outcome = data["outcome"]
        self.revealed_seed = data["seed"]
        self._tick(data["at"], None, over=True)

    def _on_abandoned(self, seq: int, data: dict) -> None:
        self.status = ABANDONED
        self.outcome = {"abandoned": data["reason"]}
        self.revealed_seed = data["seed"]
        self._tick(data["at"], None, over=True)

    def _on_resigned(self, seq: int, data: dict) -> None:
        self._on_leaving(data, "resigned")

    def _on_timed_out(self, seq: int, data: dict) -> None:
        self._on_leaving(data, "timed_out" if data["effect"] != "default_move" else None)

    def _on_leaving(self, data: dict, how: str | None) -> None:
        self._evolve(data["facts"])
        if how:
            self.out[data["seat"]] = how
        self._tick(data["at"], data["seat"] if how is None else None)

    def _evolve(self, facts: list) -> None:
        evolve, state = self.ruleset.evolve, self.state
        for fact in facts:
            state = evolve(state, fact)
        self.state = state

    def _tick(self, at: str, actor: int | None, over: bool = False) -> None:
        """The clocks (if any) run to `at`, with the seats to act now (none once `over`)."""
        self.last_event_at = at
        if self.clocks:
            self.clocks.advance(parse_time(at), () if over else self.ruleset.to_act(self.state), actor)

    @property
    def last_at(self) -> float:
        """When the last event happened, in seconds since the epoch (parsed when asked: a
        replay would otherwise parse every event's time)."""
        return parse_time(self.last_event_at)

    def players_in(self) -> list[int]:
        """The seats a person holds who is still in the match (not a bot, not out)."""
        return [seat for seat in range(len(self.seats)) if seat not in self.bots and seat not in self.out]

    def to_act(self) -> list[int]:
        return sorted(self.ruleset.to_act(self.state)) if self.status == RUNNING else []


def lifecycle_outcome(ruleset: rulesets.Ruleset, state: dict, seats: int, out: dict[int, str],
                      cause: str | None, on_timeout: str | None) -> dict | None:
    """The outcome to record now, or None while the match goes on.

    `out` are the seats that left; `cause` is "resigned" or "timeout" when the event just
    recorded was a seat leaving, else None. A seat leaving ends the match at once when the
    game has no way to go on without it (no `resign` hook) or the timeout's effect is loss;
    otherwise the game's own outcome decides. Either way the outcome names who left, and an
    end brought about by a seat leaving has that as its reason (the rules' reason is kept)."""
    ends_now = cause is not None and (ruleset.resign is None or cause == "timeout" and on_timeout == "loss")
    if ends_now:
        outcome = {"reason": cause, "winners": [seat for seat in range(seats) if seat not in out]}
    else:
        outcome = ruleset.outcome(state)
        if outcome is None or not out:
            return outcome
        outcome = dict(outcome)
        if cause is not None:
            outcome["rules_reason"], outcome["reason"] = outcome.get("reason"), cause
    for how in ("resigned", "timed_out"):
        if any(kind == how for kind in out.values()):
            outcome[how] = sorted(seat for seat, kind in out.items() if kind == how)
    return outcome


def chained(ruleset: rulesets.Ruleset, prev_hash: str, seq: int, kind: str, data: dict, seed: bytes) -> dict:
    """The chain fields of a new event (format 2): its public form (the rules' spectator
    redaction; None when nothing is hidden), the keyed commitment to its full data, the hash."""
    public = redact_data(ruleset, kind, data, None)
    commit = content_commit(commit_key(seed), seq, kind, data)
    return {"public": None if public == data else public, "commit": commit, "prev_hash": prev_hash,
            "hash": chain_hash(prev_hash, seq, kind, public, commit)}


def _stored_fields(record: dict) -> dict:
    """An export record's fields as the event stores them."""
    fields = {key: record[key] for key in ("data", "prev_hash", "hash")}
    if "commit" in record:
        fields.update(commit=record["commit"], public=record.get("public"))
    return fields


def stream_key_for(seed: bytes, seats: list[str], entropy: dict[str, str]) -> bytes:
    return stream_key(seed, [entropy.get(name, "") for name in seats])


EVENT_TYPES = ("MatchCreated", "ActionTaken", "SeatResigned", "SeatTimedOut", "MatchEnded", "MatchAbandoned")


class MatchSecret(Aggregate):
    """The seed, the hashed seat tokens and the id its rematch will have, of one match, in a
    stream of their own. The rematch id is drawn at random and kept here, never derived from
    the public match id: no one can take it first (by an import) to hijack the rematch."""

    @staticmethod
    def create_id(match_id: str) -> UUID:
        return secret_id(UUID(match_id))

    @event("Created")
    def __init__(self, match_id: str, seed_hex: str, token_hashes: list[str], rematch_id: str | None = None):
        self.match_id = match_id
        self.seed_hex = seed_hex
        self.token_hashes = token_hashes
        self.rematch_id = rematch_id

    @property
    def seed(self) -> bytes:
        return bytes.fromhex(self.seed_hex)

    def rematch_stream(self) -> UUID:
        """Matches recorded before rematch ids were drawn keep the id they were promised."""
        if getattr(self, "rematch_id", None):
            return UUID(self.rematch_id)
        return uuid5(UUID(self.match_id), "arbiter-rematch")


def secret_id(match_id: UUID) -> UUID:
    return uuid5(match_id, "arbiter-secret")
