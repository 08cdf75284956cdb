"""Canonical JSON, the per-event hash chain and the keyed content commitments
(docs/verification.md is the public spec; docs/verify.py implements it with the stdlib).

canonical(value) = json.dumps(value, sort_keys=True, separators=(",", ":"),
ensure_ascii=False) in UTF-8. orjson with OPT_SORT_KEYS produces the same bytes for the
JSON we store (str keys, ints, strings, bools, None, lists, dicts) at a fraction of the
cost; a property test holds it to the json.dumps definition.

Event format 2 (every match created since): each event has its full `data` and its
`public` form, what everyone may read of it while the match runs (the rules' spectator
redaction). The chain is taken over the public form and a keyed commitment to the full
content:

    key    = HMAC-SHA256(seed, "arbiter event commitments")
    commit = HMAC-SHA256(key, canonical({"seq", "type", "data"}))            (hex)
    hash   = sha256_hex(prev_hash + canonical({"seq", "type", "public", "commit"}))

So nothing a seat or spectator reads while the match runs is a function of a hidden
value that can be recomputed without the seed: a guess at a hidden card cannot be
tested against a hash. When the match ends the seed is revealed, and anyone can then
recompute every commitment from the exported data.

Event format 1 (matches created before) hashed the full data: hash = sha256_hex(prev_hash
+ canonical({"seq", "type", "data"})). It stays verifiable, but its hashes are never shown
while such a match runs (they would test guesses).
"""

import hashlib
import hmac

import orjson

GENESIS_HASH = "0" * 64
EVENT_FORMAT = 2
COMMIT_KEY_LABEL = b"arbiter event commitments"


def canonical_json(value) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def commit_key(seed: bytes) -> bytes:
    """The per-match key of the content commitments: secret until the seed is revealed."""
    return hmac.new(seed, COMMIT_KEY_LABEL, hashlib.sha256).digest()


def content_commit(key: bytes, seq: int, type_: str, data: dict) -> str:
    body = canonical_json({"seq": seq, "type": type_, "data": data})
    return hmac.new(key, body, hashlib.sha256).hexdigest()


def chain_hash(prev_hash: str, seq: int, type_: str, public: dict, commit: str) -> str:
    body = canonical_json({"seq": seq, "type": type_, "public": public, "commit": commit})
    return hashlib.sha256(prev_hash.encode("ascii") + body).hexdigest()


def format1_hash(prev_hash: str, seq: int, type_: str, data: dict) -> str:
    """The chain of event format 1, over the full data (kept to verify older matches)."""
    body = canonical_json({"seq": seq, "type": type_, "data": data})
    return hashlib.sha256(prev_hash.encode("ascii") + body).hexdigest()


def digest(value) -> str:
    """sha256 hex of a value's canonical JSON (used to compare request bodies)."""
    return hashlib.sha256(canonical_json(value)).hexdigest()


def json_copy(value):
    """A deep copy of plain JSON data; far cheaper than copy.deepcopy."""
    return orjson.loads(orjson.dumps(value))
