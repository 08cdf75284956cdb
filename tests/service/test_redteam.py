"""Defects found by an independent attack on event format 2 (issue 28's fix), each reproduced
before its fix: deck lists keyed by a seat's name that is another seat's number, actions and
options the rules could not read (500s), option values of the wrong JSON type, and chunked
request bodies read as empty. (The games' own findings are tested in tests/games/<game>.)"""

import random
import uuid

import pytest

import domain.games  # noqa: F401  (registers every ruleset)
from domain.games.algomancy.cards import ELEMENT_DECKS
from domain.games.cybermancy.cards import SUGGESTED
from domain.kernel import ruleset as rulesets

from .helpers import bearer


@pytest.mark.parametrize("game, mine, theirs", [
    ("algomancy", ELEMENT_DECKS["fire"][:30], ELEMENT_DECKS["water"][:30]),
    ("cybermancy", SUGGESTED["human"][:30], SUGGESTED["undead"][:30]),
])
def test_a_seat_named_like_another_seats_number_cannot_read_that_seats_deck_list(client, game, mine, theirs):
    """`decks` maps "seat name or number" to a deck; the game reads a key as a seat name first
    (rules: `seat_names.index(key) if key in seat_names else int(key)`), but the redaction
    (ruleset.redact_options) shows a key to every seat whose name OR number it is. Seat 0
    named "1" keys its deck by its name "1": the game deals it to seat 0, and seat 1 (bob),
    whose number is "1", reads it in MatchCreated while the match runs."""
    created = client.post("/v1/matches", json={"game": game, "seats": ["1", "bob"],
                                               "options": {"decks": {"1": mine, "bob": theirs}}}).json
    tokens = [seat["token"] for seat in created["seats"]]
    match_id = created["match_id"]
    # The game did give the deck keyed "1" to seat 0 (the seat named "1"), not to seat 1.
    state = client.application.extensions["arbiter"].store.match(uuid.UUID(match_id)).state
    if game == "algomancy":
        assert state["players"][0]["deck_list"] == sorted(mine)  # the whole list, copies too (1.3.0)
    else:
        dealt = state["players"][0]["deck"] + state["players"][0]["hand"]
        assert sorted(dealt) == sorted(mine)
    log = client.get(f"/v1/matches/{match_id}/log", headers=bearer(tokens[1])).json
    seen_by_bob = log["events"][0]["data"]["options"]["decks"]
    assert seen_by_bob["bob"] == theirs  # its own
    assert seen_by_bob["1"] == "hidden", "seat 1 reads seat 0's constructed deck list"


@pytest.mark.parametrize("game, seats", [("algomancy", ["a", "b"])])
@pytest.mark.parametrize("kind", [{}, [], ["pass"], {"type": "pass"}])
def test_an_action_type_that_is_not_a_string_is_refused_not_a_crash(client, game, seats, kind):
    """Algomancy's decide tests `action.get("type") not in ACTIONS` on a dict: an unhashable
    `type` raises TypeError, a 500. The kernel's malformed check passes it through because no
    listed action has that type."""
    created = client.post("/v1/matches", json={"game": game, "seats": seats}).json
    summary = client.get(f"/v1/matches/{created['match_id']}").json
    token = created["seats"][summary["to_act"][0]]["token"]
    response = client.post(f"/v1/matches/{created['match_id']}/actions", headers=bearer(token),
                           json={"action": {"type": kind}})
    assert response.status_code in (400, 422), response.json
    assert client.get(f"/v1/matches/{created['match_id']}").json["version"] == summary["version"]


def test_a_cyberspace_reboot_listing_an_array_to_clear_is_refused_not_a_crash(client):
    """Cyberspace's `reboot` takes `clear` (a list of stacks); an array inside it is a
    TypeError (unhashable), a 500, where the listing says strings."""
    ruleset = rulesets.latest("cyberspace")
    created = client.post("/v1/matches", json={"game": "cyberspace", "seats": ["a", "b"]}).json
    match_id, tokens = created["match_id"], [seat["token"] for seat in created["seats"]]
    rand = random.Random(2)
    for _ in range(400):
        summary = client.get(f"/v1/matches/{match_id}").json
        if summary["status"] != "running":
            break
        seat = summary["to_act"][0]
        listed = client.get(f"/v1/matches/{match_id}/legal-actions", headers=bearer(tokens[seat])).json["actions"]
        reboots = [a for a in listed if a["type"] == "reboot"]
        if reboots:
            posted = {k: v for k, v in reboots[0].items() if k != "params"}
            response = client.post(f"/v1/matches/{match_id}/actions", headers=bearer(tokens[seat]),
                                   json={"action": {**posted, "clear": [[1]]}})
            assert response.status_code in (400, 422), response.json
            return
        client.post(f"/v1/matches/{match_id}/actions", headers=bearer(tokens[seat]),
                    json={"action": ruleset.bots["random"](
                        client.application.extensions["arbiter"].store.match(
                            uuid.UUID(match_id)).state, seat, rand)})
    pytest.fail("no reboot was listed in the deterministic match")


