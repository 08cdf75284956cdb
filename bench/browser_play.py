"""Playing in the browser against a server bot: from a click on a listed action in the match
page's panel to the board redrawn with the bot's reply (the page's next "your turn"), p50 and
p95, beside the API round trip alone (POST the same kind of action, then GET the listing the
page fetches after the bot's reply), on the same server. Headless Debian Chromium through
Playwright; HeroCard to 2 Victory Points against the greedy bot, random listed actions.

    .venv/bin/python bench/browser_play.py      (also part of `make bench`)
"""

import json
import os
import random
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench.servers import request, serve, stop  # noqa: E402

CHROMIUM = os.environ.get("ARBITER_CHROMIUM", "/usr/bin/chromium-headless-shell")
PRESSES = int(os.environ.get("BENCH_PRESSES", "60"))
GAME, OPTIONS = "herocard", {"victory_points": 2}

READY = """() => document.getElementById('status').textContent !== 'running' ||
  (document.getElementById('actions').dataset.ready === 'true' &&
   Number(document.getElementById('board').dataset.version) >= Number(document.getElementById('actions').dataset.version))"""


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * q))] if values else None


def browser_rounds(port, presses):
    from playwright.sync_api import sync_playwright

    waits, rand = [], random.Random(1)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        page = browser.new_page(viewport={"width": 1400, "height": 900}, base_url=f"http://127.0.0.1:{port}")
        while len(waits) < presses:
            status, created = request(port, "POST", "/v1/matches", {"game": GAME, "seats": ["ann", {"bot": "greedy"}],
                                                                    "options": OPTIONS})
            assert status == 201, created
            mid = created["match_id"]
            page.goto("/play")  # the token is kept as the lobby page keeps it: per match, in sessionStorage
            page.evaluate("([m, t]) => sessionStorage.setItem('arbiter-token:' + m, t)", [mid, created["seats"][0]["token"]])
            page.goto(f"/matches/{mid}")
            page.wait_for_function(READY, timeout=20000)
            while len(waits) < presses and page.inner_text("#status") == "running":
                count = page.locator("#actions li.action").count()
                if not count:  # the panel read between a reload's status and its listing: look again
                    page.wait_for_function("() => document.querySelectorAll('#actions li.action').length > 0 || "
                                           "(document.getElementById('status') || {}).textContent !== 'running'",
                                           timeout=20000)
                    continue
                before = page.evaluate("() => window.arbiterMetrics.acted")
                clicked = time.perf_counter()
                page.locator("#actions li.action").nth(rand.randrange(count)).locator("button.action-do").click()
                page.wait_for_function("n => window.arbiterMetrics.acted > n || window.arbiterMetrics.refused > 0", arg=before)
                page.wait_for_function(READY, timeout=20000)
                waits.append((time.perf_counter() - clicked) * 1000)
        inside = page.evaluate("() => window.arbiterMetrics.replies || []")
        browser.close()
    return waits, inside


def api_rounds(port, presses):
    """The same turns over the API alone: POST a listed action (the server's bot replies within
    it), then GET the listing, as the page does before it redraws."""
    waits, rand = [], random.Random(1)
    while len(waits) < presses:
        _, created = request(port, "POST", "/v1/matches", {"game": GAME, "seats": ["ann", {"bot": "greedy"}], "options": OPTIONS})
        mid, auth = created["match_id"], {"Authorization": f"Bearer {created['seats'][0]['token']}"}
        _, listed = request(port, "GET", f"/v1/matches/{mid}/legal-actions", headers=auth)
        while len(waits) < presses and listed["actions"]:
            started = time.perf_counter()
            action = {k: v for k, v in rand.choice(listed["actions"]).items() if k != "params"}
            status, _ = request(port, "POST", f"/v1/matches/{mid}/actions", {"action": action, "expected_version": listed["version"]},
                                headers=auth)
            _, listed = request(port, "GET", f"/v1/matches/{mid}/legal-actions", headers=auth)
            waits.append((time.perf_counter() - started) * 1000)
            if status not in (200, 201):
                break
    return waits


def run(presses=PRESSES) -> dict:
    if not os.path.isfile(CHROMIUM):
        return {"skipped": f"no Chromium at {CHROMIUM}"}

    with tempfile.TemporaryDirectory() as tmp:
        # the page's and the API's cost, not the bot's pace (each reply 200 ms after it is asked
        # by default, service/bot_pace.py): 1 ms steps
        process, port = serve("service.asgi:create", {"ARBITER_DATA_DIR": tmp, "ARBITER_PROJECTOR": "off",
                                                      "ARBITER_BOT_STEP_MS": "1"}, factory=True)
        try:
            api = api_rounds(port, presses)
            page, inside = browser_rounds(port, presses)
        finally:
            stop(process)
    return {"game": GAME, "presses": len(page),
            "click_to_board_with_bot_reply_ms": {"p50": round(percentile(page, 0.5)), "p95": round(percentile(page, 0.95))},
            "measured_in_the_page_ms": {"p50": round(percentile(inside, 0.5)), "p95": round(percentile(inside, 0.95)),
                                        "note": "the button's handler to the board drawn at the reply (the last match's "
                                                "presses); the rest is the test driver's polling"},
            "api_round_trip_ms": {"p50": round(percentile(api, 0.5), 1), "p95": round(percentile(api, 0.95), 1)}}


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
