"""The viewer's server side without a browser: pages, renderer discovery, and the finished
match views (which must never show more than the public API)."""

import uuid

from domain.kernel import ruleset as rulesets
from service.web import renderer_paths

from . import seed


def test_each_game_with_a_viewer_js_in_its_folder_has_its_renderer_served(client):
    found = renderer_paths()
    assert {"cyberiad", "cybermancy", "cyberspace", "cybermen", "herocard", "algomancy"} <= set(found)
    assert all(path.name == "viewer.js" and path.parent.name == game for game, path in found.items())
    response = client.get("/viewer/renderers/cyberiad.js")
    assert response.status_code == 200 and response.mimetype == "text/javascript"
    assert b'V.register("cyberiad"' in response.data
    assert client.get("/viewer/renderers/no-such-game.js").status_code == 404
    assert client.get("/viewer/renderers/..%2Fcards.js").status_code == 404


def test_pages_are_html_with_a_strict_content_security_policy(client):
    page = client.get("/")
    assert page.status_code == 200 and page.mimetype == "text/html"
    policy = page.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy and "connect-src 'self'" in policy
    match_id = str(uuid.uuid4())
    page = client.get(f"/matches/{match_id}")
    assert page.status_code == 200 and f'data-match-id="{match_id}"' in page.text
    assert 'data-renderers="' in page.text and "cyberiad" in page.text
    assert client.get("/matches/not-a-match").status_code == 404
    play = client.get("/play")
    assert play.status_code == 200 and "script-src 'self'" in play.headers["Content-Security-Policy"]
    assert 'id="create"' in play.text and "play.js" in play.text
    for name in ("core.js", "match.js", "list.js", "viewer.css", "actions.js", "verify.js", "play.js", "seat.js"):
        assert client.get(f"/viewer/static/{name}").status_code == 200


def test_views_of_a_finished_match_are_each_seats_view_of_the_public_state(client):
    arbiter = client.application.extensions["arbiter"]
    created = seed.play(arbiter, "cyberiad", seats=3, seed=2)
    mid = created["match_id"]
    last = client.get(f"/v1/matches/{mid}").json["version"]
    ruleset = rulesets.pinned("cyberiad", created["ruleset_version"])
    for version in (2, last // 2, last):
        public = client.get(f"/v1/matches/{mid}/state?version={version}").json
        for seat in ("spectator", "0", "2"):
            answer = client.get(f"/matches/{mid}/views?version={version}&seat={seat}").json
            expected_seat = None if seat == "spectator" else int(seat)
            assert answer["seat"] == expected_seat and answer["version"] == version
            assert answer["state"] == ruleset.view(public["state"], expected_seat)
            assert {k: v for k, v in answer.items() if k not in ("seat", "state")} == {
                k: v for k, v in public.items() if k not in ("seat", "state")}
    assert client.get(f"/matches/{mid}/views?version={last + 1}&seat=0").status_code == 404
    assert client.get(f"/matches/{mid}/views?version=0").status_code == 400
    assert client.get(f"/matches/{mid}/views?version=3&seat=7").status_code == 400
    assert client.get(f"/matches/{mid}/views?version=x").status_code == 400
    assert client.get(f"/matches/{uuid.uuid4()}/views?version=1").status_code == 404


def test_views_of_a_running_match_are_refused_so_only_the_api_with_a_token_shows_a_hand(client):
    arbiter = client.application.extensions["arbiter"]
    created = seed.play(arbiter, "cybermancy", seats=2, seed=3, upto=10)
    for seat in ("spectator", "0", "1"):
        response = client.get(f"/matches/{created['match_id']}/views?version=5&seat={seat}")
        assert response.status_code == 409 and response.json["code"] == "match_running"


def test_a_lobby_has_no_views_yet(client):
    created = client.post("/v1/matches", json={"game": "cyberiad", "seats": [{"open": True}, {"open": True}]}).json
    response = client.get(f"/matches/{created['match_id']}/views?version=1")
    assert response.status_code == 409 and response.json["code"] == "match_open"
