"""Reading the read models: boards, logs, the match index, statistics, player records.

Every answer says how fresh it is: `as_of_version` (the match's version the model has
seen) and `as_of_position` (the projection's place in the event store's notification log).
"""

import uuid
from statistics import median

from domain.kernel import ruleset as rulesets
from domain.kernel.redaction import redact_record

from .models import created_score
from .uncertainty import difference, win_rate

RUNNING = "running"


class ReadModels:
    def __init__(self, store):
        self.store = store

    def position(self, name: str) -> int:
        return self.store.positions().get(name, 0)

    def match(self, match_id: str) -> dict | None:
        return self.store.get(f"match:{match_id}")

    def matches_to_watch(self, now: float, idle_seconds: int | None, page: int = 500):
        """The running matches the clock process must look at: those with a clock, those idle
        for `idle_seconds` by `now`, and those where a server bot is to act (per the read model;
        the event store decides)."""
        offset = 0
        while True:
            members = self.store.index_page("idx:status:running", float("-inf"), float("inf"), offset, page)
            for member in members:
                doc = self.match(member)
                idle = bool(idle_seconds) and "last_at" in doc and created_score(doc["last_at"]) <= now - idle_seconds
                if doc.get("clocked") or idle or set(doc["to_act"]) & set(doc.get("bots", ())):
                    yield uuid.UUID(member)
            if len(members) < page:
                return
            offset += len(members)

    def open_lobbies(self, game: str | None, cursor: int, limit: int) -> dict:
        """Matches waiting for players, oldest first, with their open seats."""
        index = f"lidx:open:game:{game}" if game else "lidx:open"
        members = self.store.index_page(index, float("-inf"), float("inf"), cursor, limit)
        lobbies = []
        for member in members:
            doc = self.store.get(f"lobby:{member}")
            lobbies.append({**doc, "open_seats": [seat for seat, held in enumerate(doc["seats"]) if held is None]})
        return {"lobbies": lobbies, "next_cursor": cursor + len(members) if len(members) == limit else None,
                "as_of_position": self.position("lobbies")}

    def board(self, match_id: str, seat: int | None) -> dict | None:
        doc = self.match(match_id)
        if doc is None:
            return None
        ruleset = rulesets.pinned(doc["game"], doc["ruleset_version"])
        return {"match_id": match_id, "version": doc["version"], "status": doc["status"], "seat": seat,
                "to_act": doc["to_act"], "board": ruleset.view(doc["state"], seat),
                "as_of_version": doc["version"], "as_of_position": self.position("matches"),
                "clocked": doc.get("clocked", False) and doc["status"] == RUNNING}

    def log(self, match_id: str, seat: int | None, since: int, limit: int) -> dict | None:
        """None when the models lack the match or no longer keep its log (retention.py): the
        caller reads the event store then."""
        doc = self.match(match_id)
        if doc is None:
            return None
        events = self.store.list_range(f"log:{match_id}", since, limit)
        if not events and since < doc["version"]:
            # a match's log holds seq 1..version, written with its document: none there is a
            # log the retention trimmed (whether the document was read before or after it)
            return None
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

    def stats(self, game: str, simulated: str = "exclude") -> dict:
        """`simulated`: "exclude" (matches played by people and served bots), "only" (those of
        `arbiter simulate`) or "include" (both)."""
        rulesets.latest(game)  # an unknown game is an error, not empty statistics
        c = {}
        for key in {"exclude": [f"stats:{game}"], "only": [f"stats:{game}:simulated"],
                    "include": [f"stats:{game}", f"stats:{game}:simulated"]}[simulated]:
            for field, n in self.store.counters(key).items():
                c[field] = c.get(field, 0) + n
        ended = c.get("matches_ended", 0)
        by_seats = {}
        for key, games in c.items():
            if key.startswith("seat_games:"):
                _, seats, seat = key.split(":")
                by_seats.setdefault(seats, {})[int(seat)] = win_rate(c.get(f"seat_wins:{seats}:{seat}", 0), games)
        factions = {key.split(":", 1)[1]: {"matches": games,
                                           "win_rate": win_rate(c.get(f"faction_wins:{key.split(':', 1)[1]}", 0), games)}
                    for key, games in c.items() if key.startswith("faction_games:")}
        # The first player's fair share: what the average seat wins in the k-player matches (1/k
        # where every match has one winner; more where wins are shared, as Cybermen's mostly are,
        # less where matches are drawn), weighted by how many k-player matches there were.
        by_count = {seats: c.get(f"seat_games:{seats}:0", 0) for seats in by_seats}
        average_seat = {seats: sum(r["wins"] for r in rates.values()) / sum(r["n"] for r in rates.values())
                        for seats, rates in by_seats.items()}
        fair_share = (sum(n * average_seat[seats] for seats, n in by_count.items()) / sum(by_count.values())
                      if sum(by_count.values()) else None)
        first = win_rate(c.get("first_player_wins", 0), ended) if "first_player_wins" in c else None
        cards = {}
        for key, plays in c.items():
            if key.startswith("card_plays:"):
                card = key.split(":", 1)[1]
                matches = c.get(f"card_matches:{card}", 0)
                cards[card] = {"plays": plays, "matches": matches,
                               "win_rate_when_played": win_rate(c.get(f"card_wins:{card}", 0), matches)}
        return {
            "game": game,
            "simulated": simulated,
            "matches_started": c.get("matches_started", 0),
            "matches_ended": ended,
            "matches_abandoned": c.get("matches_abandoned", 0),
            "matches_drawn": c.get("matches_drawn", 0),
            "resigns": c.get("resigns", 0),
            "timeouts": {key.split(":", 1)[1]: n for key, n in sorted(c.items()) if key.startswith("timeouts:")},
            "abandon_reasons": {key.split(":", 1)[1]: n for key, n in sorted(c.items())
                                if key.startswith("abandon_reason:")},
            "end_reasons": {key.split(":", 1)[1]: n for key, n in sorted(c.items()) if key.startswith("end_reason:")},
            "win_rate_by_seat": {seats: [rates[s] for s in sorted(rates)] for seats, rates in sorted(by_seats.items())},
            "seat_difference": {seats: difference({f"seat {s}": rate for s, rate in rates.items()})
                                for seats, rates in sorted(by_seats.items())},
            "first_player_win_rate": first,
            "first_player_fair_share": round(fair_share, 4) if fair_share is not None else None,
            "first_player_advantage_significant": (None if not first or fair_share is None else
                                                   not first["ci95"][0] <= fair_share <= first["ci95"][1]),
            "factions": dict(sorted(factions.items())),
            "faction_difference": difference({name: f["win_rate"] for name, f in factions.items()}),
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
        ratings = {}
        for game in sorted(games):
            rating = self.store.get(f"rating:{game}:{name}")
            if rating:
                ratings[game] = {key: rating[key] for key in ("mu", "sigma", "ordinal", "matches")}
        return {"player": name, **totals, "by_game": games, "ratings": ratings,
                "as_of_position": self.position("players")}

    def rating_history(self, match_id: str) -> dict | None:
        """A rated match's seats with their ordinal before and after it."""
        return self.store.get(f"rhist:{match_id}")

    def leaderboard(self, game: str, cursor: int = 0, limit: int = 50) -> dict:
        """Players (and bot kinds) of a game by OpenSkill ordinal (mu - 3 sigma), highest first."""
        rulesets.latest(game)
        members = self.store.index_page(f"ridx:{game}", float("-inf"), float("inf"), cursor, limit)
        rows = []
        for rank, member in enumerate(members, start=cursor + 1):
            rating = self.store.get(f"rating:{game}:{member}")
            rows.append({"rank": rank, **{key: rating[key] for key in ("player", "mu", "sigma", "ordinal", "matches")}})
        return {"game": game, "model": "openskill PlackettLuce (mu 25, sigma 25/3); ordinal = mu - 3 sigma",
                "players": rows, "next_cursor": cursor + len(members) if len(members) == limit else None,
                "as_of_position": self.position("ratings")}


PLAYER_RESULTS = ("started", "played", "won", "lost", "drawn", "abandoned", "resigned", "timed_out")


def _distribution(counters: dict, prefix: str) -> dict:
    """A histogram (bucket -> matches) with its count, median and mean bucket."""
    histogram = {int(k[len(prefix):]): n for k, n in counters.items() if k.startswith(prefix)}
    values = [bucket for bucket, n in sorted(histogram.items()) for _ in range(n)]
    return {"histogram": {str(k): v for k, v in sorted(histogram.items())}, "matches": len(values),
            "median": median(values) if values else None,
            "mean": round(sum(values) / len(values), 2) if values else None}

