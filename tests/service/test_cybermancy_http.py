"""A 4-player Cybermancy teams match over HTTP with seat tokens only."""

from .helpers import play_to_end


def test_four_player_teams_match_over_http(client):
    created = client.post("/v1/matches", json={"game": "cybermancy", "seats": ["ann", "bob", "cat", "dan"],
                                                "options": {"mode": "teams"}}).json
    match_id = created["match_id"]

    def own_hand_only(seat, board):
        assert [isinstance(p["hand"], list) for p in board["players"]] == [s == seat for s in range(4)]
        assert [p["team"] for p in board["players"]] == [0, 1, 0, 1]
    summary = play_to_end(client, created, seed=5, every=50, check_board=own_hand_only)
    winners = summary["outcome"]["winners"]
    assert summary["status"] == "ended" and winners in ([0, 2], [1, 3])
    assert client.get(f"/v1/matches/{match_id}/audit").json["ok"]
    bad = client.post("/v1/matches", json={"game": "cybermancy", "seats": ["a", "b", "c"],
                                           "options": {"mode": "teams"}})
    assert bad.status_code == 422 and "exactly 4 players" in bad.json["detail"]
