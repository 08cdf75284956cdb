"""The Cybermen search's choice of challengers (search.challengers): the greedy bot's ranking,
except that a group's move always puts an attempt on an untried Unit and a move without one
to the playouts."""

import random

from domain.games.cybermen import RULESET
from domain.games.cybermen.board import manhattan
from domain.games.cybermen.search import challengers

from .helpers import act, fresh, place

GREEDY = RULESET.bots["greedy"]


def tries_a_unit(state, action):
    return action["type"] == "move" and any(manhattan(action["to"], pos) == 1 for pos in state["units"].values())


def test_a_group_move_puts_the_best_attempt_and_the_best_move_without_one_first():
    state = place(fresh(2), groups={0: [3, 1]}, cybermen=[{"id": "c1", "pos": [11, 8]}], turn=0, phase="group")
    state, _ = act(state, 0, {"type": "roll"}, 2)
    ranked = challengers(state, 0, RULESET.legal_actions(state, 0))
    assert ranked[0] == GREEDY(state, 0, random.Random(0)) and tries_a_unit(state, ranked[0])
    assert not tries_a_unit(state, ranked[1])
    assert any(tries_a_unit(state, action) for action in ranked[2:])  # otherwise the greedy bot's order


def test_once_every_unit_is_tried_a_group_move_is_ranked_as_the_greedy_bot_ranks_it():
    state = place(fresh(2), groups={0: [3, 1]}, cybermen=[{"id": "c1", "pos": [11, 8]}], turn=0, phase="group")
    state["groups"][0]["tried"] = list(state["units"])
    state, _ = act(state, 0, {"type": "roll"}, 3)
    ranked = challengers(state, 0, RULESET.legal_actions(state, 0))
    assert ranked[0] == GREEDY(state, 0, random.Random(0))
    assert sorted(map(str, ranked)) == sorted(map(str, RULESET.legal_actions(state, 0)))
