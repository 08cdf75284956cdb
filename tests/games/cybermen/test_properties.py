"""Random play to the end for 2 to 6 players with the expansion's invariants checked after every
action (characters neither created nor lost, tokens and Marks in bounds, one Cyberleader figure
per Cyberleader, Cyberlieutenants in order, no Cyberleader under Mark I, capture order and token
restore, item cards conserved, the end and the winners consistent); replay equals live play;
no seat sees another's item cards."""

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.games.cybermen import RULESET
from domain.games.cybermen.actions import HANDLERS
from domain.games.cybermen.board import open_ground, unit_squares
from domain.games.cybermen.data import CONST, DATA, FIRST_TAKEN, ITEMS, character
from domain.games.cybermen.state import in_play
from domain.kernel.terminal import plain_text
from domain.kernel.canonical import json_copy
from domain.kernel.rng import RandomStream
from tests.games.replay import play_and_replay, random_play
from tests.sizing import examples

MAX_ACTIONS = 20_000
ALL_CARDS = sorted(card for card, n in ITEMS.items() for _ in range(n))


def assert_nothing_hidden_leaks(state, facts):
    for seat in [None, *range(state["seats"])]:
        seen = RULESET.view(state, seat)
        assert isinstance(seen["deck"], int), "the draw pile's contents are hidden"
        for group in seen["groups"]:
            assert isinstance(group["hand"], list) == (group["seat"] == seat), "another player's item cards shown"
        for fact in facts:
            shown = RULESET.redact(fact, seat)
            if fact["f"] == "draw" and fact["seat"] != seat:
                assert shown["card"] is None
            if fact["f"] == "give" and seat not in (fact["from"], fact["to"]):
                assert shown["card"] is None


class Invariants:
    def __init__(self, state):
        self.seats = state["seats"]
        self.lieutenant_vp = {}
        self.unit_squares = unit_squares(state)

    def after(self, before, state, facts):
        self.characters_conserved(state)
        self.cards_conserved(state)
        self.pieces_placed(state)
        self.roles(state)
        self.captures(before, state, facts)
        self.end(state)

    def characters_conserved(self, state):
        for seat, group in enumerate(state["groups"]):
            carried = [c for cyb in state["cybermen"].values() for c in cyb["carrying"] if character(c)["seat"] == seat]
            held = sorted(group["members"] + group["escaped"] + group["converted"] + carried)
            assert held == sorted(f"{seat}.{k}" for k, _, _ in DATA["groups"][seat]["characters"])
            assert 0 <= group["escape"] <= CONST["tokens"] and 0 <= group["fatigue"] <= CONST["tokens"]
            assert 0 <= group["injured"] <= 2
            assert (group["status"] == "human") == bool(group["members"] or carried), "a player without humans plays on"
            if group["status"] in ("leader", "lieutenant"):
                assert not group["members"] and not carried and not group["escaped"]
            if group["status"] == "lieutenant" and state["phase"] != "trade":
                assert group["hand"] == [], "a Cyberlieutenant never keeps items"

    def cards_conserved(self, state):
        held = state["deck"] + state["discard"] + [c for g in state["groups"] for c in g["hand"]]
        assert sorted(held) == ALL_CARDS, "item cards created or lost"

    def pieces_placed(self, state):
        units = unit_squares(state)
        self.unit_squares |= units
        squares = Counter(tuple(c["pos"]) for c in state["cybermen"].values())
        for pos, n in squares.items():
            assert open_ground(pos) or pos in units
            # Cybermen may share a Unit's square, and stay so when a partial conversion destroys the Unit
            assert n == 1 or pos in self.unit_squares, "two Cybermen on one square outside a Cyberconversion Unit"
        for seat, group in enumerate(state["groups"]):
            if in_play(state, seat):  # a group's counter, even while all its members are carried
                assert open_ground(tuple(group["pos"])) and tuple(group["pos"]) not in set(squares) | units
        for cyb in state["cybermen"].values():
            assert 1 <= cyb["mark"] <= state["tech"] <= 5
            if cyb["role"] == "partial":
                assert not cyb["carrying"] and cyb["seat"] is not None

    def roles(self, state):
        leaders = [c["seat"] for c in state["cybermen"].values() if c["role"] == "leader"]
        if state["leader"] is None:
            assert leaders == []
        else:
            assert leaders == [state["leader"]] and state["tech"] >= 2, "no Cyberleader under Mark I"
            assert state["groups"][state["leader"]]["status"] == "leader"
        lieutenants = sorted(c["seat"] for c in state["cybermen"].values() if c["role"] == "lieutenant")
        assert lieutenants == sorted(state["lieutenants"]) and len(set(lieutenants)) == len(lieutenants)
        for seat, group in enumerate(state["groups"]):
            assert (group["status"] == "lieutenant") == (seat in state["lieutenants"])
            if group["status"] == "lieutenant":  # "Cyberlieutenants cannot earn Victory Points."
                self.lieutenant_vp.setdefault(seat, group["vp"])
                assert group["vp"] == self.lieutenant_vp[seat]
            else:
                self.lieutenant_vp.pop(seat, None)

    def captures(self, before, state, facts):
        for fact in facts:
            if fact["f"] != "capture":
                continue
            seat = character(fact["char"])["seat"]
            members = before["groups"][seat]["members"]
            first = [c for c in members if character(c)["key"] in FIRST_TAKEN]
            if first:  # "the Cyberman will choose them first"
                assert fact["char"] in first
            group = state["groups"][seat]
            assert group["escape"] == CONST["tokens"] and group["fatigue"] == CONST["tokens"]

    def end(self, state):
        result = RULESET.outcome(state)
        if result is None:
            assert len(RULESET.to_act(state)) == 1
            return
        assert RULESET.to_act(state) == set()
        points = result["victory_points"]
        playing = [s for s in range(self.seats) if state["groups"][s]["status"] != "out"]  # 'out of the game'
        assert result["winners"] == [s for s in playing if points[s] == max(points[p] for p in playing)]
        assert result["reason"] in ("round_limit", "no_humans_left")
        assert state["round"] <= CONST["round_limit"]
        if result["reason"] == "no_humans_left":
            assert all(not g["members"] for g in state["groups"])


