"""The Cybermen search's choice of challengers (search.challengers): the greedy bot's ranking,
except that a group's move always puts an attempt on an untried Unit and a move without one
to the playouts."""

import random

from domain.games.cybermen import RULESET
from domain.games.cybermen.board import manhattan
from domain.games.cybermen.search import SETTINGS, challengers, evaluate, member_value
from domain.kernel.canonical import json_copy
from domain.kernel.rng import RandomStream
from domain.kernel.search import RootSearch, SearchBot

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

# (From the review.) The ranking is handed determinization sample 0: a ranking that reads the
# other seat's hand gives the same candidates whatever that hand really is.
def test_the_cybermen_challengers_do_not_depend_on_the_other_seats_hidden_cards():
    checked = 0
    for seed in range(40):
        rand = random.Random(seed)
        state = RULESET.setup({}, ["a", "b"], RandomStream(bytes([seed]) * 32, "m", 1))
        for step in range(rand.randrange(5, 80)):
            if state["over"]:
                break
            seat = sorted(RULESET.to_act(state))[0]
            action = RULESET.bots["random"](state, seat, rand)
            for fact in RULESET.decide(state, seat, action, RandomStream(bytes([seed]) * 32, "m", step + 2)):
                state = RULESET.evolve(state, fact)
        if state["over"]:
            continue
        seat = sorted(RULESET.to_act(state))[0]
        other = json_copy(state)  # the other seat's hand dealt again from the unseen cards
        pool = other["deck"] + other["groups"][1 - seat]["hand"]
        random.Random(seed).shuffle(pool)
        n = len(other["groups"][1 - seat]["hand"])
        other["groups"][1 - seat]["hand"], other["deck"] = pool[:n], pool[n:]
        choices = RULESET.legal_actions(state, seat)
        if len(choices) < 2:
            continue
        # the game's ranking, and one that reads the other seat's hand in what it is given: the
        # kernel must give it sample 0 (a determinization), never the state itself
        peeking = {**SETTINGS, "challengers": lambda given, me, moves: sorted(
            moves, key=lambda move: hash((str(move), str(given["groups"][1 - me]["hand"]))))}
        for bot in (SearchBot(RULESET, **SETTINGS), SearchBot(RULESET, **peeking)):
            assert (RootSearch(bot, state, seat, bytes(32)).candidates(choices)
                    == RootSearch(bot, other, seat, bytes(32)).candidates(choices))
        checked += 1
    assert checked > 20


# A cut-off playout is scored by `evaluate`: a free member is worth what greedy play still makes
# of it, which shrinks as the round limit nears (search.member_value, fitted to greedy matches).
def test_evaluate_counts_free_members_for_less_as_the_round_limit_nears():
    state = fresh(2)
    state["groups"][0].update(vp=0)  # three members still free
    state["groups"][1].update(vp=4, members=[], status="escaped")
    state["round"] = 3
    assert evaluate(state)[0] > 0.5  # early, three free members are worth more than 4 points
    state["round"] = 12
    assert evaluate(state)[0] < 0.5  # in the last round, they will hardly escape in time
    assert [member_value(r) for r in range(1, 13)] == sorted((member_value(r) for r in range(1, 13)), reverse=True)
    assert member_value(12) < 0.5 < member_value(5)
