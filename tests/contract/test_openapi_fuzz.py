"""The API holds its own OpenAPI contract under fuzzing.

A real server (`arbiter serve`, uvicorn, 2 workers) on each store; schemathesis loads
the served /openapi.json and runs every operation — examples, coverage, fuzzing and the
stateful phase — with a live match id, a seat token and the admin token, checking that
no request gets a 5xx, every status is documented and every body (problem+json
included) matches its documented schema. POST /v1/imports is fed NDJSON: the
generated strings, and damaged real exports (tests/contract/st_hooks.py).

Fixed seed, small budget for `make test` (12 an operation, times ARBITER_LONG: tests/sizing.py);
ARBITER_FUZZ_EXAMPLES=1000 for a nightly run.
"""

import os
import random
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import orjson
import pytest

from service.openapi import operations

from bench.servers import stop
from tests.conftest import sqlite_environ
from tests.test_deployment import free_port
from tests.sizing import sized

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
CHECKS = "not_a_server_error,response_schema_conformance,status_code_conformance"
ADMIN_TOKEN = "fuzz-admin-token"
EXAMPLES = int(os.environ.get("ARBITER_FUZZ_EXAMPLES", sized(12)))


def call(url: str, body: dict | None = None, token: str | None = None):
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    request = urllib.request.Request(url, data=None if body is None else orjson.dumps(body), headers=headers,
                                     method="GET" if body is None else "POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.read()


@pytest.fixture(params=["sqlite", "postgres", "three-shards"])
def fuzzed_env(request, tmp_path):
    if request.param == "three-shards":
        return request.getfixturevalue("sharded_env")
    return sqlite_environ(tmp_path) if request.param == "sqlite" else request.getfixturevalue("postgres_env")


@pytest.fixture
def served(fuzzed_env, tmp_path):
    """`arbiter serve` on the store under test; yields its base URL."""
    port = free_port()
    env = {**os.environ, **fuzzed_env, "ARBITER_ADMIN_TOKEN": ADMIN_TOKEN, "ARBITER_PROJECTOR": "embedded"}
    log = (tmp_path / "serve.log").open("wb")
    server = subprocess.Popen([str(BIN / "arbiter"), "serve", "--port", str(port), "--workers", "2"],
                              cwd=ROOT, env=env, start_new_session=True, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):  # up to a minute: a loaded machine starts the workers slowly
            try:
                call(f"{base}/healthz")
                break
            except OSError:
                assert server.poll() is None, (tmp_path / "serve.log").read_text()
                time.sleep(0.1)
        yield base
    finally:
        stop(server)


def new_match(base: str) -> dict:
    created = orjson.loads(call(f"{base}/v1/matches", {"game": "cyberiad", "seats": ["ann", "bob"]}))
    return {"match_id": created["match_id"], "tokens": [seat["token"] for seat in created["seats"]]}


def step(base: str, match: dict, rand: random.Random) -> bool:
    """One legal action of the seat to act, posted back unchanged; False once the match is over."""
    summary = orjson.loads(call(f"{base}/v1/matches/{match['match_id']}"))
    if summary["status"] != "running":
        return False
    token = match["tokens"][summary["to_act"][0]]
    listed = orjson.loads(call(f"{base}/v1/matches/{match['match_id']}/legal-actions", token=token))
    call(f"{base}/v1/matches/{match['match_id']}/actions",
         {"action": rand.choice(listed["actions"]), "expected_version": listed["version"]}, token)
    return True


def write_config(path: Path, running: dict, ended: dict) -> Path:
    """schemathesis.toml: a running match's id for every {match_id} and its seat's token; the
    admin token where only it opens the door (export of a running match, imports); an ended match
    for the live stream, which a running match would hold open."""
    path.write_text(f'''
seed = 20261123
max-stream-events = 1000
request-timeout = 10
headers = {{ Authorization = "Bearer {running['tokens'][0]}" }}

[parameters]
match_id = "{running['match_id']}"

[[operations]]
include-path = "/v1/matches/{{match_id}}/export"
headers = {{ Authorization = "Bearer {ADMIN_TOKEN}" }}

[[operations]]
include-path = "/v1/imports"
headers = {{ Authorization = "Bearer {ADMIN_TOKEN}" }}

[[operations]]
include-path = "/v1/matches/{{match_id}}/stream"
parameters = {{ match_id = "{ended['match_id']}" }}
headers = {{ Authorization = "Bearer {ended['tokens'][0]}" }}
''')
    return path


def test_every_operation_holds_its_contract(served, tmp_path):
    rand = random.Random(7)
    running, ended = new_match(served), new_match(served)
    step(served, running, rand)
    while step(served, ended, rand):
        pass
    export_file = tmp_path / "export.ndjson"
    export_file.write_bytes(call(f"{served}/v1/matches/{ended['match_id']}/export"))
    config = write_config(tmp_path / "schemathesis.toml", running, ended)
    env = {**os.environ, "SCHEMATHESIS_HOOKS": "tests.contract.st_hooks", "PYTHONPATH": str(ROOT),
           "ARBITER_FUZZ_EXPORT": str(export_file)}
    result = subprocess.run(
        [str(BIN / "st"), "--config-file", str(config), "run", f"{served}/openapi.json",
         "--checks", CHECKS, "--max-examples", str(EXAMPLES),
         "--workers", "1",  # hypothesis describing lambdas from two threads trips CPython 3.11's ast.parse
         "--phases", "examples,coverage,fuzzing,stateful", "--no-color", "--output-truncate", "true"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    report = result.stdout + result.stderr
    print("\n".join(line for line in report.splitlines() if "generated" in line or "Seed:" in line))
    assert result.returncode == 0, report[-12000:]
    documented = sum(len(methods) for methods in operations().values())
    # Every operation but GET /openapi.json (the document itself, which schemathesis leaves out).
    assert f"{documented - 1} selected / {documented - 1} total" in report, report[-3000:]
    assert " failures" not in report.splitlines()[-1] and "Authentication failed" not in report, report[-3000:]
