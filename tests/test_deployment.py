"""docker-compose.yml cannot run here (no Docker engine), so its parts are run directly:
the API service's own command and environment, against the real PostgreSQL server."""

import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

import orjson
import urllib.request
import yaml

from bench.servers import stop

ROOT = Path(__file__).resolve().parents[1]


def compose():
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_compose_wires_the_api_to_postgres():
    services = compose()["services"]
    api = services["api"]
    url = urlparse(api["environment"]["ARBITER_DATABASE_URL"])
    assert api["environment"]["ARBITER_STORE"] == "postgres"
    assert url.hostname == "postgres" and url.path.lstrip("/") == services["postgres"]["environment"]["POSTGRES_DB"]
    assert url.username == services["postgres"]["environment"]["POSTGRES_USER"]
    dockerfile_cmd = [line for line in (ROOT / "Dockerfile").read_text().splitlines() if line.startswith("CMD")][0]
    assert orjson.loads(dockerfile_cmd[4:]) == api["command"]


def test_the_api_and_projector_serve_on_postgres_and_redis(postgres_env, redis_env):
    services = compose()["services"]
    api, projector_service, clock_service = services["api"], services["projector"], services["clock"]
    assert api["environment"] == projector_service["environment"] == clock_service["environment"]
    assert api["environment"]["ARBITER_REDIS_URL"].startswith("redis://redis:")
    port = free_port()
    command = [{"0.0.0.0": "127.0.0.1", "8000": str(port)}.get(a, a) for a in api["command"]]
    command[0] = str(Path(sys.executable).with_name(command[0]))
    # The servers here, not the containers' names.
    env = {**os.environ, **api["environment"], **postgres_env,
           "ARBITER_REDIS_URL": redis_env["ARBITER_REDIS_URL"], "ARBITER_REDIS_PREFIX": redis_env["ARBITER_REDIS_PREFIX"]}
    process = subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    projector_command = [str(Path(sys.executable).with_name(projector_service["command"][0])),
                         *projector_service["command"][1:]]
    projector = subprocess.Popen(projector_command, cwd=ROOT, env=env, start_new_session=True,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    clock_command = [str(Path(sys.executable).with_name(clock_service["command"][0])), *clock_service["command"][1:]]
    clock = subprocess.Popen(clock_command, cwd=ROOT, env=env, start_new_session=True,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(600):  # up to a minute: a loaded machine starts the workers slowly
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as response:
                    health = orjson.loads(response.read())
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise AssertionError("the API did not answer")
        assert health["status"] == "ok" and health["store"] == "OneCallRecorder"
        request = urllib.request.Request(f"http://127.0.0.1:{port}/v1/matches", method="POST",
                                         data=orjson.dumps({"game": "cyberiad", "seats": ["ann", "bob"]}),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=5) as response:
            created = orjson.loads(response.read())
            assert response.status == 201 and created["version"] == 1
        # The projector service puts the new match into the Redis read models.
        for _ in range(600):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/matches/{created['match_id']}/board") as response:
                board = orjson.loads(response.read())
            if board["source"] == "read_model":
                break
            time.sleep(0.1)
        assert board["source"] == "read_model"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/stats/cyberiad") as response:
            assert orjson.loads(response.read())["matches_started"] == 1
        # The clock service records the timeout of a match whose player does not move.
        request = urllib.request.Request(f"http://127.0.0.1:{port}/v1/matches", method="POST",
                                         data=orjson.dumps({"game": "cyberiad", "seats": ["ann", "bob"],
                                                            "clock": {"move_seconds": 1}}),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=5) as response:
            timed = orjson.loads(response.read())
        for _ in range(150):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/matches/{timed['match_id']}") as response:
                summary = orjson.loads(response.read())
            if summary["status"] != "running":
                break
            time.sleep(0.1)
        assert summary["status"] == "ended" and summary["outcome"]["reason"] == "timeout"
    finally:
        for child in (process, projector, clock):
            stop(child)
