"""The read models, as functions of events. They never decide: they read facts.

- matches: one document per match (latest state, version, status, to_act, outcome),
  its event log (redacted when read), and indexes by game, status and player.
- stats: per game counters: matches started/ended/abandoned, wins by seat position, by
  first player and by faction (Constructor, ...), match length in actions and rounds
  as histograms, and per card: plays, matches played in, wins when played.
- players: per player name and game: played, won, lost, abandoned, resigned, timed out.
- lobbies: the matches waiting for players, by game, with their open seats.
- ratings: OpenSkill ratings per game and player (a bot counts as its kind, "bot:greedy"),
  each ended match's ratings before and after, and a leaderboard index per game.

Match projections read match events; the lobbies projection reads lobby events (their
records carry `lobby_id`); each projection names the stream it reads in `stream`.
"""

from datetime import datetime

import orjson
from openskill.models import PlackettLuce

from domain.kernel import ruleset as rulesets
from domain.kernel.canonical import json_copy

from .batch import Batch

ENDED_INDEX = "idx:ended"  # finished matches (ended or abandoned) by the time they finished


def created_score(iso: str) -> float:
    return datetime.fromisoformat(iso).timestamp()


class Reader:
    """Documents as the batch has changed them so far, else as stored.

    What the store holds may be read ahead for a whole batch (`read_ahead`): the documents its
    records will read (each projection's `reads`), in one request, and each index the batch
    will search above the lowest score it will search from (`index_floor`), once. A read
    ahead is a read of the store as it is during the batch, as a read mid-batch is: the
    batch's compare-and-set commit refuses it if another projector changed what it read."""

    def __init__(self, store, batch: Batch):
        self.store, self.batch = store, batch
        self._ahead: dict[str, bytes | None] = {}  # stored JSON, decoded at each read (no shared copies)
        self._index_floor: float | None = None
        self._indexes: dict[str, list[tuple[str, float]]] = {}  # stored members with score >= floor

    def read_ahead(self, keys, index_floor: float | None = None) -> None:
        wanted = [key for key in dict.fromkeys(keys) if key not in self.batch.docs and key not in self._ahead]
        if wanted:
            self._ahead.update(self.store.fetch(wanted))
        self._index_floor = index_floor

    def get(self, key: str) -> dict | None:
        if key in self.batch.docs:
            return self.batch.docs[key]
        if key in self._ahead:
            raw = self._ahead[key]
            return orjson.loads(raw) if raw else None
        return self.store.get(key)

    def _stored_scored(self, name: str, low: float, high: float) -> list[tuple[str, float]]:
        floor = self._index_floor
        if floor is None or low < floor:
            return self.store.index_scored(name, low, high)
        if name not in self._indexes:
            self._indexes[name] = self.store.index_scored(name, floor, float("inf"))
        return [(member, score) for member, score in self._indexes[name] if low <= score <= high]

    def index_scored(self, name: str, low: float, high: float) -> list[tuple[str, float]]:
        """(member, score) of the index with low <= score <= high, in (score, member) order."""
        found = dict(self._stored_scored(name, low, high))
        for member in [m for (index, m) in self.batch.unindexed if index == name]:
            found.pop(member, None)
        found.update({member: score for index, member, score in self.batch.indexed
                      if index == name and low <= score <= high})
        return sorted(found.items(), key=lambda pair: (pair[1], pair[0]))


