"""A 3-player Cyberspace match over HTTP with seat tokens only; then its export is audited
offline by `arbiter audit`, and by the service's own /audit."""

import random

from click.testing import CliRunner

from service.cli import main
from tests.service.helpers import bearer


def test_three_player_match_over_http_then_its_export_audits_clean(client, tmp_path):
    created = client.post("/v1/matches", json={"game": "cyberspace", "seats": ["ann", "bob", "cat"]}).json
    match_id, tokens = created["match_id"], [s["token"] for s in created["seats"]]
    rand = random.Random(3)
    moves = 0
    while (summary := client.get(f"/v1/matches/{match_id}").json)["status"] == "running":
        (seat,) = summary["to_act"]
        listed = client.get(f"/v1/matches/{match_id}/legal-actions", headers=bearer(tokens[seat])).json
        # a kind of action first, then one of it: the many tile placements do not drown the rest
        kind = rand.choice(sorted({a["type"] for a in listed["actions"]}))
        action = rand.choice([a for a in listed["actions"] if a["type"] == kind])
        response = client.post(f"/v1/matches/{match_id}/actions", headers=bearer(tokens[seat]),
                               json={"action": action, "expected_version": listed["version"]})
        assert response.status_code == 201, response.json
        moves += 1
        if moves % 40 == 0:
            boards = [client.get(f"/v1/matches/{match_id}/board", headers=bearer(t)).json["board"] for t in tokens]
            assert all(isinstance(b["stack"], int) and b["tiles"] == boards[0]["tiles"] for b in boards)
            (now,) = client.get(f"/v1/matches/{match_id}").json["to_act"] or (seat,)
            other = (now + 1) % 3  # a seat that is not to act
            wrong = client.post(f"/v1/matches/{match_id}/actions", headers=bearer(tokens[other]),
                                json={"action": {"type": "end_turn"}})
            assert wrong.status_code in (409, 422)
    outcome = summary["outcome"]
    assert outcome["reason"] == "final_round_scored" and len(outcome["scores"]) == 3 and outcome["winners"]

    exported = client.get(f"/v1/matches/{match_id}/export")
    assert exported.status_code == 200
    path = tmp_path / "cyberspace.ndjson"
    path.write_bytes(exported.data)
    audited = CliRunner().invoke(main, ["audit", str(path)])
    assert audited.exit_code == 0, audited.output
    assert "verified cyberspace" in " ".join(audited.output.split())
    assert client.get(f"/v1/matches/{match_id}/audit").json["ok"]


def test_bad_options_are_refused_with_the_rule(client):
    bad = client.post("/v1/matches", json={"game": "cyberspace", "seats": ["a", "b", "c"],
                                           "options": {"duels": "bit", "assistance": True}})
    assert bad.status_code == 422 and "card duels" in bad.json["detail"]
    puzzle = client.post("/v1/matches", json={"game": "cyberspace", "seats": ["solo"]})
    assert puzzle.status_code == 201
