"""The rulebook's sections other than the card list: setup, turn sequence, limits, victory."""

import pytest

from domain.games.cyberiad import RULESET
from domain.games.cyberiad.cards import CARDS
from domain.games.cyberiad.rules import OPENING_HAND, fame, sallies
from domain.kernel.rng import RandomStream

from .table import act, choose, play, refused, table

F = ["cruel-obscurity", "matter-of-remuneration", "sally-to-nowhere", "contraptions", "instruments",
     "gnostotron", "thinking-machine", "spies", "imprisonment", "negotiations", "great-labors", "black-box"]


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_setup_deals_5_cards_from_one_shared_deck(seats):
    state = RULESET.setup({}, [f"p{i}" for i in range(seats)], RandomStream(b"s" * 32, "m", 1))
    assert [len(h) for h in state["hands"]] == [OPENING_HAND] * seats
    assert len(state["deck"]) == len(CARDS) - OPENING_HAND * seats
    everything = state["deck"] + [c for h in state["hands"] for c in h]
    assert sorted(everything) == sorted(CARDS)  # one copy of each card
    assert state["phase"] == "pick" and RULESET.to_act(state) == {state["first"]}


def test_setup_is_random_but_reproducible_from_the_stream():
    deal = lambda key: RULESET.setup({}, ["a", "b"], RandomStream(key, "m", 1))  # noqa: E731
    assert deal(b"a" * 32) == deal(b"a" * 32)
    assert deal(b"a" * 32)["deck"] != deal(b"b" * 32)["deck"]


def test_setup_refuses_options():
    from domain.kernel.errors import InvalidSetup
    with pytest.raises(InvalidSetup):
        RULESET.setup({"speed": 2}, ["a", "b"], RandomStream(b"s" * 32, "m", 1))


def test_each_player_picks_a_constructor_then_the_first_turn_starts():
    state = RULESET.setup({}, ["a", "b", "c"], RandomStream(b"s" * 32, "m", 1))
    first = state["first"]
    for i, name in enumerate(["turl", "klapaucius", "turl"]):
        seat = (first + i) % 3
        assert RULESET.to_act(state) == {seat}
        refused(state, seat, {"type": "end_turn"}, "wrong_phase")
        state = act(state, seat, {"type": "pick", "constructor": name})[0]
    assert state["phase"] == "play" and state["turn"]["seat"] == first
    # Randomization Phase of the first turn: drew 1 card, gained 1 Genius.
    assert len(state["hands"][first]) == OPENING_HAND + 1 and state["genius"][first] == 1
    refused(state, first, {"type": "pick", "constructor": "turl"}, "wrong_phase")


def test_randomization_phase_draws_1_and_gains_1_genius():
    state = table(seats=2, deck=F[:3])
    state = act(state, 0, {"type": "end_turn"})[0]
    assert state["turn"] == {"seat": 1, "number": 4, "played": False, "used": []}
    assert state["hands"][1] == [F[2]] and state["genius"][1] == 1


def test_only_one_sally_machine_or_effect_a_turn_but_any_number_of_actions():
    state = table(seats=2, hands=[["sally-to-nowhere", "contraptions", "matter-of-remuneration",
                                   "cruel-obscurity", F[0], F[1]], []], deck=F[2:6])
    state = play(state, 0, "sally-to-nowhere", [F[0]])
    refused(state, 0, {"type": "play", "card": "contraptions", "pay": [F[1]]}, "one_card_per_turn")
    state = play(state, 0, "matter-of-remuneration")
    state = play(state, 0, "cruel-obscurity")
    assert state["discard"][-2:] == ["matter-of-remuneration", "cruel-obscurity"]


def test_no_more_effect_cards_in_play_than_sallies_or_machines():
    state = table(seats=2, hands=[["publish-an-excellent-article", F[0]], []])
    refused(state, 0, {"type": "play", "card": "publish-an-excellent-article", "pay": [F[0]]}, "effect_limit")
    state["play"][0] = ["gnostotron"]
    assert "publish-an-excellent-article" in play(state, 0, "publish-an-excellent-article", [F[0]])["play"][0]


def test_cost_is_paid_by_discarding_cards():
    state = table(seats=2, hands=[["the-pirate-pugg", F[0], F[1], F[2]], []])
    refused(state, 0, {"type": "play", "card": "the-pirate-pugg", "pay": F[:3]}, "insufficient_payment")
    refused(state, 0, {"type": "play", "card": "the-pirate-pugg", "pay": [F[0], F[0], F[1], F[2]]}, "bad_payment")
    refused(state, 0, {"type": "play", "card": "the-pirate-pugg", "pay": ["the-pirate-pugg", *F[:3]]},
            "bad_payment")
    refused(state, 0, {"type": "play", "card": "gnostotron", "pay": []}, "card_not_in_hand")