class MatchesProjection:
    name = "matches"
    stream = "match"
    global_order = False
    prefixes = ["match:", "log:", "idx:"]

    def reads(self, record: dict) -> list[str]:
        return [] if record["type"] == "MatchCreated" else [f"match:{record['match_id']}"]

    def apply(self, record: dict, batch: Batch, reader: Reader) -> None:
        match_id, seq, kind, data = record["match_id"], record["seq"], record["type"], record["data"]
        key = f"match:{match_id}"
        if kind == "MatchCreated":
            ruleset = rulesets.pinned(data["game"], data["ruleset_version"])
            doc = {"match_id": match_id, "game": data["game"], "ruleset_version": data["ruleset_version"],
                   "seats": data["seats"], "status": "running", "version": 1, "state": json_copy(data["setup"]),
                   "to_act": sorted(ruleset.to_act(data["setup"])), "outcome": None, "created_at": data["at"],
                   "clocked": "clock" in data, "bots": sorted(int(seat) for seat in data.get("bots", {}))}
            score = created_score(data["at"])
            for index in ("idx:all", f"idx:game:{data['game']}", "idx:status:running",
                          f"idx:game:{data['game']}:status:running", *(f"idx:player:{p}" for p in data["seats"])):
                batch.index(index, match_id, score)
        else:
            doc = dict(reader.get(key))
            doc["version"] = seq
            if kind in ("ActionTaken", "SeatResigned", "SeatTimedOut"):
                ruleset = rulesets.pinned(doc["game"], doc["ruleset_version"])
                state = doc["state"]
                for fact in data["facts"]:
                    state = ruleset.evolve(state, fact)
                doc["state"], doc["to_act"] = state, sorted(ruleset.to_act(state))
            else:  # MatchEnded / MatchAbandoned
                status = "ended" if kind == "MatchEnded" else "abandoned"
                doc.update(status=status, to_act=[], ended_at=data["at"],
                           outcome=data["outcome"] if kind == "MatchEnded" else {"abandoned": data["reason"]})
                score = created_score(doc["created_at"])
                batch.index(ENDED_INDEX, match_id, created_score(data["at"]))  # for retention.py
                for old, new in (("idx:status:running", f"idx:status:{status}"),
                                 (f"idx:game:{doc['game']}:status:running", f"idx:game:{doc['game']}:status:{status}")):
                    batch.unindex(old, match_id)
                    batch.index(new, match_id, score)
        doc["last_at"] = data.get("at") or record["timestamp"]  # what the clock process reads for idleness
        batch.set(key, doc)
        batch.append(f"log:{match_id}", {k: v for k, v in record.items() if k in LOG_FIELDS})


class StatsProjection:
    name = "stats"
    stream = "match"
    global_order = False
    prefixes = ["stats:", "statsrun:"]

    def reads(self, record: dict) -> list[str]:
        kind, match_id = record["type"], record["match_id"]
        return [] if kind == "MatchCreated" else [f"statsrun:{match_id}"]

    def apply(self, record: dict, batch: Batch, reader: Reader) -> None:
        match_id, kind, data = record["match_id"], record["type"], record["data"]
        run_key = f"statsrun:{match_id}"  # what this projection remembers of a running match
        if kind == "MatchCreated":
            run = {"game": data["game"], "version": data["ruleset_version"], "seats": len(data["seats"]),
                   "actions": 0, "plays": [], "simulated": bool(data.get("simulated"))}
            batch.set(run_key, run)
            batch.incr(stats_key(run), "matches_started")
            return
        run = dict(reader.get(run_key))
        if kind == "ActionTaken":
            ruleset = rulesets.pinned(run["game"], run["version"])
            run["actions"] += 1
            card = ruleset.profile.card_played(data["action"]) if ruleset.profile else None
            if card:
                run["plays"] = run["plays"] + [[data["seat"], card]]
            batch.set(run_key, run)
            return
        counters = stats_key(run)
        if kind in ("SeatResigned", "SeatTimedOut"):
            batch.incr(counters, "resigns" if kind == "SeatResigned" else f"timeouts:{data['effect']}")
            return
        if kind == "MatchAbandoned":
            batch.incr(counters, "matches_abandoned")
            batch.incr(counters, f"abandon_reason:{data['reason']}")
            return
        ruleset = rulesets.pinned(run["game"], run["version"])
        outcome, seats = data["outcome"], run["seats"]
        winners = set(outcome.get("winners", []))
        batch.incr(counters, "matches_ended")
        batch.incr(counters, "matches_drawn", int(not winners))  # e.g. a designed stalemate end
        batch.incr(counters, f"end_reason:{outcome.get('reason', 'unknown')}")
        batch.incr(counters, f"length_actions:{run['actions'] // 10 * 10}")
        for seat in range(seats):
            batch.incr(counters, f"seat_games:{seats}:{seat}")
            batch.incr(counters, f"seat_wins:{seats}:{seat}", int(seat in winners))
        # The final state comes from the matches projection, which runs first on every event
        # and is never behind this one when it reaches a MatchEnded (see PROJECTIONS).
        final_state = reader.get(f"match:{match_id}")["state"]
        profile = ruleset.profile.summary(final_state, outcome) if ruleset.profile else {}
        if "first_player" in profile:
            batch.incr(counters, "first_player_wins", int(profile["first_player"] in winners))
        for seat, faction in enumerate(profile.get("factions") or []):
            batch.incr(counters, f"faction_games:{faction}")
            batch.incr(counters, f"faction_wins:{faction}", int(seat in winners))
        if "rounds" in profile:
            batch.incr(counters, f"length_rounds:{profile['rounds']}")
        played_in = {}
        for seat, card in run["plays"]:
            batch.incr(counters, f"card_plays:{card}")
            played_in.setdefault(card, set()).add(seat)
        for card, by in played_in.items():
            batch.incr(counters, f"card_matches:{card}")
            batch.incr(counters, f"card_wins:{card}", int(bool(by & winners)))


