"""Wilson intervals and the two-proportion test, against values computed by hand."""

from projections.uncertainty import difference, win_rate


def test_wilson_interval_matches_the_textbook_values():
    # 8 wins of 10: Wilson 95 % interval 0.4902 .. 0.9433 (Newcombe 1998, method 3).
    assert win_rate(8, 10) == {"rate": 0.8, "wins": 8, "n": 10, "ci95": [0.4902, 0.9433]}
    assert win_rate(0, 5)["ci95"] == [0.0, 0.4345]
    assert win_rate(0, 0) is None


def test_a_large_gap_is_significant_and_a_small_sample_is_not():
    wide = difference({"seat 0": win_rate(700, 1000), "seat 1": win_rate(300, 1000)})
    assert wide["significant"] and wide["highest"] == "seat 0" and wide["p_value"] < 1e-4
    narrow = difference({"seat 0": win_rate(6, 10), "seat 1": win_rate(4, 10)})
    assert not narrow["significant"] and "not significant" in narrow["verdict"]
    assert round(narrow["p_value"], 3) == 0.371  # z = 0.894
    assert difference({"seat 0": win_rate(1, 2), "seat 1": None}) is None
