"""Shared fixtures: real stores (a SQLite file, the PostgreSQL server) and the Flask app."""

import os
import uuid

import psycopg
import pytest
import redis
from hypothesis import settings

from domain.kernel.store import MatchStore
from service.api import create_app

settings.register_profile("ci", deadline=None, print_blob=True)
settings.load_profile("ci")

REDIS_URL = os.environ.get("ARBITER_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
POSTGRES_URL = os.environ.get("ARBITER_TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")


def sqlite_environ(tmp_path) -> dict:
    # Tests drive the projector and the clock themselves (projector.catch_up(),
    # arbiter.enforce_clocks()) unless they start them.
    return {"ARBITER_STORE": "sqlite", "ARBITER_DATA_DIR": str(tmp_path), "ARBITER_PROJECTOR": "off",
            "ARBITER_CLOCK": "off"}


@pytest.fixture
def sqlite_env(tmp_path):
    return sqlite_environ(tmp_path)


@pytest.fixture
def postgres_env(tmp_path):
    """A schema of its own in the `test` database, dropped afterwards."""
    schema = f"arbiter_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    yield {"ARBITER_STORE": "postgres", "ARBITER_DATABASE_URL": POSTGRES_URL, "ARBITER_DB_SCHEMA": schema,
           "ARBITER_DB_POOL_SIZE": "12", "ARBITER_PROJECTOR": "off", "ARBITER_CLOCK": "off",
           "ARBITER_DATA_DIR": str(tmp_path)}
    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


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
    yield {**sqlite_env, "ARBITER_REDIS_URL": REDIS_URL, "ARBITER_REDIS_PREFIX": prefix}
    client = redis.Redis.from_url(REDIS_URL)
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
