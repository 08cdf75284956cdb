"""Playing in the browser: two independent browser contexts (two players, each with only their
own seat token in their own sessionStorage) open a lobby on /play, join it and play a whole
match of every game through the match page's generic action panel, never calling the API
themselves; a person against a server bot; a refusal shown beside its action with the version
unchanged; resign and rematch; a clocked match that times out on the page; screenshots."""

import contextlib
import hashlib
import random
import re
import time
import types
import uuid
import warnings

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

import service.lifecycle

from .conftest import LiveServer, screenshot_dir
from ..conftest import sqlite_environ
from ..sizing import LONG
from .test_viewer import DRAWN, RENDERED_BY_US, api, call, check_drawn, expected_view

# The smallest quick set-up of each game, and which listed action the test's players press
# (measured with the rules alone: these end in tens of actions, where the first listed action
# of Herocard plays 1200). "random" picks with the test's own seeded generator.
SETUPS = {
    "cyberiad": ({}, "first"),
    "cybermancy": ({}, "last"),
    "cybermen": ({}, "last"),
    "cyberspace": ({"duels": "bit", "size": 5}, "first"),
    "herocard": ({"victory_points": 1}, "random"),
    "algomancy": ({"turn_limit": 2}, "last"),
}

# A whole match in two browsers costs about 0.2 CPU-s a press, and the deal decides how many
# presses a Cybermen, Cyberiad or HeroCard match takes: 52 to 177 for Cybermen pressing the
# last action (20 deals through the API: 13 under 66, 7 from 114), 11 to 137 for Cyberiad
# pressing the first, 7 to 89 for HeroCard pressing at random (ten deals in the browser; 22 to
# 226 through the rules alone). `make test` deals these three from a fixed match id and seed
# (`fixed_deal`), of a typical length for the game: Cybermen's 54 presses, Cyberiad's 51,
# HeroCard's 50. The other games' lengths hardly depend on the deal. A long run
# (ARBITER_LONG > 1, tests/sizing.py) deals at random, as the server does.
FIXED_DEALS = {"cybermen": "arbiter-test-deal:cybermen:8", "cyberiad": "arbiter-test-deal:cyberiad:14",
               "herocard": "arbiter-test-deal:herocard:0"}


@contextlib.contextmanager
def fixed_deal(monkeypatch, game):
    """While a lobby of `game` is opened in here, the server draws its match id and seed from
    FIXED_DEALS (a seat cannot choose its deal: only this test's patch of the server can)."""
    name = FIXED_DEALS.get(game) if LONG <= 1 else None
    if name is None:
        yield
        return
    match_id, seed = uuid.uuid5(uuid.NAMESPACE_URL, name), hashlib.sha256(name.encode()).digest()
    with monkeypatch.context() as patch:
        patch.setattr(service.lifecycle, "uuid", types.SimpleNamespace(uuid4=lambda: match_id, UUID=uuid.UUID))
        patch.setattr(service.lifecycle, "new_seed", lambda: seed)
        yield


@pytest.fixture(scope="session")
def live(tmp_path_factory):
    """A server with its projector (the lobby list) and clock running, as `arbiter serve` runs."""
    env = {**sqlite_environ(tmp_path_factory.mktemp("play")), "ARBITER_PROJECTOR": "embedded",
           "ARBITER_CLOCK": "embedded"}
    server = LiveServer(env)
    yield server
    server.close()  # its shutdown waits for the projector and the clock before the store closes


class Player:
    """One person: a browser context of their own (own sessionStorage), one page."""

    def __init__(self, browser, live, name, viewport=(1400, 900)):
        self.name = name
        self.context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]}, base_url=live.url)
        self.page = self.context.new_page()
        self.errors = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.api_calls = []
        self.page.on("request", lambda r: self.api_calls.append((r.method, r.url.replace(live.url, ""),
                                                                  r.headers.get("authorization"))))
        self.posts = []  # each action post: its Idempotency-Key and body
        self.page.on("request", lambda r: self.posts.append((r.headers.get("idempotency-key"), r.post_data_json))
                     if r.method == "POST" and r.url.endswith("/actions") else None)

    def close(self):
        self.context.close()
        assert not self.errors, f"{self.name}'s page raised: {self.errors}"

    def match_id(self):
        return self.page.url.split("/matches/")[1].split("#")[0]

    def state(self):
        return self.page.evaluate("""() => {
            const a = document.getElementById('actions'), b = document.getElementById('board'),
                  status = document.getElementById('status');  // any may be missing mid-reload
            return {ready: a ? a.dataset.ready === 'true' : false, listing: a ? Number(a.dataset.version || 0) : 0,
                    count: document.querySelectorAll('#actions li.action').length,
                    status: status ? status.textContent : '',
                    board: b ? Number(b.dataset.version || 0) : 0,
                    acted: window.arbiterMetrics.acted, refused: window.arbiterMetrics.refused,
                    conflicts: window.arbiterMetrics.conflicts};
        }""")


@pytest.fixture
def people(browser, live):
    made = []

    def make(name, viewport=(1400, 900)):
        player = Player(browser, live, name, viewport)
        made.append(player)
        return player

    yield make
    for player in made:
        player.close()


def open_lobby(host, game, options=None, seats=("you", "open"), clock=None):
    """The host opens a match on /play with the form built from the game's option schema."""
    page = host.page
    page.goto("/play")
    page.wait_for_selector(f"#create-game option[value='{game}']", state="attached")
    page.fill("#create-name", host.name)
    page.select_option("#create-game", game)
    page.select_option("#create-count", str(len(seats)))
    for seat, kind in enumerate(seats):
        page.select_option(f"#create-seats select[data-seat='{seat}']", kind)
    for key, value in (options or {}).items():
        field = page.locator(f"[data-option='{key}']").first
        tag = field.evaluate("e => e.tagName")
        if tag == "SELECT":
            page.select_option(f"select[data-option='{key}']", label=str(value).replace("_", " ").title()
                               if isinstance(value, str) else ("yes" if value else "no"))
        else:
            field.fill(str(value))
    if clock:
        page.select_option("#clock-kind", clock["kind"])
        if clock["kind"] == "per_move":
            page.fill("#clock-move", str(clock["move_seconds"]))
    page.click("#create-submit")
    page.wait_for_url("**/matches/*")
    return host.match_id()


def join_from_lobby_list(player, match_id):
    page = player.page
    page.goto("/play")
    page.fill("#create-name", player.name)
    page.wait_for_selector(f"#lobbies tr[data-match-id='{match_id}'] button.join-lobby", timeout=20000)
    page.click(f"#lobbies tr[data-match-id='{match_id}'] button.join-lobby")
    page.wait_for_url(f"**/matches/{match_id}*")


def wait_running(*players):
    for player in players:
        # null-safe: a start reloads the page, and the wait may look at the document mid-reload
        player.page.wait_for_function("() => { const s = document.getElementById('status'), "
                                      "a = document.getElementById('actions'); "
                                      "return s && a && s.textContent === 'running' && a.dataset.version; }",
                                      timeout=20000)


def press(player, nth, selector=None, rand=None):
    """Press the button of the panel's nth row (or of the row `selector` names); wait until the
    page has the answer. True when the post was accepted. With `rand`, a row of items to tick
    one by one (a discard) gets each item ticked or not at random first."""
    before = player.state()
    row = player.page.locator(selector or "#actions li.action").nth(0 if selector else nth)
    button = row.locator("button.action-do")
    try:
        if rand is not None and "action-subset" in (row.get_attribute("class", timeout=3000) or ""):
            for box in row.locator(".param-items input[type=checkbox]").all():
                box.set_checked(rand.random() < 0.5, timeout=3000)
        button.click(timeout=3000)
    except Exception:
        if player.state()["ready"]:
            raise
        return False  # the turn moved on between looking and pressing (a simultaneous step): look again
    try:
        player.page.wait_for_function(
            "b => { const m = window.arbiterMetrics; return m.acted > b.acted || m.refused > b.refused || m.conflicts > b.conflicts; }",
            arg=before, timeout=15000)
    except PlaywrightTimeout:  # the press landed on a row the page had just drawn anew: look again
        return False
    return player.page.evaluate("() => window.arbiterMetrics.acted") > before["acted"]


