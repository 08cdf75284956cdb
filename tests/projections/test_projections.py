"""Read models against a fresh replay, rebuild, crash safety, Redis outages, SSE, metrics."""

import random
import threading
import uuid
from collections import Counter

import pytest

from service.api import create_app

from ..conftest import Served, caught_up
from ..service.helpers import bearer, create, play_to_end, step


def play_matches(client, count, seed=0, finish=True):
    rand = random.Random(seed)
    created = []
    for i in range(count):
        seats = [f"p{rand.randrange(6)}" for _ in range(4)]
        seats = list(dict.fromkeys(seats))[: rand.choice([2, 3, 4])]
        while len(seats) < 2:
            seats.append(f"q{len(seats)}{i}")
        match = create(client, seats=seats)
        tokens = [s["token"] for s in match["seats"]]
        if finish and i % 4 != 3:  # one in four stays running
            play_to_end(client, match, seed=seed * 100 + i)
        else:
            for _ in range(rand.randrange(1, 15)):
                step(client, match["match_id"], tokens, rand)
        created.append(match)
    return created


def expected_models(client, created):
    """What a fresh replay of the event store says, computed straight from the stored events:
    per match (document fields and log), the stats counters and the player records."""
    store = client.application.extensions["arbiter"].store
    matches, stats, players = {}, Counter(), {}
    for match in created:
        mid = uuid.UUID(match["match_id"])
        records, live = store.stored_events(mid), store.match(mid)
        seats = records[0]["data"]["seats"]
        stats["matches_started"] += 1
        for name in seats:
            players.setdefault(name, Counter())["started"] += 1
        if live.status == "ended":
            stats["matches_ended"] += 1
            winners = set(live.outcome["winners"])
            for seat, name in enumerate(seats):
                players[name]["played"] += 1
                players[name]["won" if seat in winners else "lost" if winners else "drawn"] += 1
            stats["first_player_wins"] += live.state["first"] in winners
            for record in records:
                action = record["data"].get("action", {})
                if action.get("type") == "play":
                    stats[f"plays:{action['card']}"] += 1
        matches[match["match_id"]] = {"version": live.version, "status": live.status, "state": live.state,
                                      "to_act": live.to_act(), "outcome": live.outcome, "log": records}
    return matches, stats, players


def assert_read_models_equal_replay(client, created):
    reads = client.application.extensions["arbiter"].reads
    matches, expected, players = expected_models(client, created)
    fields = ("version", "status", "state", "to_act", "outcome")
    for match_id, replayed in matches.items():
        doc = reads.match(match_id)
        assert {k: doc[k] for k in fields} == {k: replayed[k] for k in fields}
        assert reads.store.list_range(f"log:{match_id}", 0, 10_000) == replayed["log"]
    stats = reads.stats("cyberiad")
    assert stats["matches_started"] == expected["matches_started"] == len(created)
    assert stats["matches_ended"] == expected["matches_ended"]
    first = stats["first_player_win_rate"]
    if not expected["matches_ended"]:
        assert first is None
    else:
        assert (first["wins"], first["n"]) == (expected["first_player_wins"], expected["matches_ended"])
        assert first["ci95"][0] <= first["rate"] == round(expected["first_player_wins"] / expected["matches_ended"], 4) \
            <= first["ci95"][1]
    assert {card: v["plays"] for card, v in stats["cards"].items()} == \
        {k.split(":", 1)[1]: n for k, n in expected.items() if k.startswith("plays:")}
    assert sum(stats["length"]["actions"]["histogram"].values()) == expected["matches_ended"]
    for name, counts in players.items():
        record = reads.player(name)
        assert {k: record[k] for k in ("started", "played", "won", "lost", "drawn")} == \
            {k: counts.get(k, 0) for k in ("started", "played", "won", "lost", "drawn")}


