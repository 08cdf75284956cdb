"""One test (at least) per card of the rulebook's card list, and per Constructor.

Each test sets up a position, plays or uses the card and checks the effect that the
card's note states. `test_every_card_has_a_test` keeps this file complete.
"""

from pathlib import Path

import pytest

from domain.games.cyberiad import RULESET
from domain.games.cyberiad.cards import CARDS, CONSTRUCTORS
from domain.games.cyberiad.rules import fame, sallies, trouble

from .table import act, choose, play, refused, table, use

# Cards used only to fill hands and decks: plain ones whose notes do not matter here.
F = ["cruel-obscurity", "matter-of-remuneration", "sally-to-nowhere", "contraptions", "instruments",
     "gnostotron", "thinking-machine", "spies", "imprisonment", "negotiations", "great-labors", "black-box"]


def test_every_card_has_a_test():
    # Naming a card in the filler list F does not count: the tests below must name it.
    source = Path(__file__).read_text().split("def test_every_card_has_a_test", 1)[1]
    untested = {card for card in CARDS if f'"{card}"' not in source}
    assert untested == set()
    assert {c for c in CONSTRUCTORS if f'"{c}"' not in source} == set()


# -- Sallies that give a target opponent Trouble --------------------------------------

@pytest.mark.parametrize("card, cost, fp, tp, gain", [
    ("dragons-of-probability", 5, 5, 0, 2),
    ("king-krool-the-hunter", 7, 7, 0, 2),
    ("the-pirate-pugg", 4, 4, 0, 2),
    ("kings-atrocitus-and-ferocitus", 6, 6, 0, 2),
    ("sally-to-nowhere", 1, 1, 0, 1),
    ("steal-the-cymberanide-dynasty-diadem", 6, 5, 5, 2),
    ("the-thing-that-would-not-leave", 4, 4, 0, 3),
])
def test_sally_target_opponent_gains_trouble(card, cost, fp, tp, gain):
    pay = F[:cost]
    state = table(seats=3, hands=[[card, *pay], [], []])
    state = play(state, 0, card, pay)
    assert card in state["play"][0] and state["hands"][0] == []
    assert state["prompt"]["kind"] == "target_opponent" and state["prompt"]["options"] == [1, 2]
    state = choose(state, 2)
    assert state["trouble"] == [0, 0, gain]
    assert (fame(state, 0), trouble(state, 0), sallies(state, 0)) == (fp, tp, 1)


def test_low_and_underhanded_trick_target_opponent_gains_3_tp():
    state = table(seats=2, hands=[["low-and-underhanded-trick", *F[:2]], []])
    state = play(state, 0, "low-and-underhanded-trick", F[:2])  # one opponent: chosen for you
    assert state["trouble"] == [1, 3] and state["fame"] == [1, 0]
    assert "low-and-underhanded-trick" in state["discard"]


def test_a_good_shellacking_target_opponent_loses_2_fp():
    state = table(seats=3, hands=[["a-good-shellacking", *F[:4]], [], []], fame=[0, 5, 5])
    state = choose(play(state, 0, "a-good-shellacking", F[:4]), 1)
    assert state["fame"] == [2, 3, 5]


@pytest.mark.parametrize("card, fame_change, trouble_change", [
    ("cruel-obscurity", -3, 0), ("vanity-of-the-constructors", -4, 2), ("revenge-of-the-constructor", -5, 5)])
def test_every_opponent_loses_fame_and_gains_trouble(card, fame_change, trouble_change):
    cost = CARDS[card]["cost"]
    state = table(seats=3, hands=[[card, *F[1:1 + cost]], [], []], fame=[0, 10, 2])
    state = play(state, 0, card, F[1:1 + cost])
    assert state["fame"][1:] == [10 + fame_change, max(0, 2 + fame_change)]  # tokens stop at 0
    assert state["trouble"][1:] == [trouble_change, trouble_change]


def test_the_hedophages_of_ninnica_opponents_lose_2_fp():
    state = table(seats=2, hands=[["the-hedophages-of-ninnica", *F[:3]], []], fame=[0, 4])
    state = play(state, 0, "the-hedophages-of-ninnica", F[:3])
    assert state["fame"][1] == 2 and fame(state, 0) == 1 and trouble(state, 0) == 1


def test_encounter_the_multitudians_opponents_gain_3_tp():
    state = table(seats=3, hands=[["encounter-the-multitudians", *F[:4]], [], []])
    state = play(state, 0, "encounter-the-multitudians", F[:4])
    assert state["trouble"] == [0, 3, 3] and trouble(state, 0) == 4


# -- "Worth N cards to pay for ..." ----------------------------------------------------

@pytest.mark.parametrize("payment, target", [
    ("gargantius-effect", "dragons-of-probability"), ("polypolice-machine", "the-pirate-pugg"),
    ("demon-of-the-second-kind", "aid-the-steelypips"), ("bureaucratic-solution", "the-hedophages-of-ninnica"),
    ("master-builder", "wish-granting-machine"), ("one-number-5-screw", "baby-cannon"),
    ("dream-of-a-machine", "femfatalatron")])