@pytest.mark.parametrize("game, options", [
    ("algomancy", {"decks": {"²": ELEMENT_DECKS["fire"][:30]}}),   # str.isdigit() but not int()
    ("cybermancy", {"decks": {"²": SUGGESTED["human"][:30]}}),
    ("algomancy", {"setup": []}),                                  # unhashable in `in SETUPS`
    ("algomancy", {"setup": {}}),
])
def test_options_the_rules_cannot_read_are_refused_not_a_crash(client, game, options):
    response = client.post("/v1/matches", json={"game": game, "seats": ["a", "b"], "options": options})
    assert response.status_code in (400, 422), response.json


@pytest.mark.parametrize("value", [True, 1.0])
def test_an_integer_option_given_as_a_boolean_or_fraction_is_refused(client, value):
    """`archenemy_turns` is `{"enum": [1, 2]}`: Python's `True in (1, 2)` and `1.0 in (1, 2)`
    hold, so `true` and `1.0` are recorded in MatchCreated's options as given (issue 28, item 4,
    for options rather than actions)."""
    response = client.post("/v1/matches", json={"game": "algomancy", "seats": ["a", "b", "c"],
                                                "options": {"setup": "archenemy", "archenemy_turns": value}})
    assert response.status_code in (400, 422), response.json


def test_a_request_body_sent_in_chunks_is_read(served):
    """HTTP/1.1 lets a client send its body with `Transfer-Encoding: chunked` (no
    Content-Length): `requests` with a generator body and many proxies do. Under uvicorn and
    a2wsgi the Flask app reads such a body as empty: creating a match answers 400
    "Input is a zero-length, empty document" (an import: "the file holds no events")."""
    import http.client

    body = b'{"game": "cyberiad", "seats": ["ann", "bob"]}'
    connection = http.client.HTTPConnection(served.url.removeprefix("http://"), timeout=10)
    connection.request("POST", "/v1/matches", body=iter([body[:10], body[10:]]),
                       headers={"Content-Type": "application/json"}, encode_chunked=True)
    response = connection.getresponse()
    answer = response.read()
    connection.close()
    assert response.status == 201, answer



def test_a_rematch_gives_each_player_the_deck_they_brought(client):
    """A rematch rotates the seats; decks keyed by seat number stayed with the number, so the
    players swapped constructed decks (and each read the other's list in the new match)."""
    mine, theirs = SUGGESTED["human"][:30], SUGGESTED["undead"][:30]
    created = client.post("/v1/matches", json={"game": "cybermancy", "seats": ["ann", "bob"],
                                               "options": {"decks": {"0": mine, "1": theirs}}}).json
    tokens = [seat["token"] for seat in created["seats"]]
    assert client.post(f"/v1/matches/{created['match_id']}/resign", headers=bearer(tokens[0])).status_code == 201
    again = client.post(f"/v1/matches/{created['match_id']}/rematch", headers=bearer(tokens[0])).json
    assert [s["name"] for s in again["seats"]] == ["bob", "ann"]
    state = client.application.extensions["arbiter"].store.match(uuid.UUID(again["match_id"])).state
    for seat, deck in ((1, mine), (0, theirs)):  # ann now sits at 1, bob at 0
        dealt = state["players"][seat]["deck"] + state["players"][seat]["hand"]
        assert sorted(dealt) == sorted(deck)
    seen_by_ann = client.get(f"/v1/matches/{again['match_id']}/log", headers=bearer(tokens[0])).json
    assert seen_by_ann["events"][0]["data"]["options"]["decks"] == {"1": mine, "0": "hidden"}
