"""Shared fixtures: real stores (a SQLite file, the suite's PostgreSQL and Redis servers, see
tests/services.py) and the Flask app."""

import contextlib
import os
import signal
import time
import uuid
from urllib.parse import urlparse, urlunparse

import orjson
import psycopg
import pytest
import redis
from hypothesis import settings

from domain.kernel.store import MatchStore
from service.api import create_app

settings.register_profile("ci", deadline=None, print_blob=True)
settings.load_profile("ci")



# Served bots answer a whole number of 1 ms steps after they are asked, not 200 ms (the search
# bot, 701 ms: its budget and a step; service/bot_pace.py): no test's bot holds a secret from a
# person watching its time, except where a test sets the pace itself; servers the tests start
# inherit it from the environment.
TEST_BOT_STEP_MS = "1"
os.environ["ARBITER_BOT_STEP_MS"] = TEST_BOT_STEP_MS

# The programs the tests start at a terminal are sent Ctrl-C as a person would; a suite started
# with SIGINT ignored (a launcher's background job) passed that on to every one of them. Those
# that must bear it say so themselves (tests/terminal: `arbiter play`).
signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_configure(config):
    """Start the suite's own PostgreSQL and Redis (tests/services.py) once: in the xdist
    controller, or in the only process; workers inherit their URLs from the environment."""
    if not hasattr(config, "workerinput"):
        from .services import start_services

        config.arbiter_services = start_services()


# The slowest tests start first, so that with xdist's work stealing no long test is left
# running alone at the end (the browser and terminal tests drive whole matches through a
# page or a pseudo-terminal; the fuzz and first-boot tests start servers). Each xdist worker
# makes its own session fixtures (a browser, a live server), a few seconds each.
SLOW_FIRST = ["tests/web/test_play.py", "tests/kernel/test_search_strength.py", "tests/terminal",
              "tests/web", "tests/contract", "tests/test_first_boot.py", "tests/storage/test_shards.py",
              "tests/service/test_hidden_information.py", "tests/games/test_words.py",
              "tests/games/test_renderers.py"]


def pytest_collection_modifyitems(config, items):
    root = str(config.rootpath)

    def slowness(item):
        path = str(item.path)[len(root) + 1:]
        ranks = [rank for rank, prefix in enumerate(SLOW_FIRST) if path.startswith(prefix)]
        return ranks[0] if ranks else len(SLOW_FIRST)

    items.sort(key=slowness)  # stable: within a rank, the collection's order


def pytest_unconfigure(config):
    for server in getattr(config, "arbiter_services", []):
        server.stop()


def postgres_url() -> str:
    return os.environ["ARBITER_TEST_DATABASE_URL"]


def redis_url() -> str:
    return os.environ["ARBITER_TEST_REDIS_URL"]


def sqlite_environ(tmp_path) -> dict:
    # Tests drive the projector and the clock themselves (projector.catch_up(),
    # arbiter.enforce_clocks()) unless they start them.
    return {"ARBITER_STORE": "sqlite", "ARBITER_DATA_DIR": str(tmp_path), "ARBITER_PROJECTOR": "off",
            "ARBITER_CLOCK": "off", "ARBITER_BOT_STEP_MS": TEST_BOT_STEP_MS}


@pytest.fixture
def sqlite_env(tmp_path):
    return sqlite_environ(tmp_path)