def test_worth_three_cards(payment, target):
    cost = CARDS[target]["cost"]
    extra = F[:max(0, cost - 3)]
    state = table(seats=2, hands=[[target, payment, *extra], []])
    state = play(state, 0, target, [payment, *extra])
    assert target in state["play"][0] and payment in state["discard"]


def test_worth_counts_only_for_the_kind_it_names():
    # Master Builder pays 3 towards a Machine, but only 1 towards a Sally.
    state = table(seats=2, hands=[["the-pirate-pugg", "master-builder", F[0]], []])
    refused(state, 0, {"type": "play", "card": "the-pirate-pugg", "pay": ["master-builder", F[0]]},
            "insufficient_payment")


def test_diabolical_algorithm_worth_two_for_machine_or_sally():
    state = table(seats=2, hands=[["idiot-machine", "diabolical-algorithm"], []])
    assert "idiot-machine" in play(state, 0, "idiot-machine", ["diabolical-algorithm"])["play"][0]
    state = table(seats=2, hands=[["sally-to-nowhere", "the-pirate-pugg", "diabolical-algorithm", F[0], F[1]], []])
    state = play(state, 0, "the-pirate-pugg", ["diabolical-algorithm", F[0], F[1]])
    assert "the-pirate-pugg" in state["play"][0]


def test_worth_cards_played_as_actions_give_their_points():
    state = table(seats=2, hands=[["gargantius-effect", F[0]], []])
    state = play(state, 0, "gargantius-effect", [F[0]])
    assert state["fame"][0] == 1 and "gargantius-effect" in state["discard"]


# -- Drawing -----------------------------------------------------------------------------

@pytest.mark.parametrize("card, drawn, fp, tp", [
    ("contact-hpld-civilization", 4, 1, 2), ("audience-with-the-king", 4, 1, 0),
    ("matter-of-remuneration", 2, 2, 0)])
def test_draw_actions(card, drawn, fp, tp):
    cost = CARDS[card]["cost"]
    deck = F[6:12]
    state = table(seats=2, hands=[[card, *F[:cost]], []], deck=deck)
    state = play(state, 0, card, F[:cost])
    assert state["hands"][0] == deck[::-1][:drawn]
    assert (state["fame"][0], state["trouble"][0]) == (fp, tp)


def test_three_storytelling_machines_draws_3_when_put_into_play():
    state = table(seats=2, hands=[["three-storytelling-machines", F[0]], []], deck=F[5:9])
    state = play(state, 0, "three-storytelling-machines", [F[0]])
    assert len(state["hands"][0]) == 3 and len(state["deck"]) == 1 and fame(state, 0) == 3


def test_tales_of_the_hermetic_hermit_draws_3_and_opponents_gain_2_fp():
    state = table(seats=3, hands=[["tales-of-the-hermetic-hermit"], [], []], deck=F[:5])
    state = play(state, 0, "tales-of-the-hermetic-hermit")
    assert len(state["hands"][0]) == 3 and state["fame"] == [0, 2, 2]


def test_wish_granting_machine_each_opponent_draws_1():
    state = table(seats=3, hands=[["wish-granting-machine", *F[:3]], [], []], deck=F[5:9])
    state = play(state, 0, "wish-granting-machine", F[:3])
    assert [len(h) for h in state["hands"]] == [0, 1, 1] and fame(state, 0) == 4


# -- Machines with Y> / Z> abilities --------------------------------------------------

def test_nothing_machine_gain_5_tp_and_discard_a_card_in_play():
    state = table(seats=2, play=[["nothing-machine", "gnostotron"], []])
    state = use(state, 0, "nothing-machine")
    assert state["trouble"][0] == 5 and state["prompt"]["kind"] == "discard_in_play"
    state = choose(state, "gnostotron")
    assert state["play"][0] == ["nothing-machine"] and "gnostotron" in state["discard"]
    refused(state, 0, {"type": "use", "card": "nothing-machine"}, "once_per_turn")


def test_thinking_machine_removes_1_tp_once_a_turn():
    state = use(table(seats=2, play=[["thinking-machine"], []], trouble=[3, 0]), 0, "thinking-machine")
    assert state["trouble"][0] == 2
    refused(state, 0, {"type": "use", "card": "thinking-machine"}, "once_per_turn")


def test_adding_machine_draw_1_and_opponents_gain_1_fp():
    state = use(table(seats=3, play=[["adding-machine"], [], []], deck=F[:2]), 0, "adding-machine")
    assert state["hands"][0] == [F[1]] and state["fame"] == [0, 1, 1]


def test_machine_to_ask_questions_any_number_of_times():
    state = table(seats=2, play=[["machine-to-ask-questions"], []])
    for _ in range(3):
        state = use(state, 0, "machine-to-ask-questions")
    assert state["trouble"][0] == 3 and state["genius"][0] == 6