def sitting_ducks(state, seat, rand):
    """Random, except that groups never run and never defend: captures, conversions, the
    Cyberleader, Cyberlieutenants and partial conversions come often."""
    actions = RULESET.legal_actions(state, seat)
    if state["prompt"] and state["prompt"]["kind"] == "defend":
        return {"type": "submit"}
    if state["phase"] == "group_move" and not state["prompt"] and not state["active"]:
        here = state["groups"][seat]["pos"]
        return next((a for a in actions if a.get("to") == here), actions[0])  # never breaks free
    return rand.choice(actions)


BOTS = {**RULESET.bots, "ducks": sitting_ducks}


def play(seats, seed, bots=("random",), check=True):
    def checks(initial):
        invariants = Invariants(initial)

        def after(step):
            assert step.action in RULESET.legal_actions(step.before, step.seat)
            invariants.after(step.before, step.state, step.facts)
            if check:
                assert_nothing_hidden_leaks(step.state, step.facts)
        return after
    return random_play(RULESET, {}, seats, seed, bots, checks, known_bots=BOTS)


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
@settings(max_examples=examples(3), deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_play_reaches_an_outcome(seats, seed):
    state = play(seats, seed)
    result = RULESET.outcome(state)
    everyone_out = all(g["status"] == "out" for g in state["groups"])
    assert set(result["winners"]) <= set(range(seats)) and (bool(result["winners"]) or everyone_out)


@pytest.mark.parametrize("seats", [2, 4, 6])
@settings(max_examples=examples(3), deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_captured_groups_make_cyberleaders_and_lieutenants_and_the_invariants_hold(seats, seed):
    state = play(seats, seed, bots=("ducks",))
    assert RULESET.outcome(state) is not None


@settings(max_examples=examples(5), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), seats=st.integers(2, 6))
def test_greedy_and_random_bots_mixed_play_legally_to_the_end(seed, seats):
    assert RULESET.outcome(play(seats, seed, bots=("greedy", "random"), check=False)) is not None


@settings(max_examples=examples(3), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), seats=st.integers(2, 6))
def test_replayed_state_equals_live_state_at_every_version(tmp_path_factory, seed, seats):
    play_and_replay(RULESET, tmp_path_factory.mktemp("cy"), {}, seats, seed, RULESET.bots["greedy"])


