"""docs/verification.md's worked example is the example file's truth: both verifiers sign the
file off, and every number the page quotes recomputes from the file by the page's formulas."""

import hashlib
import hmac
import json
import re
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from service.cli import main

DOCS = Path(__file__).resolve().parents[2] / "docs"
EXAMPLE = DOCS / "example-match.ndjson"


def canonical(value) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def test_both_verifiers_sign_off_the_example():
    verdict = subprocess.run([sys.executable, "-I", str(DOCS / "verify.py"), str(EXAMPLE)], capture_output=True,
                             text=True)
    assert verdict.returncode == 0 and "contents: ok" in verdict.stdout, verdict.stdout
    result = CliRunner().invoke(main, ["audit", str(EXAMPLE)])
    assert result.exit_code == 0 and "verified" in result.output, result.output


def test_the_worked_example_recomputes_from_the_file():
    page = (DOCS / "verification.md").read_text()
    records = [json.loads(line) for line in EXAMPLE.read_text().splitlines()]
    seed = bytes.fromhex(records[-1]["data"]["seed"])
    record = records[2]
    key = hmac.new(seed, b"arbiter event commitments", hashlib.sha256).digest()
    commit = hmac.new(key, canonical({"seq": 3, "type": "ActionTaken", "data": record["data"]}),
                      hashlib.sha256).hexdigest()
    body = canonical({"seq": 3, "type": "ActionTaken", "public": record["public"], "commit": commit})
    recomputed = hashlib.sha256(record["prev_hash"].encode() + body).hexdigest()
    assert commit == record["commit"] and recomputed == record["hash"]
    quoted = set(re.findall(r"\b[0-9a-f]{64}\b", page))
    assert {key.hex(), commit, record["prev_hash"], record["hash"], seed.hex(),
            hashlib.sha256(seed).hexdigest()} <= quoted
    assert records[0]["data"]["commitment"] == hashlib.sha256(seed).hexdigest()
    assert records[0]["data"]["setup"]["hands"][0][:5] == ["altruizine", "disassemble", "one-number-5-screw",
                                                          "gargantius-effect", "contraptions"]
