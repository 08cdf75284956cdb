"""Canonical JSON is exactly DESIGN's json.dumps definition, and the chain links every event."""

import hashlib
import json

from hypothesis import given
from hypothesis import strategies as st

from domain.kernel.canonical import GENESIS_HASH, canonical_json, event_hash

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


def test_event_hash_is_sha256_of_prev_hash_and_canonical_body():
    data = {"seat": 0, "action": {"type": "pass"}, "facts": [{"f": "x", "é": "ü"}]}
    body = reference({"seq": 2, "type": "ActionTaken", "data": data})
    assert event_hash(GENESIS_HASH, 2, "ActionTaken", data) == \
        hashlib.sha256(GENESIS_HASH.encode() + body).hexdigest()
