"""Random legal play from random seeds: the game always ends, replay equals live play,
no seat ever sees what the rulebook hides from it, and illegal actions are refused."""

import random
import uuid

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.games.cyberiad import RULESET
from domain.games.cyberiad.cards import CARDS, CONSTRUCTORS
from domain.kernel.canonical import json_copy
from domain.kernel.errors import IllegalAction
from domain.kernel.match import Match
from domain.kernel.rng import RandomStream
from domain.kernel.store import MatchStore

MAX_ACTIONS = 3000


def strings_in(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)


def hidden_from(state, seat):
    """Card instances `seat` may not see: the deck and every other seat's hand."""
    hidden = set(state["deck"])
    for other in range(state["seats"]):
        if other != seat:
            hidden |= set(state["hands"][other])
    return hidden


def own_prompt_options(state, seat):
    prompt = state["prompt"]
    return set(prompt["options"]) if prompt and prompt["seat"] == seat else set()


def assert_views_hide_secrets(state):
    for seat in [None, *range(state["seats"])]:
        seen = RULESET.view(state, seat)
        leaked = (set(strings_in(seen)) & hidden_from(state, seat)) - own_prompt_options(state, seat)
        assert not leaked, f"seat {seat} sees hidden cards {leaked}"
        assert isinstance(seen["deck"], int)
        for player in seen["players"]:
            if player["seat"] != seat:
                assert isinstance(player["hand"], int)


def assert_log_hides_secrets(before, after, facts, actor, action):
    for seat in [None, *range(after["seats"])]:
        # Whatever lay face up before or after the action was public anyway.
        allowed = {c for state in (before, after) for c in state["discard"] + [c for p in state["play"] for c in p]}
        if seat is not None:
            allowed |= set(before["hands"][seat]) | set(after["hands"][seat]) | own_prompt_options(before, seat)
            allowed |= own_prompt_options(after, seat)
            allowed |= {c for f in facts if f["f"] == "peek" and f["seat"] == seat for c in f["cards"]}
        cards = {c for c in CARDS for f in facts for s in strings_in(RULESET.redact(f, seat)) if s == c}
        assert cards <= allowed, f"seat {seat} learns {cards - allowed} from the log"
        recorded = {k: v for k, v in action.items() if k != "params"}  # as Match.act records it
        shown = RULESET.redact_action(recorded, actor, seat)
        if seat != actor:
            assert not (set(strings_in(shown)) & hidden_from(after, seat))


@settings(max_examples=60)
@given(seats=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32 - 1))
def test_random_play_ends_and_hides_secrets(seats, seed):
    rand = random.Random(seed)
    key = rand.randbytes(32)
    state = RULESET.setup({}, [f"p{i}" for i in range(seats)], RandomStream(key, "m", 1))
    assert_views_hide_secrets(state)
    for seq in range(2, MAX_ACTIONS):
        if RULESET.outcome(state) is not None:
            break
        (seat,) = RULESET.to_act(state)
        for other in set(range(seats)) - {seat}:
            assert RULESET.legal_actions(state, other) == []
        action = rand.choice(RULESET.legal_actions(state, seat))
        before = json_copy(state)
        facts = RULESET.decide(state, seat, action, RandomStream(key, "m", seq))
        assert state == before, "decide mutated the state"
        for fact in facts:
            state = RULESET.evolve(state, fact)
        assert_views_hide_secrets(state)
        assert_log_hides_secrets(before, state, facts, seat, action)
        # Cards are never created or lost: every instance is in exactly one zone.
        zones = state["deck"] + state["discard"] + [c for h in state["hands"] for c in h] + \
            [c for p in state["play"] for c in p]
        assert sorted(zones) == sorted(i for card in CARDS.values() for i in card["instances"])
    result = RULESET.outcome(state)
    assert result is not None, "the game did not end"
    assert result["winners"] and set(result["winners"]) <= set(range(seats))


@settings(max_examples=12)
@given(seats=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32 - 1))
def test_replayed_state_equals_live_state_at_every_step(tmp_path_factory, seats, seed):
    """Played through the Match aggregate into a real SQLite store; each version replays exactly."""
    store = MatchStore({"ARBITER_DATA_DIR": str(tmp_path_factory.mktemp("replay"))})
    rand = random.Random(seed)
    seed_bytes = rand.randbytes(32)
    match = Match.start(uuid.uuid4(), RULESET, [f"p{i}" for i in range(seats)], {}, {}, seed_bytes)
    store.save_match(match)
    live_states = {1: json_copy(match.state)}
    while match.status == "running" and match.version < MAX_ACTIONS:
        seat = match.to_act()[0]
        match.act(seat, rand.choice(RULESET.legal_actions(match.state, seat)), seed_bytes)
        store.save_match(match)
        live_states[match.version] = json_copy(match.state)
    assert match.status == "ended"
    store.forget(match.id)
    for version, live_state in live_states.items():
        assert store.match(match.id, version=version).state == live_state
    assert store.match(match.id).state == match.state
    store.close()


def action_strategy():
    card = st.sampled_from(sorted(CARDS) + ["no-such-card", ""])
    return st.one_of(
        st.fixed_dictionaries({"type": st.just("play"), "card": card,
                               "pay": st.lists(st.sampled_from(sorted(CARDS)), max_size=6)}),
        st.fixed_dictionaries({"type": st.just("use"), "card": card}),
        st.fixed_dictionaries({"type": st.just("convert"), "into": st.sampled_from(["fame", "draw",
                                                                                   "remove_trouble", "gold"])}),
        st.fixed_dictionaries({"type": st.just("pick"), "constructor": st.sampled_from([*CONSTRUCTORS, "x"])}),
        st.fixed_dictionaries({"type": st.just("choose"), "option": st.one_of(card, st.integers(-1, 5),
                                                                              st.sampled_from(["yes", "no"]))}),
        st.sampled_from([{"type": "end_turn"}, {"type": "power"}, {"type": "fly"}, {}, {"type": 3},
                         {"type": "play"}, {"type": "play", "card": 5}, {"type": "play", "card": "spies",
                                                                          "pay": "all"}]),
    )


@settings(max_examples=300)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 120), action=action_strategy())
def test_every_illegal_action_is_refused_with_a_reason(seed, steps, action):
    rand = random.Random(seed)
    state = RULESET.setup({}, ["a", "b", "c"], RandomStream(b"k" * 32, "m", 1))
    for seq in range(2, steps + 2):
        if RULESET.outcome(state) is not None:
            break
        (seat,) = RULESET.to_act(state)
        for fact in RULESET.decide(state, seat, rand.choice(RULESET.legal_actions(state, seat)),
                                   RandomStream(b"k" * 32, "m", seq)):
            state = RULESET.evolve(state, fact)
    if RULESET.outcome(state) is not None:
        return
    (seat,) = RULESET.to_act(state)
    listed = RULESET.legal_actions(state, seat)
    before = json_copy(state)
    try:
        RULESET.decide(state, seat, action, RandomStream(b"k" * 32, "m", 999))
    except IllegalAction as refusal:
        assert refusal.code and refusal.message
        assert action.get("type") == "play" and action.get("card") in CARDS or action not in listed
    else:
        if action["type"] == "play":
            assert any(a["type"] == "play" and a["card"] == action["card"] for a in listed)
        else:
            assert action in listed
    assert state == before
