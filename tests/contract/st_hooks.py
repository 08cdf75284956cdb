"""Schemathesis hooks for the contract fuzz: NDJSON bodies for POST /v1/imports.

Loaded by `st run` through SCHEMATHESIS_HOOKS. Besides the strings the documented
schema yields, import bodies are real exports (ARBITER_FUZZ_EXPORT, written by the test)
with damage of the kinds clients and tamperers make: a line dropped, repeated, swapped,
cut short or replaced, a field given another value or type."""

import os
from pathlib import Path

import orjson
import schemathesis
from hypothesis import strategies as st

json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-2**63, 2**63 - 1), st.floats(allow_nan=False),
              st.text(max_size=12)),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)),
    max_leaves=8)


def export_lines() -> list[bytes]:
    path = os.environ.get("ARBITER_FUZZ_EXPORT")
    return Path(path).read_bytes().splitlines() if path else []


@st.composite
def damaged_export(draw, lines: list[bytes]) -> bytes:
    lines = list(lines)
    at = draw(st.integers(0, len(lines) - 1))
    damage = draw(st.sampled_from(["drop", "repeat", "swap", "cut", "replace", "field"]))
    if damage == "drop":
        del lines[at]
    elif damage == "repeat":
        lines.insert(at, lines[at])
    elif damage == "swap" and len(lines) > 1:
        other = draw(st.integers(0, len(lines) - 1))
        lines[at], lines[other] = lines[other], lines[at]
    elif damage == "cut":
        lines[at] = lines[at][: draw(st.integers(0, len(lines[at])))]
    elif damage == "replace":
        lines[at] = orjson.dumps(draw(json_values))
    else:
        record = orjson.loads(lines[at])
        target = record if draw(st.booleans()) else record["data"]
        key = draw(st.sampled_from(sorted(target)))
        target[key] = draw(json_values)
        lines[at] = orjson.dumps(record)
    return b"\n".join(lines) + b"\n"


_lines = export_lines()
if _lines:
    schemathesis.openapi.media_type("application/x-ndjson", damaged_export(_lines))


@schemathesis.serializer("application/x-ndjson")
def ndjson(ctx, value):
    if isinstance(value, bytes):
        return value
    return str(value).encode("utf-8", "surrogatepass")
