"""First start on an empty PostgreSQL database: every process started at the same moment
(two `arbiter serve` hosts of two uvicorn workers each, and `arbiter projector`) comes up
healthy, and no worker dies or is restarted while the tables are being created."""

import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import orjson
import pytest

from bench.servers import stop
from tests.conftest import fresh_databases
from tests.test_deployment import free_port

ROOT = Path(__file__).resolve().parents[1]
ARBITER = str(Path(sys.executable).with_name("arbiter"))
WORKERS = 2


def get(url: str, timeout: float = 10) -> bytes:
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return response.read()


def wait_for(url: str, processes, seconds: float = 60) -> bytes:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for process in processes:
            assert process.poll() is None, f"{process.args} exited with {process.returncode}"
        try:
            return get(url)
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"{url} did not answer in {seconds} s")


def applied(text: str, projection: str) -> float:
    """The projection's position in /metrics, summed over shards ("name" or "name@shard")."""
    found = re.findall(rf'^arbiter_projection_position{{projection="{re.escape(projection)}(?:@[^"]*)?"}} ([0-9.e+]+)$',
                       text, re.MULTILINE)
    assert found, f"arbiter_projection_position of {projection} missing from /metrics"
    return sum(float(value) for value in found)


def boot_all_at_once(database_urls: list[str], redis_env: dict, tmp_path: Path):
    env = {**os.environ, "ARBITER_STORE": "postgres", "ARBITER_DATABASE_URLS": ",".join(database_urls),
           "ARBITER_PROJECTOR": "off", "ARBITER_DATA_DIR": str(tmp_path),
           "ARBITER_REDIS_URL": redis_env["ARBITER_REDIS_URL"], "ARBITER_REDIS_PREFIX": redis_env["ARBITER_REDIS_PREFIX"]}
    ports = [free_port(), free_port()]
    logs = [tmp_path / f"serve-{port}.log" for port in ports] + [tmp_path / "projector.log"]
    commands = [[ARBITER, "serve", "--port", str(port), "--workers", str(WORKERS)] for port in ports]
    commands.append([ARBITER, "projector"])
    processes = [subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True,
                                  stdout=log.open("wb"), stderr=subprocess.STDOUT)
                 for command, log in zip(commands, logs)]
    return ports, processes, logs


@pytest.mark.postgres
@pytest.mark.parametrize("shards", [1, 1, 3], ids=["empty-database", "again", "three-empty-shards"])
def test_every_process_started_together_on_an_empty_database_comes_up(shards, redis_env, tmp_path):
    with fresh_databases(shards, "arbiter_boot") as urls:
        boot_and_play(urls, redis_env, tmp_path)


def boot_and_play(urls: list[str], redis_env: dict, tmp_path: Path):
    ports, processes, logs = boot_all_at_once(urls, redis_env, tmp_path)
    try:
        for port in ports:
            health = orjson.loads(wait_for(f"http://127.0.0.1:{port}/healthz", processes))
            assert health["status"] == "ok" and health["store"] == "OneCallRecorder"
        # Every worker of every host answers: each request may land on either worker,
        # so ask often enough that a dead or booting worker would show.
        for port in ports:
            for _ in range(20):
                assert orjson.loads(get(f"http://127.0.0.1:{port}/healthz"))["status"] == "ok"
        request = urllib.request.Request(f"http://127.0.0.1:{ports[0]}/v1/matches", method="POST",
                                         data=orjson.dumps({"game": "cyberiad", "seats": ["ann", "bob"]}),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=5) as response:
            assert response.status == 201
        # The projector process follows the same store: on a fresh database its position
        # leaves 0 once it has applied the new match.
        deadline = time.monotonic() + 20
        while True:
            text = get(f"http://127.0.0.1:{ports[1]}/metrics").decode()
            if all(applied(text, name) >= 1 for name in ("matches", "stats", "players")):
                break
            assert time.monotonic() < deadline, f"the projector did not catch up:\n{text}"
            time.sleep(0.1)
        for process in processes:
            assert process.poll() is None, f"{process.args} exited"
    finally:
        for process in processes:
            stop(process)
    serve_logs = [log.read_text() for log in logs[:2]]
    for text in serve_logs:
        assert text.count("Started server process") == WORKERS, text  # one each: none restarted
        assert "died" not in text and "Traceback" not in text, text
    assert "Traceback" not in logs[2].read_text(), logs[2].read_text()
