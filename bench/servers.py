"""Starting and stopping the servers the benchmarks measure, and one request to them."""

import contextlib
import http.client
import os
import signal
import socket
import subprocess
import sys
import time

import orjson

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(app_path: str, env: dict, factory: bool = False) -> tuple[subprocess.Popen, int]:
    port = free_port()
    process = subprocess.Popen(
        [os.path.join(os.path.dirname(sys.executable), "uvicorn"), "--workers", "2", "--port", str(port),
         "--log-level", "warning", "--no-access-log", "--loop", "uvloop", "--http", "httptools",
         *(["--factory"] if factory else []), app_path],
        cwd=ROOT, env={**os.environ, **env}, start_new_session=True)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            return process, port
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{app_path} did not start")


def stop(process: subprocess.Popen, seconds: float = 30) -> None:
    """Stop a server started in its own session: SIGTERM to the supervisor alone, which stops
    its own workers, then SIGKILL to whatever of its process group is left. A SIGTERM to the
    whole group reaches the workers first at times: uvicorn's supervisor sees a worker gone,
    starts a new one just as it is told to stop, and that worker's boot delays the exit past
    any sensible wait. (The tests stop their servers with it too.)"""
    process.terminate()
    try:
        process.wait(timeout=seconds)
    finally:
        with contextlib.suppress(ProcessLookupError):  # nothing of the group outlives the caller
            os.killpg(process.pid, signal.SIGKILL)


def request(port, method, path, body=None, headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request(method, path, body=None if body is None else orjson.dumps(body),
                 headers={"Content-Type": "application/json", **(headers or {})})
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response.status, (orjson.loads(data) if data else None)
