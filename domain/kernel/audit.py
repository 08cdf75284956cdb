"""Audit a recorded match from its events alone: proof, not trust.

Input: the export records {seq, type, data, public?, commit, prev_hash, hash} in stored
order (canonical.py; event format 1 has no public or commit). Six checks, each stopping at
the first divergence, named exactly (seq, what was expected, what was found):

1. chain: seq runs 1, 2, 3...; each prev_hash is the hash before; each hash recomputes over
   the event's public form and commitment (format 1: over its data).
2. commitment: the revealed seed hashes to the commitment made at creation.
3. contents: every event's full data matches the keyed commitment the chain carried while
   the match ran, under the key the revealed seed gives (format 2).
4. disclosure: every event's public form is what the rules let everyone see of its data
   (format 2): no less, or a spectator was shown a hidden card; no more, or hidden content
   was kept from the auditor's view of the chain.
5. decisions: setup and every action, re-decided by the recorded ruleset version with the
   re-derived random stream, yield exactly the recorded setup and facts.
6. outcome: the recorded outcome is the one the rules give, recorded right when they give it.

The lifecycle is checked with the decisions: a resign by a seat that holds no player (a
bot's seat, one already out), a timeout the recorded times do not justify, an abort after
an action, an idle abandonment sooner than its own threshold: each is a divergence.

A version this build does not have is refused (UnknownRuleset), never checked with other rules.
"""

from dataclasses import asdict, dataclass, field

from . import ruleset as rulesets
from .canonical import EVENT_FORMAT, GENESIS_HASH, canonical_json, chain_hash, commit_key, content_commit, format1_hash
from .errors import DomainError
from .clock import Clocks, parse_time
from .match import EVENT_TYPES, lifecycle_outcome, stream_key_for
from .redaction import redact_data
from .rng import RandomStream, commitment

CHECKS = ("chain", "commitment", "contents", "disclosure", "decisions", "outcome")
FORMAT1 = "not applicable: event format 1 has no commitments"


@dataclass
class Divergence:
    seq: int
    check: str
    expected: object
    found: object
    detail: str


@dataclass
class AuditReport:
    match_id: str | None
    game: str | None
    ruleset_version: str | None
    events: int
    checks: dict = field(default_factory=lambda: {name: "not run" for name in CHECKS})
    first_divergence: Divergence | None = None
    head_hash: str | None = None

    @property
    def ok(self) -> bool:
        return self.first_divergence is None and all(v in ("ok", FORMAT1) for v in self.checks.values())

    @property
    def summary(self) -> str:
        if self.first_divergence:
            d = self.first_divergence
            return f"DIVERGES at seq {d.seq} ({d.check}): {d.detail}"
        if not self.ok:
            pending = [k for k, v in self.checks.items() if v not in ("ok", FORMAT1)]
            return f"chain intact over {self.events} events; not yet checkable: {', '.join(pending)}"
        committed = "every event matches its commitment, public forms as the rules give, " \
            if self.checks["contents"] == "ok" else ""
        return (f"verified {self.game} {self.ruleset_version} match {self.match_id}: {self.events} events, "
                f"hash chain intact, seed matches commitment, {committed}every action re-decided identically, "
                f"outcome confirmed; head {self.head_hash}")

    def to_dict(self) -> dict:
        report = asdict(self)
        report["ok"], report["summary"] = self.ok, self.summary
        return report


def audit(records: list[dict]) -> AuditReport:
    first = records[0] if records and isinstance(records[0], dict) else {}
    created = first.get("data") if first.get("type") == "MatchCreated" and isinstance(first.get("data"), dict) else {}
    report = AuditReport(*(_text_or_none(created.get(key)) for key in ("match_id", "game", "ruleset_version")),
                         len(records))
    for check in (_check_chain, _check_commitment, _check_contents, _check_disclosure, _check_decisions):
        divergence = check(records, report)
        if divergence:
            report.first_divergence = divergence
            report.checks[divergence.check] = "diverges"
            return report
    return report


RECORD_FIELD_TYPES = {"seq": int, "type": str, "data": dict, "prev_hash": str, "hash": str}
FORMAT2_FIELD_TYPES = {**RECORD_FIELD_TYPES, "commit": str}


def event_format(records) -> int:
    """2 when the first record carries a commitment, else 1 (every record must agree)."""
    first = records[0] if records and isinstance(records[0], dict) else {}
    return EVENT_FORMAT if "commit" in first else 1


