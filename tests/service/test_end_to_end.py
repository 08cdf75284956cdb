"""A whole 3-player Cyberiad match over HTTP, seat tokens only, checked from the outside."""

import hashlib
import hmac
import json
import random

from domain.games.cyberiad.cards import CARDS

from ..conftest import caught_up
from .helpers import bearer, create, step


def canonical(value) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def test_three_player_match_over_http(client):
    created = create(client)
    match_id, tokens = created["match_id"], [s["token"] for s in created["seats"]]
    assert [s["name"] for s in created["seats"]] == ["ann", "bob", "cat"] and len(set(tokens)) == 3
    rand = random.Random(11)
    while True:
        summary = client.get(f"/v1/matches/{match_id}").json
        if summary["status"] != "running":
            break
        for seat, token in enumerate(tokens):
            board = client.get(f"/v1/matches/{match_id}/board", headers=bearer(token)).json["board"]
            for player in board["players"]:
                assert isinstance(player["hand"], list) == (player["seat"] == seat)
            log = client.get(f"/v1/matches/{match_id}/log", headers=bearer(token),
                             query_string={"since": max(0, summary["version"] - 3)}).json
            own = set(board["players"][seat]["hand"])
            for event in log["events"]:
                for fact in event["data"].get("facts", []):
                    if fact["f"] == "move" and fact["from"] == "deck" and fact["to"] != f"hand:{seat}" \
                            and not fact["to"].startswith("play"):
                        assert fact["card"] is None or fact["card"] in own | set(board["discard"])
        assert step(client, match_id, tokens, rand)["seq"] == summary["version"] + 1

    assert summary["status"] == "ended" and summary["outcome"]["winners"]
    assert summary["to_act"] == []
    # After the end everything is public: the seed matches the commitment ...
    assert hashlib.sha256(bytes.fromhex(summary["seed"])).hexdigest() == created["commitment"]
    # ... and the export is a gap-free hash chain anyone can check, over each event's public
    # form and a commitment to its full data keyed by the now revealed seed.
    export = client.get(f"/v1/matches/{match_id}/export")
    assert export.status_code == 200 and export.mimetype == "application/x-ndjson"
    lines = [json.loads(line) for line in export.data.decode().splitlines()]
    key = hmac.new(bytes.fromhex(summary["seed"]), b"arbiter event commitments", hashlib.sha256).digest()
    prev = "0" * 64
    for seq, line in enumerate(lines, start=1):
        assert line["seq"] == seq and line["prev_hash"] == prev
        content = canonical({"seq": line["seq"], "type": line["type"], "data": line["data"]})
        assert line["commit"] == hmac.new(key, content, hashlib.sha256).hexdigest()
        body = canonical({"seq": line["seq"], "type": line["type"], "public": line.get("public", line["data"]),
                          "commit": line["commit"]})
        assert line["hash"] == hashlib.sha256(prev.encode() + body).hexdigest()
        prev = line["hash"]
    assert lines[0]["type"] == "MatchCreated" and lines[-1]["type"] == "MatchEnded"
    assert lines[-1]["data"]["seed"] == summary["seed"] and len(lines) == summary["version"]
    # The full state is public now, at any version.
    first = client.get(f"/v1/matches/{match_id}/state", query_string={"version": 1}).json
    assert sorted(first["state"]["deck"] + [c for h in first["state"]["hands"] for c in h]) == sorted(CARDS)


def test_spectators_and_seats_see_only_what_they_may(client):
    created = create(client, seats=("ann", "bob"))
    match_id = created["match_id"]
    spectator = client.get(f"/v1/matches/{match_id}/board").json["board"]
    assert all(isinstance(p["hand"], int) for p in spectator["players"]) and isinstance(spectator["deck"], int)
    setup = client.get(f"/v1/matches/{match_id}/log").json["events"][0]["data"]["setup"]
    assert all(isinstance(p["hand"], int) for p in setup["players"])
    state = client.get(f"/v1/matches/{match_id}/state", query_string={"version": 1},
                       headers=bearer(created["seats"][0]["token"])).json["state"]
    assert isinstance(state["players"][0]["hand"], list) and isinstance(state["players"][1]["hand"], int)
    assert client.get(f"/v1/matches/{match_id}").json["seed"] is None
    assert client.get(f"/v1/matches/{match_id}/export").status_code == 409


def test_listing_filters_by_game_player_and_status(client):
    first = create(client, seats=("ann", "bob"))
    create(client, seats=("cat", "dan"))
    caught_up(client)
    listed = client.get("/v1/matches", query_string={"player": "ann"}).json
    assert [m["match_id"] for m in listed["matches"]] == [first["match_id"]]
    assert len(client.get("/v1/matches", query_string={"game": "cyberiad", "status": "running"}).json["matches"]) == 2
    page = client.get("/v1/matches", query_string={"limit": 1}).json
    assert len(page["matches"]) == 1
    rest = client.get("/v1/matches", query_string={"cursor": page["next_cursor"]}).json
    assert [m["seats"] for m in rest["matches"]] == [["cat", "dan"]]


def test_idempotency_key_replays_the_first_response(client):
    created = create(client, seats=("ann", "bob"))
    match_id = created["match_id"]
    seat = client.get(f"/v1/matches/{match_id}").json["to_act"][0]
    headers = {**bearer(created["seats"][seat]["token"]), "Idempotency-Key": "move-1"}
    body = {"action": {"type": "pick", "constructor": "turl"}}
    first = client.post(f"/v1/matches/{match_id}/actions", headers=headers, json=body)
    again = client.post(f"/v1/matches/{match_id}/actions", headers=headers, json=body)
    assert first.status_code == 201 and again.status_code == 200
    assert {**first.json, "replayed": True} == again.json
    assert client.get(f"/v1/matches/{match_id}").json["version"] == 2


def test_games_openapi_and_health(client):
    games = {game["game"]: game for game in client.get("/v1/games").json["games"]}
    assert games["cyberiad"]["seats"] == {"min": 2, "max": 4} and games["cybermancy"]["bots"] == ["greedy", "random", "search"]
    spec = client.get("/openapi.json").json
    assert spec["openapi"].startswith("3.") and "/v1/matches/{match_id}/actions" in spec["paths"]
    assert "CreateMatch" in spec["components"]["schemas"]
    routes = {rule.rule.replace("<", "{").replace(">", "}") for rule in client.application.url_map.iter_rules()
              if rule.endpoint != "static" and not rule.endpoint.startswith("web.")}  # web.: the viewer's pages
    routes.add("/v1/matches/{match_id}/stream")  # served beside Flask, on the event loop (service/asgi.py)
    assert routes == set(spec["paths"]), "every route is in the contract, and nothing else"
    assert client.get("/healthz").json["status"] == "ok"