def test_arrange_the_stars_gain_1_tp_and_draw():
    state = use(table(seats=2, play=[["arrange-the-stars", "gnostotron"], []], deck=F[:1]), 0, "arrange-the-stars")
    assert state["trouble"][0] == 1 and state["hands"][0] == [F[0]]


def test_gold_making_machine_discard_a_card_to_gain_1_fp():
    state = use(table(seats=2, play=[["gold-making-machine"], []], hands=[F[:2], []]), 0, "gold-making-machine")
    state = choose(state, F[1])
    state = use(state, 0, "gold-making-machine")  # the last card is discarded without asking
    assert state["fame"][0] == 2 and state["hands"][0] == []
    refused(state, 0, {"type": "use", "card": "gold-making-machine"}, "requirement")


def test_femfatalatron_lose_1_fp_to_draw():
    state = table(seats=2, play=[["femfatalatron"], []], deck=F[:1])
    refused(state, 0, {"type": "use", "card": "femfatalatron"}, "requirement")
    state["fame"][0] = 2
    state = use(state, 0, "femfatalatron")
    assert state["fame"][0] == 1 and state["hands"][0] == [F[0]]


def test_contraptions_discard_to_remove_1_tp():
    state = use(table(seats=2, play=[["contraptions"], []], hands=[[F[0]], []], trouble=[4, 0]), 0, "contraptions")
    assert state["trouble"][0] == 3 and state["hands"][0] == []


def test_instruments_pay_1_gp_to_look_at_next_4_cards_once_a_turn():
    state = table(seats=2, play=[["instruments"], []], deck=F[:6], genius=[2, 0])
    state, facts = act(state, 0, {"type": "use", "card": "instruments"})
    peek = [f for f in facts if f["f"] == "peek"][0]
    assert peek == {"f": "peek", "seat": 0, "zone": "deck", "cards": F[:6][::-1][:4]}
    assert state["genius"][0] == 1 and state["deck"] == F[:6]
    refused(state, 0, {"type": "use", "card": "instruments"}, "once_per_turn")  # "Y> ... once on your turn"
    assert {"type": "use", "card": "instruments"} not in RULESET.legal_actions(state, 0)
    refused(table(seats=2, play=[["instruments"], []], deck=F[:6]), 0, {"type": "use", "card": "instruments"},
            "requirement")


def test_higher_mathematics_simulation_draw_5_discard_5():
    state = table(seats=2, play=[["higher-mathematics-simulation", "gnostotron"], []], deck=F[:7],
                  hands=[["spies"], []])
    state = use(state, 0, "higher-mathematics-simulation")
    assert len(state["hands"][0]) == 6
    for _ in range(5):
        state = choose(state, state["prompt"]["options"][0])
    assert len(state["hands"][0]) == 1 and state["prompt"] is None and len(state["discard"]) == 5


def test_increasingly_elaborate_story_discard_4_gp_for_1_fp():
    state = table(seats=2, play=[["increasingly-elaborate-story", "gnostotron"], []], genius=[8, 0])
    state = use(use(state, 0, "increasingly-elaborate-story"), 0, "increasingly-elaborate-story")
    assert state["genius"][0] == 0 and state["fame"][0] == 2


def test_bilateral_personality_transformer_gain_3_tp_trade_hands():
    state = table(seats=2, play=[["bilateral-personality-transformer"], []], hands=[[F[0]], [F[1], F[2]]])
    state = use(state, 0, "bilateral-personality-transformer")
    assert state["hands"] == [[F[1], F[2]], [F[0]]] and state["trouble"][0] == 3


def test_solar_schooner_keeps_a_sally_discards_anything_else():
    state = use(table(seats=2, play=[["solar-schooner"], []], deck=["dragons-of-probability"]), 0, "solar-schooner")
    assert state["hands"][0] == ["dragons-of-probability"]
    state = use(table(seats=2, play=[["solar-schooner"], []], deck=[F[0]]), 0, "solar-schooner")
    assert state["hands"][0] == [] and state["discard"] == [F[0]]


def test_metainformationator_discard_4_gp_to_draw():
    state = use(table(seats=2, play=[["metainformationator"], []], genius=[4, 0], deck=F[:1]), 0,
                "metainformationator")
    assert state["genius"][0] == 0 and state["hands"][0] == [F[0]]


def test_telepathitron_pay_1_gp_look_at_opponents_hand():
    state = table(seats=2, play=[["telepathitron"], []], genius=[2, 0], hands=[[], [F[3], F[2]]])
    state, facts = act(state, 0, {"type": "use", "card": "telepathitron"})
    assert {"f": "peek", "seat": 0, "zone": "hand:1", "cards": sorted([F[3], F[2]])} in facts
    assert state["genius"][0] == 1


def test_juris_consulenta_pay_5_gp_steal_random_card():
    state = table(seats=2, play=[["juris-consulenta"], []], genius=[5, 0], hands=[[], [F[0], F[1]]])
    state = use(state, 0, "juris-consulenta")
    assert len(state["hands"][0]) == 1 and len(state["hands"][1]) == 1 and state["genius"][0] == 0


