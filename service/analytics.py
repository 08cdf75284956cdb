"""Match histories as tidy tables for data tools: Parquet (or CSV) written with pyarrow,
read directly by DuckDB, pandas and polars.

Four tables, one folder each, one part file per export run, so an incremental export
(`since`, a notification id of the event store) only adds files:

- matches: one row a finished match (ended or abandoned)
- seats:   one row a seat: player, faction (Constructor, Hero, element...), result, and
           the OpenSkill ordinal before and after the match (from the ratings read model)
- actions: one row a player action: seat, type, the card it plays, the action and its
           facts as JSON, the facts' types
- cards:   one row a card played (the rows of `actions` that play a card)

A match is exported once, in the run that sees its end; the cursor is the last
notification id read (with several shards, one per shard: "shard=N,shard=N"), printed and
written to `DIR/cursor` for the next run.
"""

from pathlib import Path

import orjson
import pyarrow as pa
import pyarrow.csv as pa_csv
import pyarrow.parquet as pq
from eventsourcing.utils import get_topic

from domain.kernel import ruleset as rulesets
from domain.kernel.canonical import json_copy
from domain.kernel.match import Match
from domain.kernel.store import MatchStore

END_TOPICS = [get_topic(Match.MatchEnded), get_topic(Match.MatchAbandoned)]
TABLES = ("matches", "seats", "actions", "cards")
SCHEMAS = {
    "matches": pa.schema([("match_id", pa.string()), ("game", pa.string()), ("ruleset_version", pa.string()),
                          ("status", pa.string()), ("created_at", pa.string()), ("ended_at", pa.string()),
                          ("seats", pa.int32()), ("actions", pa.int32()), ("end_reason", pa.string()),
                          ("winners", pa.list_(pa.int32())), ("first_player", pa.int32()), ("rounds", pa.int32()),
                          ("simulated", pa.bool_()), ("bots", pa.int32())]),
    "seats": pa.schema([("match_id", pa.string()), ("game", pa.string()), ("seat", pa.int32()),
                        ("player", pa.string()), ("bot", pa.string()), ("faction", pa.string()),
                        ("result", pa.string()), ("rating_before", pa.float64()), ("rating_after", pa.float64())]),
    "actions": pa.schema([("match_id", pa.string()), ("game", pa.string()), ("seq", pa.int64()),
                          ("seat", pa.int32()), ("type", pa.string()), ("card", pa.string()), ("at", pa.string()),
                          ("action", pa.string()), ("facts", pa.string()), ("fact_types", pa.list_(pa.string()))]),
    "cards": pa.schema([("match_id", pa.string()), ("game", pa.string()), ("seq", pa.int64()),
                        ("seat", pa.int32()), ("card", pa.string())]),
}


def finished_matches(recorder, since: int, page: int = 1000):
    """(notification id, match id) of every match of one shard that ended or was abandoned after `since`."""
    start = since + 1
    while True:
        notifications = recorder.select_notifications(start=start, limit=page, topics=END_TOPICS)
        yield from ((n.id, n.originator_id) for n in notifications)
        if len(notifications) < page:
            return
        start = notifications[-1].id + 1


def parse_cursor(cursor: int | str, store: MatchStore) -> dict[str, int]:
    """The position of each shard a cursor names: a number for a single shard, else
    "shard=N,shard=N" (a shard it does not name starts from the beginning)."""
    if not store.sharded:
        return {"": int(cursor or 0)}
    named = dict(part.rsplit("=", 1) for part in str(cursor).split(",") if "=" in part)
    return {name: int(named.get(name, 0)) for name in store.shards}


def format_cursor(positions: dict[str, int]) -> str:
    return str(positions[""]) if list(positions) == [""] else ",".join(f"{name}={n}" for name, n in positions.items())


