"""A HeroCard Teams match over HTTP with seat tokens only, then audited; a two-player duel's
board never shows another seat's hand or a face-down Secret Card."""

import random

from tests.service.helpers import bearer, play_to_end, step


def test_four_player_teams_match_over_http(client):
    created = client.post("/v1/matches", json={"game": "herocard", "seats": ["ann", "bob", "cat", "dan"],
                                                "options": {"teams": True, "fair_start": True}}).json
    match_id = created["match_id"]

    def own_hand_only(seat, board):
        assert [isinstance(p["hand"], list) for p in board["players"]] == [s == seat for s in range(4)]
    summary = play_to_end(client, created, seed=11, every=60, check_board=own_hand_only)
    assert summary["status"] == "ended" and summary["outcome"]["winners"] in ([0, 2], [1, 3], [])
    assert client.get(f"/v1/matches/{match_id}/audit").json["ok"]


def test_two_player_duel_over_http_hides_secret_cards(client):
    created = client.post("/v1/matches", json={"game": "herocard", "seats": ["ann", "bob"],
                                                "options": {"heroes": ["cryptomancer", "bouncer"]}}).json
    match_id, tokens = created["match_id"], [s["token"] for s in created["seats"]]
    rand = random.Random(4)
    while step(client, match_id, tokens, rand):
        board = client.get(f"/v1/matches/{match_id}/board", headers=bearer(tokens[1])).json["board"]
        for entries in board["players"][0]["stacks"].values():
            assert all(e["card"] is None for e in entries if e["face"] == "down")
        spectator = client.get(f"/v1/matches/{match_id}/board").json["board"]
        assert all(isinstance(p["hand"], int) for p in spectator["players"])
    assert client.get(f"/v1/matches/{match_id}/audit").json["ok"]
    bad = client.post("/v1/matches", json={"game": "herocard", "seats": ["a", "b", "c"], "options": {"teams": True}})
    assert bad.status_code == 422 and "exactly 4" in bad.json["detail"]
