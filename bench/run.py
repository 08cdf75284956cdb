"""`make bench`: Arbiter's costs as ratios to a floor measured in the same run.

1. Move submissions per second through the full HTTP stack (`arbiter serve`'s uvicorn, 2
   workers, Flask on a2wsgi's threads, the event store on SQLite) beside a bare Flask
   endpoint doing one SQLite insert on the same server stack, both driven by the same
   client for the same time: once with the embedded
   projector working in a web worker (the `make run` default), once with it off (as in
   production, where the projector is its own process, here not running), and projector apart
   on one PostgreSQL shard (BENCH_DATABASE_URL's server), the four taking turns round by round.
   Then the same on three PostgreSQL shards, beside floor runs of its own.
2. Replay cost per event: rebuilding finished matches from the store with no cache,
   beside the raw read (select + orjson.loads) of the same rows.
3. Audit speed: events verified per second (hash chain, commitment, re-deciding every
   action and the outcome) over the same exported matches.
4. Projections (SQLite and Redis read models): lag from append to read-model commit
   under a steady 200 moves/s, then the speed of a full rebuild.
5. Idle live streams: /healthz and board read latency with 500 idle SSE followers open,
   beside the same with none (bench/streams.py).
6. Playing in the browser against a bot: a click to the board redrawn with the reply, p50/p95,
   beside the API round trip alone (bench/browser_play.py).
"""

import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

import orjson

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench.browser_play import run as browser_play  # noqa: E402
from bench.games import bot_rates  # noqa: E402
from bench.load.run import Databases  # noqa: E402
from bench.servers import request, serve, stop  # noqa: E402
from bench.streams import run as idle_streams  # noqa: E402

