"""Idle live streams must not starve requests: `arbiter serve` (2 workers) with N idle SSE
followers open (spectators of running matches), while one client reads /healthz and a board
as fast as it can; latency percentiles beside the same reads with no stream open.

    python bench/streams.py [--streams 500] [--seconds 5]

All followers come from this one address, so the server is started with
ARBITER_STREAMS_PER_CLIENT above N (its default, 64 per process, is for real clients).
"""

import argparse
import http.client
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import orjson

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench.servers import free_port, stop  # noqa: E402


def get(port: int, path: str) -> bytes:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", path)
    body = conn.getresponse().read()
    conn.close()
    return body


def latencies(port: int, paths: list[str], seconds: float) -> dict:
    took = {path: [] for path in paths}
    stop_at = time.perf_counter() + seconds
    while time.perf_counter() < stop_at:
        for path in paths:
            started = time.perf_counter()
            get(port, path)
            took[path].append((time.perf_counter() - started) * 1000)
    return {path: percentiles(values) for path, values in took.items()}


def percentiles(values: list[float]) -> dict:
    cuts = statistics.quantiles(values, n=100)
    return {"n": len(values), "p50": round(cuts[49], 2), "p95": round(cuts[94], 2), "p99": round(cuts[98], 2)}


def open_streams(port: int, paths: list[str]) -> list[socket.socket]:
    held = []
    for path in paths:
        sock = socket.create_connection(("127.0.0.1", port))
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
        held.append(sock)
    for sock in held:
        sock.settimeout(30)
        assert b"200" in sock.recv(200), "a stream was refused"
    return held


def run(streams: int, seconds: float) -> dict:
    data_dir = tempfile.mkdtemp(prefix="arbiter-bench-streams-")
    port = free_port()
    env = {**os.environ, "ARBITER_DATA_DIR": data_dir, "ARBITER_STREAMS_PER_CLIENT": str(streams + 10)}
    server = subprocess.Popen([os.path.join(os.path.dirname(sys.executable), "arbiter"), "serve", "--port", str(port),
                               "--workers", "2"], cwd=ROOT, env=env, start_new_session=True,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(300):
            try:
                get(port, "/healthz")
                break
            except OSError:
                time.sleep(0.1)
        matches = []
        for _ in range(10):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            conn.request("POST", "/v1/matches", orjson.dumps({"game": "cyberiad", "seats": ["ann", "bob"]}),
                         {"Content-Type": "application/json"})
            matches.append(orjson.loads(conn.getresponse().read())["match_id"])
            conn.close()
        paths = ["/healthz", f"/v1/matches/{matches[0]}/board"]
        latencies(port, paths, 1.0)  # warm both workers
        quiet = latencies(port, paths, seconds)
        held = open_streams(port, [f"/v1/matches/{matches[i % len(matches)]}/stream" for i in range(streams)])
        busy = latencies(port, paths, seconds)
        for sock in held:
            sock.close()
        return {"streams": streams, "without_streams": quiet, "with_streams": busy}
    finally:
        stop(server)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--streams", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    result = run(args.streams, args.seconds)
    for label in ("without_streams", "with_streams"):
        for path, figures in result[label].items():
            name = "board" if "board" in path else "healthz"
            print(f"idle streams {'0' if label == 'without_streams' else result['streams']:>4}: {name:8} "
                  f"n={figures['n']:5} p50 {figures['p50']:6.2f} ms  p95 {figures['p95']:6.2f} ms  "
                  f"p99 {figures['p99']:6.2f} ms")


if __name__ == "__main__":
    main()