def _text_or_none(value):
    return value if isinstance(value, str) else None


def _shape_problem(record, fields: dict) -> str | None:
    if not isinstance(record, dict):
        return "a line is not a JSON object"
    missing = set(fields) - set(record)
    if missing:
        return f"a record lacks {sorted(missing)}"
    wrong = [name for name, kind in fields.items()
             if not isinstance(record[name], kind) or (kind is int and isinstance(record[name], bool))]
    if "public" in record and not isinstance(record["public"], dict):
        wrong.append("public")
    return f"a record's {', '.join(wrong)} {'has' if len(wrong) == 1 else 'have'} the wrong type" if wrong else None


def _recomputed_hash(fmt: int, prev: str, record: dict) -> str:
    if fmt == 1:
        return format1_hash(prev, record["seq"], record["type"], record["data"])
    return chain_hash(prev, record["seq"], record["type"], public_form(record), record["commit"])


def public_form(record: dict) -> dict:
    """What the chain covers of a format-2 record: `public`, or `data` where nothing is hidden."""
    return record["public"] if record.get("public") is not None else record["data"]


def _check_chain(records, report):
    prev, fmt = GENESIS_HASH, event_format(records)
    fields = FORMAT2_FIELD_TYPES if fmt == EVENT_FORMAT else RECORD_FIELD_TYPES
    for expected_seq, record in enumerate(records, start=1):
        problem = _shape_problem(record, fields)
        if problem:
            return Divergence(expected_seq, "chain", f"a record {{{', '.join(fields)}}}", record, problem)
        if fmt == 1 and "commit" in record:
            return Divergence(expected_seq, "chain", "no commit (event format 1)", record["commit"],
                              "a record of event format 2 in a match of event format 1")
        if record["seq"] != expected_seq:
            return Divergence(expected_seq, "chain", expected_seq, record["seq"],
                              f"expected seq {expected_seq}, found seq {record['seq']} (an event is missing "
                              "or out of order)")
        if record["type"] not in EVENT_TYPES or (expected_seq == 1) != (record["type"] == "MatchCreated"):
            return Divergence(expected_seq, "chain", f"MatchCreated first, then any of {list(EVENT_TYPES[1:])}",
                              record["type"], f"unexpected event type {record['type']!r} at seq {expected_seq}")
        if expected_seq == 1 and public_form(record).get("event_format", 1) != fmt:
            return Divergence(1, "chain", f"event format {public_form(record).get('event_format', 1)}",
                              f"records of event format {fmt}",
                              "the records are not of the event format the match was created with")
        if record["prev_hash"] != prev:
            return Divergence(expected_seq, "chain", prev, record["prev_hash"],
                              f"prev_hash of seq {expected_seq} does not link to the hash of seq {expected_seq - 1}")
        recomputed = _recomputed_hash(fmt, prev, record)
        if record["hash"] != recomputed:
            return Divergence(expected_seq, "chain", recomputed, record["hash"],
                              f"the hash of seq {expected_seq} does not match its content: the event was altered")
        prev = record["hash"]
    report.head_hash = prev
    report.checks["chain"] = "ok"
    return None


def _revealed_seed(records):
    last = records[-1]
    if last["type"] in ("MatchEnded", "MatchAbandoned"):
        return last["seq"], last["data"].get("seed")
    return None, None


def _check_commitment(records, report):
    seq, seed_hex = _revealed_seed(records)
    if seed_hex is None:
        for check in CHECKS[1:]:
            report.checks[check] = "pending: the seed is revealed when the match ends"
        return None
    promised = records[0]["data"].get("commitment")
    try:
        found = commitment(bytes.fromhex(seed_hex))
    except (ValueError, TypeError):
        found = f"not hex: {seed_hex!r}"
    if found != promised:
        return Divergence(seq, "commitment", promised, found,
                          f"the seed revealed at seq {seq} does not hash to the commitment made at seq 1")
    report.checks["commitment"] = "ok"
    return None


def _check_contents(records, report):
    if report.checks["commitment"] != "ok":
        return None
    if event_format(records) == 1:
        report.checks["contents"] = report.checks["disclosure"] = FORMAT1
        return None
    key = commit_key(bytes.fromhex(_revealed_seed(records)[1]))
    for record in records:
        if content_commit(key, record["seq"], record["type"], record["data"]) != record["commit"]:
            return Divergence(record["seq"], "contents", record["commit"], "other content",
                              f"the data of seq {record['seq']} is not the content committed to while the match "
                              "ran: it was altered after the event was recorded")
    report.checks["contents"] = "ok"
    return None


