"""A 3-player Cyberspace match with card duels (the default) and Assistance over HTTP with
seat tokens only: while it runs no seat's board, log or past state shows another seat's
hand, deck order or face-down Secret Card; then its export is audited offline by
`arbiter audit`, and by the service's own /audit."""

import random
import uuid

import orjson
from click.testing import CliRunner

from domain.games.herocard.cards import CARDS
from service.cli import main
from tests.service.helpers import bearer

SEATS = ["ann", "bob", "cat"]


def hidden_cards_of_others(board, seat):
    """Card ids another seat's view would have to show to leak: none may appear."""
    leaks = []
    for player in board["cards"]["players"]:
        if player["seat"] == seat:
            continue
        if not isinstance(player["hand"], int) or not isinstance(player["deck"], int):
            leaks.append(f"seat {player['seat']}'s hand or deck")
        for entries in player["stacks"].values():
            leaks += [f"secret {e['uid']}" for e in entries if e["face"] == "down" and e["card"] is not None]
    return leaks


def assert_log_redacted(client, match_id, token, seat):
    log = client.get(f"/v1/matches/{match_id}/log?limit=1000", headers=bearer(token)).json
    checked = 0
    for record in log["events"]:
        event = record.get("data", record)
        for fact in event.get("facts") or []:
            inner = fact.get("fact", {}) if fact.get("f") == "duel" else {}
            if inner.get("f") == "hc.draw" and inner["seat"] != seat:
                assert isinstance(inner["cards"], int), "another seat's draw shows in the log"
            if inner.get("f") == "hc.place" and inner["face"] == "down" and inner["seat"] != seat:
                assert inner["card"] is None, "a deployed Secret Card shows in the log"
            if inner.get("f") == "hc.reshuffle":
                assert isinstance(inner["order"], int), "a deck order shows in the log"
            checked += inner.get("f") == "hc.draw" and inner["seat"] != seat
        action = event.get("action") or {}
        if action.get("type") == "duel" and action["duel"].get("type") == "deploy" and event.get("seat") != seat:
            assert "card" not in action["duel"], "a deploy names its card in the log"
    assert checked, "the log shows no other seat's draw to check"


def fixed_deal(monkeypatch, seed: int) -> None:
    """The server's secret seed and its ids drawn from `seed`: the deal then opens a hack for
    the test's players to make (with a fresh seed, now and then none opened all match)."""
    from service import lifecycle

    draw = random.Random(seed)
    monkeypatch.setattr(lifecycle, "new_seed", lambda: draw.randbytes(32))
    monkeypatch.setattr(lifecycle.uuid, "uuid4", lambda: uuid.UUID(int=draw.getrandbits(128), version=4))


def test_three_player_card_duel_match_with_assistance_over_http_then_its_export_audits_clean(client, tmp_path,
                                                                                             monkeypatch):
    fixed_deal(monkeypatch, 1)
    created = client.post("/v1/matches", json={"game": "cyberspace", "seats": SEATS,
                                                "options": {"assistance": True,
                                                            "heroes": ["cryptomancer", "bouncer", "sinner"]}}).json
    match_id, tokens = created["match_id"], [s["token"] for s in created["seats"]]
    rand = random.Random(3)
    moves, kinds = 0, set()
    while (summary := client.get(f"/v1/matches/{match_id}").json)["status"] == "running":
        (seat,) = summary["to_act"]
        listed = client.get(f"/v1/matches/{match_id}/legal-actions", headers=bearer(tokens[seat])).json
        # a kind of action first, then one of it: the many tile placements do not drown the rest;
        # a hack whenever one is open, since the deal (from the server's seed) decides how often
        kinds_listed = sorted({a["type"] for a in listed["actions"]})
        kind = "attack" if "attack" in kinds_listed else rand.choice(kinds_listed)
        action = rand.choice([a for a in listed["actions"] if a["type"] == kind])
        kinds.add(action["duel"]["type"] if kind == "duel" else kind)
        response = client.post(f"/v1/matches/{match_id}/actions", headers=bearer(tokens[seat]),
                               json={"action": action, "expected_version": listed["version"]})
        assert response.status_code == 201, response.json
        moves += 1
        if moves % 25 == 0:
            for viewer, token in enumerate(tokens):
                board = client.get(f"/v1/matches/{match_id}/board", headers=bearer(token)).json["board"]
                assert hidden_cards_of_others(board, viewer) == []
                assert isinstance(board["cards"]["players"][viewer]["hand"], list)
            spectator = client.get(f"/v1/matches/{match_id}/board").json["board"]
            assert hidden_cards_of_others(spectator, None) == []
            other = (seat + 1) % 3  # a seat that is not to act
            (now,) = client.get(f"/v1/matches/{match_id}").json["to_act"] or (seat,)
            if other != now:
                wrong = client.post(f"/v1/matches/{match_id}/actions", headers=bearer(tokens[other]),
                                    json={"action": {"type": "end_turn"}})
                assert wrong.status_code in (409, 422)
        # while the match runs (the move just made may have ended it, and then all is public)
        if moves % 100 == 0 and client.get(f"/v1/matches/{match_id}").json["status"] == "running":
            assert_log_redacted(client, match_id, tokens[1], 1)
            past = client.get(f"/v1/matches/{match_id}/state?version=2", headers=bearer(tokens[1])).json["state"]
            assert all(isinstance(p["hand"], int) for s, p in enumerate(past["cards"]["players"]) if s != 1)
    outcome = summary["outcome"]
    assert outcome["reason"] == "final_round_scored" and len(outcome["scores"]) == 3 and outcome["winners"]
    assert {"attack", "discard", "play"} <= kinds, kinds  # cards were really played, and hacks made

    exported = client.get(f"/v1/matches/{match_id}/export")
    assert exported.status_code == 200
    path = tmp_path / "cyberspace.ndjson"
    path.write_bytes(exported.data)
    text = exported.data.decode()
    assert any(f'"{card}"' in text for card in CARDS)  # after the end everything is public
    assert orjson.loads(exported.data.splitlines()[0])
    audited = CliRunner().invoke(main, ["audit", str(path)])
    assert audited.exit_code == 0, audited.output
    assert "verified cyberspace" in " ".join(audited.output.split())
    assert client.get(f"/v1/matches/{match_id}/audit").json["ok"]


def test_bad_options_are_refused_with_the_rule(client):
    bad = client.post("/v1/matches", json={"game": "cyberspace", "seats": ["a", "b", "c"],
                                           "options": {"duels": "bit", "assistance": True}})
    assert bad.status_code == 422 and "card duels" in bad.json["detail"]
    heroes = client.post("/v1/matches", json={"game": "cyberspace", "seats": ["a", "b"],
                                              "options": {"heroes": ["bouncer", "nobody"]}})
    assert heroes.status_code == 422 and "'heroes'" in heroes.json["detail"] and "'nobody' is not one of" in heroes.json["detail"]
    puzzle = client.post("/v1/matches", json={"game": "cyberspace", "seats": ["solo"]})
    assert puzzle.status_code == 201
