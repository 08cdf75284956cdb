"""bench/action_mix.py counts what it says: each action a bot chose once, shares of all
actions, and a match at a safety end only when its outcome's reason is one of the game's."""

from bench import action_mix


def test_shares_add_up_and_safety_ends_are_the_games_own_reasons(monkeypatch):
    report = action_mix.measure(["cyberiad"], {"cyberiad": 3}, "greedy", workers=1, seed=1)["cyberiad"]
    assert report["matches"] == 3 and sum(report["outcome_reasons"].values()) == 3
    assert abs(sum(report["action_share"].values()) - 1) < 1e-3
    assert "end_turn" in report["action_share"]
    assert report["safety_ends"] == 0  # Cyberiad designs none: every end is the rulebook's
    # Counted as a safety end, the commonest reason is counted in every match that ended so.
    monkeypatch.setitem(action_mix.SAFETY_ENDS, "cyberiad", {"deck_empty"})
    again = action_mix.measure(["cyberiad"], {"cyberiad": 3}, "greedy", workers=1, seed=1)["cyberiad"]
    assert again["safety_ends"] == again["outcome_reasons"].get("deck_empty", 0)
    assert again["action_share"] == report["action_share"]  # the same seeds play the same matches
