"""Two paths of issue 32, measured alone: replay µs/event beside the raw read, and read-model
rebuild events/s on SQLite and Redis. The machine is shared, so each figure is the best of
several rounds and replay is reported as a ratio to the raw read measured in the same rounds.

    .venv/bin/python bench/paths.py [replay|rebuild|all]

BENCH_ROUNDS (default 7), BENCH_MATCHES (default 20 for replay, 60 for rebuild),
BENCH_CLOCK (cpu: replay timed by this process's CPU time, the default; wall: by the clock),
BENCH_REDIS_URL (default redis://127.0.0.1:6379/0; a prefix of its own, deleted after).
"""

import json
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

import orjson

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "7"))
# Replay runs in this one thread (SQLite in process): its CPU time is what it costs, and is
# much less disturbed than wall time by the other processes of a busy machine.
CLOCK = time.process_time if os.environ.get("BENCH_CLOCK", "cpu") == "cpu" else time.perf_counter


def play(arbiter, count: int, seed: int, game: str = "cyberiad", seats=("a", "b", "c")) -> list[uuid.UUID]:
    rand, match_ids = random.Random(seed), []
    for _ in range(count):
        mid = uuid.UUID(arbiter.create_match(game, list(seats))["match_id"])
        while (summary := arbiter.summary(mid))["status"] == "running":
            seat = summary["to_act"][0]
            arbiter.submit_action(mid, seat, rand.choice(arbiter.legal_actions(mid, seat)["actions"]))
        match_ids.append(mid)
    return match_ids


def replay(data_dir: str) -> dict:
    """bench/run.py's replay_costs, with more rounds, the median beside the best: the replay
    from stored rows (ShardStore._replayed, the default), the library's Repository.get (the
    path before it), and the raw read (select + orjson.loads), interleaved round by round."""
    from domain.kernel.store import MatchStore
    from service.matches import Arbiter

    store = MatchStore({"ARBITER_DATA_DIR": data_dir})
    match_ids = play(Arbiter(store), int(os.environ.get("BENCH_MATCHES", "20")), 1)
    events = sum(store.match(m).version for m in match_ids)
    shard = store.shards[""]

    def replay_all(from_rows: bool) -> None:
        shard._replays_rows = from_rows
        for mid in match_ids:
            store.forget(mid)
            store.match(mid)

    def read_raw(_) -> None:
        for mid in match_ids:
            [orjson.loads(row.state) for row in store.recorder.select_events(mid)]

    paths = {"rows": lambda: replay_all(True), "library": lambda: replay_all(False), "raw": lambda: read_raw(None)}
    times = {name: [] for name in paths}
    for _ in range(ROUNDS):  # interleaved, so a busy spell of the machine hits every path alike
        for name, run in paths.items():
            started = CLOCK()
            run()
            times[name].append(CLOCK() - started)
    store.close()
    report = {"events": events, "clock": os.environ.get("BENCH_CLOCK", "cpu")}
    for name in paths:
        report[f"{name}_us_best"] = round(min(times[name]) / events * 1e6, 2)
        report[f"{name}_us_median"] = round(statistics.median(times[name]) / events * 1e6, 2)
    for name in ("rows", "library"):
        ratios = [t / raw for t, raw in zip(times[name], times["raw"])]
        report[f"{name}_to_raw_best"] = round(min(times[name]) / min(times["raw"]), 2)
        report[f"{name}_to_raw_median_of_rounds"] = round(statistics.median(ratios), 2)
    return report


def played_projector(data_dir: str, extra_env: dict):
    """(store, read models, projector) over the matches in `data_dir`, played there first
    (BENCH_MATCHES of them) if it holds none yet."""
    from domain.kernel.store import MatchStore
    from projections.projector import Projector
    from projections.readstore import open_read_store
    from service.matches import Arbiter

    env = {"ARBITER_DATA_DIR": data_dir, **extra_env}
    store = MatchStore(env)
    if not os.path.exists(os.path.join(data_dir, ".played")):
        play(Arbiter(store), int(os.environ.get("BENCH_MATCHES", "60")), 3)
        Path(data_dir, ".played").touch()
    models = open_read_store(env, Path(data_dir))
    projector = Projector(store, models)
    return store, models, projector


def rebuild(data_dir: str, extra_env: dict) -> dict:
    store, models, projector = played_projector(data_dir, extra_env)
    rates = []
    try:
        for _ in range(ROUNDS):
            started = time.perf_counter()
            rebuilt = projector.rebuild()
            rates.append(rebuilt / (time.perf_counter() - started))
    finally:
        if extra_env.get("ARBITER_REDIS_URL"):
            keys = models.client.keys(models.prefix + "*")
            if keys:
                models.client.delete(*keys)
        store.close()
    return {"events": rebuilt, "events_per_s_best": round(max(rates)), "events_per_s_median": round(statistics.median(rates))}


def rebuild_once(data_dir: str, extra_env: dict) -> dict:
    """One rebuild of the read models from the store in `data_dir` (played first if empty):
    its events, wall and CPU seconds, and the CPU seconds the Redis server spent meanwhile."""
    store, models, projector = played_projector(data_dir, extra_env)

    def redis_cpu() -> float:
        if not extra_env.get("ARBITER_REDIS_URL"):
            return 0.0
        info = models.client.info("cpu")
        return info["used_cpu_user"] + info["used_cpu_sys"]

    server, wall, cpu = redis_cpu(), time.perf_counter(), time.process_time()
    events = projector.rebuild()
    wall, cpu, server = time.perf_counter() - wall, time.process_time() - cpu, redis_cpu() - server
    store.close()
    return {"events": events, "wall": wall, "cpu": cpu, "redis_cpu": server}


def main():
    what = sys.argv[1] if len(sys.argv) > 1 else "all"
    if what == "rebuild-once":  # bench/ab.py's one round: DATA_DIR [REDIS_URL PREFIX]
        extra = {"ARBITER_REDIS_URL": sys.argv[3], "ARBITER_REDIS_PREFIX": sys.argv[4]} if len(sys.argv) > 3 else {}
        print(json.dumps(rebuild_once(sys.argv[2], extra)))
        return
    report = {"rounds": ROUNDS}
    with tempfile.TemporaryDirectory() as tmp:
        if what in ("replay", "all"):
            report["replay"] = replay(os.path.join(tmp, "replay"))
        if what in ("rebuild", "all"):
            data_dir = os.path.join(tmp, "proj")
            report["rebuild_sqlite"] = rebuild(data_dir, {})
            report["rebuild_redis"] = rebuild(data_dir, {
                "ARBITER_REDIS_URL": os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/0"),
                "ARBITER_REDIS_PREFIX": f"arbiter-paths-{uuid.uuid4().hex[:8]}:"})
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