def test_read_models_equal_a_fresh_replay(read_env):
    client = create_app(read_env).test_client()
    created = play_matches(client, 8, seed=1)
    caught_up(client)
    assert_read_models_equal_replay(client, created)
    # The HTTP reads come from the read models and say how fresh they are.
    match_id = created[-1]["match_id"]
    board = client.get(f"/v1/matches/{match_id}/board").json
    assert board["source"] == "read_model" and board["as_of_version"] == board["version"]
    # six are played to the end; the deal is the server's, so now and then one of the two left
    # running ends within its few random steps (measured: about one run in ten thousand)
    store = client.application.extensions["arbiter"].store
    ended = {m["match_id"] for m in created if store.match(uuid.UUID(m["match_id"])).status == "ended"}
    assert len(ended) >= 6
    listed = client.get("/v1/matches", query_string={"game": "cyberiad", "status": "ended"}).json
    assert {m["match_id"] for m in listed["matches"]} == ended and all(m["status"] == "ended" for m in listed["matches"])
    stats = client.get("/v1/stats/cyberiad").json
    assert stats["matches_ended"] == len(ended) and stats["as_of_position"] > 0
    name = created[0]["seats"][0]["name"]
    assert client.get(f"/v1/players/{name}").json["started"] >= 1


def test_rebuild_equals_the_live_models(read_env):
    client = create_app(read_env).test_client()
    created = play_matches(client, 6, seed=2)
    caught_up(client)
    projector = client.application.extensions["projector"]
    reads = client.application.extensions["arbiter"].reads

    def snapshot():
        return ({m["match_id"]: (reads.match(m["match_id"]), reads.store.list_range(f"log:{m['match_id']}", 0, 9999))
                 for m in created}, reads.stats("cyberiad"), reads.list_matches(limit=100)["matches"],
                {n: reads.player(n) for m in created for n in (s["name"] for s in m["seats"])})

    live = snapshot()
    assert projector.rebuild() > 0
    assert snapshot() == live
    assert projector.rebuild({"stats"}) > 0
    assert snapshot() == live


