"""The random stream matches DESIGN's public spec, computed here from first principles."""

import hashlib
import hmac
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.kernel.rng import RandomStream, commitment, stream_key

SEED = bytes(range(32))
MATCH = "00000000-0000-4000-8000-000000000001"


def block(key: bytes, seq: int, k: int) -> int:
    return int.from_bytes(hmac.new(key, f"{MATCH}:{seq}:{k}".encode(), hashlib.sha256).digest()[:8], "big")


def test_first_draws_follow_the_spec():
    rng = RandomStream(SEED, MATCH, 1)
    assert [rng.randbelow(1000) for _ in range(3)] == [block(SEED, 1, k) % 1000 for k in range(3)]


def test_fixed_vectors():
    # Published in docs/verification.md; a change here breaks every verifier in the wild.
    assert commitment(SEED) == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    rng = RandomStream(SEED, MATCH, 1)
    assert [rng.randbelow(52) for _ in range(5)] == [0, 14, 18, 43, 24]
    assert RandomStream(SEED, MATCH, 2).shuffle(range(10)) == [6, 2, 9, 1, 5, 0, 3, 7, 4, 8]


def test_shuffle_is_fisher_yates_from_the_last_index_down():
    assert RandomStream(SEED, MATCH, 2).shuffle(range(10)) == independent_shuffle(10, 2)


def independent_shuffle(n, seq):
    items, k = list(range(n)), 0
    for i in range(n - 1, 0, -1):
        while True:
            x = block(SEED, seq, k)
            k += 1
            if x < (2**64 // (i + 1)) * (i + 1):
                break
        j = x % (i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def test_rejection_sampling_skips_blocks_in_the_biased_tail():
    n = 2**63 + 1  # the limit is n itself: about half of all blocks are rejected
    rng = RandomStream(SEED, MATCH, 5)
    expected = next(block(SEED, 5, k) % n for k in range(100) if block(SEED, 5, k) < n)
    assert rng.randbelow(n) == expected


def test_entropy_changes_the_key_only_when_given():
    assert stream_key(SEED, ["", ""]) == SEED
    assert stream_key(SEED, ["ann's dice", ""]) == hashlib.sha256(SEED + "ann's dice".encode()).digest()


@given(st.integers(1, 500), st.integers(0, 10**6))
def test_randbelow_stays_in_range(n, seq):
    rng = RandomStream(SEED, MATCH, seq)
    assert 0 <= rng.randbelow(n) < n


def test_randbelow_is_roughly_uniform():
    rng = RandomStream(SEED, MATCH, 9)
    counts = Counter(rng.randbelow(6) for _ in range(6000))
    assert all(900 < counts[face] < 1100 for face in range(6))


def test_randbelow_refuses_empty_ranges():
    with pytest.raises(ValueError):
        RandomStream(SEED, MATCH, 1).randbelow(0)