def test_every_listed_action_of_a_long_match_is_accepted_and_the_map_renders():
    state = play(6, 11)
    text = plain_text(RULESET.render(RULESET.view(state, 0)))
    assert "GAME OVER" in text and len(text.splitlines()) > 12


RULE_CODES = {"game_over", "not_your_turn", "malformed", "capture_order", "no_tokens", "no_weakness_card",
              "answer_prompt", "facing", "attack_or_not", "partial_never_attacks_humans", "no_items_or_tokens",
              "adjacent_only", "only_partials_destroy", "mind_control", "impassable", "movement_roll",
              "not_a_cyberman", "lieutenants_first", "roll_first", "partial_moved_by_owner",
              "lieutenant_moved_by_owner", "already_moved", "carrying_to_unit", "cyberman_speed", "leader_cards",
              "latest_mark", "legal_space", "trade", "partial_move", "lieutenant_first", "abilities_die", "not_now",
              "no_glitch_card", "not_an_opponent", "not_mind_controlled"}


def random_candidate(state, rand):
    """Any action shape with random values: most are illegal at any given moment."""
    ids = list(state["cybermen"]) + list(state["units"]) + ["c999"]
    chars = [c for g in state["groups"] for c in g["members"]] + ["0.bride"]
    return {"type": rand.choice(sorted(HANDLERS)), "id": rand.choice(ids), "to": [rand.randrange(-1, 13), rand.randrange(12)],
            "target": rand.choice(ids + [f"group{s}" for s in range(state["seats"])]), "fatigue": rand.randrange(5),
            "seat": rand.randrange(state["seats"]), "character": rand.choice(chars), "facing": rand.choice("NESWX")}


@settings(max_examples=examples(3), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), seats=st.integers(2, 6))
def test_every_unlisted_action_is_refused_with_the_code_of_a_rule(seed, seats):
    from domain.kernel.errors import IllegalAction
    rand = random.Random(seed)
    key = rand.randbytes(32)
    state = RULESET.setup({}, [f"p{i}" for i in range(seats)], RandomStream(key, "m", 1))
    seq = 2
    while RULESET.outcome(state) is None:
        (seat,) = RULESET.to_act(state)
        listed = RULESET.legal_actions(state, seat)
        if seq % 3 == 0:
            for _ in range(4):
                candidate = random_candidate(state, rand)
                keys = {"type", *next((a for a in listed if a["type"] == candidate["type"]), {})}
                candidate = {k: v for k, v in candidate.items() if k in keys}
                actor = rand.choice([seat, rand.randrange(seats)])
                if actor == seat and candidate in listed:
                    continue
                try:
                    RULESET.decide(state, actor, candidate, RandomStream(key, "m", seq))
                except IllegalAction as error:
                    assert error.code in RULE_CODES, error.code
                    continue
                # only a move spending more Fatigue than the listing's fewest is accepted unlisted
                fewest = next(a for a in listed if a["type"] == "move" and a["to"] == candidate["to"])
                assert actor == seat and fewest["fatigue"] < candidate["fatigue"] <= state["groups"][seat]["fatigue"]
        action = rand.choice(listed)
        for fact in RULESET.decide(state, seat, action, RandomStream(key, "m", seq)):
            state = RULESET.evolve(state, fact)
        seq += 1


def positions_of_every_kind(seed=3, seats=4):
    """One state for each kind of decision a sitting-duck match reaches (phase, prompt, active stage)."""
    rand = random.Random(seed)
    key = rand.randbytes(32)
    state = RULESET.setup({}, [f"p{i}" for i in range(seats)], RandomStream(key, "m", 1))
    kinds = {}
    seq = 2
    while RULESET.outcome(state) is None:
        kind = (state["phase"], (state["prompt"] or {}).get("kind"), (state["active"] or {}).get("stage"),
                bool(state["queue"]))
        kinds.setdefault(kind, json_copy(state))
        (seat,) = RULESET.to_act(state)
        for fact in RULESET.decide(state, seat, sitting_ducks(state, seat, rand), RandomStream(key, "m", seq)):
            state = RULESET.evolve(state, fact)
        seq += 1
    kinds["over"] = state
    return list(kinds.values())


