"""`make bench`: Arbiter's costs as ratios to a floor measured in the same run.

1. Move submissions per second through the full HTTP stack (gunicorn, 2 sync workers,
   Flask, the event store on SQLite) beside a bare Flask endpoint doing one SQLite
   insert, both driven by the same client for the same time.
2. Replay cost per event: rebuilding finished matches from the store with no cache,
   beside the raw read (select + orjson.loads) of the same rows.
3. Audit speed: events verified per second (hash chain, commitment, re-deciding every
   action and the outcome) over the same exported matches.
"""

import http.client
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid

import orjson

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

SECONDS = float(os.environ.get("BENCH_SECONDS", "6"))
CLIENTS = int(os.environ.get("BENCH_CLIENTS", "4"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(app_path: str, env: dict) -> tuple[subprocess.Popen, int]:
    port = free_port()
    process = subprocess.Popen(
        [os.path.join(os.path.dirname(sys.executable), "gunicorn"), "--workers", "2", "--bind",
         f"127.0.0.1:{port}", "--log-level", "warning", app_path],
        cwd=ROOT, env={**os.environ, **env}, start_new_session=True)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            return process, port
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{app_path} did not start")


def stop(process):
    os.killpg(process.pid, signal.SIGTERM)
    process.wait(timeout=10)


def request(port, method, path, body=None, headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request(method, path, body=None if body is None else orjson.dumps(body),
                 headers={"Content-Type": "application/json", **(headers or {})})
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response.status, (orjson.loads(data) if data else None)


def drive(worker, clients=CLIENTS, seconds=SECONDS) -> float:
    """Run `worker(stop_at)` in `clients` threads; each returns how many moves it made."""
    counts = [0] * clients
    stop_at = time.perf_counter() + seconds

    def run(i):
        counts[i] = worker(stop_at)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(clients)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(counts) / (time.perf_counter() - started)


def baseline_rate(data_dir) -> float:
    process, port = serve("bench.baseline_app:app", {"ARBITER_DATA_DIR": data_dir})
    try:
        def worker(stop_at):
            n = 0
            while time.perf_counter() < stop_at:
                status, _ = request(port, "POST", "/moves", {"action": {"type": "end_turn"}, "expected_version": n + 1})
                assert status == 201
                n += 1
            return n
        return drive(worker)
    finally:
        stop(process)


def arbiter_rate(data_dir) -> float:
    """Each client plays its own 2-seat matches with POSTs only, reading whose turn it is
    (and any choice it must make) from the facts each response returns."""
    process, port = serve("service.wsgi:app", {"ARBITER_DATA_DIR": data_dir})
    try:
        def worker(stop_at):
            moves = 0
            while time.perf_counter() < stop_at:
                status, created = request(port, "POST", "/v1/matches", {"game": "cyberiad", "seats": ["a", "b"]})
                assert status == 201, created
                mid, tokens = created["match_id"], [s["token"] for s in created["seats"]]
                _, summary = request(port, "GET", f"/v1/matches/{mid}")
                seat, version, action = summary["to_act"][0], summary["version"], None
                picks = 0
                while time.perf_counter() < stop_at:
                    if picks < 2:
                        action, picks = {"type": "pick", "constructor": "turl"}, picks + 1
                    status, result = request(port, "POST", f"/v1/matches/{mid}/actions",
                                             {"action": action or {"type": "end_turn"}, "expected_version": version},
                                             {"Authorization": f"Bearer {tokens[seat]}"})
                    assert status == 201, result
                    moves += 1
                    if result["status"] != "running":
                        break
                    version, action = result["version"], None
                    for fact in result["facts"]:
                        if fact["f"] == "turn":
                            seat = fact["seat"]
                        elif fact["f"] == "prompt" and fact["prompt"]:
                            seat = fact["prompt"]["seat"]
                            action = {"type": "choose", "option": fact["prompt"]["options"][0]}
                    if picks == 1:
                        seat = 1 - seat
            return moves
        return drive(worker)
    finally:
        stop(process)


def replay_costs(data_dir) -> tuple[float, float, float, int]:
    from domain.kernel.audit import audit
    from domain.kernel.store import MatchStore
    from service.matches import Arbiter

    store = MatchStore({"ARBITER_DATA_DIR": data_dir})
    arbiter = Arbiter(store)
    rand, match_ids = random.Random(1), []
    for _ in range(20):
        mid = uuid.UUID(arbiter.create_match("cyberiad", ["a", "b", "c"])["match_id"])
        while (summary := arbiter.summary(mid))["status"] == "running":
            seat = summary["to_act"][0]
            arbiter.submit_action(mid, seat, rand.choice(arbiter.legal_actions(mid, seat)["actions"]))
        match_ids.append(mid)
    events = sum(store.match(m).version for m in match_ids)
    rebuild, raw, audits = [], [], []
    exports = [store.stored_events(mid) for mid in match_ids]
    for _ in range(5):
        started = time.perf_counter()
        assert all(audit(records).ok for records in exports)
        audits.append(time.perf_counter() - started)
        started = time.perf_counter()
        for mid in match_ids:
            store.forget(mid)
            store.match(mid)
        rebuild.append(time.perf_counter() - started)
        started = time.perf_counter()
        for mid in match_ids:
            [orjson.loads(row.state) for row in store.recorder.select_events(mid)]
        raw.append(time.perf_counter() - started)
    store.close()
    return min(rebuild) / events * 1e6, min(raw) / events * 1e6, events / min(audits), events


def main():
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "base"))
        floor = baseline_rate(os.path.join(tmp, "base"))
        moves = arbiter_rate(os.path.join(tmp, "arbiter"))
        replay_us, raw_us, audited_per_s, events = replay_costs(os.path.join(tmp, "replay"))
    report = {
        "clients": CLIENTS, "seconds_each": SECONDS,
        "floor_bare_flask_sqlite_insert_per_s": round(floor),
        "arbiter_move_submissions_per_s": round(moves),
        "ratio_to_floor": round(moves / floor, 3),
        "aim_ratio": 0.5,
        "replay_us_per_event": round(replay_us, 2),
        "raw_select_and_orjson_us_per_event": round(raw_us, 2),
        "replayed_events": events,
        "aim_replay_us_per_event": 5,
        "audit_events_per_s_with_redecide": round(audited_per_s),
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
