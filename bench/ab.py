"""Read-model rebuild speed of two source trees, A and B (e.g. an export of main and this
checkout), measured in alternating processes on the same stored events, so a busy spell of a
shared machine falls on both alike. Each round runs `bench/paths.py rebuild-once` once per
tree, on SQLite and on Redis (a key prefix per tree, deleted after).

    .venv/bin/python bench/ab.py TREE_A TREE_B [ROUNDS]

Prints, per tree and store, the median and best events/s by wall time, events per CPU second
of the projector, and the same counting the Redis server's CPU too.
"""

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import uuid

import redis

REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")


def once(tree: str, data_dir: str, redis_prefix: str | None) -> dict:
    args = [sys.executable, os.path.join(tree, "bench", "paths.py"), "rebuild-once", data_dir]
    if redis_prefix:
        args += [REDIS_URL, redis_prefix]
    out = subprocess.run(args, cwd=tree, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main():
    trees = [os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 7
    prefixes = [f"arbiter-ab-{uuid.uuid4().hex[:8]}:" for _ in trees]
    runs = {(tree, store): [] for tree in ("A", "B") for store in ("sqlite", "redis")}
    with tempfile.TemporaryDirectory() as tmp:
        played = os.path.join(tmp, "played")
        once(trees[1], played, None)  # plays the matches once: both trees read the same events
        dirs = []
        for name in ("A", "B"):
            shutil.copytree(played, os.path.join(tmp, name))
            dirs.append(os.path.join(tmp, name))
        try:
            for _ in range(rounds):
                for name, tree, data_dir, prefix in zip(("A", "B"), trees, dirs, prefixes):
                    runs[(name, "sqlite")].append(once(tree, data_dir, None))
                    runs[(name, "redis")].append(once(tree, data_dir, prefix))
        finally:
            client = redis.Redis.from_url(REDIS_URL)
            for prefix in prefixes:
                keys = client.keys(prefix + "*")
                if keys:
                    client.delete(*keys)
    report = {"rounds": rounds, "A": trees[0], "B": trees[1]}
    for (name, store), results in runs.items():
        events = results[0]["events"]
        report[f"{name}/{store}"] = {
            "events": events,
            "events_per_s_wall_median": round(statistics.median(events / r["wall"] for r in results)),
            "events_per_s_wall_best": round(max(events / r["wall"] for r in results)),
            "events_per_cpu_s_median": round(statistics.median(events / r["cpu"] for r in results)),
            "events_per_cpu_s_with_redis_median": round(statistics.median(
                events / (r["cpu"] + r["redis_cpu"]) for r in results)),
        }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
