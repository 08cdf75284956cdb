"""Random play to the end in every player setup and format, with what the rulebook implies
checked after every action (cards neither created nor lost, two activations a turn, packs
of 10, formations of two rows, dead units gone, the end consistent); replay equals live
play at every version; nothing hidden reaches another seat or a spectator; the greedy bot
plays legally to the end."""

import os
import random
import re

import orjson
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from domain.games.algomancy import RULESET
from domain.games.algomancy.cards import TOKENS, name_of
from domain.games.algomancy.state import stats
from domain.kernel.rng import RandomStream
from tests.games.replay import play_and_replay, random_play
from tests.sizing import examples

SETUPS = [("1v1", 2), ("ffa", 3), ("ffa", 4), ("teams_split", 4), ("teams_joint", 4), ("archenemy", 3)]
FORMATS = ["constructed", "live_draft", "cube_draft", "team_draft", "traditional_cube"]
MODES = [({"setup": s, "format": f}, n) for s, n in SETUPS for f in FORMATS
         if not (f == "team_draft" and s in ("1v1", "ffa"))]
MAX_ACTIONS = 20_000
VIEW_EVERY = int(os.environ.get("ARBITER_ALGOMANCY_VIEW_EVERY", "5"))
CARD_ID = re.compile(r'"([^"#]+#[0-9]+)"')


def all_cards(state):
    """Every card (not token) wherever it is."""
    cards = [c for deck in state["decks"].values() for c in deck] + list(state["erased"])
    if state["cube"]:
        cards += state["cube"]["pool"]
    for player in state["players"]:
        cards += player["hand"] + player["pack"] + player["bin"]
    for unit in state["units"].values():
        if not unit["token"]:
            cards.append(unit["card"])
        cards += [m["card"] for m in unit["mods"]]
    resolving = [state["choice"]["item"]] if (state["choice"] or {}).get("item") else []  # paused effect
    cards += [item["card"] for item in state["stack"] + resolving if item["card"] and name_of(item["card"]) not in TOKENS]
    return sorted(cards)


def public_ids(state):
    ids = set(state["units"]) | {u["card"] for u in state["units"].values()} | set(state["erased"])
    ids |= {m["card"] for u in state["units"].values() for m in u["mods"]}
    ids |= {item["card"] for item in state["stack"] if item["card"]}
    # targets were public when chosen (units in play, bins, the stack): a unit recalled to a
    # hand afterwards is still named by the effect that targeted it, which reveals nothing new
    ids |= {target for item in state["stack"] for target in item["targets"] if isinstance(target, str)}
    # so was the unit whose ability or trigger an effect is (a unit recalled to hand meanwhile)
    ids |= {item["source"] for item in state["stack"] if isinstance(item.get("source"), str)}
    for player in state["players"]:
        ids |= set(player["bin"]) | {r["id"] for r in player["resources"]}
    return ids


def hidden_ids(state, seat):
    ids = {c for deck in state["decks"].values() for c in deck}
    if state["cube"]:
        ids |= set(state["cube"]["pool"])
    for other, player in enumerate(state["players"]):
        if other != seat:
            ids |= set(player["hand"]) | set(player["pack"]) | {r["id"] for r in player["dormant"]}
    return ids


def assert_nothing_hidden_leaks(before, state, facts, actor, action, with_views=True):
    """No card of a hidden zone appears in what another seat or a spectator is shown (cards
    made public meanwhile, and a seat's own hand and pack, excepted)."""
    public = public_ids(before) | public_ids(state)
    for seat in [None, *range(state["n"])]:
        secret = (hidden_ids(before, seat) | hidden_ids(state, seat)) - public
        if seat is not None:  # what a seat held itself it may know later
            secret -= set(before["players"][seat]["hand"]) | set(before["players"][seat]["pack"])
            secret -= set(state["players"][seat]["hand"]) | set(state["players"][seat]["pack"])
        shown = orjson.dumps([RULESET.view(state, seat) if with_views else {}, [RULESET.redact(f, seat) for f in facts],
                              RULESET.redact_action(action, actor, seat) if seat != actor else {}]).decode()
        leaked = secret & set(CARD_ID.findall(shown))
        assert not leaked, f"{sorted(leaked)} leak to seat {seat}"
        if state["setup"] == "ffa" and seat != actor:
            assert not isinstance(RULESET.redact_action(action, actor, seat).get("formations"), list)


class Invariants:
    def __init__(self, state):
        self.cards = all_cards(state)
        self.turn = state["turn"]
        self.activations = {}

    def after(self, state, seat, action):
        if state["turn"] != self.turn:
            self.turn, self.activations = state["turn"], {}
        if action["type"] == "activate_resource":  # "activate a maximum of two resources per turn"
            self.activations[seat] = self.activations.get(seat, 0) + 1
            assert self.activations[seat] <= 2
        if state["cube"] is None or state["cube"]["round"] > state["cube"]["rounds"]:
            assert all_cards(state) == self.cards, "cards created or lost"
        else:
            assert len(all_cards(state)) == len(self.cards)
        for uid, unit in state["units"].items():
            power, defense = stats(state, uid)
            assert defense > 0 and unit["damage"] < defense or unit["protected"], f"{uid} should have died"
        for formation in (state["battle"] or {}).get("formations", []):
            assert all(len(c) <= 2 for c in formation["columns"] + (formation["blocks"] or []))
            assert all(formation["columns"][i] for i in range(len(formation["columns"]))) or formation["blocks"] is not None
        step = state["step"]
        if state["format"] in ("live_draft", "team_draft") and step and step["k"] != "draft" and not state["over"]:
            for s in range(state["n"]):
                player = state["players"][s]
                if not player["out"] and state["turn"] > state["solo_turns"]:
                    assert len(player["pack"]) in (0, 10) or not any(state["decks"].values()), "a pack is not 10"
        for s, player in enumerate(state["players"]):
            assert player["out"] == (player["life"] <= 0) or player["out"]
            if not player["out"]:
                assert player["life"] > 0 or state["over"]
        result = RULESET.outcome(state)
        if result is None:
            assert RULESET.to_act(state), "nobody to act in a running game"
            assert len({state["team"][s] for s in range(state["n"]) if not state["players"][s]["out"]}) >= 2
        else:
            assert RULESET.to_act(state) == set()
            assert len({state["team"][w] for w in result["winners"]}) <= 1


