"""One event of a match as a seat (None: a spectator) may read it while the match runs.

`redact_data` is the one rule, used twice: when an event is recorded, its spectator form
becomes the event's `public` form, which the hash chain covers (canonical.py); when a seat
reads the log, its own form is made from the full data. The idempotency key and request
digest of an action are the acting seat's alone: another seat could test a guess at a
hidden action against the digest.
"""

from .ruleset import Ruleset

ACTOR_ONLY = ("command_id", "request_digest")


def redact_data(ruleset: Ruleset, kind: str, data: dict, seat: int | None) -> dict:
    if kind == "MatchCreated":
        return {**data, "setup": ruleset.view(data["setup"], seat),
                "options": ruleset.redact_options(data["options"], data["seats"], seat)}
    if "facts" not in data:  # MatchEnded, MatchAbandoned: public as they are
        return data
    shown = {**data, "facts": [ruleset.redact(fact, seat) for fact in data["facts"]]}
    if "action" in data:
        shown["action"] = ruleset.redact_action(data["action"], data["seat"], seat)
    if seat != data.get("seat"):
        for key in ACTOR_ONLY:
            shown.pop(key, None)
    return shown


def public_record(record: dict) -> dict:
    """The spectator's form of a stored record: its public form, exactly as chained."""
    shown = {key: value for key, value in record.items() if key != "public"}
    if record.get("public") is not None:
        shown["data"] = record["public"]
    return shown


def redact_record(ruleset: Ruleset, record: dict, seat: int | None) -> dict:
    if "commit" not in record:  # event format 1: its hash covers the hidden data, so it is withheld
        shown = {key: value for key, value in record.items() if key not in ("hash", "prev_hash")}
        return {**shown, "data": redact_data(ruleset, record["type"], record["data"], seat)}
    if seat is None:
        return public_record(record)
    shown = {key: value for key, value in record.items() if key != "public"}
    shown["data"] = redact_data(ruleset, record["type"], record["data"], seat)
    return shown
