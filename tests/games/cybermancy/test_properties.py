"""Random play in every mode to the end, with the rulebook's invariants checked after every
action (cards neither created nor lost, one attack a turn, one advance a round, health and
tracks in bounds, a Cybermancer at 0 out at once, the end reason and winners consistent);
replay equals live play; no seat sees another's hand or any deck order; the greedy bot only
plays legal moves."""


import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.games.cybermancy import RULESET
from domain.games.cybermancy.cards import POWER
from domain.kernel.errors import IllegalAction
from domain.kernel.rng import RandomStream
from tests.games.replay import play_and_replay, random_play
from tests.sizing import examples

MODES = [({}, 2), ({}, 3), ({}, 4), ({"mode": "teams"}, 4), ({"draft": True}, 2), ({"draft": True}, 3),
         ({"draft": True, "mode": "teams"}, 4)]
MAX_ACTIONS = 20_000


def assert_nothing_hidden_leaks(state, facts, actor, action):
    for seat in [None, *range(state["seats"])]:
        seen = RULESET.view(state, seat)
        assert isinstance(seen["cpu_deck"], int) and isinstance(seen["ram_deck"], int)
        for player in seen["players"]:
            assert isinstance(player["deck"], int)
            assert isinstance(player["hand"], list) == (player["seat"] == seat)
        for fact in facts:
            shown = RULESET.redact(fact, seat)
            if fact["f"] in ("draw", "to_deck") and fact["seat"] != seat:
                assert shown["card"] is None
            if fact["f"] in ("deck_order", "power_order"):
                assert isinstance(shown["order"], int)
        if seat != actor and action["type"] == "mulligan":
            assert isinstance(RULESET.redact_action(action, actor, seat)["creatures"], int)


