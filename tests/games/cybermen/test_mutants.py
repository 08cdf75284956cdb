"""Rules that a seeded sample of mutants (README, "Mutation") showed untested: each test quotes the
rule or the designed host it holds, and fails on the mutant named in its docstring."""

from domain.games.cybermen import RULESET
from domain.games.cybermen.data import CONST, DATA
from domain.games.cybermen.facts import evolve
from domain.games.cybermen.flow import advance, start_turn
from domain.games.cybermen.state import in_play, takes_turns
from domain.kernel.decision import Decision
from domain.kernel.rng import RandomStream

from .helpers import act, fresh, give, place, refused, with_lieutenants
from .test_rules import attack


def test_a_cyberman_attacks_only_an_adjacent_group():
    """A Cyberman attacks what stands next to it: a group across the map is refused with the
    rule's code (mutant: the code `adjacent_only` misspelt)."""
    state = place(fresh(2), groups={0: [7, 5]}, cybermen=[{"id": "c1", "pos": [7, 3]}], turn=1)
    state, _ = act(state, 1, {"type": "roll"}, 1)
    state, _ = act(state, 1, {"type": "cyber_move", "id": "c1", "to": [7, 4]})
    state, _ = act(state, 1, {"type": "face", "facing": "E"})
    assert {"type": "attack", "target": "group0"} in RULESET.legal_actions(state, 1)
    assert refused(state, 1, {"type": "attack", "target": "group1"}) == "adjacent_only"


def test_a_fatigue_token_that_leaves_the_roll_winning_asks_the_group_again():
    """Designed defence: 'a Fatigue token lowers the roll by one'; a roll still high enough wins,
    and the group may spend another token (mutant: the threshold dropped from that second offer)."""
    state = place(fresh(2), groups={1: [7, 5]}, cybermen=[{"id": "c1", "pos": [7, 3]}], turn=0)
    state, _ = attack(state, 0, "c1", [7, 4], "group1", 6)  # the Best Man's Lot: 5-6 needed
    assert state["prompt"]["roll"] == 6
    state, _ = act(state, 1, {"type": "fatigue"})  # 6 - 1 = 5: still a win
    assert state["prompt"] == {"kind": "defend", "seat": 1, "attacker": "c1", "roll": 5, "needs": 5}
    assert state["groups"][1]["fatigue"] == CONST["tokens"] - 1
    state, _ = act(state, 1, {"type": "fatigue"})  # 4: beaten off
    assert state["prompt"] is None and state["groups"][1]["fatigue"] == CONST["tokens"] - 2


def test_a_trade_is_refused_with_a_player_holding_no_card():
    """'Any item cards that are drawn as part of their turn may be traded with any other player for
    another card': with a player who holds none there is nothing to trade for (mutant: the
    refusal's code)."""
    state = place(fresh(3), turn=2, phase="trade")
    state["groups"][2].update(status="lieutenant", members=[])
    state["lieutenants"] = [2]
    give(state, 2, "gold")
    assert refused(state, 2, {"type": "trade", "seat": 1}) == "trade"


def test_the_second_cyberlieutenant_uses_its_abilities_after_the_first():
    """'Cyberlieutenants may always use their abilities first ... The order of precedence is oldest
    to youngest Cyberlieutenant': when the oldest uses its abilities, the next is asked (mutant:
    the queue skipping it)."""
    state = place(fresh(4), cybermen=[{"id": "c1", "pos": [0, 6]},
                                      {"id": "c8", "pos": [9, 0], "role": "lieutenant", "seat": 3},
                                      {"id": "c9", "pos": [8, 0], "role": "lieutenant", "seat": 2}], turn=0)
    with_lieutenants(state)
    state, _ = act(state, 0, {"type": "roll"}, 1)
    state, _ = act(state, 0, {"type": "end_cyber"}, 3)
    state, _ = act(state, 2, {"type": "use_ability", "id": "c9"})
    assert RULESET.to_act(state) == {3}
    assert RULESET.legal_actions(state, 3) == [{"type": "use_ability", "id": "c8"}, {"type": "decline"}]


def test_a_group_that_escapes_leaves_the_map():
    """Designed host: a group on an open exit escapes; its members are saved and off the map, so no
    Cyberman can attack them and the player takes no more turns (mutant: the members kept)."""
    exit_square = next([r, c] for r, row in enumerate(DATA["map"]) for c, t in enumerate(row) if t == "E")
    state = place(fresh(2), groups={0: exit_square}, turn=0, phase="group")
    state["round"] = CONST["exits_open_round"]
    d = Decision(state, RandomStream(b"k" * 32, "m", 3), evolve)
    advance(d)
    group = d.state["groups"][0]
    assert group["members"] == [] and sorted(group["escaped"]) == ["0.bride", "0.groom", "0.singer"]
    assert not in_play(d.state, 0) and not takes_turns(d.state, 0)


def test_the_cyberleader_moves_its_own_figure_in_the_cyberman_phase():
    """'the Cyberleader chooses which Cybermen to move and where': its own figure is one of them
    (mutant: the Cyberleader's figure left out of the movable Cybermen)."""
    state = place(fresh(3), cybermen=[{"id": "c9", "pos": [5, 5], "role": "leader", "seat": 1},
                                      {"id": "c10", "pos": [0, 6]}], turn=0, tech=2)
    state["leader"] = 1
    state["groups"][1].update(status="leader", members=[])
    state, _ = act(state, 0, {"type": "roll"}, 2)
    movers = {a["id"] for a in RULESET.legal_actions(state, 1) if a["type"] == "cyber_move"}
    assert movers == {"c9", "c10"}


def test_a_cyberlieutenants_turn_draws_a_card_to_trade():
    """'Any item cards that are drawn as part of their turn may be traded': a Cyberlieutenant's
    turn draws one card and offers the trade (mutant: the phase misnamed, so no trade is offered)."""
    state = place(fresh(3), turn=1, phase="end")
    state["groups"][2].update(status="lieutenant", members=[])
    state["lieutenants"] = [2]
    d = Decision(state, RandomStream(b"k" * 32, "m", 5), evolve)
    give(d.state, 0, "gold")
    start_turn(d, 2, 1)
    assert len(d.state["groups"][2]["hand"]) == 1 and d.state["phase"] == "trade"
    assert RULESET.legal_actions(d.state, 2) == [{"type": "trade", "seat": 0}, {"type": "discard"}]


def test_the_outcome_names_the_cyberleader():
    """The outcome's figures name the player who ended as the Cyberleader (mutant: the key)."""
    state = fresh(3)
    state.update(over="round_limit", winners=[0], leader=2)
    assert RULESET.outcome(state)["cyberleader"] == 2


def test_designed_start_two_cybermen_plus_one_for_every_three_players():
    """Designed host: 'Cybermen at the start: 2 + players÷3 Mark I Cybermen' (README): 2 at two
    players, 3 at three to five, 4 at six (mutant: ÷4)."""
    for seats, count in ((2, 2), (3, 3), (4, 3), (5, 3), (6, 4)):
        state = RULESET.setup({}, [f"p{i}" for i in range(seats)], RandomStream(b"k" * 32, "m", 1))
        assert len(state["cybermen"]) == count, seats