SECONDS = float(os.environ.get("BENCH_SECONDS", "5"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
CLIENTS = int(os.environ.get("BENCH_CLIENTS", "4"))


def drive(worker, clients=CLIENTS, seconds=SECONDS) -> float:
    """Run `worker(stop_at)` in `clients` threads; each returns how many moves it made."""
    counts = [0] * clients
    stop_at = time.perf_counter() + seconds

    def run(i):
        counts[i] = worker(stop_at)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(clients)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(counts) / (time.perf_counter() - started)


def baseline_rate(data_dir) -> float:
    from bench.baseline_app import create_database

    create_database(data_dir)
    process, port = serve("bench.baseline_app:asgi", {"ARBITER_DATA_DIR": data_dir})
    try:
        def worker(stop_at):
            n = 0
            while time.perf_counter() < stop_at:
                status, _ = request(port, "POST", "/moves", {"action": {"type": "end_turn"}, "expected_version": n + 1})
                assert status == 201
                n += 1
            return n
        return drive(worker)
    finally:
        stop(process)


def arbiter_rate(data_dir, projector: str, store_env: dict | None = None) -> float:
    """Each client plays its own 2-seat matches with POSTs only, reading whose turn it is
    (and any choice it must make) from the facts each response returns."""
    process, port = serve("service.asgi:create", {"ARBITER_DATA_DIR": data_dir, "ARBITER_PROJECTOR": projector,
                                                  **(store_env or {})}, factory=True)
    try:
        def worker(stop_at):
            moves = 0
            while time.perf_counter() < stop_at:
                status, created = request(port, "POST", "/v1/matches", {"game": "cyberiad", "seats": ["a", "b"]})
                assert status == 201, created
                mid, tokens = created["match_id"], [s["token"] for s in created["seats"]]
                _, summary = request(port, "GET", f"/v1/matches/{mid}")
                seat, version, action = summary["to_act"][0], summary["version"], None
                picks = 0
                while time.perf_counter() < stop_at:
                    if picks < 2:
                        action, picks = {"type": "pick", "constructor": "turl"}, picks + 1
                    status, result = request(port, "POST", f"/v1/matches/{mid}/actions",
                                             {"action": action or {"type": "end_turn"}, "expected_version": version},
                                             {"Authorization": f"Bearer {tokens[seat]}"})
                    assert status == 201, result
                    moves += 1
                    if result["status"] != "running":
                        break
                    version, action = result["version"], None
                    for fact in result["facts"]:
                        if fact["f"] == "turn":
                            seat = fact["seat"]
                        elif fact["f"] == "prompt" and fact["prompt"]:
                            seat = fact["prompt"]["seat"]
                            action = {"type": "choose", "option": fact["prompt"]["options"][0]}
                    if picks == 1:
                        seat = 1 - seat
            return moves
        return drive(worker)
    finally:
        stop(process)


def postgres_env(urls: list[str]) -> dict:
    return {"ARBITER_STORE": "postgres", "ARBITER_DATABASE_URLS": ",".join(urls)}


def rate_figures(runs: list[float], floors: list[float]) -> dict:
    rate, its_floor = statistics.median(runs), statistics.median(floors)
    return {"moves_per_s": round(rate), "floor_per_s": round(its_floor), "ratio_to_floor": round(rate / its_floor, 3)}


def three_shard_rates(tmp: str) -> dict:
    """Moves/s on three PostgreSQL shards (databases of BENCH_DATABASE_URL's server, dropped
    after), each run beside a floor run of its own round, with the ratio to it."""
    with Databases(3) as urls:
        runs, floors = [], []
        for _ in range(ROUNDS):
            floors.append(baseline_rate(os.path.join(tmp, "base")))
            runs.append(arbiter_rate(os.path.join(tmp, "pg-3"), "off", postgres_env(urls)))
    return rate_figures(runs, floors)


def replay_costs(data_dir) -> tuple[float, float, float, int]:
    from domain.kernel.audit import audit
    from domain.kernel.store import MatchStore
    from service.matches import Arbiter

    store = MatchStore({"ARBITER_DATA_DIR": data_dir})
    arbiter = Arbiter(store)
    rand, match_ids = random.Random(1), []
    for _ in range(20):
        mid = uuid.UUID(arbiter.create_match("cyberiad", ["a", "b", "c"])["match_id"])
        while (summary := arbiter.summary(mid))["status"] == "running":
            seat = summary["to_act"][0]
            arbiter.submit_action(mid, seat, rand.choice(arbiter.legal_actions(mid, seat)["actions"]))
        match_ids.append(mid)
    events = sum(store.match(m).version for m in match_ids)
    rebuild, raw, audits = [], [], []
    exports = [store.stored_events(mid) for mid in match_ids]
    for _ in range(5):
        started = time.perf_counter()
        assert all(audit(records).ok for records in exports)
        audits.append(time.perf_counter() - started)
        started = time.perf_counter()
        for mid in match_ids:
            store.forget(mid)
            store.match(mid)
        rebuild.append(time.perf_counter() - started)
        started = time.perf_counter()
        for mid in match_ids:
            [orjson.loads(row.state) for row in store.recorder.select_events(mid)]
        raw.append(time.perf_counter() - started)
    store.close()
    return min(rebuild) / events * 1e6, min(raw) / events * 1e6, events / min(audits), events


def projection_figures(data_dir, extra_env, rate=200.0, seconds=None) -> dict:
    """Lag from append to read-model commit under a steady `rate` of moves, then rebuild speed."""
    from domain.kernel.store import MatchStore
    from projections.projector import Projector
    from projections.readstore import open_read_store
    from service.matches import Arbiter

    env = {"ARBITER_DATA_DIR": data_dir, **extra_env}
    store = MatchStore(env)
    models = open_read_store(env, Path(data_dir))
    projector = Projector(store, models)
    stop = threading.Event()
    thread = threading.Thread(target=projector.run_forever, args=(stop,))
    thread.start()
    arbiter, rand = Arbiter(store), random.Random(3)
    live, moves = [], 0
    started = time.perf_counter()
    seconds = seconds or SECONDS
    while (elapsed := time.perf_counter() - started) < seconds:
        if len(live) < 4:
            live.append(uuid.UUID(arbiter.create_match("cyberiad", ["a", "b", "c"])["match_id"]))
        mid = live[moves % len(live)]
        summary = arbiter.summary(mid)
        if summary["status"] != "running":
            live.remove(mid)
            continue
        seat = summary["to_act"][0]
        arbiter.submit_action(mid, seat, rand.choice(arbiter.legal_actions(mid, seat)["actions"]))
        moves += 1
        pause = moves / rate - (time.perf_counter() - started)
        if pause > 0:
            time.sleep(pause)
    achieved = moves / (time.perf_counter() - started)
    time.sleep(0.2)
    stop.set()
    thread.join()
    lags = sorted(projector.lags)
    # The best of three full rebuilds: the first of a process pays its warm-up (imports, the
    # read store's first connection) on a store of only SECONDS x rate events.
    timings = []
    for _ in range(3):
        rebuild_started = time.perf_counter()
        rebuilt = projector.rebuild()
        timings.append(time.perf_counter() - rebuild_started)
    rebuild_s = min(timings)
    if hasattr(models, "drop") and extra_env.get("ARBITER_REDIS_URL"):
        keys = models.client.keys(models.prefix + "*")
        if keys:
            models.client.delete(*keys)
    store.close()
    return {"moves_per_s": round(achieved), "lag_ms_p50": round(lags[len(lags) // 2] * 1000, 2),
            "lag_ms_p99": round(lags[int(len(lags) * 0.99)] * 1000, 2), "events": len(lags),
            "rebuild_events_per_s": round(rebuilt / rebuild_s), "first_rebuild_events_per_s": round(rebuilt / timings[0]),
            "rebuilt_events": rebuilt}


def main():
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "base"))
        # Alternate the servers for ROUNDS rounds and take medians: the machine is noisy. The
        # projector-apart SQLite server and one PostgreSQL shard run in the same rounds, so their
        # ratio is taken round by round: a machine whose speed drifts over minutes moved a ratio
        # of rounds run apart (SQLite's first, PostgreSQL's after) by as much as the stores differ.
        floors, embedded, bare, one_shard = [], [], [], []
        with Databases(1) as urls:
            for _ in range(ROUNDS):
                floors.append(baseline_rate(os.path.join(tmp, "base")))
                embedded.append(arbiter_rate(os.path.join(tmp, "arbiter"), "embedded"))
                bare.append(arbiter_rate(os.path.join(tmp, "arbiter-off"), "off"))
                one_shard.append(arbiter_rate(os.path.join(tmp, "pg-1"), "off", postgres_env(urls)))
        floor, moves, moves_off = statistics.median(floors), statistics.median(embedded), statistics.median(bare)
        by_store = {"postgres_1_shard": rate_figures(one_shard, floors), "postgres_3_shards": three_shard_rates(tmp)}
        postgres_to_sqlite = [pg / sq for pg, sq in zip(one_shard, bare)]
        replay_us, raw_us, audited_per_s, events = replay_costs(os.path.join(tmp, "replay"))
        sqlite_projection = projection_figures(os.path.join(tmp, "proj-sqlite"), {})
        redis_projection = projection_figures(os.path.join(tmp, "proj-redis"), {
            "ARBITER_REDIS_URL": os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/0"),
            "ARBITER_REDIS_PREFIX": f"arbiter-bench-{uuid.uuid4().hex[:8]}:"})
    report = {
        "clients": CLIENTS, "seconds_each": SECONDS,
        "rounds": ROUNDS,
        "floor_bare_flask_sqlite_insert_per_s": round(floor),
        "arbiter_move_submissions_per_s": round(moves),
        "ratio_to_floor": round(moves / floor, 3),
        "arbiter_moves_per_s_projector_in_own_process": round(moves_off),
        "ratio_to_floor_projector_in_own_process": round(moves_off / floor, 3),
        # as PostgreSQL against SQLite: each round's ratio to its own floor, and their median
        "ratio_to_floor_projector_in_own_process_by_round": [round(m / f, 3) for m, f in zip(bare, floors)],
        "ratio_to_floor_projector_in_own_process_round_by_round": round(
            statistics.median(m / f for m, f in zip(bare, floors)), 3),
        "aim_ratio": 0.7,
        "moves_by_store_projector_in_own_process": by_store,
        "postgres_1_shard_to_sqlite": round(statistics.median(postgres_to_sqlite), 3),  # round by round
        "postgres_1_shard_to_sqlite_by_round": [round(ratio, 3) for ratio in postgres_to_sqlite],
        "aim_postgres_to_sqlite": 0.8,
        "replay_us_per_event": round(replay_us, 2),
        "raw_select_and_orjson_us_per_event": round(raw_us, 2),
        "replayed_events": events,
        "aim_replay_us_per_event": 5,
        "audit_events_per_s_with_redecide": round(audited_per_s),
        "projection_sqlite": sqlite_projection,
        "projection_redis": redis_projection,
        "aim_projection": "p99 lag < 50 ms at 200 moves/s; rebuild >= 20,000 events/s",
        "idle_streams": idle_streams(500, SECONDS),
        "aim_idle_streams": "500 idle streams open: /healthz and board reads p99 < 100 ms",
        "bot_matches_per_game": bot_rates(),
        "aim_bot_matches": "through the store >= 0.5 of in memory",
        "browser_play_vs_bot": browser_play(),
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