def play_out(players, pick, rand, limit=2000, deadline_s=240):
    """Each player presses a listed action whenever their page says it is their turn."""
    started, pressed = time.monotonic(), 0
    while pressed < limit:
        assert time.monotonic() - started < deadline_s, f"no end after {pressed} actions"
        states = [(player, player.state()) for player in players]
        if all(s["status"] in ("ended", "abandoned") for _, s in states):
            return pressed
        ready = [(p, s) for p, s in states if s["ready"] and s["count"]]
        if not ready:
            time.sleep(0.02)
            continue
        player, s = ready[0]
        index = 0 if pick == "first" else s["count"] - 1 if pick == "last" else rand.randrange(s["count"])
        pressed += press(player, index, rand=rand if pick == "random" else None)
    raise AssertionError(f"no end after {limit} actions")


def final_matches_api(live, players, match_id, game):
    summary = api(live, f"/v1/matches/{match_id}")
    assert summary["status"] == "ended"
    for seat, player in enumerate(players):
        page = player.page
        page.wait_for_function("v => window.arbiterMetrics.rendered === 'view:' + v", arg=f"{seat}:{summary['version']}",
                               timeout=20000)
        assert page.inner_text("#status") == "ended"
        winners = [summary["seats"][w]["name"] for w in summary["outcome"]["winners"]]
        assert all(name in page.inner_text("#outcome") for name in winners)
        if game in RENDERED_BY_US:
            drawn = page.evaluate(DRAWN)
            assert "renderer failed" not in drawn["text"], drawn["text"][:300]
            check_drawn(game, drawn, expected_view(live, match_id, summary["version"], seat))
    return summary


@pytest.mark.parametrize("game", sorted(SETUPS))
def test_two_browsers_open_a_lobby_join_and_play_a_whole_match(people, live, game, record_property, monkeypatch):
    options, pick = SETUPS[game]
    ann, bob = people("ann"), people("bob")
    with fixed_deal(monkeypatch, game):
        match_id = open_lobby(ann, game, options)
    ann.page.wait_for_selector("#lobby:not([hidden]) #lobby-leave")
    join_from_lobby_list(bob, match_id)
    wait_running(ann, bob)
    started = time.monotonic()
    pressed = play_out([ann, bob], pick, random.Random(game))
    summary = final_matches_api(live, [ann, bob], match_id, game)
    record_property("play", {"game": game, "pressed": pressed, "seconds": round(time.monotonic() - started, 1)})
    # the test itself called no API: every request came from the pages, each with its own token only
    tokens = {p.name: {auth for _, _, auth in p.api_calls if auth} for p in (ann, bob)}
    assert len(tokens["ann"]) == 1 and len(tokens["bob"]) == 1 and tokens["ann"] != tokens["bob"]
    posts = ann.posts + bob.posts
    assert len(posts) >= pressed and summary["version"] >= pressed
    keys = [key for key, _ in posts]
    assert all(keys) and len(set(keys)) == len(keys), "a fresh Idempotency-Key on every post"
    assert all(isinstance(body["expected_version"], int) and "params" not in body["action"] for _, body in posts)
    # each page lists its seat's actions about once a version (the mover's page listed again on
    # its own post's event, a second listing and panel for every move: 1.22 to 1.36 a version)
    for player in (ann, bob):
        listings = sum(1 for _, url, _ in player.api_calls if "/legal-actions" in url)
        assert listings <= summary["version"] * 1.1 + 2, f"{player.name}: {listings} listings for {summary['version']} versions"


def running_match(ann, bob, game="cyberiad", options=None, clock=None) -> str:
    """ann opens a lobby on /play, bob joins from the list, and both pages show it running."""
    match_id = open_lobby(ann, game, options, clock=clock)
    join_from_lobby_list(bob, match_id)
    wait_running(ann, bob)
    return match_id


def wait_ready(player, timeout=10000) -> None:
    player.page.wait_for_function("() => document.getElementById('actions').dataset.ready === 'true'", timeout=timeout)


def wait_listed(player, version: int) -> None:
    """The page's listing is at `version` (within 15 s, a loaded machine's time for a page that
    lists again after its 2 s retry: a page left behind never gets there)."""
    player.page.wait_for_function("v => Number(document.getElementById('actions').dataset.version) === v",
                                  arg=version, timeout=15000)


def wait_for_handler(page, held: dict, key: str, what: str) -> None:
    """A route handler runs only while this thread waits in the browser: wait there until it
    has set `held[key]`."""
    for _ in range(300):
        if held[key] is not None:
            return
        page.wait_for_timeout(50)
    raise AssertionError(what)


def test_a_reply_that_reaches_the_page_while_its_own_post_is_answered_is_listed_after_it(people, live):
    """(Found by a suite run that hung.) The mover's post is answered with a listing read before
    the other seat's reply, and that reply's event reaches the mover's page while the post is
    still in flight (the page leaves such an event to the post): once the post is done the page
    must list again, or it waits for a turn it already has."""
    ann, bob = people("ann"), people("bob")
    match_id = running_match(ann, bob)
    mover, other = (ann, bob) if api(live, f"/v1/matches/{match_id}")["to_act"] == [0] else (bob, ann)
    held = {"armed": False, "reply": None}

    def hold_the_listing_until_the_reply_is_on_the_page(route):
        if not held["armed"]:
            return route.continue_()
        held["armed"] = False
        listing = route.fetch()  # read by the server now, before the other seat replies
        wait_ready(other)
        assert press(other, 0), "the other seat's reply was accepted"
        held["reply"] = api(live, f"/v1/matches/{match_id}")["version"]
        mover.page.wait_for_selector(f"#log li[data-seq='{held['reply']}']", state="attached", timeout=10000)
        mover.page.wait_for_timeout(200)  # past the page's debounce of a new version
        route.fulfill(response=listing)

    mover.page.route("**/legal-actions", hold_the_listing_until_the_reply_is_on_the_page)
    wait_ready(mover)
    held["armed"] = True
    assert press(mover, 0)
    wait_for_handler(mover.page, held, "reply", "the listing after the post was held until the reply was on the page")
    wait_listed(mover, held["reply"])


def test_a_move_made_while_the_page_loads_reaches_it_even_when_the_log_has_it_first(people, live):
    """(From a review of the page's races.) A page loads its summary and its listing at one
    version, the other seat moves, and the log (read after) already holds that move: the live
    stream must resume from what the page has drawn and listed, not from the log's last entry,
    or the move never reaches the page's listing and it waits for a turn it has."""
    ann, bob = people("ann"), people("bob")
    match_id = running_match(ann, bob)
    if api(live, f"/v1/matches/{match_id}")["to_act"] == [0]:
        wait_ready(ann)
        assert press(ann, 0)  # now bob's turn: his move will give ann hers
    held = {"listings": 0, "moved": None}

    def listing_read_before_bobs_move(route):
        held["listings"] += 1
        if held["listings"] != 2 or held["moved"] is not None:  # the 1st is the sign-in check
            return route.continue_()
        listing = route.fetch()
        wait_ready(bob)
        assert press(bob, 0)
        held["moved"] = api(live, f"/v1/matches/{match_id}")["version"]
        route.fulfill(response=listing)

    def log_read_after_it(route):
        wait_for_handler(ann.page, held, "moved", "bob's move before the log is read")
        route.continue_()

    ann.page.route("**/legal-actions", listing_read_before_bobs_move)
    ann.page.route("**/log*", log_read_after_it)
    ann.page.reload()
    wait_for_handler(ann.page, held, "moved", "bob moved while ann's page was loading")
    wait_listed(ann, held["moved"])