def test_cabinets_that_dream_pay_3_gp_opponents_gain_1_tp():
    state = use(table(seats=3, play=[["cabinets-that-dream"], [], []], genius=[3, 0, 0]), 0, "cabinets-that-dream")
    assert state["trouble"] == [0, 1, 1] and state["genius"][0] == 0


def test_black_box_draw_2_discard_3():
    state = table(seats=2, play=[["black-box"], []], hands=[[F[0], F[1]], []], deck=F[2:4])
    state = use(state, 0, "black-box")
    while state["prompt"]:
        state = choose(state, state["prompt"]["options"][0])
    assert len(state["hands"][0]) == 1 and len(state["discard"]) == 3


def test_great_labors_discard_a_card_for_6_gp_once_a_turn():
    state = use(table(seats=2, play=[["great-labors", "gnostotron"], []], hands=[[F[0]], []]), 0, "great-labors")
    assert state["genius"][0] == 6 and state["discard"] == [F[0]]
    state["hands"][0] = [F[1]]
    refused(state, 0, {"type": "use", "card": "great-labors"}, "once_per_turn")
    refused(table(seats=2, play=[["great-labors"], []]), 0, {"type": "use", "card": "great-labors"}, "requirement")


def test_gnostotron_gain_1_gp_once_a_turn_and_again_next_turn():
    state = use(table(seats=2, play=[["gnostotron"], []], deck=F[:4]), 0, "gnostotron")
    assert state["genius"][0] == 1
    refused(state, 0, {"type": "use", "card": "gnostotron"}, "once_per_turn")
    state = _end_turns(state)  # the limit is per turn: back on seat 0's next turn it may be used again
    assert state["turn"]["seat"] == 0 and state["genius"][0] == 2  # + the Randomization Phase's 1 GP
    assert use(state, 0, "gnostotron")["genius"][0] == 3


# -- X> each turn, A> on entering play ---------------------------------------------------

def _end_turns(state, times=2):
    for _ in range(times):
        state = act(state, state["turn"]["seat"], {"type": "end_turn"})[0]
    return state


def test_poetry_writing_machine_gains_1_fp_and_1_tp_each_turn():
    state = _end_turns(table(seats=2, play=[["poetry-writing-machine"], []], deck=F[:4]))
    assert state["turn"]["seat"] == 0 and (state["fame"][0], state["trouble"][0]) == (1, 1)


def test_create_race_of_happy_robots_draws_and_gains_1_tp_each_turn():
    state = _end_turns(table(seats=2, play=[["create-race-of-happy-robots"], []], deck=F[:6]))
    assert len(state["hands"][0]) == 2 and state["trouble"][0] == 1  # Randomization draw + X>


def test_idiot_machine_opponents_discard_a_random_card():
    state = table(seats=3, hands=[["idiot-machine", F[0], F[1]], [F[2], F[3]], [F[4]]])
    state = play(state, 0, "idiot-machine", [F[0], F[1]])
    assert [len(h) for h in state["hands"]] == [0, 1, 0] and len(state["discard"]) == 4


def test_publish_an_excellent_article_gains_5_gp():
    state = play(table(seats=2, hands=[["publish-an-excellent-article", F[0]], []], play=[["gnostotron"], []]),
                 0, "publish-an-excellent-article", [F[0]])
    assert state["genius"][0] == 5


def test_aid_the_steelypips_each_opponent_discards_a_card_of_their_choice():
    state = table(seats=3, hands=[["aid-the-steelypips", *F[:3]], [F[4], F[5]], [F[6], F[7]]])
    state = play(state, 0, "aid-the-steelypips", F[:3])
    assert state["prompt"]["seat"] == 1
    state = choose(state, F[5])
    assert state["prompt"]["seat"] == 2
    state = choose(state, F[6])
    assert state["hands"][1:] == [[F[4]], [F[7]]] and state["prompt"] is None


# -- Actions that move cards -------------------------------------------------------------

def test_disassemble_puts_a_machine_back_in_its_owners_hand():
    state = table(seats=2, hands=[["disassemble", F[0]], []], play=[[], ["gnostotron"]])
    state = play(state, 0, "disassemble", [F[0]])
    assert state["hands"][1] == ["gnostotron"] and state["play"][1] == []


def test_its_a_fake_discards_target_machine():
    state = table(seats=2, hands=[["its-a-fake", F[0], F[1]], []], play=[[], ["gnostotron", "black-box"]])
    state = choose(play(state, 0, "its-a-fake", F[:2]), "black-box")
    assert state["play"][1] == ["gnostotron"] and "black-box" in state["discard"]


def test_auto_destruct_mechanism_discards_a_machine_you_control():
    state = table(seats=2, hands=[["auto-destruct-mechanism", F[0]], []], play=[[], ["gnostotron"]])
    refused(state, 0, {"type": "play", "card": "auto-destruct-mechanism", "pay": [F[0]]}, "requirement")
    state["play"][0] = ["black-box"]
    state = play(state, 0, "auto-destruct-mechanism", [F[0]])
    assert state["play"][0] == [] and state["fame"][0] == 2


