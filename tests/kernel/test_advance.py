"""`advance` (domain/kernel/decision.py): the search's playouts and the bots' trials step a
state they own in place. For every game, at every step of random and greedy matches at
several tables, it must give the very state and facts that `decide` and then `evolve` of
each fact give; and a plain `decide` afterwards must still leave its input alone.

A playout asks for the state alone (`facts=False`), and steps one state in place from its
start to its end: that state must equal, at every step, the one `decide` and `evolve` give,
so a part shared between two places of the state (which evolve's copies would separate)
cannot make the two drift apart over a match."""

import random

import orjson
import pytest

from domain.kernel.canonical import canonical_json, json_copy
from domain.kernel.decision import advance
from domain.kernel.errors import IllegalAction
from domain.kernel.rng import RandomStream
from domain.kernel.ruleset import all_latest, latest
from tests.kernel.test_search import TABLES
from tests.sizing import sized

GAMES = sorted(r.name for r in all_latest())
# Every game at its smallest and largest table and the variants test_search.py names.
# Algomancy decides by diffing a copy (no Decision): one table shows advance evolves its facts.
PLAYED = sorted({(game, canonical_json(options).decode(), seats) for game, options, seats in TABLES
                 if game != "algomancy"} | {(game, "{}", max(latest(game).min_seats, 2)) for game in GAMES})
# Only Algomancy acts differently when no facts are wanted: each of its tables, and one of the others.
PLAYED_STATE_ONLY = sorted({(game, canonical_json(options).decode(), seats) for game, options, seats in TABLES
                            if game == "algomancy"} | {(game, "{}", max(latest(game).min_seats, 2)) for game in GAMES})


def reference_steps(ruleset, options: dict, seats: int, seed: int, policy: str):
    """The steps of one random (or greedy) match made by `decide` then `evolve` of each fact:
    (the state before, seat, action, the step's rng, facts, the state after); decide must
    leave its input alone."""
    rand = random.Random(seed)
    key = rand.randbytes(32)
    state = ruleset.setup(options, [f"p{i}" for i in range(seats)], RandomStream(key, "m", 1))
    bot = ruleset.bots.get(policy) or ruleset.bots["random"]
    for seq in range(2, 3000):
        if ruleset.outcome(state) is not None:
            return
        seat = rand.choice(sorted(ruleset.to_act(state)))
        action = bot(state, seat, random.Random(rand.getrandbits(64)))
        before = json_copy(state)
        facts = ruleset.decide(state, seat, action, RandomStream(key, "m", seq))
        assert state == before, "decide changed its input (an advance's claim outlived it?)"
        after = json_copy(state)
        for fact in facts:
            after = ruleset.evolve(after, fact)
        yield state, seat, action, (lambda seq=seq: RandomStream(key, "m", seq)), facts, after
        state = after


@pytest.mark.parametrize("game, options, seats", PLAYED, ids=lambda v: str(v))
def test_advance_gives_what_decide_then_evolve_give_at_every_step(game, options, seats):
    ruleset, steps = latest(game), 0
    for seed in range(sized(1)):
        for policy in ("random", "greedy"):
            for before, seat, action, rng, facts, after in reference_steps(ruleset, orjson.loads(options), seats,
                                                                          seed, policy):
                advanced, advanced_facts = advance(ruleset, json_copy(before), seat, action, rng())
                assert canonical_json(advanced_facts) == canonical_json(facts), f"{action}: other facts"
                assert advanced == after, f"{action} advanced to another state than decide + evolve"
                steps += 1
    assert steps > 20


def containers(value) -> list[int]:
    """The id of every dict and list in a JSON value, as often as each is met."""
    found, todo = [], [value]
    while todo:
        item = todo.pop()
        if isinstance(item, dict):
            found.append(id(item))
            todo.extend(item.values())
        elif isinstance(item, list):
            found.append(id(item))
            todo.extend(item)
    return found


@pytest.mark.parametrize("game, options, seats", PLAYED_STATE_ONLY, ids=lambda v: str(v))
def test_a_state_stepped_in_place_for_a_whole_match_stays_what_decide_then_evolve_give(game, options, seats):
    ruleset, steps = latest(game), 0
    for seed in range(sized(1)):
        for policy in ("random", "greedy"):
            in_place = None  # stepped by advance(facts=False) alone from the match's start, never copied again
            for before, seat, action, rng, _, after in reference_steps(ruleset, orjson.loads(options), seats,
                                                                      seed, policy):
                in_place = json_copy(before) if in_place is None else in_place
                in_place, _ = advance(ruleset, in_place, seat, action, rng(), facts=False)
                assert in_place == after, f"{action} stepped in place to another state than decide + evolve"
                # and it shares no part with the action (which a search posts again on its next
                # sample); Algomancy's, acted on in place, none between two of its own places either
                # (one changed in place would change both). Cyberspace's own evolve puts one duel
                # result in two places (last_duel.duel, cards.last_result) on every path.
                held = containers(in_place)
                assert not set(held) & set(containers(action)), f"{action}: the state holds a part of the action"
                if game == "algomancy":
                    assert len(held) == len(set(held)), f"{action}: a part of the state is held in two places"
                steps += 1
            assert ruleset.outcome(in_place) == ruleset.outcome(after)
    assert steps > 20


def test_a_refused_action_raises_and_the_next_decide_copies_again():
    ruleset = latest("cyberiad")
    state = ruleset.setup({}, ["a", "b"], RandomStream(b"k" * 32, "m", 1))
    with pytest.raises(IllegalAction):
        advance(ruleset, json_copy(state), 0, {"type": "no such action"}, RandomStream(b"k" * 32, "m", 2))
    seat = sorted(ruleset.to_act(state))[0]
    before = json_copy(state)
    ruleset.decide(state, seat, ruleset.legal_actions(state, seat)[0], RandomStream(b"k" * 32, "m", 2))
    assert state == before
