"""One test per rule of "HeroCard Dueling Rules" (and the Quick Start), each quoting or
paraphrasing the rulebook; each would fail if its rule were broken."""

import pytest

from domain.games.herocard import RULESET, engine
from domain.games.herocard.cards import CARDS, HEROES, deck_list
from domain.kernel.errors import InvalidSetup
from domain.kernel.rng import RandomStream

from .arena import act, duel, pass_, pass_all, play, put, refused, spent, values


def value(card):
    return CARDS[card]["value"]


# --- Set-up ----------------------------------------------------------------------------

def test_setup_shuffles_each_action_deck_and_deals_seven_with_empty_attribute_stacks():
    """"Shuffle your decks and draw seven cards." "Your Attribute Stacks are empty at the beginning"."""
    state = RULESET.setup({"heroes": ["bouncer", "sinner"]}, ["a", "b"], RandomStream(b"\x05" * 32, "s", 1))
    for seat, hero in enumerate(["bouncer", "sinner"]):
        player = state["duel"]["players"][seat]
        assert len(player["hand"]) == 7 and sorted(player["hand"] + player["deck"]) == sorted(deck_list(hero))
        assert player["stacks"] == {"body": [], "mind": [], "x": []}
        assert player["scores"] == {a: HEROES[hero]["attributes"][a]["score"] for a in ("body", "mind", "x")}
    firsts = {RULESET.setup({}, ["a", "b"], RandomStream(bytes([i]) * 32, "s", 1))["duel"]["first"] for i in range(12)}
    assert firsts == {0, 1}  # "Randomly determine who starts."


@pytest.mark.parametrize("seats, options, goal", [(2, {}, 3), (3, {}, 5), (4, {}, 7), (4, {"teams": True}, 7)])
def test_victory_points_required(seats, options, goal):
    """"three Victory Points in a two-player game, five in a three-player game, and seven in a
    four-player game"; Teams: "Whichever team earns seven victory points first wins"."""
    state = RULESET.setup(options, [f"p{i}" for i in range(seats)], RandomStream(b"\x05" * 32, "s", 1))
    assert state["duel"]["config"]["victory_points"] == goal


def test_options_are_checked():
    with pytest.raises(InvalidSetup, match="exactly 4"):
        RULESET.setup({"teams": True}, ["a", "b"], RandomStream(b"\x05" * 32, "s", 1))
    with pytest.raises(InvalidSetup, match="Assistance"):
        RULESET.setup({"assistance": True}, ["a", "b"], RandomStream(b"\x05" * 32, "s", 1))
    with pytest.raises(InvalidSetup, match="one Hero per seat"):
        RULESET.setup({"heroes": ["bouncer", "nobody"]}, ["a", "b"], RandomStream(b"\x05" * 32, "s", 1))


# --- The four phases -------------------------------------------------------------------

def test_phases_run_discard_draw_clear_action_in_order():
    """"Complete them in the following order: Discard, Draw, Clear, Action." """
    d = duel(hands={0: ["jab", "jab"]}, phase="discard")
    refused(d, 0, {"type": "play", "cards": ["jab"]}, "phase_order")
    refused(d, 0, {"type": "draw", "count": 1}, "phase_order")
    d = act(d, 0, {"type": "discard", "cards": ["jab"]})
    assert d["turn"]["phase"] == "draw" and d["players"][0]["discard"] == ["jab"]  # face up on the discard stack
    d = act(d, 0, {"type": "draw", "count": 3})
    assert len(d["players"][0]["hand"]) == 4
    assert d["turn"]["phase"] == "action"  # empty stacks: nothing to clear


def test_discard_only_cards_in_hand():
    d = duel(hands={0: ["jab"]}, phase="discard")
    refused(d, 0, {"type": "discard", "cards": ["jab", "jab"]}, "not_in_hand")


def test_draw_up_to_three_never_above_seven():
    """"Draw up to three cards ... Do not exceed seven cards in your hand." """
    d = duel(hands={0: ["jab"] * 5}, phase="draw")
    refused(d, 0, {"type": "draw", "count": 3}, "draw_limit")
    assert [a["count"] for a in engine.legal_actions(d, 0) if a["type"] == "draw"] == [2, 1, 0]
    d = duel(hands={0: []}, phase="draw")
    refused(d, 0, {"type": "draw", "count": 4}, "draw_limit")


