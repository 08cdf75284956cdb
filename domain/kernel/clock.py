"""Chess-style clocks derived from recorded event times only.

A match may carry a time control in its MatchCreated data (`clock`). Nothing about time is
stored but the `at` of each event, so the Match aggregate, the audit and any replay compute
every clock the same way from the same events:

- fischer  {"base_seconds": B, "increment_seconds": I}: each seat has a bank of B seconds;
  the time between two events is taken from the bank of every seat that was to act during
  it; a seat that acts gains I seconds.
- per_move {"move_seconds": S} (or {"move_days": D}, correspondence): a seat has S seconds
  from the moment it becomes to act (or acts and stays to act) to act again.

A seat's deadline is the moment its time runs out; a clock process records a timeout for a
seat only at or after its deadline, and the audit refuses one recorded earlier.
"""

from datetime import datetime, timezone

from .errors import InvalidSetup

TIMEOUT_EFFECTS = ("loss", "elimination", "default_move")
SECONDS_A_DAY = 86_400


def parse_time(iso: str) -> float:
    return datetime.fromisoformat(iso).timestamp()


def iso_time(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, timezone.utc).isoformat(timespec="milliseconds")


def clock_config(requested: dict) -> dict:
    """The normalised time control for MatchCreated, or InvalidSetup naming what is wrong."""
    if not isinstance(requested, dict):
        raise InvalidSetup("clock must be an object")
    request = dict(requested)
    effect = request.pop("on_timeout", "loss")
    if effect not in TIMEOUT_EFFECTS:
        raise InvalidSetup(f"clock.on_timeout must be one of {list(TIMEOUT_EFFECTS)}, not {effect!r}")
    keys = set(request)
    if keys in ({"base_seconds"}, {"base_seconds", "increment_seconds"}):
        config = {"kind": "fischer", "base_seconds": request["base_seconds"],
                  "increment_seconds": request.get("increment_seconds", 0)}
    elif keys == {"move_seconds"}:
        config = {"kind": "per_move", "move_seconds": request["move_seconds"]}
    elif keys == {"move_days"}:
        config = {"kind": "per_move", "move_seconds": _positive(request, "move_days") * SECONDS_A_DAY}
    else:
        raise InvalidSetup("clock takes {base_seconds, increment_seconds?} or {move_seconds} or {move_days}, "
                           f"plus on_timeout; got {sorted(requested)}")
    for name in ("base_seconds", "move_seconds"):
        if name in config:
            _positive(config, name)
    if config.get("increment_seconds", 0) != 0:
        _positive(config, "increment_seconds")
    config["on_timeout"] = effect
    # A served bot's time is its pace (service/bot_pace.py), set by the server, not taken by
    # the bot: its clock does not run. Matches created before this flag time every seat.
    config["bots_untimed"] = True
    return config


def _positive(config: dict, name: str) -> int:
    value = config[name]
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= 10 ** 9:
        raise InvalidSetup(f"clock.{name} must be a whole number of seconds (or days) from 1 to 10^9, not {value!r}")
    return value


class Clocks:
    """Every seat's clock, advanced event by event."""

    def __init__(self, config: dict, seats: int, started_at: float, to_act, bots=()):
        """`bots`: the served bots' seats, whose clocks do not run when the config says so."""
        self.config = config
        self.untimed = frozenset(bots) if config.get("bots_untimed") is True else frozenset()
        self.bank = {seat: float(config.get("base_seconds", 0)) for seat in range(seats)}
        self.running = set(to_act) - self.untimed
        self.turn_started = {seat: started_at for seat in self.running}
        self.last = started_at

    def advance(self, at: float, to_act_after, actor: int | None = None) -> None:
        """An event recorded `at`, after which `to_act_after` are to act; `actor` acted in it."""
        elapsed = max(0.0, at - self.last)
        if self.config["kind"] == "fischer":
            for seat in self.running:
                self.bank[seat] -= elapsed
            if actor is not None and actor not in self.untimed:
                self.bank[actor] += self.config["increment_seconds"]
        after = set(to_act_after) - self.untimed
        self.turn_started = {seat: (at if seat not in self.running or seat == actor else self.turn_started[seat])
                             for seat in after}
        self.running, self.last = after, max(at, self.last)

    def stop(self, at: float) -> None:
        self.advance(at, ())

    def deadline(self, seat: int) -> float | None:
        """When `seat`'s time runs out, or None while its clock does not run."""
        if seat not in self.running:
            return None
        if self.config["kind"] == "fischer":
            return self.last + self.bank[seat]
        return self.turn_started[seat] + self.config["move_seconds"]

    def first_due(self) -> tuple[float, int] | None:
        """(deadline, seat) of the running clock that runs out first."""
        due = [(self.deadline(seat), seat) for seat in self.running]
        return min(due) if due else None

    def describe(self, now: float) -> dict:
        """For boards and streams: each seat's time left at `now` and its deadline."""
        seats = []
        for seat in sorted(self.bank):
            deadline = self.deadline(seat)
            if deadline is not None:
                left = deadline - now
            elif self.config["kind"] == "fischer":
                left = self.bank[seat]
            else:
                left = self.config["move_seconds"]
            seats.append({"seat": seat, "running": deadline is not None, "remaining_ms": max(0, round(left * 1000)),
                          "deadline": iso_time(deadline) if deadline is not None else None,
                          **({"untimed": True} if seat in self.untimed else {})})
        return {**self.config, "seats": seats}
