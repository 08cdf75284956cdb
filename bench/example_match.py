"""Write docs/example-match.ndjson, the match docs/verification.md works through, and print the
numbers its worked example quotes (seq 3): a 2-seat Cyberiad match of two random bots, from a
fixed seed and match id, so the file changes only when the rules or the event format do.

    python bench/example_match.py        # then update docs/verification.md's quoted numbers
"""

import hashlib
import hmac
import json
import random
import sys
import tempfile
import uuid
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import domain.games  # noqa: E402,F401
from domain.kernel import ruleset as rulesets  # noqa: E402
from domain.kernel.match import Match  # noqa: E402
from domain.kernel.store import MatchStore  # noqa: E402

SEED = bytes.fromhex("f0637c6795b0af7d9612620984433768bb050915773eaa58098ebaf4022a73bf")
MATCH_ID = uuid.UUID("a4f31d1b-aac2-46e5-b4c8-b2a4c5bac89f")


def main() -> None:
    ruleset = rulesets.latest("cyberiad")
    store = MatchStore({"ARBITER_DATA_DIR": tempfile.mkdtemp()})
    match = Match.start(MATCH_ID, ruleset, ["bot0", "bot1"], {}, {}, SEED)
    rand = random.Random(0)
    while match.status == "running":
        seat = match.to_act()[0]
        match.act(seat, ruleset.bots["random"](match.state, seat, rand), SEED, listed=True)
    store.save_match(match)
    records = store.stored_events(MATCH_ID)
    (ROOT / "docs" / "example-match.ndjson").write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in records))
    record = records[2]
    key = hmac.new(SEED, b"arbiter event commitments", hashlib.sha256).digest()
    print(f"{ruleset.version}: {len(records)} events; seq 3 data {json.dumps(record['data'])[:200]}")
    print(f"key       = {key.hex()}\ncommit    = {record['commit']}\nprev_hash = {record['prev_hash']}\n"
          f"hash      = {record['hash']}")


if __name__ == "__main__":
    main()
