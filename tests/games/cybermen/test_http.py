"""A 4-player Cybermen match over HTTP with seat tokens only, then audited."""

from tests.service.helpers import bearer, play_to_end


def test_four_player_match_over_http_then_audited(client):
    created = client.post("/v1/matches", json={"game": "cybermen", "seats": ["ann", "bob", "cat", "dan"]}).json
    match_id, tokens = created["match_id"], [s["token"] for s in created["seats"]]
    summary = client.get(f"/v1/matches/{match_id}").json
    (seat,) = summary["to_act"]
    other = (seat + 1) % 4
    refused = client.post(f"/v1/matches/{match_id}/actions", headers=bearer(tokens[other]),
                          json={"action": {"type": "roll"}})
    assert refused.status_code == 422 and refused.json["code"] == "not_your_turn"
    refused = client.post(f"/v1/matches/{match_id}/actions", headers=bearer(tokens[seat]),
                          json={"action": {"type": "end_cyber"}})
    assert refused.status_code == 422 and refused.json["code"] == "not_now"
    for malformed in ({"type": "move", "to": [[7], [4]], "fatigue": 0}, {"type": "cyber_move", "id": ["c1"]}):
        refused = client.post(f"/v1/matches/{match_id}/actions", headers=bearer(tokens[seat]),
                              json={"action": malformed})
        assert refused.status_code == 422 and refused.json["code"] == "malformed"

    def own_hand_only(seat, board):
        assert [isinstance(g["hand"], list) for g in board["groups"]] == [s == seat for s in range(4)]
        assert isinstance(board["deck"], int)
    summary = play_to_end(client, created, seed=7, every=60, check_board=own_hand_only)
    assert summary["status"] == "ended" and summary["outcome"]["reason"] in ("round_limit", "no_humans_left")
    assert client.get(f"/v1/matches/{match_id}/audit").json["ok"]
    bad = client.post("/v1/matches", json={"game": "cybermen", "seats": [f"p{i}" for i in range(7)]})
    assert bad.status_code == 422 and "2-6 seats" in bad.json["detail"]