def test_invent_it_first_steals_the_machine_just_played():
    state = table(seats=2, hands=[["invent-it-first", *F[:3]], []], play=[[], ["gnostotron"]], number=5,
                  last_machine={"card": "gnostotron", "seat": 1, "turn": 4})
    state = play(state, 0, "invent-it-first", F[:3])
    assert state["play"] == [["gnostotron"], []]
    stale = table(seats=2, hands=[["invent-it-first", *F[:3]], []], play=[[], ["gnostotron"]], number=6,
                  last_machine={"card": "gnostotron", "seat": 1, "turn": 4})
    refused(stale, 0, {"type": "play", "card": "invent-it-first", "pay": F[:3]}, "requirement")


def test_spies_look_at_a_hand_and_steal_one_card():
    state = table(seats=2, hands=[["spies", F[0]], [F[5], F[6]]])
    state = play(state, 0, "spies", [F[0]])
    assert state["prompt"]["kind"] == "steal" and state["prompt"]["options"] == sorted([F[5], F[6]])
    state = choose(state, F[6])
    assert state["hands"] == [[F[6]], [F[5]]]


def test_ion_mead_and_mulled_electrolyte_steals_a_random_card():
    state = play(table(seats=2, hands=[["ion-mead-and-mulled-electrolyte"], [F[5], F[6]]]), 0,
                 "ion-mead-and-mulled-electrolyte")
    assert len(state["hands"][0]) == 1 and state["hands"][0][0] in (F[5], F[6]) and state["trouble"][0] == 1


def test_imprisonment_target_player_misses_next_turn():
    state = table(seats=3, hands=[["imprisonment", F[0]], [], []], deck=F[1:9])
    state = choose(play(state, 0, "imprisonment", [F[0]]), 1)
    assert state["imprisoned"][1] == 1
    state, facts = act(state, 0, {"type": "end_turn"})
    assert state["turn"]["seat"] == 2 and {"f": "skipped", "seat": 1} in facts and state["imprisoned"][1] == 0


def test_council_of_war_every_player_may_fill_to_10():
    state = table(seats=2, hands=[["council-of-war", F[0], F[1]], [F[2]]], deck=[*F, *F[:6]])
    state = play(state, 0, "council-of-war", [F[0]])
    assert state["prompt"] == {**state["prompt"], "seat": 0, "kind": "fill_hand"}
    state = choose(state, "yes")
    state = choose(state, "no")
    assert [len(h) for h in state["hands"]] == [10, 1]


def test_magnificent_electroknights_sally_is_the_turns_one_card_put_into_play():
    # PRIMARY ACTION PHASE: "You may put either 1 Sally, 1 Machine, or 1 Effect card into play";
    # Magnificent Electroknight: "Search deck for Sally and put it in play" is that one card.
    state = table(seats=2, hands=[["magnificent-electroknight", "the-pirate-pugg", *F[4:8], *F[:4]], []],
                  deck=["dragons-of-probability", F[8], F[9]])
    state = play(state, 0, "magnificent-electroknight", F[4:8])
    assert state["prompt"]["options"] == ["dragons-of-probability"]  # asked even with one match (README 8)
    state = choose(state, "dragons-of-probability")
    assert "dragons-of-probability" in state["play"][0] and state["turn"]["played"]
    refused(state, 0, {"type": "play", "card": "the-pirate-pugg", "pay": F[:4]}, "one_card_per_turn")
    listed = {a["card"] for a in RULESET.legal_actions(state, 0) if a["type"] == "play"}
    assert listed == {F[0], F[1]}  # Actions still may be played; no Sally (Pugg, Sally to Nowhere) or Machine


def test_magnificent_electroknight_cannot_put_a_second_card_into_play():
    # After the turn's one Sally, Machine or Effect, Electroknight would put a second one into play.
    state = table(seats=2, hands=[["magnificent-electroknight", *F[4:8]], []], played=True,
                  deck=["dragons-of-probability", F[8]])
    refused(state, 0, {"type": "play", "card": "magnificent-electroknight", "pay": F[4:8]}, "one_card_per_turn")
    state = play(table(seats=2, hands=[["magnificent-electroknight", *F[4:8]], []], deck=[F[8], F[9]]),
                 0, "magnificent-electroknight", F[4:8])  # no Sally found: nothing was put into play
    assert not state["turn"]["played"]


def test_a_machine_electroknight_puts_into_play_is_a_machine_played():
    # New Kingdom in a Box "Also counts as a Sally", so Electroknight may fetch it; put into play it is
    # a Machine played: The Machine That Wasn't "Gain 1 FP every time you play a Machine", and
    # Invent it First "Steal a Machine card just played" may take it on the next turn.
    state = table(seats=2, hands=[["magnificent-electroknight", *F[:4]], ["invent-it-first", *F[4:7]]],
                  play=[["the-machine-that-wasnt"], []], deck=["new-kingdom-in-a-box", F[8]])
    state = choose(play(state, 0, "magnificent-electroknight", F[:4]), "new-kingdom-in-a-box")
    assert "new-kingdom-in-a-box" in state["play"][0] and state["fame"][0] == 3 + 1
    state["turn"] = {"seat": 1, "number": 4, "played": False, "used": []}
    state = play(state, 1, "invent-it-first", F[4:7])
    assert state["play"] == [["the-machine-that-wasnt"], ["new-kingdom-in-a-box"]]


