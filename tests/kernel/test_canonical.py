"""Canonical JSON is exactly the published json.dumps definition, and the chain and the
content commitments are exactly docs/verification.md's formulas."""

import hashlib
import hmac
import json

from hypothesis import given
from hypothesis import strategies as st

from domain.kernel.canonical import (GENESIS_HASH, canonical_json, chain_hash, commit_key, content_commit,
                                    format1_hash)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text(),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(), children, max_size=5),
    max_leaves=30,
)


def reference(value) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


@given(json_values)
def test_canonical_json_equals_the_published_definition(value):
    assert canonical_json(value) == reference(value)


def test_format1_hash_is_sha256_of_prev_hash_and_canonical_body():
    data = {"seat": 0, "action": {"type": "pass"}, "facts": [{"f": "x", "é": "ü"}]}
    body = reference({"seq": 2, "type": "ActionTaken", "data": data})
    assert format1_hash(GENESIS_HASH, 2, "ActionTaken", data) == \
        hashlib.sha256(GENESIS_HASH.encode() + body).hexdigest()


def test_format2_chains_the_public_form_and_a_keyed_commitment_to_the_data():
    seed = bytes(range(32))
    data = {"seat": 0, "action": {"type": "pass"}, "facts": [{"f": "draw", "card": "ace"}]}
    public = {"seat": 0, "action": {"type": "pass"}, "facts": [{"f": "draw", "card": None}]}
    key = hmac.new(seed, b"arbiter event commitments", hashlib.sha256).digest()
    assert commit_key(seed) == key
    commit = hmac.new(key, reference({"seq": 2, "type": "ActionTaken", "data": data}), hashlib.sha256).hexdigest()
    assert content_commit(key, 2, "ActionTaken", data) == commit
    body = reference({"seq": 2, "type": "ActionTaken", "public": public, "commit": commit})
    assert chain_hash(GENESIS_HASH, 2, "ActionTaken", public, commit) == \
        hashlib.sha256(GENESIS_HASH.encode() + body).hexdigest()


def test_a_guess_at_a_hidden_value_cannot_be_tested_without_the_seed():
    """The chain hash depends on the hidden card only through the commitment, an HMAC under a key
    derived from the secret seed: two contents differing in the hidden card give two commitments
    that no one without the seed can compute, and the same public form."""
    drawn = [{"seat": 0, "facts": [{"f": "draw", "card": card}]} for card in ("ace", "two")]
    key = commit_key(bytes(32))
    assert content_commit(key, 5, "ActionTaken", drawn[0]) != content_commit(key, 5, "ActionTaken", drawn[1])
    other_key = commit_key(bytes([1]) * 32)
    assert content_commit(key, 5, "ActionTaken", drawn[0]) != content_commit(other_key, 5, "ActionTaken", drawn[0])
