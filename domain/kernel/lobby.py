"""The lobby of a match that waits for players: seats open, taken, left; then started.

A lobby is an aggregate of its own (id derived from the match id), so the match's stream
still begins with MatchCreated when the match starts. The seed is drawn when the lobby
opens and its commitment published at once, before anyone joins: a joiner's entropy then
mixes into a seed the server has already committed to. The lobby's stream is never
exported or shown; the seed in it is as secret as MatchSecret's.
"""

import copy
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate, event

from .errors import DomainError, InvalidSetup


class SeatUnavailable(DomainError):
    code = "seat_unavailable"


class LobbyClosed(DomainError):
    code = "lobby_closed"


def lobby_id(match_id: UUID) -> UUID:
    return uuid5(match_id, "arbiter-lobby")


class Lobby(Aggregate):
    """Seats are {"name", "token_hash"} when taken, {"bot": kind} for the server's bots,
    {} while open."""

    @staticmethod
    def create_id(match_id: str) -> UUID:
        return lobby_id(UUID(match_id))

    @event("Opened")
    def __init__(self, match_id: str, game: str, options: dict, lifecycle: dict, seats: list[dict],
                 entropy: dict, host_token_hash: str, seed_hex: str, commitment: str, at: str):
        self.match_id, self.game, self.options, self.lifecycle = match_id, game, options, lifecycle
        self.seats, self.entropy = seats, entropy
        self.host_token_hash, self.seed_hex, self.commitment, self.opened_at = host_token_hash, seed_hex, commitment, at
        self.started = False

    def to_change(self) -> "Lobby":
        """A private copy for one command, as Match.to_change: the store's cache holds lobbies
        as committed, read by every thread, so a seat taken (or a start) is seen only once the
        store has it, and a command refused or beaten half-way leaves no trace. What a command
        changes is copied (the seats, the entropy); the rest is never changed in place."""
        copied = copy.copy(self)
        copied.seats = [dict(held) for held in self.seats]
        copied.entropy = dict(self.entropy)
        copied._pending_events = []
        return copied

    def open_seats(self) -> list[int]:
        return [seat for seat, held in enumerate(self.seats) if not held]

    def names(self) -> list[str]:
        return [held["name"] for held in self.seats if "name" in held]

    def take(self, name: str, token_hash: str, entropy: str | None, seat: int | None) -> int:
        self._check_open()
        if name in self.names() or not name.strip():
            raise InvalidSetup(f"the name {name!r} is blank or already seated in this match")
        free = self.open_seats()
        if seat is None and free:
            seat = free[0]
        if seat not in free:
            raise SeatUnavailable(f"seat {seat} is not open (open seats: {free})")
        self._take(seat=seat, name=name, token_hash=token_hash, entropy=entropy)
        return seat

    @event("SeatTaken")
    def _take(self, seat: int, name: str, token_hash: str, entropy: str | None) -> None:
        self.seats[seat] = {"name": name, "token_hash": token_hash}
        if entropy is not None:
            self.entropy[name] = entropy

    def leave(self, seat: int) -> None:
        self._check_open()
        self._leave(seat=seat)

    @event("SeatLeft")
    def _leave(self, seat: int) -> None:
        self.entropy.pop(self.seats[seat].get("name"), None)
        self.seats[seat] = {}

    def start(self, at: str) -> None:
        self._check_open()
        self._start(at=at)

    @event("Started")
    def _start(self, at: str) -> None:
        self.started = True

    def _check_open(self) -> None:
        if self.started:
            raise LobbyClosed(f"match {self.match_id} has started; its seats are settled")