def test_magnificent_electroknight_puts_a_sally_from_the_deck_into_play():
    deck = ["dragons-of-probability", F[0], "the-pirate-pugg", F[1]]
    state = table(seats=2, hands=[["magnificent-electroknight", *F[4:8]], []], deck=deck)
    state = play(state, 0, "magnificent-electroknight", F[4:8])
    assert state["prompt"]["options"] == ["dragons-of-probability", "the-pirate-pugg"]
    state = choose(state, "the-pirate-pugg")  # its A> happens: the one opponent gains 2 TP
    assert "the-pirate-pugg" in state["play"][0] and state["trouble"] == [5, 2]
    assert sorted(state["deck"]) == sorted(["dragons-of-probability", F[0], F[1]])


def test_secret_experiments_search_deck_for_any_card():
    state = table(seats=2, hands=[["secret-experiments", *F[:3]], []], play=[["gnostotron"], []],
                  deck=["king-krool-the-hunter", F[5]])
    state = choose(play(state, 0, "secret-experiments", F[:3]), "king-krool-the-hunter")
    assert state["hands"][0] == ["king-krool-the-hunter"] and state["deck"] == [F[5]]


def test_atomic_resurrection_takes_a_card_from_the_discard_pile():
    state = table(seats=2, hands=[["atomic-resurrection", F[0], F[1]], []], discard=["king-krool-the-hunter"])
    state = play(state, 0, "atomic-resurrection", F[:2])
    assert state["prompt"]["options"] == sorted(["king-krool-the-hunter", F[0], F[1]])
    state = choose(state, "king-krool-the-hunter")
    assert state["hands"][0] == ["king-krool-the-hunter"]


# -- Conditions and X costs --------------------------------------------------------------

def test_sated_with_glory_needs_10_fp():
    state = table(seats=2, hands=[["sated-with-glory", *F[:4]], []], fame=[9, 0])
    refused(state, 0, {"type": "play", "card": "sated-with-glory", "pay": F[:4]}, "requirement")
    state["fame"][0] = 10
    assert play(state, 0, "sated-with-glory", F[:4])["fame"][0] == 13


def test_harsh_justice_needs_5_sallies_in_play():
    sally_cards = ["dragons-of-probability", "the-pirate-pugg", "sally-to-nowhere", "aid-the-steelypips"]
    state = table(seats=2, hands=[["harsh-justice-of-the-constructor", F[0]], []], play=[sally_cards, []])
    refused(state, 0, {"type": "play", "card": "harsh-justice-of-the-constructor", "pay": [F[0]]}, "requirement")
    state["play"][0].append("the-hedophages-of-ninnica")
    state = play(state, 0, "harsh-justice-of-the-constructor", [F[0]])
    assert (state["fame"][0], state["trouble"][0]) == (3, 2)


def test_altruizine_x_fame_and_trouble_for_x_cards_discarded():
    state = play(table(seats=2, hands=[["altruizine", *F[:3]], []]), 0, "altruizine", F[:3])
    assert (state["fame"][0], state["trouble"][0]) == (3, 3)


def test_negotiations_remove_x_tp():
    state = play(table(seats=2, hands=[["negotiations", *F[:2]], []], trouble=[5, 0]), 0, "negotiations", F[:2])
    assert state["trouble"][0] == 3


# -- Cards in play that change the rules ---------------------------------------------

def test_order_of_the_great_parallax_1_fp_per_sally():
    state = table(seats=2, play=[["order-of-the-great-parallax", "sally-to-nowhere", "the-pirate-pugg"], []])
    assert fame(state, 0) == 2 + 1 + 4


def test_diploma_of_perpetual_omnipotence_1_fp_per_2_machines():
    state = table(seats=2, play=[["diploma-of-perpetual-omnipotence", "contraptions", "instruments",
                                  "black-box"], []])
    assert fame(state, 0) == 1 + 0 + 0 + 2


def test_baby_cannon_sallies_cost_1_less():
    state = table(seats=2, hands=[["the-pirate-pugg", *F[:3]], []], play=[["baby-cannon"], []])
    assert "the-pirate-pugg" in play(state, 0, "the-pirate-pugg", F[:3])["play"][0]


def test_royal_workshops_machines_cost_1_less():
    state = table(seats=2, hands=[["gnostotron", *F[:5]], []], play=[["royal-workshops", "black-box"], []])
    assert "gnostotron" in play(state, 0, "gnostotron", F[:5])["play"][0]
    refused(state, 0, {"type": "play", "card": "gnostotron", "pay": F[:4]}, "insufficient_payment")


