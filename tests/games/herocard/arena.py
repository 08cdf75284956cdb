"""Build HeroCard duel positions by hand and act on them through the real engine."""

import pytest

from domain.games.herocard import engine
from domain.games.herocard.cards import CARDS
from domain.kernel.canonical import json_copy
from domain.kernel.errors import IllegalAction
from domain.kernel.rng import RandomStream


def duel(heroes=("bouncer", "sinner"), hands=None, active=0, phase="action", decks=None, **settings):
    """Turn 1 of `active`, in `phase`; hands as given (default empty), decks as dealt unless given."""
    settings.setdefault("victory_points", 3)
    d = engine.new_duel(engine.config(**settings), list(heroes), 0, RandomStream(b"\x01" * 32, "arena", 1))
    for seat, player in enumerate(d["players"]):
        if hands is not None:
            player["deck"] += player["hand"]
            player["hand"] = list(hands.get(seat, []))
        if decks is not None and seat in decks:
            player["deck"] = list(decks[seat])
    d["turn"].update(active=active, phase=phase, number=1)
    d["first"] = active
    d.update(priority=active if phase == "action" else None, passes=0)
    return d


def put(d, seat, card, attribute=None, face="up", turn=0, cost=None):
    """A card already on a stack (played on an earlier turn); returns its uid."""
    uid = d["next_uid"]
    d["next_uid"] += 1
    d["players"][seat]["stacks"][attribute or CARDS[card]["attribute"]].append(
        {"uid": uid, "card": card, "face": face, "cost": CARDS[card]["cost"] if cost is None else cost, "turn": turn})
    return uid


def act(d, seat, action, seq=9):
    before = json_copy(d)
    assert seat in engine.to_act(d), f"seat {seat} is not to act ({engine.to_act(d)})"
    facts = engine.decide(d, seat, action, RandomStream(b"\x02" * 32, "arena", seq))
    assert d == before, "decide must not mutate the duel"
    after = json_copy(d)
    for fact in facts:
        engine.evolve(after, fact)
    return after


def play(d, seat, *cards, **params):
    return act(d, seat, {"type": "play", "cards": list(cards), **params})


def pass_(d, seat=None):
    return act(d, d["priority"] if seat is None else seat, {"type": "pass"})


def pass_all(d):
    """Everyone passes until the open Attack Sequence resolves (or the turn ends)."""
    results = d["results"]
    while d["sequence"] is not None and d["results"] == results and not d["over"]:
        d = pass_(d)
    return d


def refused(d, seat, action, code):
    with pytest.raises(IllegalAction) as caught:
        engine.decide(d, seat, action, RandomStream(b"\x02" * 32, "arena", 9))
    assert caught.value.code == code, caught.value.message


def spent(d, seat, attribute):
    player = d["players"][seat]
    return player["scores"][attribute] - engine.free_points(player, attribute)


def values(d):
    return engine.attack_values(d)
