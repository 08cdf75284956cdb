"""Drive matches over HTTP with seat tokens only."""

import random


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def create(client, seats=("ann", "bob", "cat"), **extra):
    response = client.post("/v1/matches", json={"game": "cyberiad", "seats": list(seats), **extra})
    assert response.status_code == 201, response.json
    return response.json


def step(client, match_id, tokens, rand):
    """Ask who is to act, take one of their legal actions and submit it back unchanged."""
    summary = client.get(f"/v1/matches/{match_id}").json
    if summary["status"] != "running":
        return None
    (seat,) = summary["to_act"]
    listed = client.get(f"/v1/matches/{match_id}/legal-actions", headers=bearer(tokens[seat])).json
    action = rand.choice(listed["actions"])
    response = client.post(f"/v1/matches/{match_id}/actions", headers=bearer(tokens[seat]),
                           json={"action": action, "expected_version": listed["version"]})
    assert response.status_code == 201, response.json
    return response.json


def play_to_end(client, created, seed=0):
    rand = random.Random(seed)
    tokens = [s["token"] for s in created["seats"]]
    while step(client, created["match_id"], tokens, rand):
        pass
    return client.get(f"/v1/matches/{created['match_id']}").json
