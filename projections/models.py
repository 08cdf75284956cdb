"""The read models, as functions of events. They never decide: they read facts.

- matches: one document per match (latest state, version, status, to_act, outcome),
  its event log (redacted when read), and indexes by game, status and player.
- stats: per game counters: matches started/ended/abandoned, wins by seat position, by
  first player and by faction (Constructor, ...), match length in actions and rounds
  as histograms, and per card: plays, matches played in, wins when played.
- players: per player name and game: played, won, lost, abandoned.
"""

from datetime import datetime

from domain.kernel import ruleset as rulesets
from domain.kernel.canonical import json_copy

from .readstore import Batch


def created_score(iso: str) -> float:
    return datetime.fromisoformat(iso).timestamp()


class Reader:
    """Documents as the batch has changed them so far, else as stored."""

    def __init__(self, store, batch: Batch):
        self.store, self.batch = store, batch

    def get(self, key: str) -> dict | None:
        if key in self.batch.docs:
            return self.batch.docs[key]
        return self.store.get(key)


class MatchesProjection:
    name = "matches"
    prefixes = ["match:", "log:", "idx:"]

    def apply(self, record: dict, batch: Batch, reader: Reader) -> None:
        match_id, seq, kind, data = record["match_id"], record["seq"], record["type"], record["data"]
        key = f"match:{match_id}"
        if kind == "MatchCreated":
            ruleset = rulesets.pinned(data["game"], data["ruleset_version"])
            doc = {"match_id": match_id, "game": data["game"], "ruleset_version": data["ruleset_version"],
                   "seats": data["seats"], "status": "running", "version": 1, "state": json_copy(data["setup"]),
                   "to_act": sorted(ruleset.to_act(data["setup"])), "outcome": None, "created_at": data["at"]}
            score = created_score(data["at"])
            for index in ("idx:all", f"idx:game:{data['game']}", "idx:status:running",
                          f"idx:game:{data['game']}:status:running", *(f"idx:player:{p}" for p in data["seats"])):
                batch.index(index, match_id, score)
        else:
            doc = dict(reader.get(key))
            doc["version"] = seq
            if kind == "ActionTaken":
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
                for old, new in (("idx:status:running", f"idx:status:{status}"),
                                 (f"idx:game:{doc['game']}:status:running", f"idx:game:{doc['game']}:status:{status}")):
                    batch.unindex(old, match_id)
                    batch.index(new, match_id, score)
        batch.set(key, doc)
        batch.append(f"log:{match_id}", {k: record[k] for k in ("seq", "type", "data", "prev_hash", "hash")})


class StatsProjection:
    name = "stats"
    prefixes = ["stats:", "statsrun:"]

    def apply(self, record: dict, batch: Batch, reader: Reader) -> None:
        match_id, kind, data = record["match_id"], record["type"], record["data"]
        run_key = f"statsrun:{match_id}"  # what this projection remembers of a running match
        if kind == "MatchCreated":
            batch.set(run_key, {"game": data["game"], "version": data["ruleset_version"], "seats": len(data["seats"]),
                                "actions": 0, "plays": []})
            batch.incr(f"stats:{data['game']}", "matches_started")
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
        counters = f"stats:{run['game']}"
        if kind == "MatchAbandoned":
            batch.incr(counters, "matches_abandoned")
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


class PlayersProjection:
    name = "players"
    prefixes = ["player:", "playersrun:"]

    def apply(self, record: dict, batch: Batch, reader: Reader) -> None:
        match_id, kind, data = record["match_id"], record["type"], record["data"]
        run_key = f"playersrun:{match_id}"
        if kind == "MatchCreated":
            batch.set(run_key, {"game": data["game"], "seats": data["seats"]})
            for name in data["seats"]:
                batch.incr(f"player:{name}", f"started:{data['game']}")
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


# Order matters: the projector applies each event to these in turn, so stats can read the
# final state of a match from the matches document.
PROJECTIONS = {p.name: p for p in (MatchesProjection(), StatsProjection(), PlayersProjection())}
