"""The load scenario: people playing matches over the public HTTP API.

Each simulated player creates a two-seat match (both seats are its own, as a hot-seat
player or a client holding two tokens would), then, at its own pace, reads the match,
reads the legal actions of the seat to act, posts one of them (with `expected_version`
and an Idempotency-Key, as the README recommends) and now and then follows the live
stream until the next event arrives. When a match ends it creates another.

Run by `bench/load/run.py` (which starts the server and reads Locust's CSV); by hand:
    locust -f bench/load/locustfile.py --headless -H http://127.0.0.1:8000 -u 40 -r 10 -t 30s

LOAD_GAME (default cyberiad) and LOAD_MOVES_PER_S_PER_USER (default 1.0) set the game and
each player's pace; the target rate is users x pace.
"""

import os
import random
import socket
import time
import uuid
from urllib.parse import urlparse

from locust import constant_throughput, events, task
from locust.contrib.fasthttp import FastHttpUser

GAME = os.environ.get("LOAD_GAME", "cyberiad")
PACE = float(os.environ.get("LOAD_MOVES_PER_S_PER_USER", "1.0"))


def first_event_in(received: bytes) -> bool:
    start = received.find(b"data:")
    return start >= 0 and b"\n\n" in received[start:]


class Player(FastHttpUser):
    wait_time = constant_throughput(PACE)

    def on_start(self):
        self.rand = random.Random()
        self.match_id = None

    def new_match(self):
        with self.client.post("/v1/matches", json={"game": GAME, "seats": ["p1", "p2"]},
                              name="create match", catch_response=True) as created:
            if created.status_code != 201:
                created.failure(f"create: {created.status_code}")
                self.match_id = None
                return
            body = created.json()
        self.match_id, self.tokens = body["match_id"], [s["token"] for s in body["seats"]]

    @task(10)
    def move(self):
        if self.match_id is None:
            self.new_match()
            if self.match_id is None:
                return
        summary = self.client.get(f"/v1/matches/{self.match_id}", name="read match").json()
        if summary["status"] != "running":
            self.match_id = None
            return
        seat = summary["to_act"][0]
        auth = {"Authorization": f"Bearer {self.tokens[seat]}"}
        listed = self.client.get(f"/v1/matches/{self.match_id}/legal-actions", headers=auth,
                                 name="legal actions").json()
        action = self.rand.choice(listed["actions"])
        with self.client.post(f"/v1/matches/{self.match_id}/actions", name="post move", catch_response=True,
                              json={"action": action, "expected_version": summary["version"]},
                              headers={**auth, "Idempotency-Key": uuid.uuid4().hex}) as posted:
            if posted.status_code == 201:
                if posted.json()["status"] != "running":
                    self.match_id = None
            elif posted.status_code == 409:  # another of this player's requests moved first: not an error
                posted.success()
            else:
                posted.failure(f"move: {posted.status_code} {posted.text[:200]}")

    @task(1)
    def follow_stream(self):
        """Open the live stream resuming one event back: the time until that event arrives."""
        if self.match_id is None:
            return
        target = urlparse(self.host)
        started = time.perf_counter()
        error, size = None, 0
        try:
            with socket.create_connection((target.hostname, target.port or 80), timeout=10) as conn:
                conn.sendall((f"GET /v1/matches/{self.match_id}/stream HTTP/1.1\r\nHost: {target.netloc}\r\n"
                              f"Accept: text/event-stream\r\nLast-Event-ID: 1\r\n\r\n").encode())
                received = b""
                while not first_event_in(received):
                    chunk = conn.recv(65536)
                    if not chunk:
                        raise ConnectionError("the stream closed before its first event")
                    received += chunk
                size = len(received)
                if not received.startswith(b"HTTP/1.1 200"):
                    error = RuntimeError(received.split(b"\r\n", 1)[0].decode())
        except Exception as failure:  # noqa: BLE001 - any failure is reported to Locust as this request's
            error = failure
        events.request.fire(request_type="GET", name="stream first event", response_time=(time.perf_counter() - started)
                            * 1000, response_length=size, exception=error, context={})