def test_an_empty_action_deck_is_refilled_by_shuffling_the_discard_stack():
    """"If your Action Deck runs out of cards, shuffle your discard stack ... continue drawing." """
    d = duel(hands={0: []}, phase="draw", decks={0: ["jab"]})
    d["players"][0]["discard"] = ["brace", "bar_stool", "forearm_block"]
    after = act(d, 0, {"type": "draw", "count": 3})
    assert after["players"][0]["hand"][0] == "jab" and len(after["players"][0]["hand"]) == 3
    assert after["players"][0]["discard"] == [] and len(after["players"][0]["deck"]) == 1


def test_discard_queue_turns_the_discard_stack_over_instead_of_shuffling():
    """Discard Queue: "instead of shuffling the Discard pile, simply turn it over and continue drawing from the top"."""
    d = duel(hands={0: []}, phase="draw", decks={0: []}, discard_queue=True)
    d["players"][0]["discard"] = ["brace", "bar_stool", "forearm_block", "jab"]  # jab discarded last: on top
    after = act(d, 0, {"type": "draw", "count": 3})
    assert after["players"][0]["hand"] == ["brace", "bar_stool", "forearm_block"]  # the first discarded comes up first
    assert after["players"][0]["deck"] == ["jab"]


def test_clear_up_to_three_top_cards_first():
    """"Remove up to three cards from your Attribute Stacks ... Always clear the top card from a
    given Attribute Stack (i.e., the most recently-played card) first." """
    d = duel(hands={0: []}, phase="clear")
    bottom = put(d, 0, "brace")
    top = put(d, 0, "attack_from_above")
    put(d, 0, "jab")
    put(d, 0, "bar_stool")
    refused(d, 0, {"type": "clear", "stacks": ["body", "body", "x", "x"]}, "clear_limit")
    refused(d, 0, {"type": "clear", "stacks": ["mind"]}, "clear_empty_stack")
    after = act(d, 0, {"type": "clear", "stacks": ["body"]})
    assert [e["uid"] for e in after["players"][0]["stacks"]["body"]] == [bottom]
    assert after["players"][0]["discard"] == ["attack_from_above"] and top not in [e["uid"] for e in after["players"][0]["stacks"]["body"]]
    assert after["turn"]["phase"] == "action"


def test_uncleared_cards_keep_their_points_spent():
    """"the Attribute points for any uncleared cards remain spent"."""
    d = duel(hands={0: ["knuckle_duster"]})
    put(d, 0, "attack_from_above")
    put(d, 0, "brace")
    free = d["players"][0]["scores"]["body"] - CARDS["attack_from_above"]["cost"] - CARDS["brace"]["cost"]
    assert engine.free_points(d["players"][0], "body") == free
    if CARDS["knuckle_duster"]["cost"] > free:
        refused(d, 0, {"type": "play", "cards": ["knuckle_duster"], "target": 1}, "cost_exceeds_free_points")


def test_refresh_forgoes_the_action_phase():
    """"Discard all of the cards in your hand and draw the same number. When you refresh, you can
    not play any cards or take any other Actions of any kind." """
    d = duel(hands={0: ["jab", "brace", "bar_stool"]})
    after = act(d, 0, {"type": "refresh"})
    assert after["players"][0]["discard"] == ["jab", "brace", "bar_stool"] and len(after["players"][0]["hand"]) == 3
    assert after["turn"]["active"] == 1  # the turn is over
    d = play(duel(hands={0: ["one_more_round", "jab"]}), 0, "one_more_round")
    d = pass_(d)
    refused(d, 0, {"type": "refresh"}, "refresh_forgoes_action_phase")


# --- Action Cost and Action Types -----------------------------------------------------

def test_action_cost_is_paid_from_the_matching_attributes_free_points():
    """"The combined Action Cost of all the cards you have in play must be equal to or less than
    your Character's corresponding Attribute score." """
    d = duel(hands={0: ["attack_from_above"]})
    after = play(d, 0, "attack_from_above", target=1)
    assert spent(after, 0, "body") == CARDS["attack_from_above"]["cost"] and spent(after, 0, "mind") == 0
    d["players"][0]["scores"]["body"] = CARDS["attack_from_above"]["cost"] - 1
    refused(d, 0, {"type": "play", "cards": ["attack_from_above"], "target": 1}, "cost_exceeds_free_points")


