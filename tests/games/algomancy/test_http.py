"""A 1v1 and a 2v2 Algomancy match over HTTP with seat tokens only, then audited. The
driver takes any seat that is to act (several may be), as the service allows."""

import random

from tests.service.helpers import bearer


def pick(actions, rand):
    """An aggressive player: plays a card when it can, attacks with everything, never blocks,
    builds up to four resources; otherwise ends the step."""
    by_type = {}
    for action in actions:
        by_type.setdefault(action["type"], []).append(action)
    if "play" in by_type and rand.random() < 0.7:
        return rand.choice(by_type["play"])
    if "declare_attack" in by_type:
        return max(by_type["declare_attack"], key=lambda a: sum(len(f["columns"]) for f in a["formations"]))
    if "declare_blocks" in by_type:
        return by_type["declare_blocks"][0]
    if "activate_resource" in by_type:
        return by_type["activate_resource"][0]
    if "create_resource" in by_type and rand.random() < 0.3:
        return rand.choice(by_type["create_resource"])
    for kind in ("recycle", "end_draft", "end_planning", "end_haste", "end_deployment", "pass_priority"):
        if kind in by_type:
            return by_type[kind][0]
    return rand.choice(actions)


def drive(client, match_id, tokens, rand, seats):
    moves = 0
    while True:
        summary = client.get(f"/v1/matches/{match_id}").json
        if summary["status"] != "running":
            return summary, moves
        seat = rand.choice(summary["to_act"])
        listed = client.get(f"/v1/matches/{match_id}/legal-actions", headers=bearer(tokens[seat])).json
        action = pick(listed["actions"], rand)
        response = client.post(f"/v1/matches/{match_id}/actions", headers=bearer(tokens[seat]),
                               json={"action": action, "expected_version": listed["version"]})
        assert response.status_code == 201, response.json
        moves += 1
        if moves % 40 == 0:
            for viewer, token in enumerate(tokens):
                board = client.get(f"/v1/matches/{match_id}/board", headers=bearer(token)).json["board"]
                assert [isinstance(p["hand"], list) for p in board["players"]] == [s == viewer for s in range(seats)]
                assert all(isinstance(deck, dict) for deck in board["decks"].values())


def test_a_1v1_match_over_http_is_audited(client):
    created = client.post("/v1/matches", json={"game": "algomancy", "seats": ["ann", "bob"],
                                                "options": {"decks": {"ann": "fire", "bob": "earth"}}}).json
    tokens = [s["token"] for s in created["seats"]]
    summary, moves = drive(client, created["match_id"], tokens, random.Random(3), 2)
    assert summary["status"] == "ended" and moves > 20
    assert summary["outcome"]["reason"] in ("eliminated", "turn_limit")
    assert client.get(f"/v1/matches/{created['match_id']}/audit").json["ok"]


def test_a_2v2_split_teams_live_draft_match_over_http_is_audited(client):
    created = client.post("/v1/matches", json={"game": "algomancy", "seats": ["ann", "bob", "cat", "dan"],
                                                "options": {"setup": "teams_split", "format": "live_draft"}}).json
    tokens = [s["token"] for s in created["seats"]]
    summary, _ = drive(client, created["match_id"], tokens, random.Random(5), 4)
    assert summary["status"] == "ended"
    assert summary["outcome"]["winners"] in ([0, 2], [1, 3], [])
    assert client.get(f"/v1/matches/{created['match_id']}/audit").json["ok"]
    bad = client.post("/v1/matches", json={"game": "algomancy", "seats": ["a", "b", "c"],
                                           "options": {"setup": "teams_split"}})
    assert bad.status_code == 422 and "teams_split is for 4-4 players" in bad.json["detail"]