def test_a_stream_refused_for_too_many_streams_is_tried_again_after_its_retry_after(people, live):
    """(From a review of the page's races.) The server answers 429 too_many_streams (with
    Retry-After) while an address holds too many streams: the page tries again after that
    wait, where it had given the stream up for good."""
    ann, bob, eve = people("ann"), people("bob"), people("eve")
    match_id = running_match(ann, bob)
    refused = []

    def too_many_streams_once(route):
        if refused:
            return route.continue_()
        refused.append(route.request.url)
        route.fulfill(status=429, headers={"Retry-After": "1", "Content-Type": "application/problem+json"},
                      body='{"type": "urn:arbiter:problem:too_many_streams", "status": 429, "code": "too_many_streams"}')

    eve.page.route("**/stream*", too_many_streams_once)
    eve.page.goto(f"/matches/{match_id}")
    eve.page.wait_for_selector("#live[data-state='on']", timeout=15000)
    assert len(refused) == 1


def test_a_stream_that_went_silent_is_dropped_and_the_page_reconnects_to_see_the_next_move(people, live):
    """(From a review of the page's races.) A stream whose connection died unnoticed (a laptop
    that slept, a proxy that dropped it) stays open and brings nothing: the page showed "live"
    and waited for ever. The server writes at least every 15 s, so a stream silent for 35 s is
    dropped and reconnected (the page's clock is run forward here instead of waited out)."""
    ann, bob = people("ann"), people("bob")
    ann.page.clock.install()
    match_id = running_match(ann, bob, "cybermancy")
    version = play_until_alone_to_act(live, match_id, [ann, bob], 1)
    ann.page.wait_for_selector("#live[data-state='on']")
    assert live.silence_streams() >= 1
    ann.page.clock.run_for(40_000)
    wait_ready(bob)
    press(bob, 0)
    moved = api(live, f"/v1/matches/{match_id}")["version"]
    assert moved > version
    wait_drawn(ann, moved)
    assert ann.page.evaluate("() => window.arbiterMetrics.silences") >= 1


def play_until_alone_to_act(live, match_id, players, seat) -> int:
    """Both press listed actions until `seat` alone is to act and every page has drawn that
    version; its number."""
    started = time.monotonic()
    while api(live, f"/v1/matches/{match_id}")["to_act"] != [seat]:
        assert time.monotonic() - started < 60, f"never seat {seat}'s turn alone"
        ready = [p for p in players if p.state()["ready"]]
        press(ready[0], 0) if ready else time.sleep(0.02)
    version = api(live, f"/v1/matches/{match_id}")["version"]
    for player in players:
        wait_drawn(player, version)
    return version


def wait_drawn(player, version: int, timeout=10000) -> None:
    player.page.wait_for_function("v => Number(document.getElementById('board').dataset.version) >= v",
                                  arg=version, timeout=timeout)


def unavailable(times: int):
    """A route handler that answers the first `times` requests 503 (read models away), then lets
    them through; the list it returns counts the refusals."""
    refused = []

    def handler(route):
        if len(refused) >= times:
            return route.continue_()
        refused.append(route.request.url)
        route.fulfill(status=503, headers={"Content-Type": "application/problem+json", "Retry-After": "1"},
                      body='{"type": "urn:arbiter:problem:read_models_unavailable", "status": 503, '
                           '"code": "read_models_unavailable", "detail": "the read models are away"}')
    handler.refused = refused
    return handler


def test_a_log_that_cannot_be_read_at_the_start_leaves_the_board_and_the_stream_working(people, live):
    """(From a review of the page's races.) The log is a read model and may be away while the
    store answers: the page used to give up ("cannot be shown") with no stream. The board and
    the stream go on, the next move arrives, and the log is read again."""
    ann, bob = people("ann"), people("bob")
    match_id = running_match(ann, bob, "cybermancy")
    play_until_alone_to_act(live, match_id, [ann, bob], 1)
    log_away = unavailable(2)
    ann.page.route("**/log?*", log_away)
    ann.page.reload()
    ann.page.wait_for_selector("#live[data-state='on']", timeout=10000)
    wait_ready(bob)
    assert press(bob, 0)
    moved = api(live, f"/v1/matches/{match_id}")["version"]
    wait_drawn(ann, moved)
    ann.page.wait_for_selector("#log li.error", state="detached", timeout=10000)  # read again
    seqs = ann.page.eval_on_selector_all("#log li[data-seq]", "ls => ls.map(l => Number(l.dataset.seq))")
    assert seqs == list(range(1, moved + 1)) and len(log_away.refused) == 2


def test_the_end_is_drawn_when_the_summary_read_at_the_end_fails_once(people, live):
    """(From a review of the page's races.) At the match's last event the page reads the
    summary; one failure there left the header saying "running" for good. It is read again."""
    ann, bob = people("ann"), people("bob")
    match_id = running_match(ann, bob)
    ann.page.wait_for_selector("#live[data-state='on']")
    summary_away = unavailable(1)
    ann.page.route(f"**/v1/matches/{match_id}", summary_away)
    bob.page.click("#resign")
    bob.page.click("#resign")
    ann.page.wait_for_function("() => document.getElementById('status').textContent === 'ended'", timeout=15000)
    assert "bob" not in ann.page.inner_text("#outcome") and len(summary_away.refused) == 1


def test_a_listing_that_fails_is_listed_again(people, live):
    """(From a review of the page's races.) A listing that failed (a server error) was shown as
    an error and not asked again: the page waited for the next event. It is asked again."""
    ann, bob = people("ann"), people("bob")
    match_id = running_match(ann, bob, "cybermancy")
    play_until_alone_to_act(live, match_id, [ann, bob], 1)
    listing_away = unavailable(1)
    ann.page.route("**/legal-actions", listing_away)
    wait_ready(bob)
    assert press(bob, 0)
    moved = api(live, f"/v1/matches/{match_id}")["version"]
    wait_listed(ann, moved)
    assert len(listing_away.refused) == 1 and ann.page.is_hidden("#play-error")


def test_an_older_summary_answered_after_a_newer_one_is_not_drawn_over_it(people, live):
    """(From a review of the page's races.) In a clocked match the page asks the summary after
    every event, so two asked close together may be answered in either order: the older one,
    answered last, put the older seats to act back in the header."""
    ann, bob = people("ann"), people("bob")
    match_id = running_match(ann, bob, "cyberiad", clock={"kind": "per_move", "move_seconds": 300})
    summary_url = f"**/v1/matches/{match_id}"
    held = {"armed": False, "route": None, "stale": None}

    def hold_the_first_summary(route):
        if not held["armed"] or held["route"] is not None:
            return route.continue_()
        held["route"], held["stale"] = route, route.fetch()  # read now, answered later

    ann.page.route(summary_url, hold_the_first_summary)
    held["armed"] = True

    def press_until(done):
        started = time.monotonic()
        while not done():
            assert time.monotonic() - started < 60, "the match never got there"
            ready = [p for p in (ann, bob) if p.state()["ready"]]
            press(ready[0], 0) if ready else ann.page.wait_for_timeout(20)

    press_until(lambda: held["route"] is not None)  # a move: its summary is held
    stale = held["stale"].json()["to_act"]
    press_until(lambda: api(live, f"/v1/matches/{match_id}")["to_act"] != stale)  # later moves: answered
    now = api(live, f"/v1/matches/{match_id}")
    words = "In play · to act: " + ", ".join(now["seats"][seat]["name"] for seat in now["to_act"])
    ann.page.wait_for_function("t => document.getElementById('outcome').textContent === t", arg=words)
    held["route"].fulfill(response=held["stale"])
    ann.page.wait_for_timeout(300)
    assert ann.page.inner_text("#outcome") == words