def test_fast_cards_play_on_any_players_action_phase_restricted_and_exclusive_only_on_your_own():
    d = duel(hands={0: ["attack_from_above"], 1: ["forfeiture", "diamond_nails", "slow_dance"]})
    d = play(d, 0, "attack_from_above", target=1)
    assert d["priority"] == 1
    refused(d, 1, {"type": "play", "cards": ["forfeiture"], "target": 0}, "restricted_own_turn")
    refused(d, 1, {"type": "play", "cards": ["diamond_nails"], "target": 0}, "exclusive_own_turn")
    after = play(d, 1, "slow_dance")  # Fast: on any player's Action Phase
    assert values(after) == (value("attack_from_above"), value("slow_dance"))


def test_only_one_exclusive_action_per_turn():
    """"You can play only one Exclusive action per turn (even if you have enough Attribute points)"."""
    d = duel(hands={0: ["attack_from_above", "jab", "attack_from_above"]})
    d["players"][0]["scores"]["body"] = 20
    d = pass_all(play(d, 0, "attack_from_above", target=1))
    refused(d, 0, {"type": "play", "cards": ["attack_from_above"], "target": 1}, "one_exclusive_per_turn")


def test_a_card_allowing_another_base_attack_lifts_the_limit_once():
    """"there are some cards that allow you to play more than one Base Attack per turn"."""
    d = duel(hands={0: ["attack_from_above", "one_more_round", "attack_from_above", "attack_from_above"]})
    d["players"][0]["scores"]["body"] = 20
    d = pass_all(play(d, 0, "attack_from_above", target=1))
    d = pass_(play(d, 0, "one_more_round"))
    d = pass_all(play(d, 0, "attack_from_above", target=1))
    assert d["results"] == 2
    refused(d, 0, {"type": "play", "cards": ["attack_from_above"], "target": 1}, "one_exclusive_per_turn")


def test_after_a_card_or_set_the_opponent_responds_before_more_are_played():
    """"Once you have played a card or card set, you must allow your opponent to respond (he or
    she may play cards or pass) before playing more cards." """
    d = play(duel(hands={0: ["attack_from_above", "jab"]}), 0, "attack_from_above", target=1)
    assert engine.to_act(d) == {1}
    refused(d, 0, {"type": "play", "cards": ["jab"]}, "not_your_move")
    d = pass_(d)
    assert engine.to_act(d) == {0}
    assert values(play(d, 0, "jab")) == (value("attack_from_above") + value("jab"), 0)


# --- Sets ----------------------------------------------------------------------------------

def test_a_base_attack_and_attack_mods_play_together_as_a_set():
    d = duel(hands={0: ["attack_from_above", "jab", "jab"]})
    after = play(d, 0, "attack_from_above", "jab", "jab", target=1)
    assert values(after) == (value("attack_from_above") + 2 * value("jab"), 0)
    assert after["priority"] == 1


def test_sets_hold_only_bases_and_mods_of_one_side_and_a_single_base_attack():
    """"you cannot include Special Attacks or any other Action Cards in a set of attacks";
    "A set is either an attack set or a block set"."""
    d = duel(hands={0: ["attack_from_above", "one_more_round", "brace", "knuckle_duster"]})
    refused(d, 0, {"type": "play", "cards": ["attack_from_above", "one_more_round"], "target": 1}, "set_only_bases_and_mods")
    refused(d, 0, {"type": "play", "cards": ["attack_from_above", "brace"], "target": 1}, "set_one_side")
    refused(d, 0, {"type": "play", "cards": ["attack_from_above", "knuckle_duster"], "target": 1}, "one_base_attack")


def test_an_attack_mod_cannot_stand_alone():
    """"you must always play an Attack Mod at the same time as, or after, a Base Attack"."""
    refused(duel(hands={0: ["jab"]}), 0, {"type": "play", "cards": ["jab"]}, "mod_needs_base")


def test_blocks_need_an_attack_and_a_block_mod_needs_a_base_block():
    """"A Block Mod cannot stand alone." """
    d = duel(hands={0: ["attack_from_above"], 1: ["pout", "slow_dance"]}, active=1)
    refused(d, 1, {"type": "play", "cards": ["slow_dance"]}, "block_needs_attack")
    d = duel(hands={0: ["attack_from_above"], 1: ["pout", "slow_dance"]})
    d = play(d, 0, "attack_from_above", target=1)
    refused(d, 1, {"type": "play", "cards": ["pout"]}, "mod_needs_base")
    assert values(play(d, 1, "slow_dance", "pout")) == (value("attack_from_above"), value("slow_dance") + value("pout"))


