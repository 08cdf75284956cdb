"""The measured inputs of docs/capacity.md, in one run:

1. Storage: bytes per event and per match in PostgreSQL (table and indexes) and in SQLite,
   over finished matches of each game played by greedy bots through the store.
2. Read models: Redis memory per finished match (every key the projector wrote for it,
   MEMORY USAGE) and the projector's rebuild speed into Redis; then the memory once the
   retention (ARBITER_RETAIN_ENDED_LOGS_SECONDS, projections/retention.py) trimmed their logs.
3. A shard's write ceiling: moves a second committed to one PostgreSQL database by WRITERS
   threads in PROCESSES processes acting on their own matches (no HTTP: the store's own limit,
   the per-write table lock included), then the same writers over three databases of the
   same server; and the CPU a move costs outside the database.
4. The web tier's CPU per move: a served move's CPU (request parsing, the rules, the event,
   the response) from the same writers' in-process figure is in bench/load's report
   (server_cpu_s / requests).

    .venv/bin/python bench/capacity_inputs.py     (BENCH_DATABASE_URL, BENCH_REDIS_URL as bench/load)
"""

import json
import multiprocessing
import os
import random
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402
import redis  # noqa: E402

from bench.load.run import DATABASE_URL, REDIS_URL, Databases  # noqa: E402
from domain.kernel.store import MatchStore  # noqa: E402
from projections.projector import Projector  # noqa: E402
from projections.redis_store import RedisReadStore  # noqa: E402
from projections.retention import trim_ended_logs  # noqa: E402
from service.matches import Arbiter  # noqa: E402
from service.simulate import play_match  # noqa: E402

GAMES = {"cyberiad": 3, "cybermancy": 2, "herocard": 2, "cyberspace": 2, "algomancy": 2, "cybermen": 3}
MATCHES_PER_GAME = int(os.environ.get("CAPACITY_MATCHES", "20"))
WRITERS = int(os.environ.get("CAPACITY_WRITERS", "16"))
PROCESSES = int(os.environ.get("CAPACITY_PROCESSES", "4"))
SECONDS = float(os.environ.get("CAPACITY_SECONDS", "10"))


def postgres_env(urls: list[str]) -> dict:
    return {"ARBITER_STORE": "postgres", "ARBITER_DATABASE_URLS": ",".join(urls),
            "ARBITER_DB_POOL_SIZE": str(WRITERS // PROCESSES + 2)}


def storage(url: str, data_dir: Path) -> dict:
    """Play the matches into PostgreSQL and SQLite; bytes per event and per match of each."""
    figures = {}
    for kind, env in (("postgres", postgres_env([url])), ("sqlite", {"ARBITER_DATA_DIR": str(data_dir)})):
        store = MatchStore(env)
        matches = events = 0
        for game, seats in GAMES.items():
            for seed in range(MATCHES_PER_GAME):
                events += play_match(game, seats, ["greedy"], {}, seed, store)
                matches += 1
        store.close()
        if kind == "postgres":
            with psycopg.connect(url) as conn:
                size = conn.execute("SELECT pg_total_relation_size('arbiter_events')").fetchone()[0]
        else:
            size = (data_dir / "arbiter.sqlite").stat().st_size
        figures[kind] = {"matches": matches, "events": events, "bytes": size,
                         "bytes_per_event": round(size / events), "bytes_per_match": round(size / matches)}
    return figures


def read_models(url: str) -> dict:
    """Rebuild the read models of the matches stored by `storage` into Redis; memory per match."""
    prefix = f"arbiter-capacity-{uuid.uuid4().hex[:8]}:"
    store = MatchStore(postgres_env([url]))
    models = RedisReadStore(REDIS_URL, prefix)
    projector = Projector(store, models)
    started = time.perf_counter()
    events = projector.rebuild()
    seconds = time.perf_counter() - started
    client = redis.Redis.from_url(REDIS_URL)

    def memory() -> tuple[list, int]:
        keys = list(client.scan_iter(match=prefix + "*", count=1000))
        return keys, sum(client.memory_usage(key) or 0 for key in keys)

    keys, whole = memory()
    trimmed = trim_ended_logs(models, 0)
    _, kept = memory()
    matches = len(GAMES) * MATCHES_PER_GAME
    if keys:
        client.delete(*keys)
    store.close()
    return {"events": events, "rebuild_events_per_s": round(events / seconds), "keys": len(keys),
            "redis_bytes": whole, "redis_bytes_per_match": round(whole / matches),
            "logs_trimmed": trimmed, "redis_bytes_per_match_logs_trimmed": round(kept / matches)}


def _writer_process(urls: list[str], threads: int, seconds: float, first: int) -> tuple[int, float, float]:
    """(moves committed, CPU seconds, wall seconds) of one process whose `threads` each play their own matches."""
    store = MatchStore(postgres_env(urls))
    arbiter = Arbiter(store)
    stop_at = time.perf_counter() + seconds
    counts = [0] * threads

    def writer(i: int) -> None:
        rand = random.Random(first + i)
        match_id = None
        while time.perf_counter() < stop_at:
            if match_id is None:
                match_id = uuid.UUID(arbiter.create_match("cyberiad", ["a", "b"])["match_id"])
            summary = arbiter.summary(match_id)
            if summary["status"] != "running":
                match_id = None
                continue
            seat = summary["to_act"][0]
            arbiter.submit_action(match_id, seat, rand.choice(arbiter.legal_actions(match_id, seat)["actions"]))
            counts[i] += 1

    cpu, started = time.process_time(), time.perf_counter()
    running = [threading.Thread(target=writer, args=(i,)) for i in range(threads)]
    for thread in running:
        thread.start()
    for thread in running:
        thread.join()
    elapsed = time.perf_counter() - started
    store.close()
    return sum(counts), time.process_time() - cpu, elapsed


def write_ceiling(urls: list[str]) -> dict:
    """Moves a second that WRITERS threads in PROCESSES processes commit (each thread plays its
    own Cyberiad matches through the Arbiter, no HTTP), and the CPU each move cost them."""
    with multiprocessing.get_context("fork").Pool(PROCESSES) as pool:
        results = pool.starmap(_writer_process, [(urls, WRITERS // PROCESSES, SECONDS, n * 100)
                                                 for n in range(PROCESSES)])
    moves, cpu = sum(r[0] for r in results), sum(r[1] for r in results)
    return {"shards": len(urls), "processes": PROCESSES, "writers": WRITERS, "moves": moves,
            "moves_per_s": round(sum(r[0] / r[2] for r in results)),  # each process over its own run
            "cpu_us_per_move": round(cpu / max(1, moves) * 1e6)}


def main():
    report = {"database": DATABASE_URL.rsplit("@", 1)[-1], "redis": REDIS_URL.rsplit("@", 1)[-1]}
    with tempfile.TemporaryDirectory() as tmp, Databases(1) as one:
        report["storage"] = storage(one[0], Path(tmp))
        report["read_models"] = read_models(one[0])
    for count in (1, 3):
        with Databases(count) as urls:
            report[f"write_ceiling_{count}_shard{'s' if count > 1 else ''}"] = write_ceiling(urls)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