POSITIONS = positions_of_every_kind()
JSONISH = st.recursive(st.none() | st.booleans() | st.integers(-2, 13) | st.floats(allow_nan=False) | st.text(max_size=4)
                       | st.sampled_from(["c1", "c5", "u1", "group0", "0.bride", "N", "X"]),
                       lambda inner: st.lists(inner, min_size=2, max_size=2) | st.lists(inner, max_size=3)
                       | st.dictionaries(st.text(max_size=3), inner, max_size=2),
                       max_leaves=6)
VALUES = st.one_of(JSONISH, st.lists(JSONISH, min_size=2, max_size=2), st.lists(st.lists(JSONISH, max_size=2), min_size=2,
                                                                                max_size=2), st.booleans())
FIELD_NAMES = ["type", "to", "id", "target", "fatigue", "seat", "character", "facing", "params", "other"]


@settings(max_examples=examples(300), deadline=None)
@given(index=st.integers(0, len(POSITIONS) - 1), data=st.data())
def test_malformed_actions_are_refused_with_a_rule_code_never_an_error(index, data):
    """Random JSON in the fields of every kind of action, mostly a listed action with some fields
    replaced (and non-objects, unknown fields and types): refused with IllegalAction and a rule
    code; only a listed action (or a move spending more Fatigue) is accepted; nothing else."""
    from domain.kernel.errors import IllegalAction
    state = POSITIONS[index]
    acting = sorted(RULESET.to_act(state))
    seat = data.draw(st.sampled_from(acting) if acting and data.draw(st.integers(0, 4)) else st.integers(-1, 4))
    listed = RULESET.legal_actions(state, seat)
    kind = data.draw(st.sampled_from([*sorted(HANDLERS), "x"]))
    template = data.draw(st.sampled_from(listed)) if listed and data.draw(st.integers(0, 4)) else {"type": kind}
    own_fields = sorted(set(template) - {"type"})
    fields = own_fields if own_fields and data.draw(st.integers(0, 3)) else FIELD_NAMES
    replaced = data.draw(st.lists(st.sampled_from(fields), min_size=1, max_size=3))
    action = {**template, **{field: data.draw(VALUES) for field in replaced}}
    if data.draw(st.integers(0, 9)) == 0:
        action = data.draw(JSONISH)
    before = json_copy(state)
    try:
        facts = RULESET.decide(state, seat, action, RandomStream(b"r" * 32, "m", 2))
    except IllegalAction as error:
        assert error.code in RULE_CODES, error.code
    else:
        stripped = {k: v for k, v in action.items() if k != "params"}
        assert stripped in listed or stripped["type"] == "move", action
        assert facts
    assert state == before


@pytest.mark.parametrize("phase, action", [
    ("group_move", {"type": "move", "to": [[7], [4]], "fatigue": 0}),
    ("group_move", {"type": "move", "to": [7, 4], "fatigue": True}),
    ("group_move", {"type": "move", "to": [7, 4], "fatigue": 1.0}),
    ("cyber_move", {"type": "cyber_move", "id": ["c1"], "to": [3, 3]}),
    ("cyber_move", {"type": "cyber_move", "id": {"a": 1}, "to": [3, 3]}),
    ("cyber_move", "roll"), ("cyber_move", {"type": ["roll"]}), ("cyber_move", {}),
    ("cyber_move", {"type": "roll", "extra": 1})])
def test_the_reviewers_malformed_actions_are_refused_as_malformed(phase, action):
    from domain.kernel.errors import IllegalAction
    state = next(p for p in POSITIONS if p["phase"] == phase and not p["prompt"] and not p["active"])
    (seat,) = RULESET.to_act(state)
    with pytest.raises(IllegalAction) as refused:
        RULESET.decide(state, seat, action, RandomStream(b"r" * 32, "m", 2))
    assert refused.value.code == "malformed"
