"""The search bot plays well through the kernel alone: a small, fixed-seed version of issue
18's strength check (the full one, 50 matches a pairing in every game, is
`bench/search_strength.py`; its figures are in the README). The search seat alternates."""

import pytest

from bench.search_strength import one_match

MATCHES = 4


@pytest.mark.parametrize("game", ["cyberiad"])  # the cheapest rules; the rest take minutes a match
def test_the_search_bot_beats_the_random_bot(game):
    results = [one_match(game, "random", seed) for seed in range(MATCHES)]  # the game's own search settings
    won = [result for result, _, _ in results].count("win")
    assert won == MATCHES, f"{game}: the search bot won {won} of {MATCHES} against random play"
    assert all(decisions > 0 for _, decisions, _ in results)
