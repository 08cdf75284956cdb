"""Random play in every variant to the end, with the rulebook's invariants checked after every
action (cards neither created nor lost, hands of at most seven, points never over-spent, one
Exclusive a turn unless a card allows more, one Victory Point a turn, up to three clears, no
play on a twisted Attribute, the end consistent with the Victory Points); replay equals live
play; nothing hidden (hands, deck order, face-down Secret Cards) reaches another seat."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.games.herocard import RULESET
from domain.games.herocard.cards import ATTRIBUTES, deck_list
from domain.kernel.rng import RandomStream
from tests.games.replay import play_and_replay, random_play
from tests.sizing import examples

MODES = [({}, 2), ({"fair_start": True}, 2), ({"discard_queue": True}, 2), ({}, 3), ({}, 4),
         ({"teams": True}, 4), ({"assistance": True}, 3), ({"assistance": True, "fair_start": True}, 4),
         ({"teams": True, "discard_queue": True, "fair_start": True}, 4)]
MAX_ACTIONS = 30_000


def cards_of(player):
    return sorted(player["deck"] + player["hand"] + player["discard"] +
                  [e["card"] for a in ATTRIBUTES for e in player["stacks"][a]])


def assert_nothing_hidden_leaks(state, facts, actor, action):
    duel = state["duel"]
    for seat in [None, *range(duel["seats"])]:
        seen = RULESET.view(state, seat)
        for player in seen["players"]:
            own = player["seat"] == seat
            assert isinstance(player["deck"], int)
            assert isinstance(player["hand"], list) == own
            for attribute in ATTRIBUTES:
                for entry in player["stacks"][attribute]:
                    if entry["face"] == "down":
                        assert (entry["card"] is not None) == own, "a face-down Secret Card shows"
                        assert entry["cost"] > 0  # the points it expends are public
        for fact in facts:
            shown = RULESET.redact(fact, seat)
            if fact["f"] == "hc.draw" and fact["seat"] != seat:
                assert isinstance(shown["cards"], int)
            if fact["f"] == "hc.reshuffle":
                assert isinstance(shown["order"], int)
            if fact["f"] == "hc.place" and fact["face"] == "down" and fact["seat"] != seat:
                assert shown["card"] is None
        if action["type"] == "deploy" and seat != actor:
            assert "card" not in RULESET.redact_action(action, actor, seat)


class Invariants:
    def __init__(self, state):
        duel = state["duel"]
        self.decks = [sorted(deck_list(p["hero"])) for p in duel["players"]]
        self.vp_turns = set()

    def after(self, before, state, seat, action, facts):
        duel = state["duel"]
        for s, player in enumerate(duel["players"]):
            assert cards_of(player) == self.decks[s], f"seat {s}: cards created or lost"
            assert len(player["hand"]) <= 7, "more than seven cards in hand"
            for attribute in ATTRIBUTES:
                spent = sum(e["cost"] for e in player["stacks"][attribute])
                assert spent <= player["scores"][attribute], "more points spent than the Attribute score"
        assert duel["turn"]["exclusives"] <= 1 + duel["turn"]["allowance"], "a second Exclusive action"
        if action["type"] == "clear":
            assert len(action["stacks"]) <= 3
        twisted_before = {(s, t["attribute"]) for s, p in enumerate(before["duel"]["players"]) for t in p["twisted"]}
        for fact in facts:
            if fact["f"] == "hc.place" and fact["face"] == "up":
                assert (fact["seat"], fact["attribute"]) not in twisted_before, "a card played on a twisted Attribute"
            if fact["f"] == "hc.resolved" and fact["vp"]:
                key = (fact["owner"], duel["turn"]["number"])
                assert key not in self.vp_turns, "two Victory Points in one turn"
                self.vp_turns.add(key)
        self.end_consistent(state)

    @staticmethod
    def end_consistent(state):
        duel = state["duel"]
        goal = duel["config"]["victory_points"]
        sides = {tuple(sorted({s, (s + 2) % 4} if duel["config"]["teams"] else {s})) for s in range(duel["seats"])}
        totals = {side: sum(duel["players"][s]["vp"] for s in side) for side in sides}
        result = RULESET.outcome(state)
        if result is None:
            assert all(total < goal for total in totals.values()), "a side reached the goal but play goes on"
            assert len(RULESET.to_act(state)) == 1
            return
        assert RULESET.to_act(state) == set()
        if result["reason"] == "victory_points":
            (winner,) = [side for side, total in totals.items() if total >= goal]
            assert list(winner) == result["winners"]
        else:
            assert result["reason"] == "turn_limit" and result["winners"] == []


def play(options, seats, seed, bots=("random",), check=True):
    def checks(initial):
        invariants = Invariants(initial)

        def after(step):
            if check:
                invariants.after(step.before, step.state, step.seat, step.action, step.facts)
                assert_nothing_hidden_leaks(step.state, step.facts, step.seat, step.action)
        return after
    return random_play(RULESET, options, seats, seed, bots, checks)


@pytest.mark.parametrize("options, seats", MODES, ids=[f"{o}-{s}" for o, s in MODES])
@settings(max_examples=examples(4), deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_play_reaches_an_outcome_in_every_variant(options, seats, seed):
    result = RULESET.outcome(play(options, seats, seed))
    assert set(result["winners"]) <= set(range(seats))


@settings(max_examples=examples(6), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), mode=st.sampled_from(MODES))
def test_greedy_and_random_bots_mixed_play_legally_to_the_end(seed, mode):
    options, seats = mode
    assert RULESET.outcome(play(options, seats, seed, bots=("greedy", "random"))) is not None


@settings(max_examples=examples(3), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), mode=st.sampled_from(MODES))
def test_replayed_state_equals_live_state_at_every_version(tmp_path_factory, seed, mode):
    options, seats = mode
    play_and_replay(RULESET, tmp_path_factory.mktemp("hc"), options, seats, seed, RULESET.bots["greedy"])


def test_every_listed_action_is_accepted_and_every_malformed_one_refused_with_a_code():
    from domain.kernel.errors import IllegalAction
    rand = random.Random(3)
    key = rand.randbytes(32)
    state = RULESET.setup({}, ["a", "b"], RandomStream(key, "m", 1))
    for seq in range(2, 400):
        if RULESET.outcome(state):
            break
        (seat,) = RULESET.to_act(state)
        for action in RULESET.legal_actions(state, seat):
            RULESET.decide(state, seat, action, RandomStream(key, "m", seq))
        for bad in ({"type": "fly"}, {"type": "play", "cards": "jab"}, {"type": "play", "cards": ["nope"]},
                    {"type": "discard", "cards": [1]}, {"type": "draw", "count": "3"}, {"type": "clear", "stacks": ["z"]},
                    {"type": "reveal", "uid": -1}, {"type": "deploy", "card": "x", "attribute": "body"}, []):
            with pytest.raises(IllegalAction) as caught:
                RULESET.decide(state, seat, bad, RandomStream(key, "m", seq))
            assert caught.value.code and caught.value.code != "illegal_action"
        action = RULESET.bots["random"](state, seat, rand)
        for fact in RULESET.decide(state, seat, action, RandomStream(key, "m", seq)):
            state = RULESET.evolve(state, fact)
