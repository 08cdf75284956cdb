"""Every kind of bad request gets its documented status and problem+json, and changes nothing."""

import uuid

import pytest

from domain.games.cyberiad.cards import CARDS

from ..conftest import caught_up
from .helpers import bearer, create, play_to_end


@pytest.fixture
def running(client):
    created = create(client, seats=("ann", "bob"))
    match_id = created["match_id"]
    tokens = [s["token"] for s in created["seats"]]
    for _ in range(2):  # both pick a Constructor: the first turn begins
        seat = client.get(f"/v1/matches/{match_id}").json["to_act"][0]
        assert post(client, match_id, tokens[seat], {"action": {"type": "pick", "constructor": "turl"}}).status_code == 201
    seat = client.get(f"/v1/matches/{match_id}").json["to_act"][0]
    hand = client.get(f"/v1/matches/{match_id}/board", headers=bearer(tokens[seat])).json["board"]["players"][seat]["hand"]
    not_held = sorted(set(CARDS) - set(hand))[0]
    return {"id": match_id, "to_act": tokens[seat], "waiting": tokens[1 - seat], "not_held": not_held}


@pytest.fixture
def ended(client):
    created = create(client, seats=("ann", "bob"))
    play_to_end(client, created, seed=5)
    return {"id": created["match_id"], "token": created["seats"][0]["token"]}


PICK = {"action": {"type": "end_turn"}}  # a legal action for the seat to act


def post(client, match_id, token=None, body=None, raw=None, headers=None):
    headers = {**(bearer(token) if token else {}), **(headers or {})}
    if raw is not None:
        return client.post(f"/v1/matches/{match_id}/actions", data=raw, headers=headers,
                           content_type="application/json")
    return client.post(f"/v1/matches/{match_id}/actions", json=body, headers=headers)


