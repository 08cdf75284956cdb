"""Build Algomancy positions by hand and act on them."""

import pytest

from domain.games.algomancy import RULESET
from domain.games.algomancy.effects import spawn_unit
from domain.kernel.canonical import json_copy
from domain.kernel.errors import IllegalAction
from domain.kernel.rng import RandomStream


def game(setup="1v1", seats=2, fmt="constructed", initiative=0, **options):
    """A new game, its initiative fixed, with every hand emptied (tests give cards)."""
    options = {"setup": setup, "format": fmt, **options}
    state = RULESET.setup(options, [f"p{i}" for i in range(seats)], RandomStream(b"\x01" * 32, "arena", 1))
    state["initiative"] = state["first"] = initiative
    return state


def at(state, kind, seats=None, **step):
    """Jump to a step of the turn (the rest of the turn's script follows as usual)."""
    state["step"] = {"k": kind, "seats": sorted(seats if seats is not None else range(state["n"])), **step}
    state["done"] = []
    state["script"] = HALT(state)
    return state


def HALT(state):
    """What follows a hand-built step: regroup, then a deployment that waits for everyone."""
    return [{"k": "regroup"}, {"k": "deploy", "seats": list(range(state["n"]))}]


def window(state, region, stage="attack"):
    state["step"] = {"k": "window", "region": region, "stage": stage}
    state["window"] = {"region": region, "stage": stage, "holder": 0, "passes": 0}
    state["script"] = HALT(state)
    return state


def battle(state):
    state["battle"] = state["battle"] or {"phase": 1, "formations": [], "next": 0, "triggered": []}
    return state


def put(state, seat, name, region=None, number=None):
    """A unit in play (in its controller's region unless told)."""
    state["next_id"] += 1
    card = f"{name}#{number or 900 + state['next_id']}"
    return spawn_unit(state, card, seat, region or state["home"][seat])


def give(state, seat, name, where="hand"):
    state["next_id"] += 1
    card = f"{name}#{800 + state['next_id']}"
    state["players"][seat][where].append(card)
    return card


def resources(state, seat, element, count):
    """Active, un-expended elemental resources."""
    names = {"fire": "Molten Caldera", "water": "Benthic Reaches", "earth": "Jagged Steppes",
             "wood": "Verdant Rift", "metal": "Alloyed Plains"}
    for _ in range(count):
        state["next_id"] += 1
        state["players"][seat]["resources"].append({"id": f"{names[element]}#{700 + state['next_id']}",
                                                    "kind": names[element], "element": element, "expended": False})


def act(state, seat, action, seq=9):
    before = json_copy(state)
    assert seat in RULESET.to_act(state), f"seat {seat} is not to act ({RULESET.to_act(state)})"
    facts = RULESET.decide(state, seat, action, RandomStream(b"\x02" * 32, "arena", seq))
    assert state == before, "decide must not mutate the state"
    after = json_copy(state)
    for fact in facts:
        RULESET.evolve(after, fact)
    return after


def refused(state, seat, action, code):
    with pytest.raises(IllegalAction) as caught:
        RULESET.decide(state, seat, action, RandomStream(b"\x02" * 32, "arena", 9))
    assert caught.value.code == code, caught.value.message
