#!/usr/bin/env python3
"""Check an Arbiter match export with nothing but Python's standard library.

    python3 verify.py match.ndjson          # exit 0: verified, 1: diverges, 2: not yet checkable
    python3 verify.py --selftest            # the random stream against the published vectors

Checks (docs/verification.md): seq continuity and the hash chain (over each event's public
form and content commitment), the revealed seed against the commitment, and every event's
full data against its keyed content commitment. It also carries the random stream
(randbelow, shuffle) so any random draw can be recomputed. Re-deciding actions and checking
each public form against the rules' redaction need the game's rules: that is `arbiter
audit`, which reports on the same three checks in the same words. Files of event format 1
(no commitments, the chain over the full data) are checked by format 1's rules.
"""

import hashlib
import hmac
import json
import sys

GENESIS = "0" * 64
TYPES = ("MatchCreated", "ActionTaken", "SeatResigned", "SeatTimedOut", "MatchEnded", "MatchAbandoned")
COMMIT_KEY_LABEL = b"arbiter event commitments"


def canonical(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def public_form(record):
    """What the chain covers: `public`, or `data` where the event hides nothing."""
    return record["public"] if record.get("public") is not None else record["data"]


def event_hash(fmt, prev_hash, record):
    if fmt == 1:  # event format 1: the chain over the full data
        body = {"seq": record["seq"], "type": record["type"], "data": record["data"]}
    else:
        body = {"seq": record["seq"], "type": record["type"], "public": public_form(record), "commit": record["commit"]}
    return hashlib.sha256(prev_hash.encode("ascii") + canonical(body)).hexdigest()


def content_commit(key, record):
    body = canonical({"seq": record["seq"], "type": record["type"], "data": record["data"]})
    return hmac.new(key, body, hashlib.sha256).hexdigest()


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
    fmt = 2 if isinstance(records[0], dict) and "commit" in records[0] else 1
    checks = {"chain": "not run", "commitment": "not run", "contents": "not run"}
    fields = {"seq", "type", "data", "prev_hash", "hash"} | ({"commit"} if fmt == 2 else set())
    prev = GENESIS
    for expected, record in enumerate(records, start=1):
        if not isinstance(record, dict) or fields - set(record):
            checks["chain"] = "diverges"
            return checks, (expected, "chain", "a record lacks fields")
        problem = None
        if record["seq"] != expected:
            problem = f"expected seq {expected}, found seq {record['seq']}"
        elif record["type"] not in TYPES or (expected == 1) != (record["type"] == "MatchCreated"):
            problem = f"unexpected event type {record['type']!r}"
        elif expected == 1 and public_form(record).get("event_format", 1) != fmt:
            problem = "the records are not of the event format the match was created with"
        elif fmt == 1 and "commit" in record:
            problem = "a record of event format 2 in a match of event format 1"
        elif record["prev_hash"] != prev:
            problem = "prev_hash does not link to the previous hash"
        elif record["hash"] != event_hash(fmt, prev, record):
            problem = "the hash does not match the content"
        if problem:
            checks["chain"] = "diverges"
            return checks, (expected, "chain", problem)
        prev = record["hash"]
    checks["chain"] = "ok"
    last = records[-1]
    if last["type"] not in ("MatchEnded", "MatchAbandoned"):
        checks["commitment"] = checks["contents"] = "pending: the seed is revealed when the match ends"
        return checks, None
    try:
        seed = bytes.fromhex(last["data"].get("seed") or "")
    except ValueError:
        seed = None
    if seed is None or hashlib.sha256(seed).hexdigest() != records[0]["data"]["commitment"]:
        checks["commitment"] = "diverges"
        return checks, (last["seq"], "commitment", "the revealed seed does not match the commitment")
    checks["commitment"] = "ok"
    if fmt == 1:
        checks["contents"] = "not applicable: event format 1 has no commitments"
        return checks, None
    key = hmac.new(seed, COMMIT_KEY_LABEL, hashlib.sha256).digest()
    for record in records:
        if content_commit(key, record) != record["commit"]:
            checks["contents"] = "diverges"
            return checks, (record["seq"], "contents", "the data is not the content committed to while the match ran")
    checks["contents"] = "ok"
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
    settled = all(result == "ok" or result.startswith("not applicable") for result in checks.values())
    return 0 if settled else 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