CASES = {
    "unknown match": (lambda c, m: post(c, uuid.uuid4(), m["to_act"], PICK), 404, "match_not_found"),
    "not a match id": (lambda c, m: c.get("/v1/matches/not-a-uuid/board"), 404, "match_not_found"),
    "missing token": (lambda c, m: post(c, m["id"], None, PICK), 401, "token_missing"),
    "wrong token": (lambda c, m: post(c, m["id"], "forged-token", PICK), 403, "token_invalid"),
    "not a bearer header": (lambda c, m: c.get(f"/v1/matches/{m['id']}/legal-actions",
                                               headers={"Authorization": "Basic abc"}), 403, "token_invalid"),
    "acting out of turn": (lambda c, m: post(c, m["id"], m["waiting"], PICK), 422, "not_your_turn"),
    "an illegal card": (lambda c, m: post(c, m["id"], m["to_act"], {"action": {"type": "play",
                                                                               "card": m["not_held"]}}),
                        422, "card_not_in_hand"),
    "an unknown action": (lambda c, m: post(c, m["id"], m["to_act"], {"action": {"type": "fly"}}),
                          422, "unknown_action"),
    "a field the action does not take": (lambda c, m: post(c, m["id"], m["to_act"],
                                                           {"action": {**PICK["action"], "card": "x"}}),
                                         422, "malformed"),
    "malformed JSON": (lambda c, m: post(c, m["id"], m["to_act"], raw=b'{"action": {'), 400, "malformed_json"),
    "JSON that is not an object": (lambda c, m: post(c, m["id"], m["to_act"], raw=b"[1, 2]"), 400,
                                   "malformed_json"),
    "wrong field types": (lambda c, m: post(c, m["id"], m["to_act"], {"action": "pick", "expected_version": "1"}),
                          400, "invalid_body"),
    "unknown fields": (lambda c, m: post(c, m["id"], m["to_act"], {**PICK, "cheat": True}), 400, "invalid_body"),
    "missing action": (lambda c, m: post(c, m["id"], m["to_act"], {}), 400, "invalid_body"),
    "oversize body": (lambda c, m: post(c, m["id"], m["to_act"], {"action": {"type": "pick",
                                                                             "pad": "x" * 70_000}}),
                      413, "body_too_large"),
    "stale expected_version": (lambda c, m: post(c, m["id"], m["to_act"], {**PICK, "expected_version": 2}),
                               409, "version_conflict"),
    "bad query parameter": (lambda c, m: c.get(f"/v1/matches/{m['id']}/state", query_string={"version": "x"}),
                            400, "invalid_body"),
    "version beyond the end": (lambda c, m: c.get(f"/v1/matches/{m['id']}/state", query_string={"version": 99}),
                               404, "version_not_found"),
    "unknown game": (lambda c, m: c.post("/v1/matches", json={"game": "chess", "seats": ["a", "b"]}),
                     422, "unknown_ruleset"),
    "too many seats": (lambda c, m: c.post("/v1/matches", json={"game": "cyberiad", "seats": list("abcde")}),
                       422, "invalid_setup"),
    "options the game lacks": (lambda c, m: c.post("/v1/matches", json={"game": "cyberiad", "seats": ["a", "b"],
                                                                         "options": {"turbo": 1}}),
                               422, "invalid_setup"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_input_is_refused_and_changes_nothing(client, running, case):
    send, status, code = CASES[case]
    before = client.get(f"/v1/matches/{running['id']}").json
    listed_before = len(caught_up(client).get("/v1/matches").json["matches"])
    response = send(client, running)
    assert response.status_code == status, response.json
    assert response.mimetype == "application/problem+json"
    problem = response.json
    assert problem["status"] == status and problem["code"] == code
    assert problem["title"] and problem["detail"] and problem["type"].endswith(code)
    after = client.get(f"/v1/matches/{running['id']}").json
    assert after["version"] == before["version"] and after["to_act"] == before["to_act"]
    assert len(caught_up(client).get("/v1/matches").json["matches"]) == listed_before


def test_idempotency_key_reused_with_another_body(client, running):
    headers = {"Idempotency-Key": "k1"}
    assert post(client, running["id"], running["to_act"], PICK, headers=headers).status_code == 201
    version = client.get(f"/v1/matches/{running['id']}").json["version"]
    other = post(client, running["id"], running["to_act"], {"action": {"type": "power"}}, headers=headers)
    assert other.status_code == 422 and other.json["code"] == "idempotency_key_reused"
    assert client.get(f"/v1/matches/{running['id']}").json["version"] == version


def test_an_action_on_an_ended_match(client, ended):
    version = client.get(f"/v1/matches/{ended['id']}").json["version"]
    response = post(client, ended["id"], ended["token"], {"action": {"type": "end_turn"}})
    assert response.status_code == 409 and response.json["code"] == "match_over"
    assert response.mimetype == "application/problem+json"
    assert client.get(f"/v1/matches/{ended['id']}").json["version"] == version


def test_concurrent_bad_bodies_each_get_their_own_errors(client, running):
    """One schema instance serves every request (service/api.py schema_of): sixteen threads
    posting bodies wrong in different fields at once each get the errors of their own body."""
    import threading

    bodies = [{**PICK, f"cheat_{n}": True} if n % 2 else {"action": PICK["action"], "expected_version": f"v{n}"}
              for n in range(16)]
    answers = [None] * len(bodies)
    barrier = threading.Barrier(len(bodies))

    def send(n):
        barrier.wait()
        answers[n] = post(client, running["id"], running["to_act"], bodies[n])

    threads = [threading.Thread(target=send, args=(n,)) for n in range(len(bodies))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for n, answer in enumerate(answers):
        assert answer.status_code == 400 and answer.json["code"] == "invalid_body", answer.json
        named = {key for key in answer.json.get("errors", {})}
        assert named == ({f"cheat_{n}"} if n % 2 else {"expected_version"}), (n, answer.json)
