"""Where a terminal plays a match: the local store (hot-seat, the use cases called in this
process) or a server (its public HTTP API and live stream, with seat tokens). Both answer the
same questions, so the screen and the menus are the same for both."""

import time
import uuid

import httpx
import orjson

from domain.kernel.errors import DomainError

WAIT_POLL_SECONDS = 0.1  # how often a local match is looked at while others play
STREAM_READ_SECONDS = 30.0  # longer than the server's keep-alive (15 s): a quiet stream is not a dead one


class Refused(Exception):
    """The match refused a request: its problem's code and detail, for the player to read."""

    def __init__(self, code: str, detail: str):
        super().__init__(detail)
        self.code, self.detail = code, detail


class LocalSession:
    """A match in this machine's store, every seat played through the use cases (hot-seat)."""

    remote = False

    def __init__(self, arbiter, match_id: uuid.UUID):
        self.arbiter, self.match_id = arbiter, match_id

    def _call(self, function, *args):
        try:
            return function(self.match_id, *args)
        except DomainError as error:
            raise Refused(error.code, error.message) from None

    def _read(self, function, *args):
        """A read, under the match's lock: the process's bot runner may be playing this match's
        bots in its thread, and the store's cached match must not be read half-advanced."""
        with self.arbiter._lock(self.match_id):
            return self._call(function, *args)

    def summary(self) -> dict:
        return self._read(self.arbiter.summary)

    def board(self, seat, min_version: int | None = None) -> dict:
        return self._read(self.arbiter.board, seat, min_version)

    def legal(self, seat) -> dict:
        return self._read(self.arbiter.legal_actions, seat)

    def _command(self, function, *args):
        """A command, which plays the bots' replies in this thread before it returns: Ctrl-C
        there leaves them to the process's bot runner, or no bot would move again."""
        try:
            return self._call(function, *args)
        except KeyboardInterrupt:
            self.arbiter.play_bots_in_background(self.match_id)
            raise

    def act(self, seat, action) -> dict:
        return self._command(self.arbiter.submit_action, seat, action)

    def resign(self, seat) -> dict:
        return self._command(self.arbiter.resign, seat)

    def abort(self, seat) -> dict:
        return self._command(self.arbiter.abort, seat)

    def log(self, seat, since: int, min_version: int | None = None) -> list[dict]:
        records = []
        while since is not None:
            page = self._read(self.arbiter.log, seat, since, 100, min_version)
            records += page["events"]
            since = page["next_since"]
        return records

    def catalog(self, game: str) -> list[dict]:
        return self.arbiter.catalog(game)["entries"]

    def wait(self, version: int, seconds: float = 1.0) -> None:
        """Return once the match is past `version` (or after `seconds`)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and self.summary()["version"] <= version:
            time.sleep(WAIT_POLL_SECONDS)

    def close(self) -> None:
        pass


class Server:
    """A server's public API (GET and POST JSON, problems as `Refused`)."""

    def __init__(self, url: str):
        self.url = url.rstrip("/")
        self.http = httpx.Client(base_url=self.url, timeout=httpx.Timeout(30.0, connect=5.0),
                                 headers={"User-Agent": "arbiter-terminal"})

    def call(self, method: str, path: str, token: str | None = None, body=None, params=None):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if body is not None:
            headers["Content-Type"] = "application/json"
        try:
            answer = self.http.request(method, path, headers=headers, params=params,
                                       content=None if body is None else orjson.dumps(body))
        except httpx.HTTPError as error:
            raise Refused("unreachable", f"cannot reach the server at {self.url}: {error}") from None
        if answer.status_code >= 400:
            try:
                problem = answer.json()
            except ValueError:
                problem = {}
            raise Refused(str(problem.get("code") or answer.status_code), problem.get("detail") or answer.text[:300])
        return answer.json()

    def close(self) -> None:
        self.http.close()


class RemoteSession:
    """A match on a server: each seat played with its own token over the HTTP API; waiting
    for the others follows the match's live stream (Server-Sent Events)."""

    remote = True

    def __init__(self, server: Server, match_id: str, tokens: dict[int, str]):
        self.server, self.match_id, self.tokens = server, str(match_id), dict(tokens)
        self.base = f"/v1/matches/{self.match_id}"

    def summary(self) -> dict:
        return self.server.call("GET", self.base)

    def board(self, seat, min_version: int | None = None) -> dict:
        """The seat's board; at `min_version` at least (the server reads the store when its read
        model is behind): a board older than the summary the caller acts on would name another
        seat to play than the one asked."""
        return self.server.call("GET", f"{self.base}/board", self.tokens.get(seat), params=_at_least(min_version))

    def legal(self, seat) -> dict:
        return self.server.call("GET", f"{self.base}/legal-actions", self.tokens[seat])

    def act(self, seat, action) -> dict:
        return self.server.call("POST", f"{self.base}/actions", self.tokens[seat], {"action": action})

    def resign(self, seat) -> dict:
        return self.server.call("POST", f"{self.base}/resign", self.tokens[seat], {})

    def abort(self, seat) -> dict:
        return self.server.call("POST", f"{self.base}/abort", self.tokens[seat], {})

    def log(self, seat, since: int, min_version: int | None = None) -> list[dict]:
        records = []
        while since is not None:
            page = self.server.call("GET", f"{self.base}/log", self.tokens.get(seat),
                                    params={"since": since, "limit": 100, **_at_least(min_version)})
            records += page["events"]
            since = page["next_since"]
        return records

    def catalog(self, game: str) -> list[dict]:
        return self.server.call("GET", f"/v1/games/{game}/catalog")["entries"]

    def wait(self, version: int, seconds: float = STREAM_READ_SECONDS) -> None:
        """Follow the live stream from `version` until its next event arrives (or the stream
        ends: the match is over, or the server is shutting down), or `seconds` pass."""
        token = next(iter(self.tokens.values()), None)
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        try:
            with self.server.http.stream("GET", f"{self.base}/stream", params={"since": version}, headers=headers,
                                         timeout=httpx.Timeout(seconds, connect=5.0)) as stream:
                if stream.status_code != 200:
                    time.sleep(1.0)  # refused (too many streams, or shutting down): look again by polling
                    return
                for line in stream.iter_lines():
                    if line.startswith("data:"):
                        return
        except httpx.ReadTimeout:
            return
        except httpx.HTTPError as error:
            raise Refused("unreachable", f"lost the server at {self.server.url}: {error}") from None

    def close(self) -> None:
        self.server.close()


def _at_least(min_version: int | None) -> dict:
    return {} if min_version is None else {"min_version": min_version}
