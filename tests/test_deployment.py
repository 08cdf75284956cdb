"""docker-compose.yml cannot run here (no Docker engine), so its parts are run directly:
the API service's own command and environment, against the real PostgreSQL server."""

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

import orjson
import urllib.request
import yaml

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


def test_the_api_command_serves_on_postgres(postgres_env):
    api = compose()["services"]["api"]
    port = free_port()
    command = [a.replace("0.0.0.0:8000", f"127.0.0.1:{port}") for a in api["command"]]
    command[0] = str(Path(sys.executable).with_name("gunicorn"))
    env = {**os.environ, **api["environment"], **postgres_env}  # the server here, not the container name
    process = subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as response:
                    health = orjson.loads(response.read())
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise AssertionError("the API did not answer")
        assert health["status"] == "ok" and health["store"] == "PostgresApplicationRecorder"
        request = urllib.request.Request(f"http://127.0.0.1:{port}/v1/matches", method="POST",
                                         data=orjson.dumps({"game": "cyberiad", "seats": ["ann", "bob"]}),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=5) as response:
            assert response.status == 201 and orjson.loads(response.read())["version"] == 1
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=10)