@pytest.fixture
def postgres_env(tmp_path):
    """A schema of its own in the `test` database, dropped afterwards."""
    schema = f"arbiter_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(postgres_url(), autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    yield {"ARBITER_STORE": "postgres", "ARBITER_DATABASE_URL": postgres_url(), "ARBITER_DB_SCHEMA": schema,
           "ARBITER_DB_POOL_SIZE": "12", "ARBITER_PROJECTOR": "off", "ARBITER_CLOCK": "off",
           "ARBITER_DATA_DIR": str(tmp_path), "ARBITER_BOT_STEP_MS": TEST_BOT_STEP_MS}
    with psycopg.connect(postgres_url(), autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


@contextlib.contextmanager
def fresh_databases(count: int, prefix: str = "arbiter_shard"):
    """`count` empty databases of their own on the test server: their URLs, then dropped."""
    names = [f"{prefix}_{uuid.uuid4().hex[:10]}_{n}" for n in range(count)]
    with psycopg.connect(postgres_url(), autocommit=True) as conn:
        for name in names:
            conn.execute(f'CREATE DATABASE "{name}"')
    base = urlparse(postgres_url())
    try:
        yield [urlunparse(base._replace(path=f"/{name}")) for name in names]
    finally:
        with psycopg.connect(postgres_url(), autocommit=True) as conn:
            for name in names:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def sharded_env(tmp_path):
    """Three databases on the test server as the shards of one store (ARBITER_DATABASE_URLS)."""
    with fresh_databases(3) as urls:
        yield {"ARBITER_STORE": "postgres", "ARBITER_DATABASE_URLS": ",".join(urls), "ARBITER_DB_POOL_SIZE": "4",
               "ARBITER_PROJECTOR": "off", "ARBITER_CLOCK": "off", "ARBITER_DATA_DIR": str(tmp_path),
               "ARBITER_ADMIN_TOKEN": "open-sesame", "ARBITER_BOT_STEP_MS": TEST_BOT_STEP_MS}


@pytest.fixture(params=["sqlite", "postgres"])
def store_env(request, tmp_path):
    """Run the test once on each real store."""
    if request.param == "sqlite":
        return sqlite_environ(tmp_path)
    return request.getfixturevalue("postgres_env")


@pytest.fixture
def redis_env(sqlite_env):
    """Read models in the real Redis server under a key prefix of their own, deleted afterwards."""
    prefix = f"arbiter-test-{uuid.uuid4().hex[:12]}:"
    yield {**sqlite_env, "ARBITER_REDIS_URL": redis_url(), "ARBITER_REDIS_PREFIX": prefix}
    client = redis.Redis.from_url(redis_url())
    keys = client.keys(prefix + "*")
    if keys:
        client.delete(*keys)


@pytest.fixture(params=["sqlite", "redis"])
def read_env(request, sqlite_env):
    """Run the test once with read models in SQLite and once in Redis."""
    return sqlite_env if request.param == "sqlite" else request.getfixturevalue("redis_env")


@pytest.fixture
def store(sqlite_env):
    store = MatchStore(sqlite_env)
    yield store
    store.close()


@pytest.fixture
def client(sqlite_env):
    return create_app(sqlite_env).test_client()


def caught_up(client):
    """Let the read models see every event so far (the tests' stand-in for waiting on the projector)."""
    client.application.extensions["projector"].catch_up()
    return client


class Served:
    """The server's own ASGI app (service/asgi.py) under uvicorn on a free local port, in a
    thread of the test process: `flask` is its Flask app (test_client, extensions)."""

    def __init__(self, environ: dict):
        import socket
        import threading

        import uvicorn

        from service.asgi import create

        self.app = create(environ)
        self.flask = self.app.flask_app
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        self.server = uvicorn.Server(uvicorn.Config(self.app, log_level="warning", timeout_graceful_shutdown=1))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [sock]}, daemon=True)
        self.thread.start()
        while not self.server.started:
            self.thread.join(0.01)
            assert self.thread.is_alive(), "the server did not start"

    def stream(self, path: str, headers: dict | None = None, until=lambda events: False, timeout: float = 30):
        """Read a live stream until it ends or `until(events so far)`; returns (status, events).
        Each event is {"id", "event", "data"}."""
        import http.client

        connection = http.client.HTTPConnection(self.url.removeprefix("http://"), timeout=timeout)
        connection.request("GET", path, headers={name: value.encode() for name, value in (headers or {}).items()})
        response = connection.getresponse()
        if response.status != 200:
            body = orjson.loads(response.read())
            connection.close()
            return response.status, body
        raw, events, deadline = b"", [], time.monotonic() + timeout
        while not until(events):
            assert time.monotonic() < deadline, f"the stream sent {len(events)} events in {timeout}s, then nothing"
            line = response.readline()
            if not line:
                break
            raw += line
            if raw.endswith(b"\n\n"):
                events += parse_sse(raw)
                raw = b""
        connection.close()
        return 200, events

    def stop(self) -> None:
        """Shut the server down (its app's shutdown included), leaving the store open. Its
        streams are told to end first, as `arbiter serve`'s signal handler does."""
        self.app.end_streams()
        self.server.should_exit = True
        self.thread.join(10)

    def close(self) -> None:
        self.stop()
        self.flask.extensions["arbiter"].store.close()


def parse_sse(raw: bytes) -> list[dict]:
    events = []
    for block in raw.decode().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if line and not line.startswith(":"))
        if fields:
            events.append({"id": int(fields["id"]), "event": fields["event"], "data": orjson.loads(fields["data"])})
    return events


@pytest.fixture
def served(sqlite_env):
    server = Served(sqlite_env)
    yield server
    server.close()
