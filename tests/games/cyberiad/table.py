"""Build Cyberiad positions by hand and act on them, for rule-by-rule tests."""

from domain.games.cyberiad import RULESET
from domain.kernel.canonical import json_copy
from domain.kernel.errors import IllegalAction
from domain.kernel.rng import RandomStream

import pytest


def table(seats=2, hands=None, play=None, deck=None, discard=None, fame=None, trouble=None, genius=None,
          turn=0, number=3, played=False, used=None, constructors=None, last_machine=None):
    """A position in the Primary Action Phase of `turn`'s turn. Deck lists are top-last."""
    return {
        "seats": seats,
        "deck": list(deck or []),
        "discard": list(discard or []),
        "hands": [list(h) for h in (hands or [[] for _ in range(seats)])],
        "play": [list(p) for p in (play or [[] for _ in range(seats)])],
        "fame": list(fame or [0] * seats),
        "trouble": list(trouble or [0] * seats),
        "genius": list(genius or [0] * seats),
        "constructors": list(constructors or ["turl"] * seats),
        "imprisoned": [0] * seats,
        "out": [False] * seats,
        "out_order": [],
        "first": 0,
        "phase": "play",
        "turn": {"seat": turn, "number": number, "played": played, "used": list(used or [])},
        "prompt": None,
        "last_machine": last_machine,
        "over": None,
    }


def act(state, seat, action, seq=7):
    """Decide and evolve; returns the new state and the facts. The old state is untouched."""
    before = json_copy(state)
    facts = RULESET.decide(state, seat, action, RandomStream(b"\x07" * 32, "test-match", seq))
    assert state == before, "decide must not mutate the state"
    after = json_copy(state)
    for fact in facts:
        RULESET.evolve(after, fact)
    return after, facts


def play(state, seat, card, pay=()):
    return act(state, seat, {"type": "play", "card": card, "pay": list(pay)})[0]


def use(state, seat, card):
    return act(state, seat, {"type": "use", "card": card})[0]


def choose(state, option):
    return act(state, state["prompt"]["seat"], {"type": "choose", "option": option})[0]


def refused(state, seat, action, code):
    with pytest.raises(IllegalAction) as caught:
        act(state, seat, action)
    assert caught.value.code == code, caught.value.message
    return caught.value


