"""The listing's and the greedy bot's shortcuts (issue 32) against the plain rules they stand
for, on every state of a few matches: the summons listed are exactly the cards summon_refusal
accepts with the cheapest payment (worked out by trying every set of the seat's power cards),
and the greedy bot's move on its turn is the one it would pick from the whole listing."""

import itertools
import random

import pytest

from domain.games.cybermancy import RULESET, bots, rules, rules_legal
from domain.games.cybermancy.cards import CREATURES, POWER_VALUE
from domain.kernel.rng import RandomStream


def cheapest_by_trying_all(cards, need):
    """Fewest cards worth `need`, then the lowest total, then keeping the biggest cards; then
    the lowest ids (the card data numbers each kind's cards in order of value)."""
    if need <= 0:
        return []
    fits = [sorted(subset) for size in range(len(cards) + 1) for subset in itertools.combinations(cards, size)
            if sum(POWER_VALUE[c] for c in subset) >= need]
    if not fits:
        return sorted(cards)
    return min(fits, key=lambda s: (len(s), sum(POWER_VALUE[c] for c in s),
                                    sorted((POWER_VALUE[c] for c in s), reverse=True), s))


def summons_by_the_rules(state, seat):
    player = state["players"][seat]
    listed = []
    for card in sorted(set(player["hand"])):
        pay = {kind: cheapest_by_trying_all(player[kind], CREATURES[card][kind] - player["pool"][kind])
               for kind in ("cpu", "ram")}
        if not rules.summon_refusal(state, seat, card, pay["cpu"], pay["ram"]):
            listed.append({"type": "summon", "card": card, "cpu": pay["cpu"], "ram": pay["ram"]})
    return listed


def greedy_from_the_listing(state, seat, listing):
    summons = [a for a in listing if a["type"] == "summon"]
    if summons:
        return max(summons, key=lambda a: (bots._card_value(a["card"]), -len(a["cpu"]) - len(a["ram"])))
    return bots._best_attack(state, seat, [a for a in listing if a["type"] == "attack"]) or {"type": "end_turn"}


@pytest.mark.parametrize("options, seats", [({}, 2), ({}, 3), ({"mode": "teams"}, 4)])
def test_summons_and_the_greedy_turn_move_are_those_of_the_whole_listing(options, seats):
    checked = 0
    for seed in range(2):
        rand = random.Random(seed)
        state = RULESET.setup(options, [f"p{i}" for i in range(seats)], RandomStream(bytes(32), f"m{seed}", 1))
        for seq in range(2, 700):
            if RULESET.outcome(state) is not None:
                break
            seat = rand.choice(sorted(RULESET.to_act(state)))
            listing = RULESET.legal_actions(state, seat)
            if rules_legal.on_turn(state, seat):
                checked += 1
                assert [{k: v for k, v in a.items() if k != "params"} for a in listing
                        if a["type"] == "summon"] == summons_by_the_rules(state, seat)
                assert bots.greedy_bot(state, seat, rand) == greedy_from_the_listing(state, seat, listing)
            else:
                assert not any(a["type"] in ("summon", "attack", "end_turn") for a in listing)
            policy = RULESET.bots["greedy" if seq % 3 else "random"]
            for fact in RULESET.decide(state, seat, policy(state, seat, rand), RandomStream(bytes(32), "m", seq)):
                state = RULESET.evolve(state, fact)
    assert checked > 100
