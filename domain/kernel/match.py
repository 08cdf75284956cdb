"""The Match aggregate: one event stream per match, every event chained by hash.

Events carry plain JSON `data`; the aggregate applies them with the game's `evolve`.
`act` is the only command: it asks the pinned ruleset to decide facts, records them as
one ActionTaken event and, when the rules say the game is over, a MatchEnded event that
reveals the seed. MatchSecret keeps the seed and the hashed seat tokens in a separate
stream that is never exported or shown.
"""

from datetime import datetime, timezone
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate, event

from . import ruleset as rulesets
from .canonical import GENESIS_HASH, event_hash, json_copy
from .errors import IdempotencyKeyReused, IllegalAction, MatchOver
from .rng import RandomStream, commitment, stream_key

RUNNING, ENDED, ABANDONED = "running", "ended", "abandoned"


def utc_now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


class Match(Aggregate):
    class Event(Aggregate.Event):
        data: dict
        prev_hash: str
        hash: str

        def apply(self, match: "Match") -> None:
            self.apply_data(match)
            match.head_hash = self.hash

        def apply_data(self, match: "Match") -> None:
            raise TypeError(f"{type(self).__name__} does not say how it changes a match")

    class MatchCreated(Event, Aggregate.Created):
        def apply_data(self, match: "Match") -> None:
            match._on_created(self.data)

    class ActionTaken(Event):
        def apply_data(self, match: "Match") -> None:
            match._on_action(self.originator_version, self.data)

    class MatchEnded(Event):
        def apply_data(self, match: "Match") -> None:
            match.status = ENDED
            match.outcome = self.data["outcome"]
            match.revealed_seed = self.data["seed"]

    class MatchAbandoned(Event):
        def apply_data(self, match: "Match") -> None:
            match.status = ABANDONED
            match.outcome = {"abandoned": self.data["reason"]}
            match.revealed_seed = self.data["seed"]

    def __init__(self) -> None:
        """State is set by MatchCreated.apply, so replay and creation share one path."""

    # -- creation -------------------------------------------------------------------

    @classmethod
    def start(cls, match_id: UUID, ruleset: rulesets.Ruleset, seats: list[str], options: dict,
              entropy: dict[str, str], seed: bytes) -> "Match":
        rng = RandomStream(stream_key_for(seed, seats, entropy), str(match_id), 1)
        initial_state = ruleset.setup(options, seats, rng)
        data = {
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
        created_hash = event_hash(GENESIS_HASH, 1, "MatchCreated", data)
        return cls._create(cls.MatchCreated, id=match_id, data=data,
                           prev_hash=GENESIS_HASH, hash=created_hash)

    @classmethod
    def from_records(cls, records: list[dict]) -> "Match":
        """A match rebuilt from export records, keeping their data and hashes (for import)."""
        first = records[0]
        match = cls._create(cls.MatchCreated, id=UUID(first["data"]["match_id"]), data=first["data"],
                            prev_hash=first["prev_hash"], hash=first["hash"])
        for record in records[1:]:
            match.trigger_event(getattr(cls, record["type"]), data=record["data"],
                                prev_hash=record["prev_hash"], hash=record["hash"])
        return match

    def _on_created(self, data: dict) -> None:
        self.game = data["game"]
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

    # -- the one command --------------------------------------------------------------

    def act(self, seat: int, action: dict, seed: bytes,
            command_id: str | None = None, request_digest: str | None = None) -> None:
        if self.status != RUNNING:
            raise MatchOver(f"the match is {self.status}; no more actions are taken")
        if seat not in self.ruleset.to_act(self.state):
            raise IllegalAction("not_your_turn", f"seat {seat} is not to act now "
                                f"(to act: {sorted(self.ruleset.to_act(self.state))})")
        # A listed action may carry a `params` description; it is advice, not part of the move.
        action = {k: v for k, v in action.items() if k != "params"}
        seq = self.version + 1
        rng = RandomStream(stream_key_for(seed, self.seats, self.entropy), str(self.id), seq)
        facts = self.ruleset.decide(self.state, seat, action, rng)
        data = {"seat": seat, "action": action, "facts": facts}
        if command_id is not None:
            data["command_id"] = command_id
            data["request_digest"] = request_digest
        self._record(self.ActionTaken, data)
        outcome = self.ruleset.outcome(self.state)
        if outcome is not None:
            self._record(self.MatchEnded, {"outcome": outcome, "seed": seed.hex(), "at": utc_now_iso()})

    def abandon(self, reason: str, seed: bytes) -> None:
        if self.status != RUNNING:
            raise MatchOver(f"the match is {self.status} already")
        self._record(self.MatchAbandoned, {"reason": reason, "seed": seed.hex(), "at": utc_now_iso()})

    def recorded_command(self, command_id: str, request_digest: str) -> int | None:
        """The seq of an action already recorded under this idempotency key, if any."""
        recorded = self.commands.get(command_id)
        if recorded is None:
            return None
        if recorded["digest"] != request_digest:
            raise IdempotencyKeyReused(
                f"Idempotency-Key {command_id!r} was used for another request (seq {recorded['seq']})")
        return recorded["seq"]

    def _record(self, event_class, data: dict) -> None:
        seq = self.version + 1
        self.trigger_event(event_class, data=data, prev_hash=self.head_hash,
                           hash=event_hash(self.head_hash, seq, event_class.__name__, data))

    def _on_action(self, seq: int, data: dict) -> None:
        evolve, state = self.ruleset.evolve, self.state
        for fact in data["facts"]:
            state = evolve(state, fact)
        self.state = state
        if "command_id" in data:
            self.commands[data["command_id"]] = {"seq": seq, "digest": data["request_digest"]}

    def to_act(self) -> list[int]:
        return sorted(self.ruleset.to_act(self.state)) if self.status == RUNNING else []


def stream_key_for(seed: bytes, seats: list[str], entropy: dict[str, str]) -> bytes:
    return stream_key(seed, [entropy.get(name, "") for name in seats])


EVENT_TYPES = ("MatchCreated", "ActionTaken", "MatchEnded", "MatchAbandoned")


class MatchSecret(Aggregate):
    """The seed and the hashed seat tokens of one match, in a stream of their own."""

    @staticmethod
    def create_id(match_id: str) -> UUID:
        return secret_id(UUID(match_id))

    @event("Created")
    def __init__(self, match_id: str, seed_hex: str, token_hashes: list[str]):
        self.match_id = match_id
        self.seed_hex = seed_hex
        self.token_hashes = token_hashes

    @property
    def seed(self) -> bytes:
        return bytes.fromhex(self.seed_hex)


def secret_id(match_id: UUID) -> UUID:
    return uuid5(match_id, "arbiter-secret")
