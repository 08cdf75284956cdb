"""The search bot plays well through the kernel alone: a small, fixed-seed version of issue
18's strength check (the full one, 50 matches a pairing in every game, is
`bench/search_strength.py`; its figures are in the README). The search seat alternates.
ARBITER_SEARCH_MATCHES sets the matches (default 2; 4 or more for a long run).

The search plays with the game's width and depth but a fixed budget of 16 playouts and no
wall-time cap: the result then depends on the seeds alone, never on how busy the machine is,
and two matches cost seconds, not the minute the served budget takes (700 ms a decision)."""

import os

import pytest

from bench.search_strength import decided, one_match, paired_estimate
from projections.uncertainty import Z95

from ..sizing import sized

MATCHES = int(os.environ.get("ARBITER_SEARCH_MATCHES", sized(2)))


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


def test_the_paired_estimate_is_the_base_rate_plus_the_mean_gain_over_the_same_seeds():
    # Gains 1, 0, 0, -1 (a tie is no sole win) 25 times: mean 0, variance of the mean 50 / 99 / 100.
    est = paired_estimate(["win", "loss", "win", "tie"] * 25, ["loss", "loss", "win", "win"] * 25, 45, 100)
    assert est["gain"] == 0 and est["rate"] == 0.45 and est["changed"] == 50 and est["n"] == 100
    half = Z95 * (50 / 99 / 100 + 0.45 * 0.55 / 100) ** 0.5
    assert est["ci95"] == [round(0.45 - half, 4), round(0.45 + half, 4)]
    # One win where the base lost, two unchanged: the estimate moves by the gain (1/3), not to
    # the raw 2 of 3; its interval stays within 0..1.
    lifted = paired_estimate(["win", "win", "loss"], ["loss", "win", "loss"], 40, 100)
    assert lifted["rate"] == round(0.4 + 1 / 3, 4) and lifted["ci95"][1] <= 1


def test_a_base_match_plays_the_opponents_bot_in_the_search_seat():
    result, decisions, spent = one_match("cyberiad", "greedy", 3, base=True, playouts=16, milliseconds=None)
    assert decisions == 0 and spent == 0 and result in ("win", "tie", "loss")
    # The same seed and seat with the search bot makes decisions of its own.
    assert one_match("cyberiad", "greedy", 3, playouts=2, milliseconds=None)[1] > 0