LOG_FIELDS = ("seq", "type", "data", "public", "commit", "prev_hash", "hash")  # an export record's


def stats_key(run: dict) -> str:
    """Simulated matches are counted apart, so statistics can include or exclude them."""
    return f"stats:{run['game']}" + (":simulated" if run.get("simulated") else "")


class PlayersProjection:
    name = "players"
    stream = "match"
    global_order = False
    prefixes = ["player:", "playersrun:"]

    def reads(self, record: dict) -> list[str]:
        return [] if record["type"] in ("MatchCreated", "ActionTaken") else [f"playersrun:{record['match_id']}"]

    def apply(self, record: dict, batch: Batch, reader: Reader) -> None:
        match_id, kind, data = record["match_id"], record["type"], record["data"]
        run_key = f"playersrun:{match_id}"
        if kind == "MatchCreated":
            batch.set(run_key, {"game": data["game"], "seats": data["seats"]})
            for name in data["seats"]:
                batch.incr(f"player:{name}", f"started:{data['game']}")
        elif kind in ("SeatResigned", "SeatTimedOut") and data.get("effect") != "default_move":
            run = reader.get(run_key)
            batch.incr(f"player:{run['seats'][data['seat']]}",
                       f"{'resigned' if kind == 'SeatResigned' else 'timed_out'}:{run['game']}")
        elif kind in ("MatchEnded", "MatchAbandoned"):
            run = reader.get(run_key)
            winners = set(data["outcome"].get("winners", [])) if kind == "MatchEnded" else set()
            for seat, name in enumerate(run["seats"]):
                if kind == "MatchAbandoned":
                    batch.incr(f"player:{name}", f"abandoned:{run['game']}")
                    continue
                batch.incr(f"player:{name}", f"played:{run['game']}")
                result = "won" if seat in winners else "lost" if winners else "drawn"
                batch.incr(f"player:{name}", f"{result}:{run['game']}")


class LobbiesProjection:
    """Open lobbies by game, for players looking for a match to join. Only what a joiner may
    see is copied (never the seed or the token hashes the lobby's events hold)."""

    name = "lobbies"
    stream = "lobby"
    global_order = False
    prefixes = ["lobby:", "lidx:"]

    def reads(self, record: dict) -> list[str]:
        return [] if record["type"] == "Opened" else [f"lobby:{record['lobby_id']}"]

    def apply(self, record: dict, batch: Batch, reader: Reader) -> None:
        lobby_key, kind, data = f"lobby:{record['lobby_id']}", record["type"], record["data"]
        if kind == "Opened":
            doc = {"match_id": data["match_id"], "game": data["game"], "created_at": data["at"],
                   "seats": [_lobby_seat(held) for held in data["seats"]],
                   "options": rulesets.latest(data["game"]).redact_options(data["options"], [], None),
                   "clock": data["lifecycle"].get("clock"), "commitment": data["commitment"]}
            for index in ("lidx:open", f"lidx:open:game:{data['game']}"):
                batch.index(index, record["lobby_id"], created_score(data["at"]))
        else:
            doc = json_copy(reader.get(lobby_key))
            if kind == "SeatTaken":
                doc["seats"][data["seat"]] = {"name": data["name"]}
            elif kind == "SeatLeft":
                doc["seats"][data["seat"]] = None
            elif kind == "Started":
                for index in ("lidx:open", f"lidx:open:game:{doc['game']}"):
                    batch.unindex(index, record["lobby_id"])
        batch.set(lobby_key, doc)


