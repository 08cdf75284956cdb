"""Build Cyberspace positions by hand for rule tests: tiles of a given node and connection
sides taken from the stack (so all 24 tiles stay accounted for), pieces put down directly."""

import random

import pytest

from domain.games.cyberspace import RULESET
from domain.games.cyberspace.board import key, turned
from domain.games.cyberspace.tiles import TILES
from domain.kernel.errors import IllegalAction
from domain.kernel.rng import RandomStream

N, E, S, W = 0, 1, 2, 3


def rng(seq=2, seed=0):
    return RandomStream(random.Random(seed).randbytes(32), "test", seq)


def new_state(seats=2, options=None, seed=0):
    """A position for the board rules: Bit Duels unless the options name the duels (card
    duels, the default of the game, have their own helpers in test_card_duels.py)."""
    state = RULESET.setup({"duels": "bit", **(options or {})}, [f"p{i}" for i in range(seats)], rng(1, seed))
    state["turn"] = 0
    return state


def put(state, x, y, node, sides):
    """Lay a tile of this node whose connections are exactly `sides` at (x, y)."""
    wanted = set(sides)
    for tile in sorted(state["stack"]) + sorted(state["face_up"]):
        if TILES[tile]["node"] != node:
            continue
        for rot in range(4):
            if turned(tile, rot) == wanted:
                (state["stack"] if tile in state["stack"] else state["face_up"]).remove(tile)
                state["board"][key(x, y)] = {"tile": tile, "rot": rot}
                return tile
    raise AssertionError(f"no {node} tile with sides {sides} left off the board")


def tile_like(state, node, sides):
    """A stack tile of this node whose unrotated connections have the shape of `sides`."""
    wanted = set(sides)
    for tile in sorted(state["stack"]):
        if TILES[tile]["node"] == node and any(turned(tile, rot) == wanted for rot in range(4)):
            return tile
    raise AssertionError(f"no {node} tile shaped {sides} in the stack")


def rot_for(tile, sides):
    return next(rot for rot in range(4) if turned(tile, rot) == set(sides))


def avatar(state, seat, x, y, index=None):
    avatars = state["players"][seat]["avatars"]
    avatars[avatars.index(None) if index is None else index] = key(x, y)


def act(state, seat, action, seq=2, seed=0):
    """Decide and apply one action; returns (new state, facts)."""
    facts = RULESET.decide(state, seat, action, rng(seq, seed))
    for fact in facts:
        state = RULESET.evolve(state, fact)
    return state, facts


def refused(state, seat, action, code):
    with pytest.raises(IllegalAction) as raised:
        RULESET.decide(state, seat, action, rng())
    assert raised.value.code == code, raised.value.message
    return raised.value


def legal_of(state, seat, kind):
    return [a for a in RULESET.legal_actions(state, seat) if a["type"] == kind]
