"""What the search's hot path does by hand agrees with what it stands for, at every step of whole
matches (2-4 seats, random and greedy play): a sample copied list by list (search.copy_state) is
the JSON copy of the state and shares nothing a fact changes in place; the thresholds checked in
one pass (rules.settle) emit the facts the rulebook's order of checks emits, also at states
pushed over the thresholds; the greedy bot's score of a position is the formula it stands for;
and the Actions that put a card into play are the ones whose steps say so."""

import random

import pytest

from domain.games.cyberiad import RULESET
from domain.games.cyberiad.board import living, play_area, puts_into_play
from domain.games.cyberiad.bots import GP, HAND_CARD, RIVAL_SPREAD, _score
from domain.games.cyberiad.cards import CARDS
from domain.games.cyberiad.rules import (FAME_TO_WIN, PUTTING_INTO_PLAY, SALLIES_TO_END, TROUBLE_TO_LOSE, Turn,
                                         outcome, settle)
from domain.games.cyberiad.search import STATE_KEYS, copy_state, progress
from domain.kernel.canonical import json_copy

from ..replay import random_play

MATCHES = [(seats, policy, match) for seats in (2, 3, 4) for policy in ("random", "greedy") for match in range(2)]


def every_state(seats, policy, match, check):
    def checks(setup):
        check(setup)
        return lambda step: check(step.state)
    random_play(RULESET, {}, seats, f"shortcuts-{seats}-{policy}-{match}", bots=(policy,), checks=checks)


def mutable_parts(value, path=()):
    """(path, container) for every list and dict in a plain JSON value."""
    if isinstance(value, (list, dict)):
        yield path, value
        for key, part in (value.items() if isinstance(value, dict) else enumerate(value)):
            yield from mutable_parts(part, path + (key,))


def assert_a_true_copy(state):
    copy = copy_state(state)
    assert copy == json_copy(state)
    assert set(state) <= STATE_KEYS, f"copy_state does not know the keys {set(state) - STATE_KEYS}"
    originals = {id(part) for _, part in mutable_parts(state)}
    shared = [path for path, part in mutable_parts(copy) if id(part) in originals]
    assert not shared, f"the copy shares {shared} with the state"


@pytest.mark.parametrize("seats,policy,match", MATCHES)
def test_a_sample_is_copied_as_json_copy_would_and_shares_nothing(seats, policy, match):
    every_state(seats, policy, match, assert_a_true_copy)


def test_a_state_over_with_ranked_players_and_a_prompt_is_copied_whole():
    state = random_play(RULESET, {}, 3, "shortcuts-over", bots=("random",))
    state["ranked"] = [1, 2]
    state["prompt"] = {"seat": 0, "kind": "discard", "options": ["a", "b"], "actor": 0,
                       "step": {"op": "discard_chosen", "n": 1, "who": "me"}, "vars": {"X": 1}, "then": [{"op": "x"}]}
    state["last_machine"] = {"card": "a", "seat": 1, "turn": 3}
    assert_a_true_copy(state)


def settle_in_the_rulebooks_order(turn):
    """rules.settle as first written: Fame for everyone still in, then Trouble, then Sallies."""
    st = turn.state
    if st["over"]:
        return
    still_in = living(st)
    if any(st["fame"][s] + play_area(st, s).fame >= FAME_TO_WIN for s in still_in):
        turn.emit({"f": "over", "reason": "fame_50"})
        return
    going_out = [s for s in still_in if st["trouble"][s] + play_area(st, s).trouble >= TROUBLE_TO_LOSE]
    for s in going_out:
        turn.emit({"f": "out", "seat": s})
    still_in = living(st)
    if not still_in:
        turn.emit({"f": "over", "reason": "last_standing", "ranked": going_out})
    elif len(still_in) == 1:
        turn.emit({"f": "over", "reason": "last_standing"})
    elif any(play_area(st, s).sallies_for_game_end >= SALLIES_TO_END for s in still_in):
        turn.emit({"f": "over", "reason": "seven_sallies"})


def settles_as_the_rulebook(state):
    facts = {}
    for name, how in (("one pass", settle), ("rulebook", settle_in_the_rulebooks_order)):
        turn = Turn(state, None)  # works on its own copy
        how(turn)
        facts[name] = (turn.facts, turn.state)
    assert facts["one pass"] == facts["rulebook"]


def pushed_over_the_thresholds(state, rand):
    """The state with some players' tokens raised near or past 50 FP or 20 TP."""
    pushed = json_copy(state)
    for seat in range(pushed["seats"]):
        if rand.random() < 0.4:
            pushed["fame"][seat] += rand.choice([FAME_TO_WIN - 1, FAME_TO_WIN])
        if rand.random() < 0.5:
            pushed["trouble"][seat] += rand.choice([TROUBLE_TO_LOSE - 1, TROUBLE_TO_LOSE])
    return pushed


@pytest.mark.parametrize("seats,policy,match", MATCHES)
def test_the_thresholds_checked_in_one_pass_emit_the_rulebooks_facts(seats, policy, match):
    rand = random.Random(f"{seats}-{policy}-{match}")

    def check(state):
        settles_as_the_rulebook(state)
        settles_as_the_rulebook(pushed_over_the_thresholds(state, rand))
    every_state(seats, policy, match, check)


def the_score_as_written(state, seat):
    """bots._score's formula, step by step: progress less the best rival's and a quarter of the
    other rivals', plus the hand and GP terms; a finished game its result."""
    if state["over"]:
        winners = outcome(state)["winners"]
        return 10.0 / len(winners) if seat in winners else -10.0
    if state["out"][seat]:
        return -10.0
    mine = progress(state, seat)
    rivals = sorted((progress(state, s) for s in range(state["seats"]) if s != seat), reverse=True)
    lead = mine - rivals[0] - RIVAL_SPREAD * sum(rivals[1:])
    return lead + HAND_CARD * len(state["hands"][seat]) + GP * state["genius"][seat]


@pytest.mark.parametrize("seats,policy,match", [m for m in MATCHES if m[0] > 2])
def test_the_greedy_bots_score_is_its_formula_with_several_rivals(seats, policy, match):
    rand = random.Random(match)

    def check(state):
        for seat in range(seats):
            assert _score(state, seat) == the_score_as_written(state, seat)
        pushed = json_copy(state)
        for seat in range(seats):  # rivals far apart, so that their order counts
            pushed["fame"][seat] += rand.randrange(0, FAME_TO_WIN)
        for seat in range(seats):
            assert _score(pushed, seat) == the_score_as_written(pushed, seat)
    every_state(seats, policy, match, check)


def test_the_actions_putting_a_card_into_play_are_found_from_their_steps():
    assert PUTTING_INTO_PLAY == {card["id"] for card in CARDS.values() if puts_into_play(card)}
    assert PUTTING_INTO_PLAY, "Magnificent Electroknight puts a Sally into play"
