"""What the search bot assumes of Cybermancy (domain/games/cybermancy/search.py), from its
docstrings: a determinization deals each other player's unseen cards back between that
player's own hand and deck, shuffles the seat's own deck and the power decks and leaves the
seat's hand alone; `evaluate` scores each Cybermancer's health against the best of the
others', from 0 to 1, and 0 once out."""

import random

import pytest

from domain.games.cybermancy.rules_state import START_HEALTH
from domain.games.cybermancy.search import determinize, evaluate

from .arena import arena


def test_a_determinization_deals_unseen_cards_back_only_within_each_players_own_hand_and_deck():
    state = arena(seats=3)
    for seat, player in enumerate(state["players"]):
        player["hand"], player["deck"] = player["deck"][:4], player["deck"][4:]
    orders = set()
    for seed in range(5):
        sample = determinize(state, 0, random.Random(seed))
        assert sample["players"][0]["hand"] == state["players"][0]["hand"]
        for before, after in zip(state["players"], sample["players"]):
            assert (len(after["hand"]), len(after["deck"])) == (len(before["hand"]), len(before["deck"]))
            assert sorted(after["hand"] + after["deck"]) == sorted(before["hand"] + before["deck"])
        assert sorted(sample["cpu_deck"]) == sorted(state["cpu_deck"])
        orders.add(tuple(sample["players"][1]["hand"]))
    assert len(orders) > 1, "another player's hand is never redealt"


def test_evaluate_is_health_against_the_best_rivals_and_zero_once_out():
    state = arena(seats=3, health={0: 30, 1: 20, 2: 10})
    assert evaluate(state) == pytest.approx([0.5 + 0.5 * 10 / START_HEALTH, 0.5 - 0.5 * 10 / START_HEALTH,
                                             0.5 - 0.5 * 20 / START_HEALTH])
    state["players"][1]["out"] = True
    assert evaluate(state) == pytest.approx([0.5 + 0.5 * 20 / START_HEALTH, 0.0, 0.5 - 0.5 * 20 / START_HEALTH])