def test_a_cost_is_paid_with_a_number_of_cards_equal_to_it_and_no_more():
    """"The cost to play a Sally, Machine, or Effect is to discard a number of Cards equal to the
    cost of the card": a card the cost does not need is refused, a free card takes none; a card
    worth more than the rest of the cost (a Worth-3 Action toward a Sally) still pays it, since
    a card is not split. The listing's payment describes it (`no_spare`)."""
    state = table(seats=2, hands=[["the-pirate-pugg", *F[:5], "gargantius-effect"], []])
    refused(state, 0, {"type": "play", "card": "the-pirate-pugg", "pay": F[:5]}, "overpayment")
    refused(state, 0, {"type": "play", "card": "the-pirate-pugg", "pay": [F[0], F[1], "gargantius-effect"]},
            "overpayment")  # 1 + 1 + 3: the cost of 4 is paid without one of the plain cards
    assert "the-pirate-pugg" in play(state, 0, "the-pirate-pugg", [F[0], "gargantius-effect"])["play"][0]
    assert "the-pirate-pugg" in play(state, 0, "the-pirate-pugg", F[:4])["play"][0]
    free = table(seats=2, hands=[["matter-of-remuneration", F[0]], []])
    refused(free, 0, {"type": "play", "card": "matter-of-remuneration", "pay": [F[0]]}, "overpayment")
    listed = next(a for a in RULESET.legal_actions(state, 0) if a.get("card") == "the-pirate-pugg")
    assert listed["params"]["pay"]["no_spare"] is True and listed["params"]["pay"]["worth_at_least"] == 4


@pytest.mark.parametrize("into, check", [
    ("fame", lambda s: s["fame"][0] == 1), ("remove_trouble", lambda s: s["trouble"][0] == 1),
    ("draw", lambda s: s["hands"][0] == [F[0]])])
def test_five_genius_converts_to_fame_a_card_or_less_trouble(into, check):
    state = table(seats=2, genius=[10, 0], trouble=[2, 0], deck=[F[0]])
    state = act(state, 0, {"type": "convert", "into": into})[0]
    assert state["genius"][0] == 5 and check(state)


def test_conversion_needs_five_genius():
    refused(table(seats=2, genius=[4, 0]), 0, {"type": "convert", "into": "fame"}, "not_enough_genius")


def test_terminal_phase_discards_down_to_10():
    state = table(seats=2, hands=[[*F[:10], "dragons-of-probability"], []], deck=["king-krool-the-hunter"])
    state = act(state, 0, {"type": "end_turn"})[0]
    assert state["prompt"]["kind"] == "discard" and RULESET.to_act(state) == {0}
    state = choose(state, "spies")
    assert len(state["hands"][0]) == 10 and state["turn"]["seat"] == 1


def test_fifty_fame_wins_at_once():
    state = table(seats=2, hands=[["matter-of-remuneration"], []], fame=[48, 0], deck=F[:4])
    state = play(state, 0, "matter-of-remuneration")
    assert state["over"] == "fame_50" and RULESET.outcome(state)["winners"] == [0]
    assert RULESET.to_act(state) == set() and RULESET.legal_actions(state, 0) == []


def test_twenty_trouble_puts_a_player_out_and_the_last_one_left_wins():
    state = table(seats=3, hands=[["low-and-underhanded-trick", F[0], F[1]], [], []], trouble=[0, 18, 5],
                  deck=F[2:8])
    state = choose(play(state, 0, "low-and-underhanded-trick", F[:2]), 1)
    assert state["out"] == [False, True, False] and not state["over"]
    state = act(state, 0, {"type": "end_turn"})[0]
    assert state["turn"]["seat"] == 2  # seat 1 is out and skipped
    state["trouble"][2] = 19
    state = act(state, 2, {"type": "power"})[0]  # Turl: gain 1 TP to draw
    assert state["over"] == "last_standing" and RULESET.outcome(state)["winners"] == [0]


def test_game_ends_when_the_deck_is_empty_at_the_start_of_a_turn_most_fame_wins():
    state = table(seats=2, play=[["sally-to-nowhere"], ["the-pirate-pugg"]])
    state = act(state, 0, {"type": "end_turn"})[0]
    result = RULESET.outcome(state)
    assert result["reason"] == "deck_empty" and result["winners"] == [1] and result["fame"] == [1, 4]


