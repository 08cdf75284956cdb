"""The replay viewer in a real headless Chromium: the match list, a finished match of every
game stepped through and compared with the API's state, perspectives, the audit badge on a
tampered store, a live match followed while a bot plays, seat-token sign-in, and timings."""

import json
import random
import sqlite3
import statistics
import threading
import time
import uuid
from pathlib import Path

import urllib.error
import urllib.request

import orjson
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from domain.kernel import ruleset as rulesets

from . import seed
from .conftest import screenshot_dir

# games whose viewer.js these tests read zone by zone (every other game is drawn by the generic renderer)
RENDERED_BY_US = {"cyberiad", "cybermancy", "cyberspace", "cybermen", "herocard", "algomancy"}


def wait_rendered(page, key, timeout=15000):
    page.wait_for_function("key => window.arbiterMetrics && window.arbiterMetrics.rendered === key", arg=key,
                           timeout=timeout)


def call(server, method, path, token=None, body=None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    if body is not None:
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(server.url + path, method=method, headers=headers,
                                     data=None if body is None else orjson.dumps(body))
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, orjson.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, orjson.loads(error.read() or b"{}")


def api(server, path, token=None):
    status, body = call(server, "GET", path, token)
    assert status == 200, (path, status, body)
    return body


_rulesets = {}


def expected_view(server, match_id, version, seat):
    """What the page must draw: the seat's view of the state the public API returns."""
    answer = api(server, f"/v1/matches/{match_id}/state?version={version}")
    if match_id not in _rulesets:
        summary = api(server, f"/v1/matches/{match_id}")
        _rulesets[match_id] = rulesets.pinned(summary["game"], summary["ruleset_version"])
    return _rulesets[match_id].view(answer["state"], seat)


DRAWN = """() => {
  const body = document.querySelector('#board .board-body');
  const zones = (root) => Object.fromEntries([...root.querySelectorAll('[data-zone]')].map(z => [z.dataset.zone, {
      count: Number(z.dataset.count), hidden: z.dataset.hidden === 'true',
      cards: [...z.querySelectorAll('[data-card]')].map(c => c.dataset.card),
      uids: [...z.querySelectorAll('[data-uid]')].map(c => ({uid: c.dataset.uid, attack: Number(c.dataset.attack),
                                                             health: Number(c.dataset.health)}))}]));
  const stats = (root) => Object.fromEntries([...root.querySelectorAll('[data-stat]')].map(s => [s.dataset.stat, s.dataset.value]));
  const players = [...body.querySelectorAll('section.player[data-seat]')].map(p => ({
      seat: Number(p.dataset.seat), zones: zones(p), stats: stats(p)}));
  const center = body.querySelector('.v-center');
  const paths = Object.fromEntries([...body.querySelectorAll('[data-path]')].map(e => [e.dataset.path,
      e.dataset.value !== undefined ? e.dataset.value : e.dataset.card !== undefined ? e.dataset.card : null]));
  // things a renderer marks one by one (tiles, Cybermen, units, Secret Cards), with what they hold
  const marked = Object.fromEntries(['tile', 'cyberman', 'unit', 'secret', 'group'].map(k => [k,
      [...body.querySelectorAll('[data-' + k + ']')].map(e => ({...e.dataset,
          inner: [...e.querySelectorAll('[data-avatar],[data-firewall],[data-link]')].map(i => ({...i.dataset}))}))]));
  return {version: Number(body.dataset.version), seat: body.dataset.seat, players,
          center: center ? zones(center) : {}, centerStats: center ? stats(center) : {}, paths,
          board: zones(body), boardStats: stats(body), marked,
          text: document.getElementById('board').innerText};
}"""


def js_text(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def scalar_leaves(value, path=""):
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from scalar_leaves(inner, f"{path}.{key}" if path else key)
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from scalar_leaves(inner, f"{path}.{index}")
    else:
        yield path, value


def hand_of(player):
    return (player["hand"], False) if isinstance(player["hand"], list) else ([], True)


def check_drawn(game, drawn, view):
    """The board on the page shows exactly what the view holds."""
    if game == "cyberiad":
        assert drawn["center"]["deck"]["count"] == view["deck"]
        assert drawn["center"]["discard"]["count"] == len(view["discard"])
        assert len(drawn["players"]) == len(view["players"])
        for shown, player in zip(drawn["players"], view["players"]):
            cards, hidden = hand_of(player)
            assert shown["zones"]["hand"]["hidden"] == hidden
            assert shown["zones"]["hand"]["count"] == (len(cards) if not hidden else player["hand"])
            assert shown["zones"]["hand"]["cards"] == cards
            assert shown["zones"]["in_play"]["cards"] == player["in_play"]
            assert {k: shown["stats"][k] for k in ("fame", "trouble", "genius", "sallies", "hand_limit")} == {
                "fame": str(player["fame"]), "trouble": str(player["trouble"]), "genius": str(player["tokens"]["genius"]),
                "sallies": str(player["sallies"]), "hand_limit": str(player["hand_limit"])}
    elif game == "cybermancy":
        assert drawn["center"]["cpu_deck"]["count"] == view["cpu_deck"]
        assert drawn["center"]["ram_deck"]["count"] == view["ram_deck"]
        for shown, player in zip(drawn["players"], view["players"]):
            cards, hidden = hand_of(player)
            assert shown["zones"]["hand"]["hidden"] == hidden and shown["zones"]["hand"]["cards"] == cards
            assert shown["zones"]["hand"]["count"] == (player["hand"] if hidden else len(cards))
            assert shown["stats"]["health"] == str(player["health"]) and shown["stats"]["deck"] == str(player["deck"])
            for area in ("frontline", "main"):
                assert shown["zones"][area]["uids"] == [
                    {"uid": c["uid"], "attack": c["attack"], "health": c["health"] - c["damage"]} for c in player[area]]
            assert shown["zones"]["cpu"]["count"] == len(player["cpu"]) and shown["zones"]["ram"]["count"] == len(player["ram"])
    elif game in CHECKS:
        CHECKS[game](drawn, view)
    else:  # the generic renderer: every number, word and flag of the view, at its path
        leaves = dict(scalar_leaves(view))
        missing = {path: value for path, value in leaves.items() if drawn["paths"].get(path) != js_text(value)}
        assert not missing, f"not drawn as in the view: {dict(list(missing.items())[:8])}"


def shown_hand(shown, cards):
    """A hand drawn face up as these cards, or as backs when the view holds only its count."""
    hidden = not isinstance(cards, list)
    assert shown["hidden"] == hidden
    assert shown["count"] == (len(cards) if not hidden else cards if isinstance(cards, int) else cards["count"])
    assert shown["cards"] == ([] if hidden else cards)


def check_cyberspace(drawn, view):
    """Every tile where the view puts it, with its Avatar, Firewalls and Link; stack, face-up
    tiles, and each player's points, Access tokens, reserve, Links and Firewalls."""
    assert drawn["board"]["tiles"]["count"] == len(view["tiles"]) == len(drawn["marked"]["tile"])
    shown = {(int(t["x"]), int(t["y"])): t for t in drawn["marked"]["tile"]}
    for tile in view["tiles"]:
        drawn_tile = shown[(tile["x"], tile["y"])]
        assert drawn_tile["tile"] == tile["tile"]
        avatars = [int(i["avatar"]) for i in drawn_tile["inner"] if "avatar" in i]
        assert avatars == ([tile["avatar"]["seat"]] if tile["avatar"] else [])
        assert sorted(int(i["firewall"]) for i in drawn_tile["inner"] if "firewall" in i) == sorted(w["owner"] for w in tile["firewalls"])
        assert [int(i["link"]) for i in drawn_tile["inner"] if "link" in i] == ([] if tile["link"] is None else [tile["link"]])
    assert drawn["center"]["stack"]["count"] == view["stack"] and drawn["center"]["stack"]["hidden"]
    assert drawn["center"]["face_up"]["cards"] == view["face_up"]
    assert drawn["centerStats"]["turn_number"] == str(view["turn_number"])
    assert [p["seat"] for p in drawn["players"]] == [p["seat"] for p in view["players"]]
    for shown_player, player in zip(drawn["players"], view["players"]):
        stats, zones = shown_player["stats"], shown_player["zones"]
        assert stats["access_tokens"] == str(player["access_tokens_left"])
        assert stats["reserve"] == str(player["avatars_in_reserve"])
        assert stats["avatars"] == str(sum(a is not None for a in player["avatars"]))
        assert stats.get("points") == (None if player["network_points_now"] is None else str(player["network_points_now"]))
        assert stats.get("score") == (str(player["tally"]["score"]) if player["tally"] else None)
        assert zones["links"]["count"] == len(player["links"]) and zones["firewalls"]["count"] == len(player["firewalls"])
    cards = view.get("cards")  # card duels: each seat's HeroCard hand (backs for others) and Attribute Points
    for shown_player, hero in zip(drawn["players"], cards["players"] if cards else []):
        shown_hand(shown_player["zones"]["hand"], hero["hand"])
        assert shown_player["stats"]["card_deck"] == str(hero["deck"])
        assert {a: shown_player["stats"][f"free_{a}"] for a in hero["free"]} == {a: str(n) for a, n in hero["free"].items()}


def check_cybermen(drawn, view):
    """Each Cyberman on its square, facing its way, of its Mark; the groups on the map; each
    player's VP, tokens, humans and items; the item deck and discard."""
    shown = {c["cyberman"]: (int(c["row"]), int(c["col"]), c["facing"], int(c["mark"])) for c in drawn["marked"]["cyberman"]}
    assert shown == {cid: (c["pos"][0], c["pos"][1], c["facing"], c["mark"]) for cid, c in view["cybermen"].items()}
    assert drawn["board"]["cybermen"]["count"] == len(view["cybermen"])
    assert {u["unit"]: [int(u["row"]), int(u["col"])] for u in drawn["marked"]["unit"]} == view["units"]
    assert sorted(int(g["group"]) for g in drawn["marked"]["group"]) == [g["seat"] for g in view["groups"] if g["members"]]
    assert drawn["center"]["deck"]["count"] == view["deck"] and drawn["center"]["discard"]["cards"] == view["discard"]
    assert drawn["centerStats"]["round"] == str(view["round"]) and drawn["centerStats"]["mark"] == str(view["mark"])
    for shown_group, group in zip(drawn["players"], view["groups"]):
        assert shown_group["seat"] == group["seat"]
        assert {k: shown_group["stats"][k] for k in ("vp", "escape", "fatigue")} == {
            "vp": str(group["vp"]), "escape": str(group["escape"]), "fatigue": str(group["fatigue"])}
        assert shown_group["zones"]["members"]["count"] == len(group["members"])
        shown_hand(shown_group["zones"]["hand"], group["hand"])


def check_herocard(drawn, view):
    """Each Hero's VP, deck, discard, free and total points per Attribute, the cards on each
    Attribute (a Secret Card another Hero deployed face down is drawn without its name), hand."""
    assert drawn["centerStats"]["turn"] == str(view["turn"]["number"]) and drawn["centerStats"]["goal"] == str(view["goal"])
    if view["sequence"]:
        assert drawn["centerStats"]["attack_value"] == str(view["sequence"]["attack_value"])
        assert drawn["centerStats"]["block_value"] == str(view["sequence"]["block_value"])
    for shown, player in zip(drawn["players"], view["players"]):
        assert shown["seat"] == player["seat"]
        stats, zones = shown["stats"], shown["zones"]
        assert (stats["vp"], stats["deck"], stats["discard"]) == (str(player["vp"]), str(player["deck"]), str(len(player["discard"])))
        assert zones["discard"]["cards"] == list(reversed(player["discard"]))
        for attribute in view["attribute_names"]:
            assert stats[f"free_{attribute}"] == str(player["free"][attribute])
            assert stats[f"score_{attribute}"] == str(player["scores"][attribute])
            stack = player["stacks"][attribute]
            assert zones[f"stack_{attribute}"]["count"] == len(stack)
            assert zones[f"stack_{attribute}"]["cards"] == [e["card"] for e in stack if e["card"] is not None]
        shown_hand(zones["hand"], player["hand"])
    secrets = sum(e["card"] is None for p in view["players"] for stack in p["stacks"].values() for e in stack)
    assert len(drawn["marked"]["secret"]) == secrets


def check_algomancy(drawn, view):
    """Each player's life, mana (resources not expended), resources, bin, deck and hand (card
    names; backs for others); the turn, initiative and stack; every unit once, with its stats."""
    assert drawn["centerStats"]["turn"] == str(view["turn"]) and drawn["centerStats"]["initiative"] == str(view["initiative"])
    assert drawn["center"]["stack"]["count"] == len(view["stack"])
    for key, deck in view["decks"].items():
        assert drawn["center"][f"deck_{key}"]["count"] == deck["count"]
    for shown, (seat, player) in zip(drawn["players"], enumerate(view["players"])):
        stats, zones = shown["stats"], shown["zones"]
        assert shown["seat"] == seat and stats["life"] == str(player["life"]) and stats["bin"] == str(len(player["bin"]))
        assert stats["mana"] == str(sum(not r["expended"] for r in player["resources"]))
        assert zones["resources"]["count"] == len(player["resources"])
        assert stats["deck"] == str(view["decks"][player["deck"]]["count"])
        hand = player["hand"]
        shown_hand(zones["hand"], [c.split("#")[0] for c in hand] if isinstance(hand, list) else hand)
    units = view["shown_units"]
    assert sorted(u["unit"] for u in drawn["marked"]["unit"]) == sorted(units)
    for u in drawn["marked"]["unit"]:
        assert (int(u["power"]), int(u["defense"])) == (units[u["unit"]]["power"], units[u["unit"]]["defense"] - units[u["unit"]]["damage"])


CHECKS = {"cyberspace": check_cyberspace, "cybermen": check_cybermen, "herocard": check_herocard, "algomancy": check_algomancy}


def showing_a_hand(server, match_id, last):
    """A version from the middle on where seat 0 holds cards (for a screenshot worth looking at)."""
    def holds_cards(value):
        if isinstance(value, dict):
            return any(key == "hand" and isinstance(inner, list) and inner or holds_cards(inner)
                       for key, inner in value.items())
        return isinstance(value, list) and any(holds_cards(inner) for inner in value)

    for version in range(last // 2, min(last, last // 2 + 15)):
        players = expected_view(server, match_id, version, 0).get("players")
        if holds_cards(players[0] if isinstance(players, list) and players else None):
            return version
    return last // 2


def save(page, name):
    folder = screenshot_dir()
    folder.mkdir(parents=True, exist_ok=True)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(folder / f"viewer-{name}.png"))
    return folder / f"viewer-{name}.png"


# -- the list ------------------------------------------------------------------------------

def list_loaded(page, change):
    """Do `change` and wait until the list shows the answer it asked for."""
    generation = "() => { const s = document.getElementById('list-status'); return s ? Number(s.dataset.generation || 0) : 0; }"
    before = page.evaluate(generation)
    change()
    # An answer to an earlier change may land after `before` was read: wait until no load is on its way either.
    page.wait_for_function(f"n => ({generation})() > n && !document.getElementById('list-status').textContent.startsWith('Loading')",
                           arg=before)
    return page.eval_on_selector_all("#matches tbody tr", "rows => rows.map(r => ({id: r.dataset.matchId, "
                                     "game: r.dataset.game, status: r.dataset.status, players: r.children[2].textContent}))")


def test_the_list_shows_every_match_and_filters_by_game_status_and_player(page, server, finished):
    running = seed.play(server.arbiter, "cyberiad", seats=2, seed=4, upto=12)
    server.catch_up()
    rows = list_loaded(page, lambda: page.goto("/"))
    assert {m["match_id"] for m in finished.values()} | {running["match_id"]} <= {r["id"] for r in rows}

    rows = list_loaded(page, lambda: page.select_option("#filter-game", "cyberiad"))
    assert rows and {r["game"] for r in rows} == {"cyberiad"} and "game=cyberiad" in page.url
    rows = list_loaded(page, lambda: page.select_option("#filter-status", "running"))
    assert running["match_id"] in {r["id"] for r in rows} and {r["status"] for r in rows} == {"running"}
    list_loaded(page, lambda: page.select_option("#filter-game", ""))
    rows = list_loaded(page, lambda: page.select_option("#filter-status", "ended"))
    assert finished["cybermancy"]["match_id"] in {r["id"] for r in rows} and {r["status"] for r in rows} == {"ended"}
    page.fill("#filter-player", "cat")
    rows = list_loaded(page, lambda: page.click("#filters button[type=submit]"))
    assert rows and all("cat" in r["players"].split(", ") for r in rows)
    assert finished["cyberiad"]["match_id"] in {r["id"] for r in rows}
    page.fill("#filter-player", "nobody-plays-here")
    assert list_loaded(page, lambda: page.click("#filters button[type=submit]")) == []
    assert "No match" in page.inner_text("#list-status")

    page.goto("/?game=cyberiad&status=ended&player=cat")  # the address keeps the filters
    page.wait_for_selector(f"#matches tbody tr[data-match-id='{finished['cyberiad']['match_id']}']")
    page.click(f"#matches tbody tr[data-match-id='{finished['cyberiad']['match_id']}'] a")
    page.wait_for_url(f"**/matches/{finished['cyberiad']['match_id']}**")
    wait_rendered(page, f"view:spectator:{api(server, '/v1/matches/' + finished['cyberiad']['match_id'])['version']}")


def test_more_matches_can_be_asked_again_after_a_next_page_failed(page, server):
    """(From a review of the pages.) "More matches" hid itself while the next page loaded, and
    a failure left it hidden: the rest of the list could not be reached without a reload."""
    player = f"zed-{uuid.uuid4().hex[:8]}"
    for _ in range(51):  # a page of 50 and one more
        server.arbiter.create_match("cyberiad", [player, "amy"], {})
    server.catch_up()
    rows = list_loaded(page, lambda: page.goto(f"/?player={player}"))
    assert len(rows) == 50 and page.is_visible("#more")
    refused = []

    def next_page_away_once(route):
        if refused or "cursor=0" in route.request.url:
            return route.continue_()
        refused.append(route.request.url)
        route.fulfill(status=503, headers={"Content-Type": "application/problem+json"},
                      body='{"status": 503, "code": "read_models_unavailable", "detail": "the read models are away"}')

    page.route("**/v1/matches?*", next_page_away_once)
    page.click("#more")
    page.wait_for_function("() => document.getElementById('list-status').textContent.includes('catching up')")
    assert len(refused) == 1
    rows = list_loaded(page, lambda: page.click("#more", timeout=3000))
    assert len(rows) == 51 and {r["players"] for r in rows} == {f"{player}, amy"}


# -- a finished match of each game ------------------------------------------------------------

LOG_LINES = """() => [...document.querySelectorAll('#log li[data-seq]')].map(li => ({
    seq: Number(li.dataset.seq), text: li.querySelector('.log-text > span').textContent,
    facts: [...li.querySelectorAll('.facts li')].map(f => f.textContent)}))"""


def check_log_in_words(page, records):
    """Every log line is the server's words for this reader (the record's `words`), never the
    page's own wording of the data: no key=value, no JSON."""
    lines = page.evaluate(LOG_LINES)
    assert [line["seq"] for line in lines] == [record["seq"] for record in records]
    for line, record in zip(lines, records):
        assert line["text"] == record["words"]["text"], line
        assert line["facts"] == [text for text in record["words"]["facts"] if text], line
        assert not any(mark in text for text in [line["text"], *line["facts"]] for mark in ("=", "{", "[")), line


def whole_log(server, match_id):
    """Every record of the log, a page of at most 1000 at a time: the long Cybermancy match's
    length is its deal's (one in about 1500 passes 1000 events), and the page reads them all."""
    events, since = [], 0
    while True:
        answer = api(server, f"/v1/matches/{match_id}/log?limit=1000&since={since}")
        events += answer["events"]
        if answer["next_since"] is None or not answer["events"]:
            return events
        since = answer["next_since"]


def games():
    import domain.games  # noqa: F401

    return [ruleset.name for ruleset in rulesets.all_latest()]


@pytest.mark.parametrize("game", games())
def test_a_finished_match_steps_through_versions_drawn_as_the_api_says(page, server, finished, game):
    match_id = finished[game]["match_id"]
    last = api(server, f"/v1/matches/{match_id}")["version"]
    page.goto(f"/matches/{match_id}")
    wait_rendered(page, f"view:spectator:{last}")
    page.wait_for_selector("#log li[data-seq]")
    assert page.eval_on_selector_all("#log li[data-seq]", "items => items.length") == last
    check_log_in_words(page, whole_log(server, match_id))

    renderer = page.evaluate(f"() => !!window.ArbiterViewer.renderers[{json.dumps(game)}]")
    assert renderer == (game in server.renderers), "a game's viewer.js is loaded exactly when its folder has one"
    assert page.locator("#board .warning").count() == 0, "the game's renderer failed"

    versions = sorted({2, 3, last // 3, last // 2, (2 * last) // 3, last - 1, last})
    for version in versions:
        page.evaluate("v => { const s = document.getElementById('slider'); s.value = v; "
                      "s.dispatchEvent(new Event('input', {bubbles: true})); }", version)
        wait_rendered(page, f"view:spectator:{version}")
        drawn = page.evaluate(DRAWN)
        assert drawn["version"] == version and drawn["seat"] == "spectator"
        if game in RENDERED_BY_US or game not in server.renderers:
            check_drawn(game, drawn, expected_view(server, match_id, version, None))
        assert page.locator("#log li.current").get_attribute("data-seq") == str(version)

    # keyboard and buttons step one version at a time
    page.click("#board")
    page.keyboard.press("ArrowLeft")
    wait_rendered(page, f"view:spectator:{last - 1}")
    page.click("#next")
    wait_rendered(page, f"view:spectator:{last}")
    # a log line shows its version
    page.click(f"#log li[data-seq='{last // 2}']")
    wait_rendered(page, f"view:spectator:{last // 2}")
    page.click(f"#log li[data-seq='{last // 2 + 1}']")
    wait_rendered(page, f"view:spectator:{last // 2 + 1}")
    assert page.locator("#audit").get_attribute("data-verdict") == "ok"
    shown = showing_a_hand(server, match_id, last)
    page.select_option("#perspective", "0")  # the match as its first seat saw it, hand face up
    wait_rendered(page, f"view:0:{last // 2 + 1}")
    page.click(f"#log li[data-seq='{shown}']")
    wait_rendered(page, f"view:0:{shown}")
    if game in RENDERED_BY_US or game not in server.renderers:
        check_drawn(game, page.evaluate(DRAWN), expected_view(server, match_id, shown, 0))
    path = save(page, game)
    assert path.stat().st_size > 10_000


# -- perspectives after the end --------------------------------------------------------------

def test_after_the_end_each_seat_sees_its_own_hand_and_everything_shows_the_whole_state(page, server, finished):
    match_id = finished["cyberiad"]["match_id"]
    version = api(server, f"/v1/matches/{match_id}")["version"] // 2
    page.goto(f"/matches/{match_id}#v={version}")
    wait_rendered(page, f"view:spectator:{version}")
    options = page.eval_on_selector_all("#perspective option", "os => os.map(o => o.value)")
    assert options == ["spectator", "0", "1", "2", "all"]
    drawn = page.evaluate(DRAWN)
    assert all(p["zones"]["hand"]["hidden"] for p in drawn["players"])

    state = api(server, f"/v1/matches/{match_id}/state?version={version}")["state"]
    for seat in (0, 2):
        page.select_option("#perspective", str(seat))
        wait_rendered(page, f"view:{seat}:{version}")
        drawn = page.evaluate(DRAWN)
        assert drawn["seat"] == str(seat)
        check_drawn("cyberiad", drawn, expected_view(server, match_id, version, seat))
        assert [p["zones"]["hand"]["cards"] for p in drawn["players"]] == [
            state["hands"][s] if s == seat else [] for s in range(3)]
        assert f"#v={version}&as={seat}" in page.url

    page.select_option("#perspective", "all")
    wait_rendered(page, f"all:{version}")
    drawn = page.evaluate(DRAWN)
    for s in range(3):  # the whole state, every hand and the deck's order, drawn by the generic renderer
        assert [drawn["paths"].get(f"hands.{s}.{i}") for i in range(len(state["hands"][s]))] == state["hands"][s]
    assert [drawn["paths"].get(f"deck.{i}") for i in range(len(state["deck"]))] == state["deck"]

    page.reload()  # the address keeps the version and the perspective
    wait_rendered(page, f"all:{version}")


@pytest.mark.parametrize("failure", ["throws", "never_loads"])
def test_a_games_renderer_that_fails_leaves_the_view_drawn_whole_by_the_generic_renderer(page, server, finished,
                                                                                          failure):
    """A game's renderer that throws as it draws (a warning on the board says so) or whose script
    never loads: the board still shows the whole view, every leaf at its path (check_drawn's
    generic check, which no registered game otherwise reaches)."""
    game = "herocard"
    broken = ('window.ArbiterViewer.register("herocard", {render: function () { '
              'throw new Error("broken on purpose"); }});')
    page.route(f"**/viewer/renderers/{game}.js",
               lambda route: route.fulfill(content_type="application/javascript", body=broken)
               if failure == "throws" else route.fulfill(status=404, body=""))
    match_id = finished[game]["match_id"]
    version = api(server, f"/v1/matches/{match_id}")["version"] // 2
    page.goto(f"/matches/{match_id}#v={version}")
    wait_rendered(page, f"view:spectator:{version}")
    warnings = page.locator("#board .warning")
    if failure == "throws":
        assert "renderer failed (broken on purpose)" in warnings.inner_text()
    else:
        assert warnings.count() == 0
    check_drawn("a game without a renderer", page.evaluate(DRAWN), expected_view(server, match_id, version, None))


# -- audit badge ----------------------------------------------------------------------------

def test_the_audit_badge_turns_red_at_the_first_divergent_seq_of_a_tampered_store(page, server):
    created = seed.play(server.arbiter, "cyberiad", seats=2, seed=11)
    mid = uuid.UUID(created["match_id"])
    records = server.arbiter.store.stored_events(mid)
    target = next(r for r in records[6:] if r["type"] == "ActionTaken" and "public" not in r
                  and any(f["f"] == "tokens" for f in r["data"]["facts"]))  # a public fact: the chain breaks

    page.goto(f"/matches/{mid}")
    page.wait_for_selector("#audit[data-verdict='ok']")
    assert "verified" in page.inner_text("#audit")

    # An intruder with database access changes one fact of one stored row (as tests/service/test_audit.py does).
    conn = sqlite3.connect(Path(server.data_dir) / "arbiter.sqlite", isolation_level=None)
    row = conn.execute("SELECT state FROM stored_events WHERE originator_id=? AND originator_version=?",
                       (mid.hex, target["seq"])).fetchone()
    stored = orjson.loads(row[0])
    fact = next(f for f in stored["data"]["facts"] if f["f"] == "tokens")
    fact["delta"] += 5
    conn.execute("UPDATE stored_events SET state=? WHERE originator_id=? AND originator_version=?",
                 (orjson.dumps(stored), mid.hex, target["seq"]))
    conn.close()
    report = api(server, f"/v1/matches/{mid}/audit")
    assert report["first_divergence"]["seq"] == target["seq"]

    page.click("#audit")  # asks the audit again
    page.wait_for_selector("#audit[data-verdict='fail']")
    badge = page.inner_text("#audit")
    assert f"seq {target['seq']}" in badge and "chain" in badge
    assert page.eval_on_selector("#audit", "b => getComputedStyle(b).backgroundColor") == "rgb(180, 35, 24)"
    page.click("#audit")  # on failure the badge shows the divergent version
    wait_rendered(page, f"view:spectator:{target['seq']}")
    save(page, "audit-failed")


# -- live follow and seat tokens ---------------------------------------------------------------

def test_a_live_match_is_followed_while_a_bot_plays_with_the_seat_seeing_only_its_own_hand(page, server):
    seen = []
    page.on("request", lambda request: seen.append((request.url.replace(server.url, ""),
                                                    request.headers.get("authorization"))))

    def ann_plays(mid, token, moves):
        """ann moves over HTTP; after each move the server's bot answers."""
        rand = random.Random(3)
        for _ in range(moves):
            summary = api(server, f"/v1/matches/{mid}")
            if summary["status"] != "running":
                return
            if 0 not in summary["to_act"]:
                time.sleep(0.05)
                continue
            listed = api(server, f"/v1/matches/{mid}/legal-actions", token)
            call(server, "POST", f"/v1/matches/{mid}/actions", token,
                 {"action": rand.choice(listed["actions"]), "expected_version": listed["version"]})
            time.sleep(0.15)

    # The deal is the server's: about one match in a hundred ends within ann's twelve moves (and
    # is then drawn as a finished one, its hands public); such a match is played again.
    for _ in range(3):
        page.goto("about:blank")  # the last match's page asks nothing more
        seen.clear()
        created = call(server, "POST", "/v1/matches", body={"game": "cyberiad", "seats": ["ann", {"bot": "random"}]})[1]
        mid, token = created["match_id"], created["seats"][0]["token"]
        page.goto(f"/matches/{mid}")
        page.wait_for_selector("#live[data-state='on']")
        page.fill("#token", "not-a-token")
        page.click("#login button")
        page.wait_for_selector("#error:not([hidden])")
        assert "no seat" in page.inner_text("#error")
        page.fill("#token", token)
        page.click("#login button")
        page.wait_for_selector("#signed-in:not([hidden])")
        assert "ann" in page.inner_text("#signed-in-as")
        assert page.evaluate(f"() => sessionStorage.getItem('arbiter-token:{mid}')") == token

        player = threading.Thread(target=ann_plays, args=(mid, token, 12))
        player.start()
        try:
            page.wait_for_function("() => window.arbiterMetrics.streamEvents >= 6", timeout=20000)
            # the connection drops and comes back: the page reconnects with Last-Event-ID and misses nothing
            assert server.drop_streams() >= 1
            page.wait_for_function("() => window.arbiterMetrics.reconnects >= 1", timeout=10000)
            page.wait_for_selector("#live[data-state='on']", timeout=15000)
        except (AssertionError, PlaywrightTimeout):
            player.join()
            if api(server, f"/v1/matches/{mid}")["status"] == "running":
                raise
            continue  # the match ended under the reconnection: another is played
        finally:
            player.join()
        if api(server, f"/v1/matches/{mid}")["status"] == "running":
            break
    assert api(server, f"/v1/matches/{mid}")["status"] == "running", "three matches ended within ann's twelve moves"
    version = api(server, f"/v1/matches/{mid}")["version"]
    page.wait_for_function("v => window.arbiterMetrics.rendered === 'live:0:' + v", arg=version, timeout=15000)
    seqs = page.eval_on_selector_all("#log li[data-seq]", "items => items.map(i => Number(i.dataset.seq))")
    assert seqs == list(range(1, version + 1)), "every event once, in order, across the reconnection"
    assert page.evaluate("() => window.arbiterMetrics.reconnects") >= 1
    # the lines that came over the stream read as the log's words for ann
    check_log_in_words(page, api(server, f"/v1/matches/{mid}/log?limit=1000&min_version={version}", token)["events"])

    drawn = page.evaluate(DRAWN)
    board = api(server, f"/v1/matches/{mid}/board?min_version={version}", token)["board"]
    check_drawn("cyberiad", drawn, board)
    assert not drawn["players"][0]["zones"]["hand"]["hidden"] and drawn["players"][1]["zones"]["hand"]["hidden"]
    perspectives = page.eval_on_selector_all("#perspective option", "os => os.map(o => o.value)")
    assert perspectives == ["0"], "while the match runs, a seat's page offers only its own perspective"

    # Nothing the token may not read reached the page: it only called the public API (with this
    # token or none), and no card of bob's hand or of the deck is anywhere on it.
    full = server.arbiter.store.match(uuid.UUID(mid)).state
    known = json.dumps(api(server, f"/v1/matches/{mid}/log?limit=1000&min_version={version}", token))
    hidden = [c for c in full["hands"][1] + full["deck"] if c not in known]
    assert hidden, "nothing was hidden: proves nothing"
    html = page.content()
    assert not [c for c in hidden if c in html]
    from domain.games.cyberiad.cards import CARDS, card_of
    assert not [CARDS[card_of(c)]["name"] for c in hidden if CARDS[card_of(c)]["name"] in html], \
        "no hidden card by its name either (the log's words name cards)"
    assert not [url for url, _ in seen if url.startswith(f"/matches/{mid}/")], "while it runs, only the API is asked"
    assert {auth for url, auth in seen if url.startswith("/v1/")} <= {None, f"Bearer {token}", "Bearer not-a-token"}


def test_a_signed_in_player_keeps_the_seat_on_reload_and_signs_out(page, server):
    created = seed.play(server.arbiter, "cybermancy", seats=2, seed=5, upto=40)
    mid, token = created["match_id"], created["seats"][1]["token"]
    page.goto(f"/matches/{mid}")
    wait_rendered(page, "live:spectator:40")
    page.fill("#token", token)
    page.click("#login button")
    wait_rendered(page, "live:1:40")
    drawn = page.evaluate(DRAWN)
    check_drawn("cybermancy", drawn, api(server, f"/v1/matches/{mid}/board", token)["board"])
    assert drawn["players"][1]["zones"]["hand"]["cards"] and drawn["players"][0]["zones"]["hand"]["hidden"]
    assert page.locator("#login").is_hidden() and page.locator("#logout").is_visible()
    page.reload()
    wait_rendered(page, "live:1:40")
    page.evaluate("() => { const s = document.getElementById('slider'); s.value = 10; s.dispatchEvent(new Event('input')); }")
    wait_rendered(page, "live:1:10")  # earlier versions too, as the API shows them to this seat
    check_drawn("cybermancy", page.evaluate(DRAWN), api(server, f"/v1/matches/{mid}/state?version=10", token)["state"])
    page.click("#logout")
    wait_rendered(page, "live:spectator:10")
    assert page.evaluate(f"() => sessionStorage.getItem('arbiter-token:{mid}')") is None
    assert all(p["zones"]["hand"]["hidden"] for p in page.evaluate(DRAWN)["players"])


def test_names_are_text_never_markup(page, server):
    evil = '<img src=x onerror="window.owned=1">'
    created = call(server, "POST", "/v1/matches", body={"game": "cyberiad", "seats": [evil, "</script><b>bob"]})[1]
    page.goto(f"/matches/{created['match_id']}")
    wait_rendered(page, "live:spectator:1")
    page.wait_for_selector("#log li[data-seq='1']")
    assert page.evaluate("() => window.owned") is None
    assert page.locator("#app img").count() == 0 and page.locator("#app b").count() == 0
    assert evil in page.inner_text("#players")


def test_a_lobby_page_waits_for_players_then_shows_the_match(page, server):
    created = call(server, "POST", "/v1/matches", body={"game": "cyberiad", "seats": ["ann", {"open": True}]})[1]
    page.goto(f"/matches/{created['match_id']}")
    page.wait_for_function("() => window.arbiterMetrics.rendered === 'open'")
    assert "waiting for players" in page.inner_text("#board")
    status, _ = call(server, "POST", f"/v1/matches/{created['match_id']}/join", body={"name": "bob"})
    assert status == 201  # the last seat is taken: the match starts, and the page shows it live
    page.wait_for_function("() => (window.arbiterMetrics.rendered || '').startsWith('live:spectator:')", timeout=15000)
    page.wait_for_selector("#live[data-state='on']")


# -- speed ------------------------------------------------------------------------------------

def test_a_500_event_match_renders_and_steps_without_a_visible_delay(page, server, finished, record_property, capsys):
    match_id = finished["cybermancy"]["match_id"]
    last = api(server, f"/v1/matches/{match_id}")["version"]
    assert last >= 500, "the long match has at least 500 events"
    page.goto(f"/matches/{match_id}#v=250")
    wait_rendered(page, "view:spectator:250")
    first = page.evaluate("() => window.arbiterMetrics.firstRender")
    page.wait_for_selector("#log li[data-seq]")
    for _ in range(15):  # one version at a time, as a reader steps
        before = page.evaluate("() => window.arbiterMetrics.renders")
        page.click("#next")
        page.wait_for_function("n => window.arbiterMetrics.renders > n", arg=before)
    for version in (30, 480, 120, 400, 5, last):  # jumps along the slider
        page.evaluate("v => { const s = document.getElementById('slider'); s.value = v; s.dispatchEvent(new Event('input')); }",
                      version)
        wait_rendered(page, f"view:spectator:{version}")
    steps = page.evaluate("() => window.arbiterMetrics.steps")
    nexts, jumps = steps[:15], steps[15:]
    report = {"events": last, "first_render_ms": round(first),
              "next_median_ms": round(statistics.median(nexts), 1), "next_max_ms": round(max(nexts), 1),
              "jump_median_ms": round(statistics.median(jumps), 1), "jump_max_ms": round(max(jumps), 1)}
    record_property("viewer_timing", report)
    with capsys.disabled():
        print(f"\nviewer timing, {last}-event match: {report}")
    assert len(steps) == 21 and first < 5000 and statistics.median(steps) < 400, report