def test_a_post_that_gets_no_answer_is_given_up_and_the_actions_are_listed_again(people, live):
    """(From a review of the page's races.) An action post the server never answers (a dead
    connection, a hung server) kept the page busy, with no listing, for as long as it hung. It
    is given up after 20 s (the page's clock is run forward here): the actions are listed as
    the match stands and the seat can press again."""
    ann, bob = people("ann"), people("bob")
    ann.page.clock.install()
    match_id = running_match(ann, bob, "cybermancy")
    version = play_until_alone_to_act(live, match_id, [ann, bob], 0)
    held = {"post": None}

    def never_answered(route):
        held["post"] = route.request.url  # neither sent on nor answered

    ann.page.route("**/actions", never_answered)
    wait_ready(ann)
    ann.page.click("#actions li.action button.action-do")
    wait_for_handler(ann.page, held, "post", "the post was made")
    assert not ann.state()["ready"]
    ann.page.clock.run_for(21_000)
    wait_ready(ann)
    assert "no answer" in ann.page.inner_text("#play-error")
    ann.page.unroute("**/actions")
    assert press(ann, 0) and api(live, f"/v1/matches/{match_id}")["version"] > version


def test_a_server_error_while_the_page_checks_its_seat_keeps_the_player_signed_in(people, live):
    """(From a review of the page's races.) The page asks which seat its stored token holds;
    a server error there (not a 401/403) used to throw the token away, and the player, whose
    only copy it was, watched as a spectator from then on. It is asked again instead."""
    ann, bob = people("ann"), people("bob")
    running_match(ann, bob)
    failed = []

    def server_error_once(route):
        if failed:
            return route.continue_()
        failed.append(route.request.url)
        route.fulfill(status=503, headers={"Content-Type": "application/problem+json"},
                      body='{"type": "urn:arbiter:problem:unavailable", "status": 503, "code": "unavailable"}')

    ann.page.route("**/legal-actions", server_error_once)
    ann.page.reload()
    ann.page.wait_for_selector("#signed-in-as:has-text('Signed in as ann')", timeout=10000)
    assert len(failed) == 1
    ann.page.unroute("**/legal-actions")
    ann.page.reload()  # the token was kept: signed in again with no form
    ann.page.wait_for_selector("#signed-in-as:has-text('Signed in as ann')", timeout=10000)


