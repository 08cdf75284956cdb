"""Drive matches over HTTP with seat tokens only."""

import asyncio
import random
import threading
import time


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


def play_to_end(client, created, seed=0, every=0, check_board=None):
    """Random legal actions over HTTP to the end; the match summary. With `check_board`, every
    `every` actions each seat's board, fetched with its own token, goes to `check_board(seat, board)`."""
    rand = random.Random(seed)
    match_id, tokens = created["match_id"], [s["token"] for s in created["seats"]]
    moves = 0
    while step(client, match_id, tokens, rand):
        moves += 1
        if check_board is not None and moves % every == 0:
            for seat, token in enumerate(tokens):
                check_board(seat, client.get(f"/v1/matches/{match_id}/board", headers=bearer(token)).json["board"])
    return client.get(f"/v1/matches/{match_id}").json


def rechain(records, start=0):
    """What a careful forger does once the match is over and the seed is public: from `start`
    on, recompute every event's public form (with the rules' own redaction), its commitment
    under the revealed seed's key, and its hash, so that chain and commitments hold around
    whatever content was changed."""
    from domain.kernel import ruleset as rulesets
    from domain.kernel.canonical import GENESIS_HASH, chain_hash, commit_key, content_commit
    from domain.kernel.redaction import redact_data

    ruleset = rulesets.latest(records[0]["data"]["game"])
    key = commit_key(bytes.fromhex(records[-1]["data"]["seed"]))
    prev = records[start - 1]["hash"] if start else GENESIS_HASH
    for record in records[start:]:
        try:
            public = redact_data(ruleset, record["type"], record["data"], None)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            public = record["data"]  # nonsense the rules cannot read: shown as it is
        record.pop("public", None)
        if public != record["data"]:
            record["public"] = public
        record["commit"] = content_commit(key, record["seq"], record["type"], record["data"])
        record["prev_hash"] = prev
        record["hash"] = prev = chain_hash(prev, record["seq"], record["type"], public, record["commit"])
    return records


def run_apart(coroutine):
    """asyncio.run(coroutine) in a thread of its own: the browser tests' Playwright keeps an
    event loop running in the main thread of the worker process they share with these tests,
    where asyncio.run refuses to start another."""
    outcome = {}

    def run():
        try:
            outcome["value"] = asyncio.run(coroutine)
        except BaseException as error:  # re-raised in the caller's thread
            outcome["error"] = error

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(30)
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


class SlowCall:
    """`function` made to take `seconds` more: `started` is set as a call begins and `finished`
    as it ends, to hold a thread's store read (or request) open while a test stops its owner."""

    def __init__(self, function=lambda *args, **kwargs: None, seconds: float = 0.3):
        self.function, self.seconds = function, seconds
        self.started, self.finished = threading.Event(), threading.Event()

    def __call__(self, *args, **kwargs):
        self.started.set()
        time.sleep(self.seconds)
        self.finished.set()
        return self.function(*args, **kwargs)