def test_fame_ties_go_to_less_trouble_then_more_sallies_then_are_shared():
    state = table(seats=3, fame=[5, 5, 5], trouble=[2, 1, 1], play=[[], ["gnostotron"], ["sally-to-nowhere"]])
    state["fame"] = [5, 0, 4]  # gnostotron gives 5 FP and 4 TP; sally-to-nowhere 1 FP
    state["trouble"] = [2, 0, 1]
    state["over"] = "deck_empty"
    # fame 5/5/5; trouble 2/4/1 -> seat 2 wins on trouble
    assert RULESET.outcome(state)["winners"] == [2]
    tied = table(seats=2, fame=[3, 3])
    tied["over"] = "deck_empty"
    assert RULESET.outcome(tied)["winners"] == [0, 1]


def test_seven_sallies_end_the_game():
    six = ["dragons-of-probability", "the-pirate-pugg", "sally-to-nowhere", "aid-the-steelypips",
           "the-hedophages-of-ninnica", "new-kingdom-in-a-box"]
    state = table(seats=2, hands=[["encounter-the-multitudians", *F[:4]], []], play=[six, []])
    state = play(state, 0, "encounter-the-multitudians", F[:4])
    assert state["over"] == "seven_sallies" and RULESET.outcome(state)["winners"] == [0]


def test_choices_belong_to_their_chooser():
    state = table(seats=3, hands=[["aid-the-steelypips", *F[:3]], [F[4], F[5]], [F[6], F[7]]])
    state = play(state, 0, "aid-the-steelypips", F[:3])
    assert RULESET.to_act(state) == {1}
    assert RULESET.legal_actions(state, 0) == []
    refused(state, 1, {"type": "choose", "option": F[6]}, "not_an_option")
    refused(state, 1, {"type": "end_turn"}, "choice_pending")


@pytest.mark.parametrize("action, code", [
    ({"type": "teleport"}, "unknown_action"), ({"kind": "play"}, "malformed_action"),
    ({"type": "play", "card": 7}, "malformed_action"), ({"type": "play", "card": "spies", "pay": "x"},
                                                        "malformed_action"),
    ({"type": "choose", "option": 1}, "no_choice_pending"), ({"type": "use", "card": "gnostotron"},
                                                             "card_not_in_play"),
    ({"type": "convert", "into": "gold"}, "unknown_conversion")])
def test_malformed_and_unknown_actions_are_refused(action, code):
    refused(table(seats=2, hands=[["spies"], []]), 0, action, code)


def test_every_listed_action_can_be_posted_back_unchanged():
    state = table(seats=2, hands=[["dragons-of-probability", "gargantius-effect", *F[:4]], []],
                  play=[["gnostotron", "machine-to-ask-questions"], []], genius=[5, 0], deck=F[4:8])
    listed = RULESET.legal_actions(state, 0)
    kinds = {a["type"] for a in listed}
    assert kinds == {"play", "use", "convert", "power", "end_turn"}
    dragons = [a for a in listed if a.get("card") == "dragons-of-probability"][0]
    assert dragons["pay"][0] == "gargantius-effect" and len(dragons["pay"]) == 3  # fewest cards
    for action in listed:
        act(state, 0, {k: v for k, v in action.items() if k != "params"})


def test_view_shows_points_counted_from_cards_in_play():
    state = table(seats=2, play=[["sally-to-nowhere", "gnostotron"], []], fame=[2, 0])
    seen = RULESET.view(state, 0)["players"][0]
    assert (seen["fame"], seen["trouble"], seen["sallies"]) == (2 + 1 + 5, 4, 1) == (fame(state, 0), 4, 1)


# -- Issue 13: thresholds are acted on at once, also when the next step asks for a choice --

def test_twenty_trouble_on_playing_a_card_puts_the_player_out_before_any_choice():
    # "Any player that accumulates 20 or more Trouble points automatically loses": the
    # Diadem (5/5) played at 17 TP takes its player to 22 TP; its A> target choice lapses.
    state = table(seats=3, hands=[["steal-the-cymberanide-dynasty-diadem", *F[:6]], [], []],
                  trouble=[17, 0, 0], deck=F[6:9])
    state, facts = act(state, 0, {"type": "play", "card": "steal-the-cymberanide-dynasty-diadem", "pay": F[:6]})
    assert state["out"] == [True, False, False] and state["prompt"] is None
    assert state["trouble"] == [17, 0, 0]  # no target gained the 2 TP
    assert state["turn"]["seat"] == 1 and not state["over"]  # the next turn began
    assert not any(f["f"] == "prompt" and f["prompt"] for f in facts)


def test_twenty_trouble_with_one_possible_target_also_lapses_the_effect():
    state = table(seats=2, hands=[["steal-the-cymberanide-dynasty-diadem", *F[:6]], []],
                  trouble=[17, 18], deck=F[6:9])
    state = play(state, 0, "steal-the-cymberanide-dynasty-diadem", F[:6])
    result = RULESET.outcome(state)
    assert state["trouble"] == [17, 18] and result["reason"] == "last_standing" and result["winners"] == [1]


