"""How the search bot scores a cut-off playout (domain/games/cyberiad/search.py), from its
docstrings: `progress` is the seat's share of the Fame that wins (50 FP) less the square of
its share of the Trouble that loses (20 TP), -1 once out; `evaluate` is 1/2 plus half the
seat's progress lead over the best rival, 0 for a seat out. The bots' strength was measured
with these weights (bench/search_strength.py), so a changed weight is a different bot."""

import pytest

from domain.games.cyberiad.search import evaluate, progress

from .table import table


def test_progress_is_the_share_of_winning_fame_less_the_squared_share_of_losing_trouble():
    state = table(seats=2, fame=[25, 0], trouble=[10, 0])
    assert progress(state, 0) == pytest.approx(25 / 50 - (10 / 20) ** 2)  # 0.25
    assert progress(state, 1) == 0.0
    state["out"][1] = True
    assert progress(state, 1) == -1.0


def test_the_first_trouble_points_cost_little_so_a_play_for_fame_and_a_little_trouble_is_progress():
    assert progress(table(seats=2, fame=[5, 0], trouble=[2, 0]), 0) > 0  # 0.1 - 0.01


def test_evaluate_scores_each_seats_lead_over_the_best_rival_and_zero_once_out():
    state = table(seats=3, fame=[25, 10, 0])
    assert evaluate(state) == pytest.approx([0.5 + 0.5 * (0.5 - 0.2), 0.5 + 0.5 * (0.2 - 0.5), 0.5 + 0.5 * (0 - 0.5)])
    state["out"][2] = True
    assert evaluate(state) == pytest.approx([0.65, 0.35, 0.0])
