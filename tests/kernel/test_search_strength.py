"""The search bot plays well through the kernel alone: a small, fixed-seed version of issue
18's strength check (the full one, 50 matches a pairing in every game, is
`bench/search_strength.py`; its figures are in the README). The search seat alternates.
ARBITER_SEARCH_MATCHES sets the matches (default 2; 4 or more for a long run).

The search plays with the game's width and depth but a fixed budget of 16 playouts and no
wall-time cap: the result then depends on the seeds alone, never on how busy the machine is,
and two matches cost seconds, not the minute the served budget takes (700 ms a decision)."""

import os

import pytest

from bench.search_strength import decided, one_match

MATCHES = int(os.environ.get("ARBITER_SEARCH_MATCHES", "2"))


@pytest.mark.parametrize("game", ["cyberiad"])  # the cheapest rules; the rest take minutes a match
def test_the_search_bot_beats_the_random_bot(game):
    results = [one_match(game, "random", seed, playouts=16, milliseconds=None) for seed in range(MATCHES)]
    won = [result for result, _, _ in results].count("win")
    assert won == MATCHES, f"{game}: the search bot won {won} of {MATCHES} against random play"
    assert all(decisions > 0 for _, decisions, _ in results)


def test_a_pairing_stops_once_its_result_against_the_bar_is_known():
    # 80 % of 50 is 40 wins: reached after 40 straight wins, out of reach after 11 non-wins.
    assert decided(40, 40, 50, 0.8) and not decided(39, 39, 50, 0.8)
    assert decided(39, 50 - 10 + 10, 50, 0.8)  # all played: decided either way
    assert not decided(30, 40, 50, 0.8)  # 10 non-wins: 40 is still reachable
    assert decided(29, 40, 50, 0.8)  # 11 non-wins: it is not
    assert decided(30, 30, 50, 0.6) and not decided(29, 49, 50, 0.6)
