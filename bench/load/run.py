"""The load scenario (bench/load/locustfile.py) against a served Arbiter, once per store
layout: SQLite, PostgreSQL with one shard, PostgreSQL with three shards. Each run starts
`arbiter serve` (LOAD_WORKERS workers, the projector in its own process, read models in
Redis as in production), drives it with Locust headless in LOAD_PROCESSES processes for
LOAD_SECONDS, and reports per request: throughput, p50/p95/p99 (ms) and failures, beside the
CPU seconds the server and the client used (on one machine they share the cores: the
client's share says how close it came to being the ceiling).

    .venv/bin/python bench/load/run.py                   # all three layouts
    LOAD_LAYOUTS=postgres-3 LOAD_USERS=80 .venv/bin/python bench/load/run.py

PostgreSQL and Redis: BENCH_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/test;
each run makes databases of its own there and drops them) and BENCH_REDIS_URL.
"""

import csv
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import urlparse, urlunparse

import psutil
import psycopg

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench.servers import free_port, stop  # noqa: E402
BIN = Path(sys.executable).parent
USERS = int(os.environ.get("LOAD_USERS", "40"))
SECONDS = int(os.environ.get("LOAD_SECONDS", "30"))
PROCESSES = int(os.environ.get("LOAD_PROCESSES", "2"))
WORKERS = int(os.environ.get("LOAD_WORKERS", "2"))
PACE = os.environ.get("LOAD_MOVES_PER_S_PER_USER", "1.0")
LAYOUTS = os.environ.get("LOAD_LAYOUTS", "sqlite,postgres-1,postgres-3").split(",")
DATABASE_URL = os.environ.get("BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")


def wait_for_port(port: int, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing answered on port {port}")


def cpu_seconds(process: psutil.Process) -> float:
    """User + system CPU of a process and all its children, alive now."""
    total = 0.0
    for p in [process, *process.children(recursive=True)]:
        try:
            times = p.cpu_times()
            total += times.user + times.system
        except psutil.NoSuchProcess:
            pass
    return total


def waited_children_cpu() -> float:
    """CPU seconds of this process's finished children (Locust's processes, once it returned)."""
    times = os.times()
    return times.children_user + times.children_system


class Databases:
    """`count` fresh databases on the bench server, dropped at exit."""

    def __init__(self, count: int):
        self.names = [f"arbiter_load_{uuid.uuid4().hex[:8]}_{n}" for n in range(count)]

    def __enter__(self) -> list[str]:
        with psycopg.connect(DATABASE_URL, autocommit=True) as conn:
            for name in self.names:
                conn.execute(f'CREATE DATABASE "{name}"')
        base = urlparse(DATABASE_URL)
        return [urlunparse(base._replace(path=f"/{name}")) for name in self.names]

    def __exit__(self, *exc):
        with psycopg.connect(DATABASE_URL, autocommit=True) as conn:
            for name in self.names:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def store_env(layout: str, urls: list[str]) -> dict:
    if layout == "sqlite":
        return {"ARBITER_STORE": "sqlite"}
    return {"ARBITER_STORE": "postgres", "ARBITER_DATABASE_URLS": ",".join(urls)}


def read_stats(prefix: Path) -> dict:
    rows = {}
    with open(f"{prefix}_stats.csv") as f:
        for row in csv.DictReader(f):
            rows[row["Name"]] = {
                "requests": int(row["Request Count"]), "failures": int(row["Failure Count"]),
                "per_s": round(float(row["Requests/s"]), 1),
                "p50_ms": float(row["50%"]), "p95_ms": float(row["95%"]), "p99_ms": float(row["99%"])}
    return rows


def run_layout(layout: str, tmp: Path) -> dict:
    shards = 3 if layout == "postgres-3" else 1
    with Databases(0 if layout == "sqlite" else shards) as urls:
        port = free_port()
        env = {**os.environ, **store_env(layout, urls), "ARBITER_DATA_DIR": str(tmp / layout),
               "ARBITER_PROJECTOR": "off", "ARBITER_CLOCK": "off", "ARBITER_REDIS_URL": REDIS_URL,
               "ARBITER_REDIS_PREFIX": f"arbiter-load-{uuid.uuid4().hex[:8]}:",
               "ARBITER_MAX_STREAMS": "100000", "ARBITER_STREAMS_PER_CLIENT": "100000"}
        server = subprocess.Popen([BIN / "arbiter", "serve", "--host", "127.0.0.1", "--port", str(port),
                                   "--workers", str(WORKERS)], env=env, cwd=ROOT, start_new_session=True,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        projector = subprocess.Popen([BIN / "arbiter", "projector"], env=env, cwd=ROOT, start_new_session=True,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_for_port(port)
            server_process, projector_process = psutil.Process(server.pid), psutil.Process(projector.pid)
            server_cpu, projector_cpu = cpu_seconds(server_process), cpu_seconds(projector_process)
            prefix = tmp / f"{layout}-locust"
            started, children_cpu = time.perf_counter(), waited_children_cpu()
            client = subprocess.run(
                [BIN / "locust", "-f", str(ROOT / "bench/load/locustfile.py"), "--headless", "--host",
                 f"http://127.0.0.1:{port}", "-u", str(USERS), "-r", str(max(1, USERS // 5)), "-t", f"{SECONDS}s",
                 "--processes", str(PROCESSES), "--csv", str(prefix), "--only-summary", "--loglevel", "ERROR"],
                env={**os.environ, "LOAD_MOVES_PER_S_PER_USER": PACE}, cwd=ROOT, capture_output=True, text=True)
            wall, client_cpu = time.perf_counter() - started, waited_children_cpu() - children_cpu
            stats = read_stats(prefix)
            report = {
                "layout": layout, "shards": shards if layout != "sqlite" else 0, "users": USERS,
                "target_moves_per_s": round(USERS * float(PACE), 1), "seconds": SECONDS, "web_workers": WORKERS,
                "locust_processes": PROCESSES, "requests": stats,
                "server_cpu_s": round(cpu_seconds(server_process) - server_cpu, 1),
                "projector_cpu_s": round(cpu_seconds(projector_process) - projector_cpu, 1),
                "client_cpu_s": round(client_cpu, 1),
                "wall_s": round(wall, 1),
            }
            if client.returncode not in (0, 1):  # 1: some requests failed, reported above
                report["locust_error"] = client.stderr[-2000:]
            return report
        finally:
            for process in (server, projector):
                stop(process)


def main():
    reports = []
    with tempfile.TemporaryDirectory() as tmp:
        for layout in LAYOUTS:
            report = run_layout(layout, Path(tmp))
            reports.append(report)
            print(json.dumps(report), flush=True)
    print(json.dumps({"summary": [{"layout": r["layout"], **{name: {k: r["requests"][name][k] for k in (
        "per_s", "p50_ms", "p95_ms", "p99_ms", "failures")} for name in ("post move", "Aggregated")
        if name in r["requests"]}} for r in reports]}, indent=2))


if __name__ == "__main__":
    main()