def match_rows(store: MatchStore, match_id, ratings: dict | None) -> dict[str, list[dict]]:
    """The rows of one finished match in each table (ratings: the read model's before/after)."""
    records = store.stored_events(match_id)
    created, last = records[0]["data"], records[-1]
    ruleset = rulesets.pinned(created["game"], created["ruleset_version"])
    game, mid = created["game"], str(match_id)
    state = json_copy(created["setup"])
    actions, cards = [], []
    for record in records[1:]:
        data = record["data"]
        for fact in data.get("facts", []):
            state = ruleset.evolve(state, fact)
        if record["type"] != "ActionTaken":
            continue
        card = ruleset.profile.card_played(data["action"]) if ruleset.profile else None
        actions.append({"match_id": mid, "game": game, "seq": record["seq"], "seat": data["seat"],
                        "type": data["action"].get("type"), "card": card, "at": data.get("at"),
                        "action": orjson.dumps(data["action"]).decode(), "facts": orjson.dumps(data["facts"]).decode(),
                        "fact_types": [str(f.get("f", f.get("type", f.get("kind", "")))) for f in data["facts"]]})
        if card:
            cards.append({"match_id": mid, "game": game, "seq": record["seq"], "seat": data["seat"], "card": card})
    ended = last["type"] == "MatchEnded"
    outcome = last["data"].get("outcome", {}) if ended else {}
    winners = outcome.get("winners", []) if ended else []
    profile = ruleset.profile.summary(state, outcome) if ended and ruleset.profile else {}
    bots = created.get("bots", {})
    by_seat = {row["seat"]: row for row in (ratings or {}).get("seats", [])}
    seats = []
    for seat, name in enumerate(created["seats"]):
        factions = profile.get("factions") or []
        result = "abandoned" if not ended else "won" if seat in winners else "lost" if winners else "drawn"
        seats.append({"match_id": mid, "game": game, "seat": seat, "player": name, "bot": bots.get(str(seat)),
                      "faction": factions[seat] if seat < len(factions) else None, "result": result,
                      "rating_before": by_seat.get(seat, {}).get("before"),
                      "rating_after": by_seat.get(seat, {}).get("after")})
    match = {"match_id": mid, "game": game, "ruleset_version": created["ruleset_version"],
             "status": "ended" if ended else "abandoned", "created_at": created["at"], "ended_at": last["data"]["at"],
             "seats": len(created["seats"]), "actions": len(actions),
             "end_reason": outcome.get("reason") if ended else last["data"].get("reason"),
             "winners": winners, "first_player": profile.get("first_player"), "rounds": profile.get("rounds"),
             "simulated": bool(created.get("simulated")), "bots": len(bots)}
    return {"matches": [match], "seats": seats, "actions": actions, "cards": cards}


def export(store: MatchStore, out: Path, fmt: str = "parquet", since: int | str = 0, ratings_of=None) -> dict:
    """Write the tables for matches finished after the cursor `since`; returns counts and the
    new cursor. `ratings_of(match_id)` gives the ratings read model's before/after."""
    rows = {table: [] for table in TABLES}
    started = parse_cursor(since, store)
    positions = dict(started)
    for name, shard in store.shards.items():
        for notification_id, match_id in finished_matches(shard.recorder, started[name]):
            for table, found in match_rows(store, match_id, ratings_of(str(match_id)) if ratings_of else None).items():
                rows[table].extend(found)
            positions[name] = notification_id
    first, last = sum(started.values()), sum(positions.values())
    out.mkdir(parents=True, exist_ok=True)
    for table in TABLES:
        if not rows[table]:
            continue
        folder = out / table
        folder.mkdir(exist_ok=True)
        arrow = pa.Table.from_pylist(rows[table], schema=SCHEMAS[table])
        path = folder / f"part-{first:012d}-{last:012d}.{fmt}"
        if fmt == "parquet":
            pq.write_table(arrow, path)
        else:  # CSV has no lists: they are written as JSON text
            for column in ("winners", "fact_types"):
                if column in arrow.column_names:
                    index = arrow.column_names.index(column)
                    arrow = arrow.set_column(index, column, pa.array(
                        [orjson.dumps(v).decode() for v in arrow.column(column).to_pylist()], pa.string()))
            pa_csv.write_csv(arrow, path)
    cursor = format_cursor(positions)
    (out / "cursor").write_text(cursor)
    return {"cursor": cursor, **{table: len(found) for table, found in rows.items()}}
