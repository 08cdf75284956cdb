"""Reading the read models: boards, logs, the match index, statistics, player records.

Every answer says how fresh it is: `as_of_version` (the match's version the model has
seen) and `as_of_position` (the projection's place in the event store's notification log).
"""

from statistics import median

from domain.kernel import ruleset as rulesets
from domain.kernel.redaction import redact_record

RUNNING = "running"


class ReadModels:
    def __init__(self, store):
        self.store = store

    def position(self, name: str) -> int:
        return self.store.positions().get(name, 0)

    def match(self, match_id: str) -> dict | None:
        return self.store.get(f"match:{match_id}")

    def board(self, match_id: str, seat: int | None) -> dict | None:
        doc = self.match(match_id)
        if doc is None:
            return None
        ruleset = rulesets.pinned(doc["game"], doc["ruleset_version"])
        return {"match_id": match_id, "version": doc["version"], "status": doc["status"], "seat": seat,
                "to_act": doc["to_act"], "board": ruleset.view(doc["state"], seat),
                "as_of_version": doc["version"], "as_of_position": self.position("matches")}

    def log(self, match_id: str, seat: int | None, since: int, limit: int) -> dict | None:
        doc = self.match(match_id)
        if doc is None:
            return None
        events = self.store.list_range(f"log:{match_id}", since, limit)
        if doc["status"] == RUNNING:
            ruleset = rulesets.pinned(doc["game"], doc["ruleset_version"])
            events = [redact_record(ruleset, event, seat) for event in events]
        last = events[-1]["seq"] if events else since
        return {"match_id": match_id, "version": doc["version"], "events": events,
                "next_since": last if last < doc["version"] else None,
                "as_of_version": doc["version"], "as_of_position": self.position("matches")}

    def list_matches(self, game=None, status=None, player=None, created_after=None, created_before=None,
                     cursor: int = 0, limit: int = 50) -> dict:
        """Oldest first. The narrowest index is read; other filters are applied to its members."""
        if player:
            index, filters = f"idx:player:{player}", {"game": game, "status": status}
        elif game and status:
            index, filters = f"idx:game:{game}:status:{status}", {}
        elif game:
            index, filters = f"idx:game:{game}", {}
        elif status:
            index, filters = f"idx:status:{status}", {}
        else:
            index, filters = "idx:all", {}
        low = created_after.timestamp() if created_after else float("-inf")
        high = created_before.timestamp() if created_before else float("inf")
        found, offset = [], cursor
        while len(found) < limit:
            members = self.store.index_page(index, low, high, offset, limit)
            if not members:
                offset = None
                break
            for member in members:
                offset += 1
                doc = self.match(member)
                if all(value is None or doc[field] == value for field, value in filters.items()):
                    found.append({key: doc[key] for key in ("match_id", "game", "seats", "status", "version",
                                                            "created_at", "outcome")})
                    if len(found) == limit:
                        break
        return {"matches": found, "next_cursor": offset, "as_of_position": self.position("matches")}

    def stats(self, game: str) -> dict:
        rulesets.latest(game)  # an unknown game is an error, not empty statistics
        c = self.store.counters(f"stats:{game}")
        ended = c.get("matches_ended", 0)
        by_seats = {}
        for key, games in c.items():
            if key.startswith("seat_games:"):
                _, seats, seat = key.split(":")
                by_seats.setdefault(seats, {})[int(seat)] = _rate(c.get(f"seat_wins:{seats}:{seat}", 0), games)
        factions = {key.split(":", 1)[1]: {"matches": games, "win_rate": _rate(c.get(f"faction_wins:{key.split(':', 1)[1]}", 0), games)}
                    for key, games in c.items() if key.startswith("faction_games:")}
        cards = {}
        for key, plays in c.items():
            if key.startswith("card_plays:"):
                card = key.split(":", 1)[1]
                matches = c.get(f"card_matches:{card}", 0)
                cards[card] = {"plays": plays, "matches": matches,
                               "win_rate_when_played": _rate(c.get(f"card_wins:{card}", 0), matches)}
        return {
            "game": game,
            "matches_started": c.get("matches_started", 0),
            "matches_ended": ended,
            "matches_abandoned": c.get("matches_abandoned", 0),
            "matches_drawn": c.get("matches_drawn", 0),
            "end_reasons": {key.split(":", 1)[1]: n for key, n in sorted(c.items()) if key.startswith("end_reason:")},
            "win_rate_by_seat": {seats: [rates[s] for s in sorted(rates)] for seats, rates in sorted(by_seats.items())},
            "first_player_win_rate": _rate(c.get("first_player_wins", 0), ended),
            "factions": dict(sorted(factions.items())),
            "length": {"actions": _distribution(c, "length_actions:"), "rounds": _distribution(c, "length_rounds:")},
            "cards": dict(sorted(cards.items())),
            "as_of_position": self.position("stats"),
        }

    def player(self, name: str) -> dict:
        c = self.store.counters(f"player:{name}")
        games = {}
        for key, n in c.items():
            what, game = key.split(":", 1)
            games.setdefault(game, dict.fromkeys(PLAYER_RESULTS, 0))[what] = n
        totals = {what: sum(g[what] for g in games.values()) for what in PLAYER_RESULTS}
        return {"player": name, **totals, "by_game": games, "as_of_position": self.position("players")}


PLAYER_RESULTS = ("started", "played", "won", "lost", "drawn", "abandoned")


def _rate(wins: int, games: int) -> float | None:
    return round(wins / games, 4) if games else None


def _distribution(counters: dict, prefix: str) -> dict:
    """A histogram (bucket -> matches) with its count, median and mean bucket."""
    histogram = {int(k[len(prefix):]): n for k, n in counters.items() if k.startswith(prefix)}
    values = [bucket for bucket, n in sorted(histogram.items()) for _ in range(n)]
    return {"histogram": {str(k): v for k, v in sorted(histogram.items())}, "matches": len(values),
            "median": median(values) if values else None,
            "mean": round(sum(values) / len(values), 2) if values else None}

