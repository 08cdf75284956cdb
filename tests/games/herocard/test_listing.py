"""The listing's shortcuts (issue 32) list exactly what deciding every candidate lists: the
pre-check that refuses a candidate before `decide` copies the duel raises what `decide`
raises, and a remembered listing is the listing worked out afresh, a copy of its own each
time. Positions from random and greedy matches of every variant."""

import os
import random

import pytest

from domain.games.herocard import RULESET, engine, listing
from domain.kernel.canonical import json_copy
from domain.kernel.errors import IllegalAction
from domain.kernel.rng import RandomStream

from .test_properties import MODES


def positions(options, seats, seed, bot, limit=400):
    """(duel, seat to act) at each action of one match, the duel a copy of its own."""
    rand = random.Random(seed)
    key = rand.randbytes(32)
    state = RULESET.setup(options, [f"p{i}" for i in range(seats)], RandomStream(key, "m", 1))
    for seq in range(2, limit):
        if RULESET.outcome(state) is not None:
            return
        (seat,) = RULESET.to_act(state)
        yield json_copy(state["duel"]), seat
        for fact in RULESET.decide(state, seat, RULESET.bots[bot](state, seat, rand), RandomStream(key, "m", seq)):
            state = RULESET.evolve(state, fact)


def refusal(call):
    try:
        call()
    except IllegalAction as refused:
        return refused.code
    return None


@pytest.mark.parametrize("options, seats", MODES, ids=[f"{o}-{s}" for o, s in MODES])
def test_the_precheck_refuses_what_decide_refuses_with_the_same_code(options, seats):
    """Every candidate, and a few more (a play of two Base Attacks, which the candidates no
    longer offer, a deployment off one's own turn): where the pre-check refuses, `decide`
    refuses, for the same rule where the listing tries candidates (the Action Phase, nothing
    pending; elsewhere `decide` refuses earlier); where it lets one through, `decide` may
    still refuse."""
    prechecked = 0
    for bot in ("random", "greedy"):
        for duel, seat in positions(options, seats, seed=seats * 10 + len(options), bot=bot):
            tried = duel["turn"]["phase"] == "action" and not duel["pending"] and seat not in duel["turn"]["forfeit"]
            hand = duel["players"][seat]["hand"]
            extra = [{"type": "play", "cards": sorted(hand)[:2]}, {"type": "play", "cards": list(hand)},
                     {"type": "deploy", "card": hand[0] if hand else "jab", "attribute": "mind"}]
            for action in listing.candidates(duel, seat) + extra:
                early = refusal(lambda: engine.precheck(duel, seat, action))
                decided = refusal(lambda: engine.decide(duel, seat, action, RandomStream(b"\x00" * 32, "t", 1)))
                if early is not None:
                    assert decided == early if tried else decided is not None, (action, early, decided)
                    prechecked += tried
    assert prechecked >= 100


@pytest.mark.parametrize("options, seats", MODES[:6], ids=[f"{o}-{s}" for o, s in MODES[:6]])
def test_a_remembered_listing_is_the_listing_worked_out_afresh(options, seats):
    listed = 0
    for duel, seat in positions(options, seats, seed=7, bot="greedy"):
        remembered = engine.legal_actions(duel, seat)
        again = engine.legal_actions(json_copy(duel), seat)
        assert again == remembered
        worked_out = engine.legal_actions(duel, seat, accept=lambda action: engine._accepted(duel, seat, action))
        assert remembered == worked_out
        listed += len(remembered)
    assert listed >= 200


def test_each_listing_is_a_copy_of_its_own():
    """A caller may change the actions it was given (a client, a bot): the next listing of the
    same duel is untouched."""
    d, seat = next((d, s) for d, s in positions({}, 2, seed=3, bot="random") if d["turn"]["phase"] == "action"
                   and len(engine.legal_actions(d, s)) > 2)
    first = engine.legal_actions(d, seat)
    kept = json_copy(first)
    for action in first:
        action["type"] = "changed"
        action.get("cards", []).append("nothing")
    first.clear()
    assert engine.legal_actions(d, seat) == kept


def test_duels_that_differ_in_one_number_are_listed_each_on_its_own():
    """The listing is remembered by the whole duel: one free point less, and the Base Attack
    that fitted no longer does."""
    from .arena import duel
    d = duel(hands={0: ["knuckle_duster"]})
    assert {"type": "play", "cards": ["knuckle_duster"], "target": 1} in engine.legal_actions(d, 0)
    d["players"][0]["scores"]["body"] = 3  # Knuckle Duster costs four Body points
    assert all(a.get("cards") != ["knuckle_duster"] for a in engine.legal_actions(d, 0))


def test_a_forked_child_starts_without_the_remembered_listings():
    """Mutation testing (bench/mutation.py) forks its workers from a process that ran the
    tests: a listing remembered there would hide a mutant of the rules."""
    from .arena import duel
    engine.legal_actions(duel(hands={0: ["knuckle_duster"]}), 0)
    assert engine._ACCEPTED
    child = os.fork()
    if child == 0:
        os._exit(1 if engine._ACCEPTED else 0)
    assert os.waitstatus_to_exitcode(os.waitpid(child, 0)[1]) == 0


@pytest.mark.parametrize("options, seats", MODES, ids=[f"{o}-{s}" for o, s in MODES])
def test_the_candidates_left_out_untried_are_each_refused(options, seats):
    """listing._Refusals leaves out plays and deployments that cost too much or whose first
    card the pre-check refuses whatever it names: every one of them is refused, so the
    listing lists what it would list from every candidate."""
    left_out = 0
    for bot in ("random", "greedy"):
        for duel, seat in positions(options, seats, seed=seats * 10 + len(options) + 1, bot=bot):
            tried = listing.candidates(duel, seat)
            for action in listing.candidates(duel, seat, everything=True):
                if action not in tried:
                    assert refusal(lambda: engine.precheck(duel, seat, action)) is not None, action
                    left_out += 1
    assert left_out >= 50