def _check_disclosure(records, report):
    if report.checks["contents"] != "ok":
        return None
    created = records[0]["data"]
    ruleset = rulesets.pinned(str(created.get("game")), str(created.get("ruleset_version")))
    for record in records:
        try:
            expected = redact_data(ruleset, record["type"], record["data"], None)
        except MALFORMED as error:
            return _malformed(record["seq"], error)
        if canonical_json(expected) != canonical_json(public_form(record)):
            return Divergence(record["seq"], "disclosure", expected, public_form(record),
                              f"the public form of seq {record['seq']} is not what the rules let everyone see "
                              "of its data")
    report.checks["disclosure"] = "ok"
    return None


# A chain can be intact around nonsense content (rewritten by hand, hashes recomputed):
# data the rules cannot even read is a divergence at its seq, never a crash of the audit.
MALFORMED = (KeyError, TypeError, ValueError, AttributeError, IndexError)


def _malformed(seq: int, error: Exception) -> Divergence:
    return Divergence(seq, "decisions", "event data the rules can read", None, f"malformed event data: {error!r}")


def _check_decisions(records, report):
    if report.checks["commitment"] != "ok" or report.checks["disclosure"] not in ("ok", FORMAT1):
        return None
    created = records[0]["data"]
    # An unknown version is refused whole (UnknownRuleset), not reported as a divergence.
    ruleset = rulesets.pinned(str(created.get("game")), str(created.get("ruleset_version")))
    try:
        _, seed_hex = _revealed_seed(records)
        key = stream_key_for(bytes.fromhex(seed_hex), created["seats"], created["entropy"])
        match_id = created["match_id"]
        state = ruleset.setup(created["options"], created["seats"], RandomStream(key, match_id, 1))
        dealt_as_recorded = canonical_json(state) == canonical_json(created["setup"])
    except DomainError as refusal:
        return Divergence(1, "decisions", "a setup the rules accept", created.get("options"), refusal.message)
    except MALFORMED as error:
        return _malformed(1, error)
    if not dealt_as_recorded:
        return Divergence(1, "decisions", "the setup dealt by the seed", "another setup",
                          "the recorded setup (deal, shuffle) is not the one the seed produces")
    replay = _Replay(ruleset, created, state, key)
    for record in records[1:]:
        try:
            divergence = replay.check(record)
        except MALFORMED as error:
            return _malformed(record["seq"], error)
        if divergence:
            return divergence
    report.checks["decisions"] = report.checks["outcome"] = "ok"
    return None