def test_a_second_projector_never_applies_an_event_twice(read_env):
    """Commits are compare-and-set on the positions: racing projectors stay exact."""
    client = create_app(read_env).test_client()
    created = play_matches(client, 4, seed=3)
    projector = client.application.extensions["projector"]
    from projections.projector import Projector
    other = Projector(projector.events, projector.models, batch_size=7)
    threads = [threading.Thread(target=p.catch_up) for p in (projector, other)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert_read_models_equal_replay(client, created)


def test_unknown_game_stats_and_empty_player(read_env):
    client = create_app(read_env).test_client()
    assert client.get("/v1/stats/chess").status_code == 422
    assert client.get("/v1/players/nobody").json["played"] == 0


@pytest.fixture
def served_reads(read_env):
    server = Served(read_env)
    yield server
    server.close()


def test_sse_delivers_every_event_in_order_and_resumes(served_reads):
    client = served_reads.flask.test_client()
    match = create(client, seats=("ann", "bob"))
    match_id = match["match_id"]
    received = []

    def listen():
        received.append(served_reads.stream(f"/v1/matches/{match_id}/stream",
                                            bearer(match["seats"][0]["token"]))[1])

    listener = threading.Thread(target=listen)
    listener.start()
    play_to_end(client, match, seed=8)
    listener.join(timeout=60)
    assert not listener.is_alive()
    (events,) = received
    version = client.get(f"/v1/matches/{match_id}").json["version"]
    assert [e["id"] for e in events] == list(range(1, version + 1))
    assert events[-1]["event"] == "MatchEnded"
    # Reconnecting with Last-Event-ID continues exactly after it.
    status, resumed = served_reads.stream(f"/v1/matches/{match_id}/stream", {"Last-Event-ID": "17"})
    assert status == 200 and [e["id"] for e in resumed] == list(range(18, version + 1))


def test_sse_redacts_for_the_bearer_while_running(served_reads):
    client = served_reads.flask.test_client()
    match = create(client, seats=("ann", "bob"))
    match_id, tokens = match["match_id"], [s["token"] for s in match["seats"]]
    rand = random.Random(4)
    for _ in range(3):
        step(client, match_id, tokens, rand)
    status, events = served_reads.stream(f"/v1/matches/{match_id}/stream", bearer(tokens[1]),
                                         until=lambda events: len(events) >= 3)
    first = events[0]
    assert status == 200 and first["event"] == "MatchCreated"
    assert isinstance(first["data"]["data"]["setup"]["players"][0]["hand"], int)  # ann's hand hidden from bob


def test_metrics_report_appends_positions_lag_and_latency(read_env):
    client = create_app(read_env).test_client()
    play_matches(client, 2, seed=5, finish=False)
    before = client.get("/metrics").data.decode()
    assert 'arbiter_projection_lag_events{projection="matches"}' in before
    lag_before = metric(before, 'arbiter_projection_lag_events{projection="matches"}')
    assert lag_before > 0
    caught_up(client)
    after = client.get("/metrics").data.decode()
    assert metric(after, 'arbiter_projection_lag_events{projection="matches"}') == 0
    assert metric(after, "arbiter_events_appended_total") >= metric(after, 'arbiter_projection_position{projection="matches"}') > 0
    assert 'arbiter_request_duration_seconds_bucket{endpoint="v1.submit_action"' in after.replace('method="POST",', "")
    assert "arbiter_projection_lag_seconds_count" in after


def metric(text: str, name: str) -> float:
    return next(float(line.rsplit(" ", 1)[1]) for line in text.splitlines() if line.startswith(name + " "))


def test_a_match_ended_without_winners_counts_as_a_draw(store, tmp_path):
    """A designed safety end (e.g. Cybermancy's stalemate) names no winner: stats count it as
    drawn, by reason, and no player's record counts it as lost."""
    from projections.models import PROJECTIONS, Reader
    from projections.queries import ReadModels
    from projections.batch import Batch
    from projections.readstore import SQLiteReadStore
    from service.matches import Arbiter

    created = Arbiter(store).create_match("cybermancy", ["ann", "bob"])
    records = [{**record, "stream": "match", "match_id": created["match_id"], "timestamp": "2026-11-23T00:00:00+00:00"}
               for record in store.stored_events(uuid.UUID(created["match_id"]))]
    records.append({**records[0], "seq": 2, "type": "MatchEnded",
                    "data": {"outcome": {"winners": [], "reason": "stalemate"}, "at": records[0]["data"]["at"]}})
    read_store = SQLiteReadStore(tmp_path / "draw.sqlite")
    batch = Batch()
    reader = Reader(read_store, batch)
    for record in records:
        for projection in PROJECTIONS.values():
            if projection.stream == "match":
                projection.apply(record, batch, reader)
    batch.positions = dict.fromkeys(PROJECTIONS, 2)
    read_store.commit(batch, expected=dict.fromkeys(PROJECTIONS, 0))
    models = ReadModels(read_store)
    stats = models.stats("cybermancy")
    assert stats["matches_ended"] == 1 and stats["matches_drawn"] == 1
    assert stats["end_reasons"] == {"stalemate": 1}
    assert [(r["rate"], r["n"]) for r in stats["win_rate_by_seat"]["2"]] == [(0.0, 1), (0.0, 1)]
    assert stats["seat_difference"]["2"]["significant"] is False
    for name in ("ann", "bob"):
        record = models.player(name)
        assert (record["played"], record["won"], record["lost"], record["drawn"]) == (1, 0, 0, 1)


def test_a_match_created_and_ended_in_one_batch_is_listed_as_ended_only(read_env):
    """The projector reads both events in one batch (a bot match finished as it was created)."""
    client = create_app(read_env).test_client()
    created = client.post("/v1/matches", json={"game": "cyberiad", "seats": ["ann", {"bot": "random"}]}).json
    client.post(f"/v1/matches/{created['match_id']}/resign", headers=bearer(created["seats"][0]["token"]))
    client.application.extensions["projector"].catch_up()
    listed = lambda status: [m["match_id"] for m in client.get(f"/v1/matches?status={status}").json["matches"]]  # noqa: E731
    assert listed("ended") == [created["match_id"]] and listed("running") == []