def test_a_person_plays_a_whole_match_against_a_server_bot(people, live, record_property, capsys):
    ann = people("ann")
    match_id = open_lobby(ann, "herocard", {"victory_points": 2}, seats=("you", "bot:greedy"))
    wait_running(ann)
    rand, waits, pressed = random.Random(7), [], 0
    started = time.monotonic()
    while ann.state()["status"] == "running":
        assert time.monotonic() - started < 120, "no end in 120 s"
        s = ann.state()
        if not (s["ready"] and s["count"]):
            time.sleep(0.02)
            continue
        clicked = time.perf_counter()
        if press(ann, rand.randrange(s["count"]), rand=rand):
            pressed += 1
            # the click until the board is redrawn with the bot's reply (or the end)
            ann.page.wait_for_function("""() => document.getElementById('status').textContent !== 'running' ||
                (document.getElementById('actions').dataset.ready === 'true' &&
                 Number(document.getElementById('board').dataset.version) >= Number(document.getElementById('actions').dataset.version))""",
                                       timeout=15000)
            waits.append((time.perf_counter() - clicked) * 1000)
    summary = final_matches_api(live, [ann], match_id, "herocard")
    assert summary["seats"][1]["name"].startswith("bot-greedy") and pressed >= 1
    waits.sort()
    report = {"presses": len(waits), "click_to_reply_p50_ms": round(waits[len(waits) // 2]),
              "click_to_reply_p95_ms": round(waits[min(len(waits) - 1, int(len(waits) * 0.95))])}
    record_property("click_to_reply", report)
    with capsys.disabled():
        print(f"\nclick to the board redrawn with the bot's reply: {report}")


def a_payment_that_costs_something(ann):
    """The first listed action's row until a card to play has a payment to choose that costs
    something, left with nothing paid; None when the match ends first."""
    page = ann.page
    for _ in range(200):
        s = ann.state()
        if s["status"] != "running":
            return None
        if s["ready"]:
            try:
                for candidate in page.locator("#actions li.action[data-type='play']:has(details.action-edit)").all():
                    candidate.locator("details.action-edit").evaluate("d => { d.open = true; }", timeout=2000)
                    for box in candidate.locator(".param-items input[type=checkbox]").all():  # pay nothing, item by item
                        if box.is_checked(timeout=2000):
                            box.uncheck(timeout=2000)
                    if candidate.locator(".param-total").get_attribute("data-enough", timeout=2000) == "false":
                        return candidate  # the running total says so
            except PlaywrightTimeout:  # the panel was drawn anew under the clicks: look again
                continue
        if s["ready"] and s["count"]:
            press(ann, 0)
        else:
            time.sleep(0.02)
    return None


def test_a_refused_action_shows_its_reason_beside_it_and_changes_nothing(people, live):
    ann = people("ann")
    for _ in range(3):  # the deal is the server's: a match that ended before a payment was listed is played again
        match_id = open_lobby(ann, "cyberiad", seats=("you", "bot:random"))
        wait_running(ann)
        row = a_payment_that_costs_something(ann)
        if row is not None:
            break
    assert row is not None, "no card with a cost was listed in three matches"
    page = ann.page
    index = row.get_attribute("data-action-index")
    version = api(live, f"/v1/matches/{match_id}")["version"]
    row.locator(".param-items input[type=checkbox]").first.check()  # picked item by item: the total follows
    assert row.locator(".param-total").get_attribute("data-worth") != "0"
    row.locator(".param-items input[type=checkbox]").first.uncheck()
    # every card ticked: the total says whether one of them is not needed ("a number of Cards
    # equal to the cost": the listing's `no_spare`), as the rules would judge it
    boxes = row.locator(".param-items input[type=checkbox]").all()
    for box in boxes:
        box.check()
    total = row.locator(".param-total")
    need = int(re.search(r"of at least (\d+)", total.inner_text()).group(1))
    worths = [int(re.search(r"\((\d+)\)", label).group(1))
              for label in row.locator(".param-items label.param-item").all_inner_texts()]
    spare = sum(worths) - min(worths) >= need
    assert total.get_attribute("data-enough") == ("false" if spare else "true"), total.inner_text()
    assert ("one card fewer still pays" in total.inner_text()) == spare, total.inner_text()
    for box in boxes:
        box.uncheck()
    row.locator("button.action-do").click()
    page.wait_for_selector(f"#actions .action-error[data-action-index='{index}']:not([hidden])")
    reason = page.inner_text(f"#actions .action-error[data-action-index='{index}']")
    assert "costs" in reason, reason  # the server's own detail ("... costs 2 card(s); the cards offered are worth 0")
    assert api(live, f"/v1/matches/{match_id}")["version"] == version, "the refusal recorded nothing"
    assert ann.state()["board"] == version and ann.state()["ready"]
    page.screenshot(path=str(screenshot_dir() / "play-cyberiad-payment-refused.png"))
    # the half-made choice is still there, and the listed payment still plays
    assert row.locator("details.action-edit").get_attribute("open") is not None
    # an action typed as JSON is refused the same way, beside the JSON
    page.click("#raw summary")
    page.fill("#raw-action", '{"type": "play", "card": "no-such-card", "pay": []}')
    page.click("#raw-send")
    page.wait_for_selector("#raw-error:not([hidden])")
    assert page.inner_text("#raw-error")
    assert api(live, f"/v1/matches/{match_id}")["version"] == version


def test_resign_ends_the_match_and_a_rematch_takes_both_players_to_the_new_one(people, live):
    ann, bob = people("ann"), people("bob")
    match_id = running_match(ann, bob, "cyberiad")
    ann.page.click("#resign")
    assert ann.page.inner_text("#resign") == "Really resign?"  # the confirm step
    ann.page.click("#resign")
    for player in (ann, bob):
        player.page.wait_for_function("() => document.getElementById('status').textContent === 'ended'", timeout=15000)
    assert "bob" in bob.page.inner_text("#outcome")
    summary = api(live, f"/v1/matches/{match_id}")
    assert summary["left"] == {"0": "resigned"} and summary["outcome"]["winners"] == [1]
    ann.page.click("#rematch")
    ann.page.wait_for_url(lambda url: "/matches/" in url and match_id not in url, timeout=15000)
    new_id = ann.match_id()
    bob.page.wait_for_selector("#accept-rematch:not([hidden])", timeout=20000)
    # signing out and in again redraws the seat's panel: the offer stays what it says
    token = bob.page.evaluate(f"() => sessionStorage.getItem('arbiter-token:{match_id}')")
    bob.page.click("#logout")
    bob.page.fill("#token", token)
    bob.page.click("#login button[type=submit]")
    bob.page.wait_for_selector("#signed-in:not([hidden])")
    bob.page.wait_for_function("() => !document.getElementById('play').hidden")
    assert bob.page.inner_text("#turn") == "A rematch is offered."
    assert bob.page.is_visible("#accept-rematch") and bob.page.is_hidden("#rematch")
    bob.page.click("#accept-rematch")
    bob.page.wait_for_url(f"**/matches/{new_id}*", timeout=15000)
    rematch = api(live, f"/v1/matches/{new_id}")
    assert rematch["rematch_of"] == match_id and [s["name"] for s in rematch["seats"]] == ["bob", "ann"]
    wait_running(ann, bob)
    for player, seat in ((ann, 1), (bob, 0)):  # each old token opens the player's new seat
        player.page.wait_for_selector("#signed-in:not([hidden])")
        assert f"seat {seat}" in player.page.inner_text("#signed-in-as")


def test_a_clocked_match_ticks_on_the_page_and_its_timeout_ends_it(people, live):
    ann, bob = people("ann"), people("bob")
    # 8 s a move: long enough to see the clock tick on a busy machine, short enough to wait out
    match_id = running_match(ann, bob, "cyberiad", clock={"kind": "per_move", "move_seconds": 8})
    page = bob.page
    page.wait_for_selector("#clocks .clock.running")
    first = int(page.get_attribute("#clocks .clock.running", "data-ms"))
    page.wait_for_timeout(700)
    second = int(page.get_attribute("#clocks .clock.running", "data-ms"))
    assert 0 < second < first <= 8000, (first, second)  # ticking in the browser
    page.wait_for_selector("#clocks .clock.low", timeout=12000)  # the low-time warning (under 10 s)
    # nobody moves: the server's clock records the timeout, and the stream ends the match on both pages
    for player in (ann, bob):
        player.page.wait_for_function("() => document.getElementById('status').textContent === 'ended'", timeout=25000)
        assert "timeout" in player.page.inner_text("#outcome").lower() or "time" in player.page.inner_text("#outcome").lower()
    assert api(live, f"/v1/matches/{match_id}")["left"]


def test_a_served_bots_clock_reads_untimed_on_the_page_while_the_persons_clock_counts(people, live):
    """A served bot's clock does not run (README: "its time is the server's pace, not its
    own"): its seat shows no time that never changes, but that it is untimed."""
    ann = people("ann")
    match_id = open_lobby(ann, "cyberiad", seats=("you", "bot:random"), clock={"kind": "per_move", "move_seconds": 60})
    wait_running(ann)
    page = ann.page
    page.wait_for_selector("#clocks .clock[data-seat='1']")
    bot = page.locator("#clocks .clock[data-seat='1']")
    assert bot.locator(".clock-time").inner_text() == "—"
    assert "untimed" in (bot.get_attribute("class") or "") and "does not run" in (bot.get_attribute("title") or "")
    assert re.fullmatch(r"[01]:\d\d", page.inner_text("#clocks .clock[data-seat='0'] .clock-time"))
    seats = {c["seat"]: c for c in api(live, f"/v1/matches/{match_id}")["clock"]["seats"]}
    assert seats[1].get("untimed") is True and not seats[0].get("untimed")


def press_a_while(ann, bob, presses: int, choose, deadline_s=120) -> None:
    """The two players press `presses` listed actions (`choose(count)` picks one), or fewer if
    the match ends first: a match in play to look at."""
    pressed, started = 0, time.monotonic()
    while pressed < presses:
        assert time.monotonic() - started < deadline_s, f"{pressed} of {presses} presses in {deadline_s} s: a page stuck?"
        states = [(p, p.state()) for p in (ann, bob)]
        if any(s["status"] != "running" for _, s in states):
            return
        ready = [(p, s) for p, s in states if s["ready"] and s["count"]]
        if not ready:
            time.sleep(0.02)
            continue
        player, s = ready[0]
        pressed += press(player, choose(s["count"]))


def played_while_away(live, players, match_id: str, moves: int, choose) -> None:
    """`moves` listed actions of the match taken in the server's process (`choose(count)` picks
    one, as the pages' players pick a row) while its players' pages are away; then the pages
    open the match again. A match in play to look at, without every page drawing every move on
    the way (a browser's work, most of a screenshot test's)."""
    for player in players:
        player.page.goto("about:blank")  # the tab keeps its sessionStorage: its seat's token
    mid = uuid.UUID(match_id)
    for _ in range(moves):
        summary = live.arbiter.summary(mid)
        if summary["status"] != "running":
            break
        seat = summary["to_act"][0]
        actions = live.arbiter.legal_actions(mid, seat)["actions"]
        live.arbiter.submit_action(mid, seat, actions[choose(len(actions))])
    for player in players:
        player.page.goto(f"/matches/{match_id}")
    wait_running(*players)


WIDE, PHONE = (1400, 900), (390, 844)
SHOT_OPTIONS = {"herocard": {"victory_points": 5}}  # a match still running after a few moves
MID_MATCH = {"cyberiad": 12, "cybermancy": 30, "cybermen": 20, "cyberspace": 20, "herocard": 6, "algomancy": 12}
# of which the pages press the last ones: the header and the board's panels must follow the
# moves the stream brings (the header once kept the first seats to act), not only a page load
PRESSED_TO_MID_MATCH = 3


def overflow(page):
    return page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")


# the games whose board panels mark the seats the rules ask (Cybermen's mark whose turn it is,
# Algomancy's the regions)
PANELS_MARK_TO_ACT = {"cyberiad", "cybermancy", "cyberspace", "herocard"}


@pytest.mark.parametrize("game", sorted(SETUPS))
def test_screenshots_mid_match_for_a_seat_and_a_spectator_fit_wide_and_phone_screens(people, live, game):
    options, pick = SETUPS[game]
    options = {**options, **SHOT_OPTIONS.get(game, {})}
    ann, bob, eve = people("ann"), people("bob"), people("eve")
    rand = random.Random(game)

    def choose(count):
        return 0 if pick == "first" else count - 1 if pick == "last" else rand.randrange(count)

    for _ in range(3):  # the deal is the server's: a match that ended early is played again
        match_id = running_match(ann, bob, game, options)
        played_while_away(live, (ann, bob), match_id, MID_MATCH[game] - PRESSED_TO_MID_MATCH, choose)
        press_a_while(ann, bob, PRESSED_TO_MID_MATCH, choose)
        if api(live, f"/v1/matches/{match_id}")["status"] == "running":
            break
    assert api(live, f"/v1/matches/{match_id}")["status"] == "running", "the screenshots are of a match in play"
    eve.page.goto(f"/matches/{match_id}")
    eve.page.wait_for_selector("#live[data-state='on']")
    # the header follows the board: the seats it marks to act are the API's, not the first ones
    for player in (ann, bob, eve):
        summary = api(live, f"/v1/matches/{match_id}")
        player.page.wait_for_function("v => Number(document.getElementById('board').dataset.version) === v", arg=summary["version"])
        marked = player.page.eval_on_selector_all("#players .seat-tag.to-act", "ts => ts.map(t => Number(t.dataset.seat))")
        assert marked == summary["to_act"], (player.name, marked, summary["to_act"])
        if game in PANELS_MARK_TO_ACT:  # and so do the board's seat panels (the answer's to_act, beside the view)
            panels = player.page.eval_on_selector_all("#board section.panel.player.turn",
                                                      "ps => ps.map(p => Number(p.dataset.seat))")
            assert sorted(panels) == summary["to_act"], (player.name, panels, summary["to_act"])
    folder = screenshot_dir()
    folder.mkdir(parents=True, exist_ok=True)
    for size in (WIDE, PHONE):
        for who, player in (("seat", ann), ("spectator", eve)):
            player.page.set_viewport_size({"width": size[0], "height": size[1]})
            player.page.wait_for_timeout(150)
            player.page.screenshot(path=str(folder / f"play-{game}-{who}-{size[0]}.png"))
            assert overflow(player.page) <= 0, f"{game}, {who}, {size[0]} px: the page is wider than the screen"


def test_nothing_hidden_reaches_a_page_while_its_seat_acts(people, live):
    """Each player's page, mid-match and while acting (listing, panel, card details, log),
    shows no card of the other hand or the deck, and asks the API with its own token only."""
    import json

    from domain.games.cyberiad.cards import CARDS, card_of

    ann, bob = people("ann"), people("bob")
    rand = random.Random(5)

    def hidden_from(player, seat):
        """The cards of the other hand and the deck that nothing this seat may read names."""
        match = live.arbiter.store.match(uuid.UUID(match_id))
        token = player.page.evaluate(f"() => sessionStorage.getItem('arbiter-token:{match_id}')")
        known = json.dumps(api(live, f"/v1/matches/{match_id}/log?limit=1000&min_version={match.version}", token)) + \
            json.dumps(api(live, f"/v1/matches/{match_id}/legal-actions", token))
        return match.state, token, known, [c for c in match.state["hands"][1 - seat] + match.state["deck"] if c not in known]

    for _ in range(3):  # the deal is the server's: a match that ended, or showed every card, is played again
        for player in (ann, bob):
            player.api_calls.clear()  # each match's page asks with that match's token
        match_id = running_match(ann, bob, "cyberiad")
        press_a_while(ann, bob, 14, rand.randrange)
        if all(hidden_from(player, seat)[3] for player, seat in ((ann, 0), (bob, 1))):
            break
    for player, seat in ((ann, 0), (bob, 1)):
        page = player.page
        page.wait_for_function("() => document.getElementById('actions').dataset.version")
        # every editor open, to show all it lists: in one step in the page, since a listing that
        # arrives late redraws the panel and an editor looked up before would be gone
        page.evaluate("() => document.querySelectorAll('#actions details.action-edit').forEach(d => { d.open = true; })")
        full, token, known, hidden = hidden_from(player, seat)
        assert hidden, "three matches in a row showed a seat every card: the test has nothing to look for"
        html = page.content()
        assert not [c for c in hidden if c in html]
        names = {CARDS[card_of(c)]["name"] for c in hidden} - {CARDS[card_of(c)]["name"] for c in full["hands"][seat]}
        assert not [n for n in names if n in html and n not in known], "no hidden card by its name either"
        auth = {a for _, url, a in player.api_calls if url.startswith("/v1/") and a}
        assert auth == {f"Bearer {token}"}, "the page used its own seat token only"


def test_the_page_verifies_every_event_it_shows_while_the_log_lags_behind(browser, tmp_path):
    """The log is a read model. With the projector stopped behind the store, the page's check
    still covers the chain up to the version the page shows: it reads the log at that version
    (min_version), and the server reads the store for what its model lacks."""
    server = LiveServer({**sqlite_environ(tmp_path), "ARBITER_PROJECTOR": "embedded", "ARBITER_CLOCK": "off"})
    ann = Player(browser, server, "ann")
    try:
        match_id = open_lobby(ann, "cyberiad", seats=("you", "bot:random"))
        wait_running(ann)
        server.flask.extensions["projector_thread"].stop()
        projected = len(api(server, f"/v1/matches/{match_id}/log?limit=1000")["events"])
        started = time.monotonic()
        while server.arbiter.store.match(uuid.UUID(match_id)).version < projected + 3:
            assert time.monotonic() - started < 60, "no three moves past the projector within 60 s"
            s = ann.state()
            press(ann, 0) if s["ready"] and s["count"] else time.sleep(0.02)
        version = server.arbiter.store.match(uuid.UUID(match_id)).version
        ann.page.wait_for_function("v => Number(document.getElementById('board').dataset.version) >= v", arg=version)
        assert len(api(server, f"/v1/matches/{match_id}/log?limit=1000")["events"]) == projected, "the log lags"
        ann.page.click("#verify")
        ann.page.wait_for_selector("#verify[data-chain]")
        assert ann.page.get_attribute("#verify", "data-chain") == "ok"
        shown = int(ann.page.evaluate("() => document.getElementById('board').dataset.version"))
        checked = int(re.search(r"chain of (\d+) events", ann.page.inner_text("#verify")).group(1))
        assert checked >= shown > projected, (checked, shown, projected)
    finally:
        ann.close()
        server.close()


def test_the_page_verifies_the_chain_and_the_seed_itself_and_says_which_checks_ran(people, live):
    ann = people("ann")
    match_id = open_lobby(ann, "cyberiad", seats=("you", "bot:random"))
    wait_running(ann)
    page = ann.page
    page.click("#verify")
    page.wait_for_selector("#verify[data-chain]")
    assert page.get_attribute("#verify", "data-chain") == "ok"
    assert page.get_attribute("#verify", "data-seed") == "not-run"  # still secret while the match runs
    assert "seed check not run" in page.inner_text("#verify")
    page.click("#resign")
    page.click("#resign")
    page.wait_for_function("() => document.getElementById('status').textContent === 'ended'", timeout=15000)
    assert page.get_attribute("#export", "href") == f"/v1/matches/{match_id}/export"
    page.evaluate("() => { const v = document.getElementById('verify'); delete v.dataset.chain; }")
    page.click("#verify")
    page.wait_for_selector("#verify[data-chain]")
    assert (page.get_attribute("#verify", "data-chain"), page.get_attribute("#verify", "data-seed")) == ("ok", "ok")
    assert "seed matches its commitment" in page.inner_text("#verify")
    assert page.get_attribute("#verify", "data-contents") == "ok"  # every event's hidden content, by its HMAC
    # the same code refuses an export with one event changed after the fact
    verdict = page.evaluate("""async (id) => {
        const text = await (await fetch('/v1/matches/' + id + '/export')).text();
        const lines = text.trim().split('\\n').map(JSON.parse);
        const target = lines[1].public !== undefined ? lines[1].public : lines[1].data;
        target.at = '2000-01-01T00:00:00.000+00:00';
        return await window.ArbiterViewer.verifyRecords(lines);
    }""", match_id)
    assert verdict["chain"] is False and verdict["brokenAt"] == 2
    # and an export whose hidden content was changed (the chain over the public forms intact) fails its commitment
    verdict = page.evaluate("""async (id) => {
        const text = await (await fetch('/v1/matches/' + id + '/export')).text();
        const lines = text.trim().split('\\n').map(JSON.parse);
        lines[0].data.at = '2000-01-01T00:00:00.000+00:00';
        if (lines[0].public === undefined) lines[0].public = JSON.parse(text.trim().split('\\n')[0]).data;
        return await window.ArbiterViewer.verifyRecords(lines);
    }""", match_id)
    assert verdict["chain"] is True and verdict["seed"] is True and verdict["contents"] is False and verdict["contentsWrongAt"] == 1


def test_the_fragment_and_back_move_the_board_and_an_unknown_match_says_so(page, server):
    from . import seed

    created = seed.play(server.arbiter, "cyberiad", seats=2, seed=1, on_created=server.catch_up)
    server.catch_up()
    mid = created["match_id"]
    # two versions the match has: its length depends on its secret seed (27 events, once)
    late = min(30, server.arbiter.store.match(uuid.UUID(mid)).version)
    early = late // 2
    page.goto(f"/matches/{mid}#v={late}&as=0")
    page.wait_for_function(f"() => window.arbiterMetrics.rendered === 'view:0:{late}'")
    page.evaluate(f"() => {{ location.hash = '#v={early}&as=1'; }}")  # the reader edits the fragment
    page.wait_for_function(f"() => window.arbiterMetrics.rendered === 'view:1:{early}'")
    assert page.input_value("#perspective") == "1"
    page.go_back()
    page.wait_for_function(f"() => window.arbiterMetrics.rendered === 'view:0:{late}'")
    page.goto(f"/matches/{mid}#v={late}&as=all")  # the whole state keeps its player labels
    page.wait_for_function(f"() => window.arbiterMetrics.rendered === 'all:{late}'")
    labels = page.eval_on_selector_all(".gv-per-seat .gv-seat-label", "ls => ls.map(l => l.textContent)")
    assert "ann · seat 0" in labels and "bob · seat 1" in labels
    page.goto(f"/matches/{uuid.uuid4()}")
    page.wait_for_function("() => window.arbiterMetrics.rendered === 'error'")
    assert page.inner_text("#status") == "not found" and "no match" in page.inner_text("#error").lower()


def test_a_conflict_reloads_and_keeps_the_half_made_choice_and_a_board_click_narrows_the_panel(people, live):
    """Algomancy's recycle step: both seats act at once. ann clicks a card in her hand (the panel
    narrows to the action with it: the confirm step); her page misses bob's move (its stream is
    cut), so her press carries an old expected_version: 409, the page reloads, her choice stays."""
    ann, bob = people("ann"), people("bob")
    match_id = running_match(ann, bob, "algomancy", {"turn_limit": 2})
    for player in (ann, bob):
        wait_ready(player, timeout=30000)
    target = ann.page.locator("#board .clickable").first
    value = target.get_attribute("data-click")
    target.click()
    shown = ann.page.eval_on_selector_all("#actions li.action:not([hidden])", "ls => ls.map(l => l.dataset.actionIndex)")
    assert len(shown) == 1 and ann.page.is_visible(".action-narrow")
    ann.page.route("**/stream*", lambda route: route.abort())
    assert live.drop_streams() >= 1
    version = api(live, f"/v1/matches/{match_id}")["version"]
    press(bob, 0)
    assert api(live, f"/v1/matches/{match_id}")["version"] == version + 1
    conflicts = ann.state()["conflicts"]
    ann.page.click(f"#actions li.action[data-action-index='{shown[0]}'] button.action-do")
    ann.page.wait_for_function("n => window.arbiterMetrics.conflicts > n", arg=conflicts)
    assert "moved on" in ann.page.inner_text("#play-error")
    ann.page.wait_for_function("v => Number(document.getElementById('actions').dataset.version) === v", arg=version + 1)
    again = ann.page.eval_on_selector_all("#actions li.action:not([hidden])", "ls => ls.map(l => l.dataset.actionIndex)")
    assert again == shown and ann.page.is_visible(".action-narrow"), "the board click is kept across the reload"
    press(ann, 0, f"#actions li.action[data-action-index='{again[0]}']")
    assert api(live, f"/v1/matches/{match_id}")["version"] == version + 2
    token = ann.page.evaluate(f"() => sessionStorage.getItem('arbiter-token:{match_id}')")
    events = api(live, f"/v1/matches/{match_id}/log?since={version + 1}&min_version={version + 2}", token)["events"]
    assert events[0]["data"]["seat"] == 0 and value in str(events[0]["data"]["action"]), "the action posted holds the clicked card"


@pytest.mark.parametrize("game", ["cyberspace", "cybermen"])
def test_a_square_on_the_board_is_a_click_target_that_narrows_the_panel(people, live, game):
    ann = people("ann")
    match_id = open_lobby(ann, game, SETUPS[game][0], seats=("you", "bot:random"))
    wait_running(ann)
    page = ann.page
    for _ in range(60):  # press the first listed action until a square is a target
        s = ann.state()
        if s["ready"] and page.locator("#board [data-target].clickable").count():
            break
        if s["ready"] and s["count"]:
            press(ann, 0)
        else:
            time.sleep(0.02)
    square = page.locator("#board [data-target].clickable").first
    where = square.get_attribute("data-click")
    total = ann.state()["count"]
    # a square's coordinates are no set of items to tick one by one: a row for each listed move
    assert page.locator("#actions li.action-subset").count() == 0
    assert total == int(page.get_attribute("#actions ol.action-list", "data-count")), "one row per listed action"
    square.click()
    shown = page.eval_on_selector_all("#actions li.action:not([hidden])", "ls => ls.map(l => Number(l.dataset.actionIndex))")
    assert 0 < len(shown) <= total
    before = api(live, f"/v1/matches/{match_id}")["version"]
    page.screenshot(path=str(screenshot_dir() / f"play-{game}-square-clicked.png"))
    assert press(ann, 0, f"#actions li.action[data-action-index='{shown[0]}']")
    token = page.evaluate(f"() => sessionStorage.getItem('arbiter-token:{match_id}')")
    action = api(live, f"/v1/matches/{match_id}/log?since={before}&min_version={before + 1}", token)["events"][0]["data"]["action"]
    x, y = (int(v) for v in where.split(","))
    assert (action.get("x"), action.get("y")) == (x, y) or action.get("to") == [x, y], (where, action)


def test_a_card_shows_its_cost_and_rules_text_from_the_catalog_on_hover_and_in_a_detail_pane(people, live):
    ann = people("ann")
    open_lobby(ann, "cyberiad", seats=("you", "bot:random"))
    wait_running(ann)
    page = ann.page
    catalog = {e["id"]: e for e in api(live, "/v1/games/cyberiad/catalog")["entries"]}
    page.wait_for_function("() => [...document.querySelectorAll('#board [data-card]')].some(c => c.title.includes('\\n'))")
    card = page.locator("#board [data-card]:not(.clickable)").first
    entry = catalog.get(card.get_attribute("data-card")) or catalog[card.get_attribute("data-card").split("#")[0]]
    title = card.get_attribute("title")
    assert entry["name"] in title and entry["text"] in title
    card.click()
    page.wait_for_selector("#detail")
    assert entry["name"] in page.inner_text("#detail") and entry["text"][:40] in page.inner_text("#detail")


def test_the_lobby_list_refreshes_live_and_join_leave_and_start_are_buttons(people, live):
    ann, bob = people("ann"), people("bob")
    bob.page.goto("/play")
    bob.page.wait_for_function("() => window.arbiterMetrics.polls >= 1")
    bob.page.evaluate("() => { window.notReloaded = true; }")
    match_id = open_lobby(ann, "cyberspace", {"duels": "bit", "size": 5}, seats=("you", "open", "open"))
    lobby = api(live, f"/v1/matches/{match_id}")
    assert lobby["status"] == "open" and lobby["options"] == {"duels": "bit", "size": 5}  # the form, from the schema
    # bob's list shows the new lobby without a reload
    bob.page.wait_for_selector(f"#lobbies tr[data-match-id='{match_id}']", timeout=20000)
    assert bob.page.evaluate("() => window.notReloaded") is True
    bob.page.fill("#create-name", "bob")
    bob.page.click(f"#lobbies tr[data-match-id='{match_id}'] button.join-lobby")
    bob.page.wait_for_url(f"**/matches/{match_id}*")
    bob.page.wait_for_selector("#lobby-leave")
    assert [s["name"] for s in api(live, f"/v1/matches/{match_id}")["seats"]] == ["ann", "bob", None]
    bob.page.click("#lobby-leave")
    bob.page.wait_for_selector("#join")
    assert api(live, f"/v1/matches/{match_id}")["open_seats"] == [1, 2]
    bob.page.fill("#join-name", "bob")
    bob.page.click("#join button")
    bob.page.wait_for_selector("#lobby-leave")
    ann.page.wait_for_selector("#lobby-start")
    ann.page.wait_for_function("() => document.querySelectorAll('#lobby .lobby-seats li[data-open=false]').length === 2")
    ann.page.click("#lobby-start")  # the host starts with the seats taken
    wait_running(ann, bob)
    summary = api(live, f"/v1/matches/{match_id}")
    assert summary["status"] == "running" and [s["name"] for s in summary["seats"]] == ["ann", "bob"]


def test_a_refused_join_stays_on_the_page_while_the_lobby_list_refreshes(people, live):
    """(From a review of the page's races.) The list of lobbies refreshes every 1.5 s, and a
    join's refusal was written where the refresh wrote: it was gone before it could be read."""
    ann, bob = people("ann"), people("bob")
    match_id = open_lobby(ann, "cyberiad")
    bob.page.goto("/play")
    bob.page.fill("#create-name", "bob")
    join = f"#lobbies tr[data-match-id='{match_id}'] button.join-lobby"
    bob.page.wait_for_selector(join, timeout=20000)

    def cat_takes_the_seat_first(route):
        assert call(live, "POST", f"/v1/matches/{match_id}/join", body={"name": "cat"})[0] == 201
        route.continue_()

    bob.page.route("**/join", cat_takes_the_seat_first)
    bob.page.click(join)
    bob.page.wait_for_function("() => document.querySelector('.play-lobbies').innerText.includes('Could not join')")
    polls = bob.page.evaluate("() => window.arbiterMetrics.polls")
    bob.page.wait_for_function("n => window.arbiterMetrics.polls >= n + 2", arg=polls)
    assert "Could not join" in bob.page.inner_text(".play-lobbies")
    assert [s["name"] for s in api(live, f"/v1/matches/{match_id}")["seats"]] == ["ann", "cat"]


def test_the_list_and_the_lobby_page_fit_a_phone(people, live):
    eve = people("eve", viewport=PHONE)
    for path, ready in (("/", "#list-status:not(:empty)"), ("/play", "#create-options legend")):
        eve.page.goto(path)
        eve.page.wait_for_selector(ready)
        eve.page.select_option("#create-game", "algomancy") if path == "/play" else None
        eve.page.wait_for_timeout(100)
        eve.page.screenshot(path=str(screenshot_dir() / f"page{path.replace('/', '-') or '-list'}-390.png"), full_page=True)
        assert overflow(eve.page) <= 0, f"{path} is wider than a 390 px screen"


def test_abort_calls_off_a_match_before_anyone_acts(people, live):
    ann, bob = people("ann"), people("bob")
    match_id = running_match(ann, bob, "herocard", {"victory_points": 1})
    assert api(live, f"/v1/matches/{match_id}")["version"] == 1
    bob.page.click("#abort")
    for player in (ann, bob):
        player.page.wait_for_function("() => document.getElementById('status').textContent === 'abandoned'", timeout=15000)
        assert player.page.is_hidden("#abort") and player.page.is_hidden("#resign")
    assert api(live, f"/v1/matches/{match_id}")["status"] == "abandoned"


# A play of several cards is a subset row too, but not every pair of its items is listed: the
# discard's row is the one whose every subset is (the first subset row was a play in one deal).
DISCARD_ROW = "#actions li.action-subset[data-type='discard']"


def press_until_a_discard_is_listed(ann, live, match_id) -> str | None:
    """Press the last listed action until a discard is listed: None then, else what the page
    and the API said when a minute or a hundred presses ran out. The bot's replies are waited
    for by time, not by looks (a hundred looks 20 ms apart ran out while a loaded machine's
    bot thought)."""
    presses, deadline = 0, time.monotonic() + 60
    while True:
        s = ann.state()
        if s["ready"] and ann.page.locator(DISCARD_ROW).count():
            return None
        assert s["status"] == "running", f"the match ended before a discard was listed ({presses} presses)"
        if presses >= 100 or time.monotonic() >= deadline:
            return f"{presses} presses; the page: {s}; the API: {api(live, f'/v1/matches/{match_id}')}"
        if s["ready"] and s["count"]:
            presses += press(ann, s["count"] - 1)
        else:
            time.sleep(0.02)


def test_a_later_listing_starts_from_its_own_first_choice_not_an_earlier_listings_ticks(people, live):
    """(Found from the discard test's stalls: HeroCard's forced discards came twice in a row.)
    The ticks of a row picked item by item are kept while the same listing is drawn again (a
    reload, a conflict); the next listing of that kind of action, from another hand, took the
    earlier hand's ticks, which matched none of its listed actions, and its press was refused
    again and again. It starts from its own first listed choice."""
    page = people("ann").page
    page.goto(f"/matches/{uuid.uuid4()}")  # any match page loads the panel's script
    page.wait_for_function("() => window.ArbiterViewer && window.ArbiterViewer.actionPanel")

    def listing(hand):
        pairs = [[a, b] for i, a in enumerate(hand) for b in hand[i + 1:]]
        return {"version": 1, "actions": [{"type": "choose", "cards": pair} for pair in pairs],
                "words": [f"discard {a} and {b}" for a, b in pairs]}

    def draw(hand):
        page.evaluate("""listing => {
            const V = window.ArbiterViewer, old = window.testPanel;
            const kept = old ? old.keep() : new Map();
            if (old) old.el.remove();
            window.testPanel = V.actionPanel({legal: listing, kept: kept, names: () => null, submit: () => Promise.resolve()});
            document.body.appendChild(window.testPanel.el);
        }""", listing(hand))
        return page.locator("li.action-subset .param-items input[type=checkbox]")

    def ticked(boxes):
        return [box.get_attribute("data-item") for box in boxes.all() if box.is_checked()]

    boxes = draw(["a", "b", "c", "d"])
    assert ticked(boxes) == ["a", "b"], "the first listed choice"
    for box in boxes.all():
        box.set_checked(box.get_attribute("data-item") in ("c", "d"))
    assert ticked(draw(["a", "b", "c", "d"])) == ["c", "d"], "kept while the same listing is drawn again"
    assert ticked(draw(["e", "f", "g", "h"])) == ["e", "f"], "another hand: its own first listed choice"


def test_a_discard_listed_as_every_subset_is_one_row_picked_item_by_item(people, live):
    """HeroCard lists a discard as every subset of the hand; the page shows one row whose items
    are ticked one by one, the button reading the words of the listed action the ticks make."""
    ann = people("ann")
    page = ann.page
    stalls = []
    while True:
        match_id = open_lobby(ann, "herocard", {"victory_points": 5}, seats=("you", "bot:greedy"))
        wait_running(ann)
        stalled = press_until_a_discard_is_listed(ann, live, match_id)
        if not stalled:
            break
        # Twice in full runs (never alone) the page waited a whole minute here. Until that is
        # understood, a stall is reported as a warning with what the page and the API said,
        # and a second one fails the test.
        stalls.append(stalled)
        warnings.warn(f"a HeroCard match stalled before a discard was listed: {stalled}")
        assert len(stalls) < 2, stalls
    row = page.locator(DISCARD_ROW).first
    listed = int(page.get_attribute("#actions ol.action-list", "data-count"))
    assert page.locator("#actions li.action").count() < listed, "never one row per subset"
    boxes = row.locator(".param-items input[type=checkbox]")
    for box in boxes.all():
        box.uncheck()
    first_item = boxes.nth(0).get_attribute("data-item")
    boxes.nth(0).check()
    text_one = row.locator("button.action-do").inner_text()
    boxes.nth(1).check()
    text_two = row.locator("button.action-do").inner_text()
    assert text_one != text_two and row.get_attribute("data-matches"), (text_one, text_two)
    page.screenshot(path=str(screenshot_dir() / "play-herocard-discard-picked.png"))
    version = api(live, f"/v1/matches/{match_id}")["version"]
    assert press(ann, 0, DISCARD_ROW)
    token = page.evaluate(f"() => sessionStorage.getItem('arbiter-token:{match_id}')")
    action = api(live, f"/v1/matches/{match_id}/log?since={version}&min_version={version + 1}", token)["events"][0]["data"]["action"]
    assert len(action["cards"]) == 2 and first_item in action["cards"]