def test_megalomechanism_hand_size_plus_1():
    hand = [*F, "spies", "dragons-of-probability"][:11]
    state = table(seats=2, hands=[hand, []], play=[["megalomechanism"], []], deck=F[:3])
    assert act(state, 0, {"type": "end_turn"})[0]["prompt"] is None  # 11 cards kept
    state["play"][0] = []
    assert act(state, 0, {"type": "end_turn"})[0]["prompt"]["kind"] == "discard"


def test_probability_proof_shields_opponents_cannot_make_you_lose_cards():
    state = table(seats=2, hands=[["spies", "ion-mead-and-mulled-electrolyte", "idiot-machine", F[0], F[1]], [F[2]]],
                  play=[[], ["probability-proof-shields", "gnostotron"]])
    refused(state, 0, {"type": "play", "card": "spies", "pay": [F[0]]}, "requirement")
    refused(state, 0, {"type": "play", "card": "ion-mead-and-mulled-electrolyte", "pay": []}, "requirement")
    state = play(state, 0, "idiot-machine", [F[0], F[1]])
    assert state["hands"][1] == [F[2]]


def test_journey_to_the_galactic_pole_counts_as_two_sallies_to_end_the_game():
    play_area = ["journey-to-the-galactic-pole", "dragons-of-probability", "the-pirate-pugg", "sally-to-nowhere",
                 "aid-the-steelypips"]
    state = table(seats=2, hands=[["the-hedophages-of-ninnica", *F[:3]], []], play=[play_area, []])
    state = play(state, 0, "the-hedophages-of-ninnica", F[:3])
    assert state["over"] == "seven_sallies" and sallies(state, 0) == 6


def test_new_kingdom_in_a_box_also_counts_as_a_sally():
    # Paid for as a Machine (Master Builder is worth 3 only for a Machine), then it counts as a Sally.
    state = table(seats=2, hands=[["new-kingdom-in-a-box", "master-builder"], []],
                  play=[["order-of-the-great-parallax", "contraptions"], []])
    state = play(state, 0, "new-kingdom-in-a-box", ["master-builder"])
    assert state["play"][0][-1] == "new-kingdom-in-a-box" and state["turn"]["played"]
    assert sallies(state, 0) == 1 and fame(state, 0) == 4 + 1 and trouble(state, 0) == 2
    assert state["last_machine"] == {"card": "new-kingdom-in-a-box", "seat": 0, "turn": 3}
    # A Sally discount does not apply to it, a Machine discount does.
    cannon = table(seats=2, hands=[["new-kingdom-in-a-box", F[0], F[1]], []], play=[["baby-cannon"], []])
    refused(cannon, 0, {"type": "play", "card": "new-kingdom-in-a-box", "pay": F[:2]}, "insufficient_payment")


def test_the_perfect_advisor_draw_2_and_discard_1():
    state = table(seats=2, play=[["the-perfect-advisor", "arrange-the-stars"], []], deck=F[:4])
    state = use(state, 0, "arrange-the-stars")
    assert len(state["hands"][0]) == 2 and state["prompt"]["kind"] == "discard"
    state = choose(state, state["prompt"]["options"][0])
    assert len(state["hands"][0]) == 1 and len(state["discard"]) == 1


def test_the_perfect_advisor_discards_nothing_when_the_empty_deck_draws_nothing():
    # "When drawing cards draw 2 & discard 1" (README 14): no card drawn, no card discarded;
    # a short draw (1 card of the 2) still discards 1.
    state = table(seats=2, play=[["the-perfect-advisor", "adding-machine"], []], hands=[[F[0], F[1]], []])
    state = use(state, 0, "adding-machine")  # "Y> Draw 1 card + Opponent gains 1 FP"
    assert state["prompt"] is None and state["hands"][0] == [F[0], F[1]] and state["fame"][1] == 1
    state = use(table(seats=2, play=[["the-perfect-advisor", "adding-machine"], []], hands=[[F[0]], []], deck=[F[2]]),
                0, "adding-machine")
    assert state["prompt"]["kind"] == "discard" and state["prompt"]["options"] == sorted([F[0], F[2]])


def test_the_perfect_advisors_discard_is_its_owners_rule_shields_do_not_cancel_it():
    # The Perfect Advisor: "When drawing cards draw 2 & discard 1" is its owner's own rule;
    # Probability Proof Shields: "Opponent cannot make you lose cards" does not stop it,
    # even when an opponent's card made them draw (Wish Granting Machine: "A> Opponent draws 1 card").
    state = table(seats=2, hands=[["wish-granting-machine", F[0], F[1], F[2]], [F[3]]],
                  play=[[], ["the-perfect-advisor", "probability-proof-shields"]], deck=[F[4], F[5], F[6]])
    state = play(state, 0, "wish-granting-machine", [F[0], F[1], F[2]])
    assert len(state["hands"][1]) == 3 and state["prompt"]["seat"] == 1 and state["prompt"]["kind"] == "discard"
    state = choose(state, F[3])
    assert sorted(state["hands"][1]) == sorted([F[6], F[5]]) and state["prompt"] is None