def play(options, seats, seed, bots=("random",), check=True):
    def checks(initial):
        invariants = Invariants(initial)

        def after(step):
            if check:
                invariants.after(step.state, step.seat, step.action)
                # every fact and action; the whole view (slower) every few actions
                assert_nothing_hidden_leaks(step.before, step.state, step.facts, step.seat, step.action,
                                            with_views=step.seq % VIEW_EVERY == 0)
        return after
    return random_play(RULESET, options, seats, seed, bots, checks)


@pytest.mark.parametrize("options, seats", MODES, ids=[f"{o['setup']}-{o['format']}-{s}" for o, s in MODES])
@settings(max_examples=examples(1), deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_play_reaches_an_outcome_in_every_setup_and_format(options, seats, seed):
    state = play(options, seats, seed)
    result = RULESET.outcome(state)
    assert result["reason"] in ("eliminated", "turn_limit")
    assert set(result["winners"]) <= set(range(seats))


@settings(max_examples=examples(2), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), mode=st.sampled_from(MODES))
def test_greedy_and_random_bots_mixed_play_legally_to_the_end(seed, mode):
    options, seats = mode
    assert RULESET.outcome(play(options, seats, seed, bots=("greedy", "random"), check=False)) is not None


@settings(max_examples=examples(1), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), mode=st.sampled_from(MODES))
def test_replayed_state_equals_live_state_at_every_version(tmp_path_factory, seed, mode):
    options, seats = mode
    play_and_replay(RULESET, tmp_path_factory.mktemp("algo"), options, seats, seed, RULESET.bots["greedy"])


JUNK = [None, 5, True, "x", [], {}, ["x"], {"a": 1}, [[None]]]


def paths_within(value, path=()):
    """The path (keys and indexes) of every value inside `value`, itself excluded."""
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, inner in items:
        yield path + (key,)
        yield from paths_within(inner, path + (key,))


def replaced(value, path, junk):
    """A copy of `value` with the value at `path` replaced by `junk`."""
    if not path:
        return junk
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = replaced(value[path[0]], path[1:], junk)
    return copy


@settings(max_examples=examples(3), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), mode=st.sampled_from(MODES), steps=st.integers(0, 400))
# a burst token played with "burst_targets": null was taken as the default targets (found by a suite run)
@example(seed=0, mode=({"setup": "teams_joint", "format": "live_draft"}, 4), steps=330)
def test_malformed_or_misplaced_actions_are_refused_with_a_code(seed, mode, steps):
    """Every field of a listed action replaced by a wrongly typed or unknown value, and any
    action from a seat that is not to act: refused with IllegalAction, never a crash."""
    from domain.kernel.errors import IllegalAction
    options, seats = mode
    rand = random.Random(seed)
    key = rand.randbytes(32)
    state = RULESET.setup(options, [f"p{i}" for i in range(seats)], RandomStream(key, "m", 1))
    for seq in range(2, steps + 2):
        if RULESET.outcome(state) is not None:
            return
        seat = rand.choice(sorted(RULESET.to_act(state)))
        listing = RULESET.legal_actions(state, seat)
        action = rand.choice(listing)
        offered = [{k: v for k, v in listed.items() if k != "params"} for listed in listing]
        bare = {k: v for k, v in action.items() if k != "params"}

        def judged(posted, what):
            try:
                RULESET.decide(state, seat, posted, RandomStream(key, "m", seq))
            except IllegalAction as refusal:
                assert refusal.code and refusal.code != "illegal_action"
            else:  # taken: only where the junk value makes another listed action
                assert posted in offered, f"accepted {what}: {posted}"

        for field in [k for k in bare if k != "type"]:
            for junk in JUNK:
                judged({**bare, field: junk}, f"{field}={junk!r}")
        # and inside a field: an item of a formation's columns or tokens, a block's column...
        inner = [path for path in paths_within(bare) if len(path) > 1]
        for path in rand.sample(inner, min(4, len(inner))):
            for junk in JUNK:
                judged(replaced(bare, path, junk), f"{'.'.join(map(str, path))}={junk!r}")
        for other in set(range(seats)) - RULESET.to_act(state):
            try:
                RULESET.decide(state, other, action, RandomStream(key, "m", seq))
                raise AssertionError("a seat not to act was heard")
            except IllegalAction as refusal:
                assert refusal.code == "not_your_priority"
        for fact in RULESET.decide(state, seat, action, RandomStream(key, "m", seq)):
            state = RULESET.evolve(state, fact)