class _Replay:
    """The match re-lived event by event, as the Match aggregate lives it, checking each."""

    def __init__(self, ruleset, created: dict, state: dict, key: bytes):
        self.ruleset, self.state, self.key, self.match_id = ruleset, state, key, created["match_id"]
        self.seats = len(created["seats"])
        self.bots = {int(seat) for seat in created.get("bots", {})}
        self.clock = created.get("clock")
        self.last_at = parse_time(created["at"])
        self.clocks = (Clocks(self.clock, self.seats, self.last_at, ruleset.to_act(state), self.bots)
                       if self.clock else None)
        self.out: dict[int, str] = {}
        self.actions = 0
        self.due_outcome = None  # the outcome the last event made due, which MatchEnded must record next

    def check(self, record) -> Divergence | None:
        seq, kind, data = record["seq"], record["type"], record["data"]
        if self.due_outcome is not None and kind != "MatchEnded":
            return Divergence(seq, "outcome", "MatchEnded", kind,
                              f"the game was over before seq {seq}, yet a {kind} was recorded")
        rng = RandomStream(self.key, self.match_id, seq)
        if kind == "ActionTaken":
            expected, problem = _redecide(self.ruleset, self.state, data, rng)
            if problem:
                return Divergence(seq, "decisions", "an action the rules accept", data.get("action"), problem)
            divergence = self._facts_as_recorded(seq, expected, data)
            if divergence is None:
                self.actions += 1
                self._after(data, data["seat"], None, None)
            return divergence
        if kind == "SeatResigned":
            return self._leaving(seq, data, "resigned", None)
        if kind == "SeatTimedOut":
            return self._timed_out(seq, data, rng)
        if kind == "MatchEnded":
            expected = lifecycle_outcome(self.ruleset, self.state, self.seats, self.out, None, None) \
                if self.due_outcome is None else self.due_outcome
            if canonical_json(expected) != canonical_json(data.get("outcome")):
                return Divergence(seq, "outcome", expected, data.get("outcome"),
                                  "the recorded outcome is not the one the rules give")
            return None
        return self._abandoned(seq, data)

    def _facts_as_recorded(self, seq, expected, data) -> Divergence | None:
        if canonical_json(expected) != canonical_json(data.get("facts")):
            return Divergence(seq, "decisions", expected, data.get("facts"),
                              f"re-deciding seq {seq} gives other facts than the recorded ones")
        return None

    def _after(self, data, actor, how, cause) -> None:
        for fact in data["facts"]:
            self.state = self.ruleset.evolve(self.state, fact)
        if how:
            self.out[data["seat"]] = how
        if "at" in data:
            self.last_at = parse_time(data["at"])
            if self.clocks:
                self.clocks.advance(self.last_at, self.ruleset.to_act(self.state), actor)
        self.due_outcome = lifecycle_outcome(self.ruleset, self.state, self.seats, self.out, cause,
                                             self.clock and self.clock["on_timeout"])

    def _leaving(self, seq, data, how, expected_facts) -> Divergence | None:
        seat = data.get("seat")
        if seat in self.bots or seat in self.out or not isinstance(seat, int) or not 0 <= seat < self.seats:
            return Divergence(seq, "decisions", "a seat held by a player still in", seat,
                              f"seat {seat} could not resign: it holds no player (a bot's seat, or one already out)")
        if expected_facts is None:
            expected_facts = self.ruleset.resign(self.state, seat) if self.ruleset.resign else []
        divergence = self._facts_as_recorded(seq, expected_facts, data)
        if divergence is None:
            self._after(data, None, how, "resigned" if how == "resigned" else "timeout")
        return divergence

    def _timed_out(self, seq, data, rng) -> Divergence | None:
        due = self.clocks.first_due() if self.clocks else None
        at = parse_time(data["at"])
        if due is None or due[1] != data.get("seat") or at < due[0]:
            expected = "no timeout (the match has no clock)" if due is None else \
                f"seat {due[1]} at or after {due[0]:.3f}"
            return Divergence(seq, "decisions", expected, {"seat": data.get("seat"), "at": data.get("at")},
                              f"the timeout at seq {seq} is not justified by the recorded times")
        effect = self.clock["on_timeout"]
        if data.get("effect") != effect:
            return Divergence(seq, "decisions", effect, data.get("effect"), "the timeout's effect is not the clock's")
        if effect == "default_move":
            action = self.ruleset.default_action(self.state, due[1])
            if canonical_json(action) != canonical_json(data.get("action")):
                return Divergence(seq, "decisions", action, data.get("action"), "not the game's default move")
            divergence = self._facts_as_recorded(seq, self.ruleset.decide(self.state, due[1], action, rng), data)
            if divergence is None:
                self._after(data, due[1], None, None)
            return divergence
        facts = self.ruleset.resign(self.state, due[1]) if effect == "elimination" and self.ruleset.resign else []
        return self._leaving(seq, data, "timed_out", facts)

    def _abandoned(self, seq, data) -> Divergence | None:
        reason, at = data.get("reason"), parse_time(data["at"])
        if reason == "aborted" and self.actions == 0 and data.get("by") not in self.bots \
                and isinstance(data.get("by"), int) and 0 <= data["by"] < self.seats:
            return None
        if reason == "inactive" and isinstance(data.get("idle_seconds"), int) \
                and at - self.last_at >= data["idle_seconds"]:
            return None
        return Divergence(seq, "decisions", "an abort before any action by a seated player, or an idle "
                          "abandonment after its threshold", {k: v for k, v in data.items() if k != "seed"},
                          f"the abandonment at seq {seq} is not one the lifecycle allows")


def _redecide(ruleset, state, data, rng):
    seat, action = data.get("seat"), data.get("action")
    if not isinstance(action, dict) or seat not in ruleset.to_act(state):
        return None, f"seat {seat} was not to act"
    try:
        return ruleset.decide(state, seat, action, rng), None
    except DomainError as refusal:
        return None, f"the rules refuse this action: {refusal.message}"