def test_base_blocks_add_together():
    """"If you play more than one Base Block, add the block values together." """
    d = duel(hands={0: ["attack_from_above"], 1: ["slow_dance", "smart_drink"]})
    d = play(play(d, 0, "attack_from_above", target=1), 1, "slow_dance")
    d = play(pass_(d), 1, "smart_drink")
    assert values(d)[1] == value("slow_dance") + value("smart_drink")


def test_attack_cards_belong_to_the_attacker_and_block_cards_to_the_defender():
    d = duel(hands={0: ["attack_from_above", "brace"], 1: ["flirt"]})
    d = play(d, 0, "attack_from_above", target=1)
    refused(d, 1, {"type": "play", "cards": ["flirt"]}, "wrong_side")


# --- Attack Sequences -----------------------------------------------------------------------

def test_an_attack_succeeds_only_when_it_exceeds_the_block_and_earns_one_victory_point():
    """"If your opponent's block value equals or exceeds your attack value, your attack fails." """
    success = pass_all(play(duel(hands={0: ["attack_from_above"], 1: []}), 0, "attack_from_above", target=1))
    assert success["players"][0]["vp"] == 1 and success["last_result"]["success"]
    assert value("bar_stool") == value("attack_from_above")
    exact = duel(hands={0: ["attack_from_above"], 1: ["bar_stool"]}, heroes=("bouncer", "bouncer"))
    exact = pass_all(play(play(exact, 0, "attack_from_above", target=1), 1, "bar_stool"))
    assert exact["players"][0]["vp"] == 0 and not exact["last_result"]["success"]  # 4 against 4 fails


def test_a_new_base_attack_waits_for_the_sequence_to_complete():
    """"A given Attack Sequence must complete as above before a new one is launched." """
    d = duel(hands={0: ["attack_from_above", "one_more_round", "knuckle_duster"]})
    d["players"][0]["scores"].update(body=20, x=20)
    d = pass_(play(d, 0, "attack_from_above", target=1))
    d = pass_(play(d, 0, "one_more_round"))
    refused(d, 0, {"type": "play", "cards": ["knuckle_duster"], "target": 1}, "sequence_open")


def test_only_one_victory_point_a_turn():
    """"A successful attack gains you only one Victory Point, so you must launch separate,
    successful attacks on separate turns." """
    d = duel(hands={0: ["attack_from_above", "one_more_round", "attack_from_above"]})
    d["players"][0]["scores"].update(body=20)
    d = pass_all(play(d, 0, "attack_from_above", target=1))
    d = pass_(play(d, 0, "one_more_round"))
    d = pass_all(play(d, 0, "attack_from_above", target=1))
    assert d["results"] == 2 and d["last_result"]["success"] and d["players"][0]["vp"] == 1


def test_reaching_the_required_victory_points_wins():
    d = duel(hands={0: ["attack_from_above"]})
    d["players"][0]["vp"] = 2
    d = pass_all(play(d, 0, "attack_from_above", target=1))
    assert d["over"] == "victory_points" and d["winners"] == [0] and engine.to_act(d) == set()


def test_when_all_pass_outside_a_sequence_play_proceeds_to_the_left():
    d = pass_(pass_(duel(hands={0: [], 1: []})))
    assert d["turn"]["active"] == 1 and d["turn"]["number"] == 2


# --- Clearing during the Action Phase -----------------------------------------------------------

def test_clearing_an_active_card_outside_the_clear_phase_reduces_the_attack():
    """"Some cards allow you to clear outside of your clear phase. Reduce the current attack or
    block value by the appropriate amount"."""
    d = duel(hands={0: ["attack_from_above", "jab", "second_wind"]})
    d = pass_(play(d, 0, "attack_from_above", "jab", target=1))
    after = play(d, 0, "second_wind", attribute="body")  # Attack from Above is the top of the Body stack
    assert values(after) == (value("jab"), 0) and after["players"][0]["discard"] == ["attack_from_above"]
    assert spent(after, 0, "body") == 0


# --- Teams, Fair Start, Assistance -------------------------------------------------------------

def test_fair_start_skips_the_first_players_first_discard_and_draw():
    state = RULESET.setup({"fair_start": True}, ["a", "b"], RandomStream(b"\x05" * 32, "s", 1))
    assert state["duel"]["turn"]["phase"] == "action" and state["duel"]["turn"]["active"] == state["duel"]["first"]
    plain = RULESET.setup({}, ["a", "b"], RandomStream(b"\x05" * 32, "s", 1))
    assert plain["duel"]["turn"]["phase"] == "discard"


