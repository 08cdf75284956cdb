"""The viewer's browser tests: the real app on a local port, driven by Debian's Chromium
through Playwright (Playwright's own browser download is never used). The browser is
Debian's chromium-headless-shell: the same release as its chromium, built as the headless
shell that Playwright itself runs headless tests in; the full browser's headless mode also
draws its own window around the page, which took most of the suite's browser CPU."""

import os
from pathlib import Path

import pytest

from ..conftest import Served, sqlite_environ
from . import seed

CHROMIUM = os.environ.get("ARBITER_CHROMIUM", "/usr/bin/chromium-headless-shell")
DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).is_file():
        pytest.fail(f"the browser tests need Chromium at {CHROMIUM}: install Debian's package "
                    "(apt-get install -y chromium-headless-shell; make test does it as root) or set ARBITER_CHROMIUM", pytrace=False)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        yield browser
        browser.close()


class DeafTransport:
    """A connection's transport whose writes never arrive; the rest is the transport's."""

    def __init__(self, transport):
        self._transport = transport

    def write(self, data) -> None:
        pass

    def __getattr__(self, name):
        return getattr(self._transport, name)


class LiveServer(Served):
    """The server's ASGI app under uvicorn, as `arbiter serve` runs it, on a local port."""

    def __init__(self, environ):
        from service.web import renderer_paths

        super().__init__(environ)
        self.data_dir = environ["ARBITER_DATA_DIR"]
        self.renderers = set(renderer_paths())

    def drop_streams(self) -> int:
        """Cut every open live stream's connection, as a flaky network would."""
        dropped = 0
        for connection in list(self.server.server_state.connections):
            scope = getattr(connection, "scope", None) or {}
            if scope.get("path", "").endswith("/stream") and not connection.transport.is_closing():
                connection.transport.abort()
                dropped += 1
        return dropped

    def silence_streams(self) -> int:
        """Make every open live stream's connection a dead one that no side has noticed (a
        laptop that slept, a proxy that dropped it): it stays open, and nothing the server
        writes to it arrives."""
        silenced = 0
        for connection in list(self.server.server_state.connections):
            scope = getattr(connection, "scope", None) or {}
            if scope.get("path", "").endswith("/stream") and not connection.transport.is_closing():
                deaf = DeafTransport(connection.transport)
                connection.transport = deaf  # what the connection writes, and its request's cycle
                if getattr(connection, "cycle", None) is not None:
                    connection.cycle.transport = deaf
                silenced += 1
        return silenced

    @property
    def arbiter(self):
        return self.flask.extensions["arbiter"]

    def catch_up(self):
        self.flask.extensions["projector"].catch_up()


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    env = {**sqlite_environ(tmp_path_factory.mktemp("viewer")), "ARBITER_CACHE_SIZE": "200"}
    live = LiveServer(env)
    yield live
    live.close()


@pytest.fixture(scope="session")
def finished(server):
    """One finished match of every registered game (Cybermancy's is the long one)."""
    from domain.kernel import ruleset as rulesets

    matches = {}
    for ruleset in rulesets.all_latest():
        if ruleset.name == "cybermancy":
            matches["cybermancy"] = seed.long_match(server.arbiter, on_created=server.catch_up)
        else:
            # greedy bots, where a game has them, end their matches sooner than random ones
            matches[ruleset.name] = seed.play(server.arbiter, ruleset.name, seats=3 if ruleset.name == "cyberiad" else 2,
                                              seed=1, on_created=server.catch_up, bot="greedy")
    server.catch_up()
    return matches


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1440, "height": 1000}, base_url=server.url)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, f"the page raised: {errors}"


def screenshot_dir(tmp_path_factory=None) -> Path:
    """Where screenshots go: docs/ when ARBITER_SCREENSHOTS=docs, else the given directory."""
    wanted = os.environ.get("ARBITER_SCREENSHOTS")
    if wanted == "docs":
        return DOCS
    return Path(wanted) if wanted else Path(os.environ.get("TMPDIR", "/tmp")) / "arbiter-viewer-screenshots"
