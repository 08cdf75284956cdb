"""Build Cybermancy positions by hand and act on them."""

import pytest

from domain.games.cybermancy import RULESET
from domain.games.cybermancy.cards import CREATURES, POWER
from domain.kernel.canonical import json_copy
from domain.kernel.errors import IllegalAction
from domain.kernel.rng import RandomStream

FILLER = sorted(c for c, v in CREATURES.items() if not v["keywords"] and "crawler" not in v
                and "call_to_arms" not in v and "last_gasp" not in v)


def power_cards(kind, value, count, skip=0):
    cards = [c["id"] for c in POWER[kind] if c["value"] == value]
    return cards[skip:skip + count]


def arena(seats=2, mode="standard", hands=None, tracks=None, cpu=None, ram=None, health=None, turn=0):
    """Round 1 Main Phase, `turn` to act; every power card not given stays in the decks."""
    options = {"mode": mode} if mode != "standard" else {}
    state = RULESET.setup(options, [f"p{i}" for i in range(seats)], RandomStream(b"\x01" * 32, "arena", 1))
    state.update(phase="main", queue=[], turn=turn, initiative=turn, first=turn)
    for seat, player in enumerate(state["players"]):
        for kind in ("cpu", "ram"):
            state[f"{kind}_deck"] += player[kind]
            player[kind] = []
        player["hand"] = list((hands or {}).get(seat, []))
        player["track"] = dict((tracks or {}).get(seat, {"cpu": 1, "ram": 1}))
        player["health"] = (health or {}).get(seat, 30)
    for seat, cards in (cpu or {}).items():
        for card in cards:
            state["cpu_deck"].remove(card)
            state["players"][seat]["cpu"].append(card)
    for seat, cards in (ram or {}).items():
        for card in cards:
            state["ram_deck"].remove(card)
            state["players"][seat]["ram"].append(card)
    return state


def put(state, seat, card, area="main", status="active", damage=0):
    """Place a creature in play directly; returns its uid."""
    uid = f"c{state['next_uid']}"
    state["next_uid"] += 1
    creature = CREATURES[card]
    state["creatures"][uid] = {"card": card, "owner": seat, "attack": creature["attack"], "health": creature["health"],
                               "damage": damage, "status": status, "crawler": False}
    state["players"][seat][area].append(uid)
    return uid


def act(state, seat, action, seq=9):
    before = json_copy(state)
    assert seat in RULESET.to_act(state), f"seat {seat} is not to act"
    facts = RULESET.decide(state, seat, action, RandomStream(b"\x02" * 32, "arena", seq))
    assert state == before, "decide must not mutate the state"
    after = json_copy(state)
    for fact in facts:
        RULESET.evolve(after, fact)
    return after


def choose(state, option):
    return act(state, state["prompt"]["seat"], {"type": "choose", "option": option})


def refused(state, seat, action, code):
    with pytest.raises(IllegalAction) as caught:
        RULESET.decide(state, seat, action, RandomStream(b"\x02" * 32, "arena", 9))
    assert caught.value.code == code, caught.value.message


def card_with(keyword=None, cpu=None, ram=None, plain=False, **effects):
    """The first creature (by id) with these properties, so tests do not hard-code designed data."""
    for card_id, card in sorted(CREATURES.items()):
        if keyword and keyword not in card["keywords"] and keyword not in card:
            continue
        if cpu is not None and card["cpu"] != cpu or ram is not None and card["ram"] != ram:
            continue
        if plain and (card["keywords"] or any(k in card for k in ("crawler", "call_to_arms", "last_gasp"))):
            continue
        if any(card.get(trigger, {}).get("kind") != kind for trigger, kind in effects.items()):
            continue
        return card_id
    raise LookupError(f"no creature with {keyword} {cpu}/{ram} {effects}")