def test_teams_partners_may_not_attack_each_other_and_scores_add():
    """"Partners can not voluntarily attack each other"; "their dueling scores are added together"."""
    d = duel(heroes=("bouncer", "sinner", "bioengineer", "cryptomancer"), hands={0: ["attack_from_above"]},
             teams=True, victory_points=7)
    refused(d, 0, {"type": "play", "cards": ["attack_from_above"], "target": 2}, "partners_may_not_attack")
    d["players"][0]["vp"], d["players"][2]["vp"] = 3, 3
    d = pass_all(play(d, 0, "attack_from_above", target=1))
    assert d["over"] and d["winners"] == [0, 2]


def test_teams_partners_may_only_state_a_preference_once_a_turn():
    """"can only state a preference for attacking or blocking on any given turn"."""
    d = duel(heroes=("bouncer", "sinner", "bioengineer", "cryptomancer"), hands={0: []}, teams=True)
    refused(d, 2, {"type": "prefer", "preference": "attack"}, "not_your_move")
    refused(d, 0, {"type": "prefer", "preference": "hand"}, "preference_kind")
    d = act(d, 0, {"type": "prefer", "preference": "attack"})
    assert d["players"][0]["preference"] == "attack" and d["priority"] == 0
    refused(d, 0, {"type": "prefer", "preference": "block"}, "preference_once")
    refused(duel(hands={0: []}), 0, {"type": "prefer", "preference": "attack"}, "teams_only")


def test_assistance_helps_only_the_losing_side_and_never_switches():
    """"any other player may play a valid Fast Action Card to assist the losing side ... Once you
    assist one side of a conflict, you may not switch sides." """
    d = duel(heroes=("bouncer", "sinner", "bouncer"), hands={0: ["attack_from_above"], 2: ["bar_stool", "jab", "brace"]},
             assistance=True, victory_points=5)
    d = play(d, 0, "attack_from_above", target=2)
    assert d["priority"] == 1  # "Starting with the player to the left of the attacking player"
    d = pass_(d)
    d = play(d, 2, "bar_stool")
    assert d["priority"] == 0
    d = duel(heroes=("bouncer", "bouncer", "sinner"), hands={0: ["attack_from_above"], 1: ["jab", "bar_stool", "brace"]},
             assistance=True, victory_points=5)
    d = play(d, 0, "attack_from_above", target=2)
    refused(d, 1, {"type": "play", "cards": ["jab"]}, "assist_losing_side")  # the attack is winning
    d = play(d, 1, "bar_stool")  # assists the defender
    assert d["assist"] == {"1": "block"} and values(d)[1] == value("bar_stool")
    assert values(d) == (value("attack_from_above"), value("bar_stool"))  # a tie: now the attack is losing
    d = pass_(pass_(d))  # the defender and the attacker pass; seat 1 again
    refused(d, 1, {"type": "play", "cards": ["jab"]}, "assist_no_switching")


def test_an_assistants_set_is_judged_by_who_was_losing_when_it_was_played():
    """"The player may assist the losing side at the time their turn comes up": a Block set
    played to assist a losing defender stands whole, although its Base Block alone would tie
    the attack and leave the defender no longer losing when the Block Mod lands (found by the
    independent review of Cyberspace's card duels)."""
    d = duel(heroes=("bouncer", "bouncer", "sinner"), hands={0: ["attack_from_above"], 1: ["bar_stool", "brace"]},
             assistance=True, victory_points=5)
    d = play(d, 0, "attack_from_above", target=2)
    d = act(d, 1, {"type": "play", "cards": ["bar_stool", "brace"]})
    assert d["assist"] == {"1": "block"}
    assert values(d) == (value("attack_from_above"), value("bar_stool") + value("brace"))


def test_only_a_fast_card_may_assist():
    """"any other player may play a valid Fast Action Card to assist the losing side": a Restricted
    card from the active player outside the Attack Sequence (a duplicate's, on its own turn) is
    refused as assistance (found by the independent review of Cyberspace's card duels)."""
    d = duel(heroes=("bouncer", "sinner", "bouncer"), hands={0: ["attack_from_above"], 2: ["one_more_round", "jab"]},
             assistance=True, victory_points=5)
    d = play(d, 0, "attack_from_above", target=1)
    d["turn"]["active"], d["priority"] = 2, 2  # seat 2's own turn, the sequence not its own
    refused(d, 2, {"type": "play", "cards": ["one_more_round"]}, "assist_fast_only")
    assert CARDS["one_more_round"]["timing"] == "restricted"
