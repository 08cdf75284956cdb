"""A player leaving the match (resign, or a timeout with "elimination") and the default move
of a timed-out player (README 16, 17): random play with resignations at random moments in
every mode, rule by rule cases, and matches through the kernel whose records the audit
signs off."""

import random
import uuid

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.games.cybermancy import RULESET
from domain.kernel.audit import audit
from domain.kernel.canonical import json_copy
from domain.kernel.match import Match
from domain.kernel.rng import RandomStream
from domain.kernel.store import MatchStore

from .arena import act, arena, card_with, power_cards, put
from .test_properties import MAX_ACTIONS, MODES, Invariants, assert_nothing_hidden_leaks, examples

ONE_ONE = card_with(plain=True)


def resigned(state, seat):
    """RULESET.resign's facts evolved on a copy. The state is untouched; resign is deterministic."""
    before = json_copy(state)
    facts = RULESET.resign(state, seat)
    assert state == before, "resign mutated the state"
    assert RULESET.resign(state, seat) == facts
    after = json_copy(state)
    for fact in facts:
        after = RULESET.evolve(after, fact)
    return after


class LeavingInvariants(Invariants):
    """The invariants of test_properties, with players who left: out without being at 0, and
    never to act again."""

    def __init__(self, state):
        super().__init__(state)
        self.left = set()

    def end_consistent(self, state):
        assert not RULESET.to_act(state) & self.left, "a player who left is to act"
        result = RULESET.outcome(state)
        alive = [s for s in range(self.seats) if not state["players"][s]["out"]]
        assert self.left.isdisjoint(alive)
        sides = {s % 2 if state["mode"] == "teams" else s for s in alive}
        if result is None:
            assert len(sides) >= 2, "one side left but the game goes on"
            return
        assert RULESET.to_act(state) == set()
        assert all(state["players"][s]["health"] <= 0 or s in self.left for s in result["out"])
        if result["reason"] == "cybermancer_defeated":
            assert len(sides) == 1 and result["winners"]
            if state["mode"] == "teams":  # the team wins, a partner who is out included (README 11)
                assert {w % 2 for w in result["winners"]} == sides and len(result["winners"]) == 2
            else:
                assert result["winners"] == alive and self.left.isdisjoint(result["winners"])
        else:
            assert result["reason"] in ("stalemate", "no_creatures_left") and result["winners"] == []
            assert len(sides) >= 2


def assert_default_move_is_legal(state, seq, key):
    for seat in RULESET.to_act(state):
        move = RULESET.default_action(state, seat)
        listed = [{k: v for k, v in a.items() if k != "params"} for a in RULESET.legal_actions(state, seat)]
        assert move in listed, f"the default move {move} is not legal for seat {seat}"
        RULESET.decide(state, seat, move, RandomStream(key, "m", seq))  # accepted, not refused


