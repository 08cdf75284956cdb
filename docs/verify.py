#!/usr/bin/env python3
"""Check an Arbiter match export with nothing but Python's standard library.

    python3 verify.py match.ndjson          # exit 0: verified, 1: diverges, 2: not yet checkable
    python3 verify.py --selftest            # the random stream against the published vectors

Checks (docs/verification.md): seq continuity and the hash chain, and the revealed seed
against the commitment. It also carries the random stream (randbelow, shuffle) so any
random draw can be recomputed. Re-deciding actions needs the game's rules: that is
`arbiter audit`, which reports on the same two checks in the same words.
"""

import hashlib
import hmac
import json
import sys

GENESIS = "0" * 64
TYPES = ("MatchCreated", "ActionTaken", "MatchEnded", "MatchAbandoned")


def canonical(seq, type_, data):
    body = {"seq": seq, "type": type_, "data": data}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def event_hash(prev_hash, seq, type_, data):
    return hashlib.sha256(prev_hash.encode("ascii") + canonical(seq, type_, data)).hexdigest()


class Stream:
    """HMAC-SHA256(key, "{match_id}:{seq}:{k}"); first 8 bytes big-endian; rejection sampling."""

    def __init__(self, key, match_id, seq):
        self.key, self.prefix, self.k = key, f"{match_id}:{seq}:", 0

    def randbelow(self, n):
        limit = (2**64 // n) * n
        while True:
            block = hmac.new(self.key, (self.prefix + str(self.k)).encode(), hashlib.sha256).digest()
            self.k += 1
            x = int.from_bytes(block[:8], "big")
            if x < limit:
                return x % n

    def shuffle(self, items):
        items = list(items)
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]
        return items


def stream_key(seed, seats, entropy):
    parts = [entropy.get(name, "") for name in seats]
    return hashlib.sha256(seed + "".join(parts).encode("utf-8")).digest() if any(parts) else seed


def verify(records):
    """Returns (checks, first divergence or None); a divergence is (seq, check, detail)."""
    checks = {"chain": "not run", "commitment": "not run"}
    prev = GENESIS
    for expected, record in enumerate(records, start=1):
        if not isinstance(record, dict) or {"seq", "type", "data", "prev_hash", "hash"} - set(record):
            checks["chain"] = "diverges"
            return checks, (expected, "chain", "a record lacks fields")
        problem = None
        if record["seq"] != expected:
            problem = f"expected seq {expected}, found seq {record['seq']}"
        elif record["type"] not in TYPES or (expected == 1) != (record["type"] == "MatchCreated"):
            problem = f"unexpected event type {record['type']!r}"
        elif record["prev_hash"] != prev:
            problem = "prev_hash does not link to the previous hash"
        elif record["hash"] != event_hash(prev, record["seq"], record["type"], record["data"]):
            problem = "the hash does not match the content"
        if problem:
            checks["chain"] = "diverges"
            return checks, (expected, "chain", problem)
        prev = record["hash"]
    checks["chain"] = "ok"
    last = records[-1]
    if last["type"] not in ("MatchEnded", "MatchAbandoned"):
        checks["commitment"] = "pending: the seed is revealed when the match ends"
        return checks, None
    seed_hex = last["data"].get("seed") or ""
    try:
        found = hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()
    except ValueError:
        found = None
    if found != records[0]["data"]["commitment"]:
        checks["commitment"] = "diverges"
        return checks, (last["seq"], "commitment", "the revealed seed does not match the commitment")
    checks["commitment"] = "ok"
    return checks, None


def selftest():
    seed, match_id = bytes(range(32)), "00000000-0000-4000-8000-000000000001"
    stream = Stream(seed, match_id, 1)
    assert [stream.randbelow(52) for _ in range(5)] == [0, 14, 18, 43, 24]
    assert Stream(seed, match_id, 2).shuffle(range(10)) == [6, 2, 9, 1, 5, 0, 3, 7, 4, 8]
    print("random stream: published vectors reproduced")


def main(argv):
    if argv[1:] == ["--selftest"]:
        selftest()
        return 0
    if len(argv) != 2:
        print(__doc__)
        return 2
    with open(argv[1], encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle if line.strip()]
    if not records:
        print("no events")
        return 1
    checks, divergence = verify(records)
    for name, result in checks.items():
        print(f"{name}: {result}")
    if divergence:
        seq, check, detail = divergence
        print(f"first divergence at seq {seq} ({check}): {detail}")
        return 1
    print(f"{len(records)} events; head {records[-1]['hash']}")
    return 0 if all(result == "ok" for result in checks.values()) else 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