class RatingsProjection:
    """OpenSkill's Plackett-Luce model: it rates multiplayer free-for-alls and teams, which
    Elo and Glicko-2 (two-player models) do not. Winners share rank 1, everyone else rank 2
    (a match without winners is a draw among all seats); seats are rated as individuals.

    Ratings depend on the order of matches, so they are applied in one order whatever order
    the projector reads them in: by the time each match ended (its MatchEnded `at`), then its
    id. A match that arrives after matches that ended later than it (from another shard, whose
    projector lags) is rated in its place: those later matches' ratings are undone, last first,
    from what each kept of its players' ratings before it, and rated again after it. So live
    following, a rebuild, one projector or one per shard all give the same ratings."""

    name = "ratings"
    stream = "match"
    global_order = True
    prefixes = ["rating:", "ratingrun:", "rhist:", "ridx:", "rorder:"]
    model = PlackettLuce()

    def reads(self, record: dict) -> list[str]:
        return [f"ratingrun:{record['match_id']}"] if record["type"] == "MatchEnded" else []

    def index_floor(self, record: dict) -> float | None:
        """The lowest score `apply` searches its order index from, for this record."""
        return created_score(record["data"]["at"]) if record["type"] == "MatchEnded" else None

    def apply(self, record: dict, batch: Batch, reader: Reader) -> None:
        match_id, kind, data = record["match_id"], record["type"], record["data"]
        if kind == "MatchCreated":
            bots = data.get("bots", {})
            batch.set(f"ratingrun:{match_id}", {"game": data["game"], "players": [
                f"bot:{bots[str(seat)]}" if str(seat) in bots else name for seat, name in enumerate(data["seats"])]})
            return
        if kind != "MatchEnded":
            return
        run = reader.get(f"ratingrun:{match_id}")
        if len(run["players"]) < 2:  # a solo match (Cyberspace's Engineering Puzzle) ranks nobody against anybody
            return
        batch.set(f"ratingrun:{match_id}", {**run, "winners": sorted(data["outcome"].get("winners", []))})
        order, ended = f"rorder:{run['game']}", created_score(data["at"])
        later = [member for member, score in reader.index_scored(order, ended, float("inf"))
                 if (score, member) > (ended, match_id)]
        for other in reversed(later):  # undone, last first
            for seat in reader.get(f"rhist:{other}")["seats"]:
                self._set_rating(batch, run["game"], seat["player"], seat["rating_before"])
        batch.index(order, match_id, ended)
        for rated in [match_id, *later]:
            self._rate(rated, batch, reader)

    def _rate(self, match_id: str, batch: Batch, reader: Reader) -> None:
        run = reader.get(f"ratingrun:{match_id}")
        game, players, winners = run["game"], run["players"], set(run["winners"])
        before = [reader.get(f"rating:{game}:{player}") or self.fresh() for player in players]
        rated = self.model.rate([[self.model.rating(mu=r["mu"], sigma=r["sigma"])] for r in before],
                                ranks=[1 if seat in winners or not winners else 2 for seat in range(len(players))])
        after = [{"mu": team[0].mu, "sigma": team[0].sigma, "matches": before[seat]["matches"] + 1}
                 for seat, team in enumerate(rated)]
        for seat, player in enumerate(players):  # a name in two seats (two greedy bots) keeps its last seat's
            self._set_rating(batch, game, player, after[seat])
        batch.set(f"rhist:{match_id}", {"game": game, "seats": [
            {"seat": seat, "player": player, "before": self.ordinal(before[seat]), "after": self.ordinal(after[seat]),
             "rating_before": {key: before[seat][key] for key in ("mu", "sigma", "matches")}}
            for seat, player in enumerate(players)]})

    def _set_rating(self, batch: Batch, game: str, player: str, rating: dict) -> None:
        doc = {"player": player, "game": game, "mu": rating["mu"], "sigma": rating["sigma"],
               "ordinal": self.ordinal(rating), "matches": rating["matches"]}
        batch.set(f"rating:{game}:{player}", doc)
        batch.index(f"ridx:{game}", player, -doc["ordinal"])  # highest first in index order

    def fresh(self) -> dict:
        default = self.model.rating()
        return {"mu": default.mu, "sigma": default.sigma, "matches": 0}

    @staticmethod
    def ordinal(rating: dict) -> float:
        """The conservative skill estimate a leaderboard sorts by: mu - 3 sigma."""
        return round(rating["mu"] - 3 * rating["sigma"], 4)


def _lobby_seat(held: dict) -> dict | None:
    return {"name": held["name"]} if "name" in held else {"bot": held["bot"]} if "bot" in held else None


# Order matters: the projector applies each event to these in turn, so stats can read the
# final state of a match from the matches document.
PROJECTIONS = {p.name: p for p in (MatchesProjection(), StatsProjection(), PlayersProjection(), RatingsProjection(),
                                   LobbiesProjection())}