@pytest.mark.parametrize("options, seats", MODES, ids=[f"{o}-{s}" for o, s in MODES])
@settings(max_examples=examples(5), deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_play_with_resignations_keeps_the_invariants_and_ends(options, seats, seed):
    rand = random.Random(seed)
    key = rand.randbytes(32)
    state = RULESET.setup(options, [f"p{i}" for i in range(seats)], RandomStream(key, "m", 1))
    invariants = LeavingInvariants(state)
    rate = rand.choice([0.002, 0.01, 0.05])  # early or late in the match
    for seq in range(2, MAX_ACTIONS):
        if RULESET.outcome(state) is not None:
            break
        assert_default_move_is_legal(state, seq, key)
        still_in = [s for s in range(seats) if not state["players"][s]["out"]]
        # Now and then at the moments that need care: a choice pending, the last to summon.
        delicate = state["prompt"] or state["phase"] == "last_summon" and len(state["queue"]) == 1
        if rand.random() < rate or delicate and rand.random() < 0.1:
            (to_act,) = RULESET.to_act(state)
            seat = to_act if rand.random() < 0.5 else rand.choice(still_in)
            action = {"type": "resign"}
            facts = RULESET.resign(state, seat)
            invariants.left.add(seat)
        else:
            (seat,) = RULESET.to_act(state)
            action = RULESET.bots["random"](state, seat, rand)
            facts = RULESET.decide(state, seat, action, RandomStream(key, "m", seq))
        for fact in facts:
            state = RULESET.evolve(state, fact)
        invariants.after(state, seat, action, facts)
        assert_nothing_hidden_leaks(state, facts, seat, action)
    result = RULESET.outcome(state)
    assert result is not None, "the game did not end"
    if len(invariants.left) == seats - 1:
        assert result["reason"] == "cybermancer_defeated"
        assert result["winners"] == sorted(set(range(seats)) - invariants.left) or options.get("mode") == "teams"


# -- Rule by rule ---------------------------------------------------------------------------

def test_two_players_the_one_who_stays_wins():
    # "the surviving Cybermancer is the winner"
    state = arena(health={0: 3})
    after = resigned(state, 0)
    result = RULESET.outcome(after)
    assert result["reason"] == "cybermancer_defeated" and result["winners"] == [1] and result["out"] == [0]
    assert RULESET.to_act(after) == set()


def test_the_player_whose_turn_it_is_leaves_with_their_creatures_and_the_turn_passes():
    # README 11: out at once, their creatures leave play (no Crawler rises); Multiplayer:
    # "initiative will pass to each player in turn order".
    crawler = card_with(keyword="crawler")
    state = arena(seats=3, turn=1)
    mine, theirs = put(state, 1, crawler, area="frontline"), put(state, 2, ONE_ONE)
    after = resigned(state, 1)
    assert after["players"][1]["out"] and mine not in after["creatures"] and theirs in after["creatures"]
    assert after["players"][1]["graveyard"] == [crawler] and after["players"][1]["frontline"] == []
    assert RULESET.to_act(after) == {2} and RULESET.outcome(after) is None
    assert all(action.get("target") != "cybermancer:1" for action in RULESET.legal_actions(after, 2))


def test_when_all_others_have_passed_the_leaver_ends_the_attacks():
    # "If, after passing, the opponent also passes, then the Main Phase is over" (README 2:
    # every living player has passed in a row): then each has a last chance to summon.
    state = arena(seats=3, turn=0)
    state = act(state, 0, {"type": "end_turn"})
    state = act(state, 1, {"type": "end_turn"})
    assert state["turn"] == 2 and state["passes"] == 2
    after = resigned(state, 2)
    assert after["phase"] == "last_summon" and after["queue"] == [0, 1]


def test_after_passing_the_opponent_also_passes_counts_only_passes_of_players_still_in():
    """"Play alternates this way until players have Attacked and Summoned with all the
    Creatures they can or want to." / "If, after passing, the opponent also passes, then the
    Main Phase is over" (README 2 and 16: when every player still in has passed in a row).

    Seat 2 attacks; seat 0 passes, then leaves during seat 1's turn; seat 1 passes. Seat 2
    has not passed since its attack, so the Main Phase goes on with seat 2's turn: the
    leaver's pass is not one of the players still in."""
    state = arena(seats=3, turn=2)
    attacker = put(state, 2, ONE_ONE)
    target = put(state, 0, ONE_ONE)
    second = put(state, 2, ONE_ONE)
    state = act(state, 2, {"type": "attack", "attacker": attacker, "target": target})
    state = act(state, 2, {"type": "end_turn"})
    state = act(state, 0, {"type": "end_turn"})  # a pass
    assert state["turn"] == 1 and state["passes"] == 1
    state = resigned(state, 0)
    assert RULESET.to_act(state) == {1} and state["passes"] == 0
    state = act(state, 1, {"type": "end_turn"})  # a pass: seat 2 has not passed yet
    assert state["phase"] == "main" and RULESET.to_act(state) == {2}
    assert {"type": "attack", "attacker": second, "target": "cybermancer:1"} in RULESET.legal_actions(state, 2)
    state = act(state, 2, {"type": "end_turn"})  # now every player still in has passed in a row
    assert state["phase"] == "last_summon" and state["queue"] == [2, 1]


def test_a_leaver_whose_last_turn_was_no_pass_leaves_the_run_of_passes_as_it_is():
    """"If, after passing, the opponent also passes, then the Main Phase is over": seat 1
    attacked, seat 2 passed, and seat 1 leaves during seat 0's turn; seat 2's pass still
    counts, so seat 0's pass ends the attacks (every player still in has passed in a row)."""
    state = arena(seats=3, turn=0)
    attacker, target = put(state, 1, ONE_ONE), put(state, 2, ONE_ONE)
    state = act(state, 0, {"type": "end_turn"})  # a pass, before seat 1's attack
    state = act(state, 1, {"type": "attack", "attacker": attacker, "target": target})
    state = act(state, 1, {"type": "end_turn"})
    state = act(state, 2, {"type": "end_turn"})  # a pass
    assert state["turn"] == 0 and state["passes"] == 1
    state = resigned(state, 1)
    assert state["passes"] == 1 and RULESET.to_act(state) == {0}
    state = act(state, 0, {"type": "end_turn"})
    assert state["phase"] == "last_summon" and state["queue"] == [0, 2]


def test_a_leaver_with_a_choice_pending_loses_it_and_the_turn_passes():
    # The leaver's own Call-to-arms lapses with them; the next player in turn order plays.
    healer = card_with(call_to_arms="health")
    power = {"cpu": power_cards("cpu", 3, 2), "ram": power_cards("ram", 3, 2)}  # pays up to 6/6
    state = arena(seats=3, hands={0: [healer]}, cpu={0: power["cpu"]}, ram={0: power["ram"]},
                  tracks={0: {"cpu": 6, "ram": 6}})
    put(state, 1, ONE_ONE)
    state = act(state, 0, {"type": "summon", "card": healer, **power})
    assert state["prompt"]["seat"] == 0
    after = resigned(state, 0)
    assert after["prompt"] is None and after["pending"] == [] and RULESET.to_act(after) == {1}


def test_another_players_choice_is_asked_again_without_the_leaver():
    # Call-to-arms: "Health buffs can target Cybermancers or other creatures": those still in.
    state = arena(seats=3, turn=0)
    source, friend, foe = put(state, 0, ONE_ONE), put(state, 0, ONE_ONE), put(state, 2, ONE_ONE)
    step = {"op": "assign", "seat": 0, "source": source, "kind": "health", "points": 1}
    options = [friend, foe, "cybermancer:0", "cybermancer:1", "cybermancer:2"]
    state.update(pending=[step], prompt={"seat": 0, "kind": "health", "options": options, "source": source})
    after = resigned(state, 2)
    assert after["prompt"]["seat"] == 0 and after["prompt"]["options"] == [friend, "cybermancer:0", "cybermancer:1"]
    assert after["pending"] == [step] and after["turn"] == 0


def test_teams_the_partner_stays_and_the_team_falls_with_both():
    # 4 Player Team Mode: "Play continues until one Team has had both players eliminated."
    state = arena(seats=4, mode="teams", turn=0)
    state = resigned(state, 0)
    assert RULESET.outcome(state) is None and not state["players"][2]["out"] and RULESET.to_act(state) == {1}
    state = resigned(state, 3)
    assert RULESET.outcome(state) is None
    state = resigned(state, 2)
    result = RULESET.outcome(state)
    assert result["reason"] == "cybermancer_defeated" and result["winners"] == [1, 3]


def test_three_players_play_on_until_one_is_left():
    state = arena(seats=3, turn=0)
    state = resigned(state, 1)
    assert RULESET.outcome(state) is None and RULESET.to_act(state) == {0}
    state = act(state, 0, {"type": "end_turn"})
    assert RULESET.to_act(state) == {2}, "seat 1, who left, is skipped"
    state = resigned(state, 0)
    assert RULESET.outcome(state)["winners"] == [2]


def test_the_last_to_summon_leaving_owes_the_rounds_end_to_the_next_player():
    # The Draw Phase may shuffle the used power cards ("if either the CPU or RAM deck runs out"),
    # which a resignation may not: the next player proceeds (README 16).
    state = arena(seats=3)
    state.update(phase="last_summon", queue=[2], initiative=1)
    after = resigned(state, 2)
    assert RULESET.to_act(after) == {1} and RULESET.legal_actions(after, 1) == [{"type": "proceed"}]
    assert RULESET.default_action(after, 1) == {"type": "proceed"}
    deck = len(after["cpu_deck"])
    after = act(after, 1, {"type": "proceed"})
    assert after["phase"] == "advance" and after["queue"] == [1, 0] and len(after["cpu_deck"]) == deck - 2
    assert after.get("owed") is None


def test_the_last_to_advance_leaving_starts_the_next_round():
    state = arena(seats=3)
    state.update(phase="advance", queue=[0], initiative=2, last_attacker=0)
    after = resigned(state, 0)
    # "the Initiative passes to the next player on the left of the last player attack"
    assert after["phase"] == "main" and after["round"] == 2 and after["initiative"] == 1


def test_a_leaver_in_the_draft_is_passed_over():
    # Draft Mode: "Selections alternate until each player has created a deck of 30 cards":
    # each player still in.
    state = RULESET.setup({"draft": True}, ["a", "b", "c"], RandomStream(b"d" * 32, "m", 1))
    first = state["first"]
    state = resigned(state, first)
    picks = []
    while state["phase"] == "draft":
        (seat,) = RULESET.to_act(state)
        picks.append(seat)
        state = act(state, seat, RULESET.default_action(state, seat))
    assert picks == [(first + 1) % 3, (first + 2) % 3] * 30
    assert state["phase"] == "mulligan" and state["queue"] == [(first + 1) % 3, (first + 2) % 3]


def test_the_last_drafter_leaving_owes_the_shuffle_and_deal():
    state = RULESET.setup({"draft": True}, ["a", "b", "c"], RandomStream(b"d" * 32, "m", 1))
    first, rand = state["first"], random.Random(2)
    last = (first + 2) % 3
    while not (RULESET.to_act(state) == {last} and len(state["players"][last]["deck"]) == 29):
        (seat,) = RULESET.to_act(state)
        state = act(state, seat, rand.choice(RULESET.legal_actions(state, seat)))
    state = resigned(state, last)
    assert state["owed"] == {"seat": first, "step": "end_of_draft"} and RULESET.to_act(state) == {first}
    state = act(state, first, {"type": "proceed"})
    assert state["phase"] == "mulligan" and state["queue"] == [first, (first + 1) % 3]
    assert len(state["players"][first]["hand"]) == 7 and state["players"][last]["hand"] == []


def test_the_last_mulligan_leaving_starts_round_one():
    state = RULESET.setup({}, ["a", "b", "c"], RandomStream(b"m" * 32, "m", 1))
    first = state["first"]
    state = resigned(state, first)
    assert RULESET.to_act(state) == {(first + 1) % 3}
    state = act(state, (first + 1) % 3, RULESET.default_action(state, (first + 1) % 3))
    state = resigned(state, (first + 2) % 3)
    assert RULESET.outcome(state)["winners"] == [(first + 1) % 3]
    state = RULESET.setup({}, ["a", "b", "c"], RandomStream(b"m" * 32, "m", 1))
    state = act(state, first, RULESET.default_action(state, first))
    state = act(state, (first + 1) % 3, RULESET.default_action(state, (first + 1) % 3))
    state = resigned(state, (first + 2) % 3)
    assert state["phase"] == "main" and state["round"] == 1 and state["turn"] == first


def test_a_player_who_left_resigns_to_no_effect():
    state = arena(seats=3)
    state["players"][2]["out"] = True
    assert RULESET.resign(state, 2) == []


def test_default_moves():
    state = arena(seats=2, tracks={0: {"cpu": 2, "ram": 1}})
    assert RULESET.default_action(state, 0) == {"type": "end_turn"}
    state.update(phase="advance", queue=[0])
    # "you should focus on advancing RAM first, then CPU"
    assert RULESET.default_action(state, 0) == {"type": "advance", "track": "ram"}
    state["players"][0]["track"] = {"cpu": 2, "ram": 3}
    assert RULESET.default_action(state, 0) == {"type": "advance", "track": "cpu"}
    fresh = RULESET.setup({}, ["a", "b"], RandomStream(b"m" * 32, "m", 1))
    assert RULESET.default_action(fresh, fresh["first"]) == {"type": "mulligan", "creatures": [], "cpu": [],
                                                              "ram": []}


# -- Through the kernel: Match.resign, then the audit --------------------------------------

@pytest.mark.parametrize("options, seats, leaving", [({}, 3, 1), ({"mode": "teams"}, 4, 2), ({}, 2, 1)])
def test_a_resignation_recorded_by_the_match_passes_the_audit(tmp_path, options, seats, leaving):
    store = MatchStore({"ARBITER_DATA_DIR": str(tmp_path)})
    rand, seed = random.Random(seats), bytes(range(32))
    match = Match.start(uuid.UUID(int=1), RULESET, [f"p{i}" for i in range(seats)], options, {}, seed)
    for _ in range(40):
        seat = match.to_act()[0]
        match.act(seat, RULESET.bots["greedy"](match.state, seat, rand), seed)
    left = []
    for _ in range(leaving):
        left.append(match.to_act()[0])
        match.resign(left[-1], seed)
    while match.status == "running":
        seat = match.to_act()[0]
        assert seat not in left
        match.act(seat, RULESET.bots["greedy"](match.state, seat, rand), seed)
    assert match.outcome["resigned"] == sorted(left)
    if options.get("mode") != "teams":
        assert not set(left) & set(match.outcome["winners"])
    store.save_match(match)
    records = store.stored_events(match.id)
    assert [r["type"] for r in records].count("SeatResigned") == leaving
    report = audit(records)
    assert report.ok, report.summary
    store.close()