class Invariants:
    """What the rulebook implies, checked after every action of a random match."""

    def __init__(self, state):
        self.seats = state["seats"]
        self.draft = state["draft"]
        self.decks = [sorted(self.cards_of(state, s)) for s in range(self.seats)]
        self.attacks_this_turn = 0
        self.attackers_this_round = set()
        self.advanced = set()
        self.mulliganed = set()
        self.round = state["round"]

    @staticmethod
    def cards_of(state, seat):
        player = state["players"][seat]
        in_play = [state["creatures"][uid]["card"] for uid in player["frontline"] + player["main"]]
        return player["deck"] + player["hand"] + player["graveyard"] + in_play

    def after(self, state, seat, action, facts):
        self.count_limits(state, seat, action, facts)
        self.cards_neither_created_nor_lost(state)
        self.counters_in_bounds(state)
        self.end_consistent(state)
        self.every_payable_summon_listed(state)

    def count_limits(self, state, seat, action, facts):
        kinds = {fact["f"] for fact in facts}
        if action["type"] == "attack":  # "Attack with ONE of their active Creatures"
            self.attacks_this_turn += 1
            assert self.attacks_this_turn == 1, "two attacks in one turn"
            assert action["attacker"] not in self.attackers_this_round, "a creature attacked twice in a round"
            self.attackers_this_round.add(action["attacker"])
        if action["type"] == "advance":  # "advance ONE of their power tracks" each round
            assert seat not in self.advanced, "advanced twice in a round"
            self.advanced.add(seat)
        if action["type"] == "mulligan":  # "(once only)"
            assert seat not in self.mulliganed, "a second mulligan"
            self.mulliganed.add(seat)
        if kinds & {"turn", "round"}:
            self.attacks_this_turn = 0
        if state["round"] != self.round:
            assert state["round"] == self.round + 1, "a round was skipped"
            self.round, self.attackers_this_round, self.advanced = state["round"], set(), set()

    def cards_neither_created_nor_lost(self, state):
        for seat in range(self.seats):
            cards = sorted(self.cards_of(state, seat))
            if self.draft and state["phase"] == "draft":
                assert len(cards) == len(set(cards)) <= 30  # still picking: one copy of each
            elif self.draft and not self.decks[seat]:
                self.decks[seat] = cards  # the drafted deck, from now on fixed
            else:
                assert cards == self.decks[seat], f"seat {seat}: cards created or lost"
        in_areas = [uid for p in state["players"] for uid in p["frontline"] + p["main"]]
        assert len(in_areas) == len(set(in_areas)) and set(in_areas) == set(state["creatures"]), \
            "every creature in play is in exactly one area"
        for uid, creature in state["creatures"].items():
            assert uid in state["players"][creature["owner"]]["frontline"] + state["players"][creature["owner"]]["main"]
        for kind in ("cpu", "ram"):
            held = state[f"{kind}_deck"] + state[f"{kind}_used"] + [c for p in state["players"] for c in p[kind]]
            assert sorted(held) == sorted(c["id"] for c in POWER[kind]), f"{kind} cards created or lost"

    def counters_in_bounds(self, state):
        for seat, player in enumerate(state["players"]):
            advances = player["track"]["cpu"] + player["track"]["ram"] - 2
            assert player["track"]["cpu"] >= 1 and player["track"]["ram"] >= 1
            assert advances <= state["round"], "more than one advance a round"
            if not player["out"] and state["phase"] in ("main", "last_summon"):
                assert advances == state["round"] - 1, "a living player missed an advance"
            for kind in ("cpu", "ram"):
                assert player["pool"][kind] >= 0, "paid less than the cost"
                assert player["summoned"][kind] <= player["track"][kind], "round's summons over the track"
            if not player["out"]:
                assert player["health"] > 0, "a Cybermancer at 0 plays on"
            else:
                assert not player["frontline"] and not player["main"], "an eliminated player's creatures stay"
        for creature in state["creatures"].values():
            assert 0 <= creature["damage"] < creature["health"], "a destroyed creature stays in play"
            assert creature["attack"] >= 0 and creature["status"] in ("active", "buffered", "exhausted")
        if state["prompt"]:
            assert state["pending"] and state["prompt"]["options"]

    @staticmethod
    def every_payable_summon_listed(state):
        """A card in hand is listed as a summon exactly when paying with every face-up power
        card the seat holds is accepted (overpay is lost, so paying all is the most there is):
        the listing neither offers a summon the rules refuse nor leaves out one they allow."""
        for seat in sorted(RULESET.to_act(state)):
            listing = RULESET.legal_actions(state, seat)
            if not any(action["type"] == "end_turn" for action in listing):
                continue  # a prompt, a draft pick, a mulligan, an advance or a leaver's proceed
            player, listed = state["players"][seat], {a["card"] for a in listing if a["type"] == "summon"}
            for card in sorted(set(player["hand"])):
                try:
                    RULESET.decide(state, seat, {"type": "summon", "card": card, "cpu": list(player["cpu"]),
                                                 "ram": list(player["ram"])}, RandomStream(b"k" * 32, "payable", 1))
                    accepted = True
                except IllegalAction:
                    accepted = False
                assert accepted == (card in listed), f"{card}: accepted {accepted}, listed {card in listed}"

    def end_consistent(self, state):
        result = RULESET.outcome(state)
        alive = [s for s in range(self.seats) if not state["players"][s]["out"]]
        sides = {s % 2 if state["mode"] == "teams" else s for s in alive}
        if result is None:
            assert len(sides) >= 2, "one side left but the game goes on"
            return
        assert RULESET.to_act(state) == set()
        assert all(state["players"][s]["health"] <= 0 for s in result["out"])
        if result["reason"] == "cybermancer_defeated":
            assert len(sides) == 1 and result["winners"], "defeat with more than one side standing"
            if state["mode"] == "teams":
                assert {w % 2 for w in result["winners"]} == sides and len(result["winners"]) == 2
            else:
                assert result["winners"] == alive
        else:  # the designed guards end in a draw
            assert result["reason"] in ("stalemate", "no_creatures_left") and result["winners"] == []
            assert len(sides) >= 2


def play(options, seats, seed, bots=("random",), check=True):
    def checks(initial):
        invariants = Invariants(initial)

        def after(step):
            invariants.after(step.state, step.seat, step.action, step.facts)
            if check:
                assert_nothing_hidden_leaks(step.state, step.facts, step.seat, step.action)
        return after
    return random_play(RULESET, options, seats, seed, bots, checks)


@pytest.mark.parametrize("options, seats", MODES, ids=[f"{o}-{s}" for o, s in MODES])
@settings(max_examples=examples(6), deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_play_reaches_an_outcome_in_every_mode(options, seats, seed):
    state = play(options, seats, seed)  # the invariants are checked after every action
    result = RULESET.outcome(state)
    assert set(result["winners"]) <= set(range(seats))
    assert bool(result["winners"]) == (result["reason"] == "cybermancer_defeated")
    if options.get("mode") == "teams" and result["winners"]:
        assert len({w % 2 for w in result["winners"]}) == 1  # one team wins


@settings(max_examples=examples(4), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), mode=st.sampled_from(MODES))
def test_greedy_and_random_bots_mixed_play_legally_to_the_end(seed, mode):
    options, seats = mode
    assert RULESET.outcome(play(options, seats, seed, bots=("greedy", "random"), check=False)) is not None


@settings(max_examples=examples(5), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), mode=st.sampled_from(MODES))
def test_replayed_state_equals_live_state_at_every_version(tmp_path_factory, seed, mode):
    options, seats = mode
    play_and_replay(RULESET, tmp_path_factory.mktemp("cm"), options, seats, seed, RULESET.bots["greedy"])