def test_council_of_war_fills_a_shielded_advisor_owner_to_10_not_beyond():
    # Council of War: "All players may fill their hands to 10 cards"; with The Perfect Advisor the
    # draw is one more, then its owner discards 1, Shields or not: 10 cards, not 11.
    deck = [c for c in CARDS if c not in ("council-of-war", "the-perfect-advisor", "probability-proof-shields",
                                          *F[:4])][:20]
    state = table(seats=2, hands=[["council-of-war", F[0]], F[1:4]],
                  play=[[], ["the-perfect-advisor", "probability-proof-shields"]], deck=deck)
    state = choose(choose(play(state, 0, "council-of-war", [F[0]]), "no"), "yes")
    assert state["prompt"]["seat"] == 1 and state["prompt"]["kind"] == "discard"
    state = choose(state, F[1])
    assert len(state["hands"][1]) == 10 and state["prompt"] is None


def test_solar_schooners_kept_sally_stays_hidden_a_discarded_card_is_public():
    # "Y> Draw a card: If it is a Sally keep it": the note does not show the card (README 17).
    facts = act(table(seats=2, play=[["solar-schooner"], []], deck=["dragons-of-probability"]), 0,
                {"type": "use", "card": "solar-schooner"})[1]
    moves = [f for f in facts if f["f"] == "move"]
    assert [RULESET.redact(f, 0)["card"] for f in moves] == ["dragons-of-probability"]
    assert [RULESET.redact(f, s)["card"] for f in moves for s in (1, None)] == [None, None]
    assert all(f["f"] in ("used", "move") for f in facts)
    facts = act(table(seats=2, play=[["solar-schooner"], []], deck=[F[0]]), 0, {"type": "use", "card": "solar-schooner"})[1]
    assert [RULESET.redact(f, 1)["card"] for f in facts if f["f"] == "move"] == [None, F[0]]  # then in the discard


def test_solar_schooner_with_the_perfect_advisor_draws_2_then_discards_1():
    # Solar Schooner: "Y> Draw a card: If it is a Sally keep it"; The Perfect Advisor: "When drawing
    # cards draw 2 & discard 1" (README 14: every draw of N draws N+1). Each drawn card is kept if a
    # Sally, else discarded; then the Advisor's discard of one card of the owner's choice.
    state = table(seats=2, play=[["the-perfect-advisor", "solar-schooner"], []], hands=[[F[0]], []],
                  deck=[F[1], F[3], "dragons-of-probability"])
    state = use(state, 0, "solar-schooner")
    assert state["deck"] == [F[1]] and state["discard"] == [F[3]]
    assert state["prompt"]["seat"] == 0 and state["prompt"]["options"] == sorted([F[0], "dragons-of-probability"])
    state = choose(state, F[0])
    assert state["hands"][0] == ["dragons-of-probability"] and state["discard"] == [F[3], F[0]]


def test_the_machine_that_wasnt_1_fp_per_machine_played():
    state = table(seats=2, hands=[["contraptions", F[0]], []], play=[["the-machine-that-wasnt"], []])
    state = play(state, 0, "contraptions", [F[0]])
    assert state["fame"][0] == 1


# -- Constructors ------------------------------------------------------------------------

@pytest.mark.parametrize("constructor, setup_extra, expect", [
    ("turl", {}, lambda s: s["trouble"][0] == 1 and len(s["hands"][0]) == 1),
    ("klapaucius", {"hands": [[F[0]], []]}, lambda s: s["genius"][0] == 3 and s["hands"][0] == []),
    ("cerebron", {"genius": [3, 0], "trouble": [2, 0]}, lambda s: s["genius"][0] == 0 and s["trouble"][0] == 1),
    ("chlorian", {"genius": [1, 0]}, lambda s: s["genius"][0] == 0),
])
def test_constructor_power_once_a_turn(constructor, setup_extra, expect):
    state = table(seats=2, deck=F[:4], constructors=[constructor, "turl"], **setup_extra)
    state = act(state, 0, {"type": "power"})[0]
    assert expect(state)
    refused(state, 0, {"type": "power"}, "once_per_turn")
    assert {"type": "power"} not in RULESET.legal_actions(state, 0)


def test_chlorian_shows_the_next_3_cards_of_the_deck_to_its_player_only():
    state = table(seats=2, deck=F[:5], constructors=["chlorian", "turl"], genius=[1, 0])
    state, facts = act(state, 0, {"type": "power"})
    assert {"f": "peek", "seat": 0, "zone": "deck", "cards": [F[4], F[3], F[2]]} in facts  # top first
    assert state["deck"] == F[:5] and state["hands"][0] == []  # looked at, not taken, order kept
    peek = [f for f in facts if f["f"] == "peek"][0]
    assert RULESET.redact(peek, 1)["cards"] == 3 and RULESET.redact(peek, None)["cards"] == 3
    refused(table(seats=2, deck=F[:5], constructors=["chlorian", "turl"]), 0, {"type": "power"}, "requirement")
