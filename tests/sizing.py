"""How much random play the suite's property, fuzz and long-play tests do.

`make test` runs each at a size that keeps the whole suite to a few minutes on two cores;
ARBITER_LONG=N multiplies every size by N for a long run (a nightly run: ARBITER_LONG=10).
Every test still runs at every size. Where a test also reads its own variable
(ARBITER_PROPERTY_EXAMPLES for the games' property tests, which bench/mutation.py lowers and a
long run may raise; ARBITER_WORDS_MATCHES; ARBITER_FUZZ_EXAMPLES), that variable sets its size
outright."""

import os

LONG = float(os.environ.get("ARBITER_LONG", "1"))


def sized(default: int) -> int:
    """`default` (the size for `make test`) times ARBITER_LONG, at least 1."""
    return max(1, round(default * LONG))


def examples_set() -> bool:
    """Whether ARBITER_PROPERTY_EXAMPLES sets the games' property examples (bench/mutation.py)."""
    return bool(os.environ.get("ARBITER_PROPERTY_EXAMPLES"))


def examples(default: int) -> int:
    """A game's property test's Hypothesis examples: ARBITER_PROPERTY_EXAMPLES outright when it
    is set, else `default` sized."""
    return int(os.environ["ARBITER_PROPERTY_EXAMPLES"]) if examples_set() else sized(default)