def test_fifty_fame_on_playing_a_card_wins_before_any_choice():
    # "Any player that accumulates 50 or more Fame points automatically wins."
    state = table(seats=3, hands=[["king-krool-the-hunter", *F[:7]], [], []], fame=[43, 0, 0])
    state = play(state, 0, "king-krool-the-hunter", F[:7])
    assert state["over"] == "fame_50" and state["prompt"] is None and RULESET.to_act(state) == set()
    assert RULESET.outcome(state)["winners"] == [0] and state["trouble"] == [0, 0, 0]


def test_a_sally_searched_into_play_that_puts_its_player_out_still_shuffles_the_deck():
    # Electroknight (3/5) at 12 TP -> 17; the Diadem found in the deck -> 22: out at once,
    # its target choice lapses, but the searched deck is shuffled as README 12 promises.
    deck = ["steal-the-cymberanide-dynasty-diadem", F[6], "the-pirate-pugg", F[7], F[8]]
    state = table(seats=3, hands=[["magnificent-electroknight", *F[:4]], [], []], trouble=[12, 0, 0], deck=deck)
    state = play(state, 0, "magnificent-electroknight", F[:4])
    state, facts = act(state, 0, {"type": "choose", "option": "steal-the-cymberanide-dynasty-diadem"})
    assert state["out"] == [True, False, False] and state["prompt"] is None and state["trouble"] == [17, 0, 0]
    assert [f["f"] for f in facts].count("shuffle") == 1
    assert state["turn"]["seat"] == 1


def test_every_remaining_player_out_in_the_same_step_are_ranked_by_fame_then_trouble():
    # Encounter the Multitudians (4/4, "Opponent gains 3 TP") at 16 TP against 17 TP: both
    # reach 20 in the same step; README 22 ranks them (FP, then TP, then Sallies).
    for actor in (0, 1):
        state = table(seats=2, hands=[[], []], fame=[34, 0], trouble=[16, 16], turn=actor)
        state["trouble"][1 - actor] = 17
        state["hands"][actor] = ["encounter-the-multitudians", *F[:4]]
        state = play(state, actor, "encounter-the-multitudians", F[:4])
        result = RULESET.outcome(state)
        assert state["out"] == [True, True] and result["reason"] == "last_standing"
        assert result["winners"] == [0], f"seat {actor} acting"


def test_twenty_trouble_from_a_card_with_no_note_ends_the_players_turn_at_once():
    # Journey to the Galactic Pole (5/3) at 17 TP: out, and the next player's turn begins.
    state = table(seats=3, hands=[["journey-to-the-galactic-pole", *F[:6]], [], []], trouble=[17, 0, 0],
                  deck=F[6:9])
    state = play(state, 0, "journey-to-the-galactic-pole", F[:6])
    assert state["out"] == [True, False, False] and state["turn"]["seat"] == 1
    assert RULESET.legal_actions(state, 0) == []


def test_fifty_fame_from_a_genius_conversion_wins_at_once():
    state = table(seats=2, fame=[49, 0], genius=[5, 0], deck=F[:2])
    state = act(state, 0, {"type": "convert", "into": "fame"})[0]
    assert state["over"] == "fame_50" and RULESET.outcome(state)["winners"] == [0]


def test_seven_sallies_count_only_sallies_in_play_of_players_still_in():
    # README 24: "claimed 7 Sally cards" = 7 in play, held by a player still in. The Diadem
    # (5/5) as 7th Sally at 15 TP brings 20 TP too: the player is out, the game goes on.
    six = ["dragons-of-probability", "the-pirate-pugg", "sally-to-nowhere", "aid-the-steelypips",
           "the-hedophages-of-ninnica", "new-kingdom-in-a-box"]
    state = table(seats=3, hands=[["steal-the-cymberanide-dynasty-diadem", *F[:6]], [], []],
                  play=[six, [], []], trouble=[13, 0, 0], deck=F[6:9])
    state = play(state, 0, "steal-the-cymberanide-dynasty-diadem", F[:6])
    assert state["out"][0] and not state["over"] and state["turn"]["seat"] == 1
    # A Sally that leaves play (Nothing Machine discards it) no longer counts.
    state = table(seats=2, play=[["nothing-machine", *six], []], hands=[["king-krool-the-hunter", *F[:7]], []],
                  deck=F[7:9])
    state = choose(act(state, 0, {"type": "use", "card": "nothing-machine"})[0], "dragons-of-probability")
    state = play(state, 0, "king-krool-the-hunter", F[:7])
    assert not state["over"] and sallies(state, 0) == 6
