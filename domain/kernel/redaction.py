"""One event of a match's log as a seat (None: a spectator) may see it while the match runs."""

from .ruleset import Ruleset


def redact_record(ruleset: Ruleset, record: dict, seat: int | None) -> dict:
    data = record["data"]
    if record["type"] == "MatchCreated":
        data = {**data, "setup": ruleset.view(data["setup"], seat)}
    elif "facts" in data:  # ActionTaken, SeatResigned, SeatTimedOut
        data = {**data, "facts": [ruleset.redact(f, seat) for f in data["facts"]]}
        if "action" in data:
            data["action"] = ruleset.redact_action(data["action"], data["seat"], seat)
    return {**record, "data": data}
