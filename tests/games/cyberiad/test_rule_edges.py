"""Edges of rules that mutation testing (bench/mutation.py) showed were not pinned down.

Each test states the rule (rulebook or README) it holds to; together with test_rules.py
and test_cards.py they fail when any rule of rules.py is broken.
"""

from domain.games.cyberiad import RULESET
from domain.games.cyberiad.cards import CARDS
from domain.games.cyberiad.rules import OPENING_HAND
from domain.kernel.errors import InvalidSetup
from domain.kernel.rng import RandomStream

import pytest

from .table import act, choose, play, refused, table

F = ["cruel-obscurity", "matter-of-remuneration", "sally-to-nowhere", "contraptions", "instruments",
     "gnostotron", "thinking-machine", "spies", "imprisonment", "negotiations", "great-labors", "black-box"]


# -- SETUP -------------------------------------------------------------------------------

@pytest.mark.parametrize("seats", [2, 4])
def test_setup_starts_everyone_at_zero_and_deals_from_the_top(seats):
    key = b"e" * 32
    state = RULESET.setup({}, [f"p{i}" for i in range(seats)], RandomStream(key, "m", 1))
    shuffled = RandomStream(key, "m", 1).shuffle(i for card in CARDS.values() for i in card["instances"])
    for seat in range(seats):  # each hand is the next 5 cards off the top (the end of the list), in draw order
        top = len(shuffled) - OPENING_HAND * seat
        assert state["hands"][seat] == shuffled[top - OPENING_HAND:top][::-1]
    assert state["deck"] == shuffled[:len(shuffled) - OPENING_HAND * seats]
    zeros = [0] * seats
    assert (state["fame"], state["trouble"], state["genius"], state["imprisoned"]) == (zeros,) * 4
    assert state["out"] == [False] * seats and state["constructors"] == [None] * seats
    assert state["turn"] == {"seat": state["first"], "number": 0, "played": False, "used": []}
    assert state["prompt"] is None and state["over"] is None and state["last_machine"] is None


def test_setup_refusal_names_the_options():
    with pytest.raises(InvalidSetup, match="speed"):
        RULESET.setup({"speed": 2}, ["a", "b"], RandomStream(b"s" * 32, "m", 1))


def test_an_unknown_constructor_is_refused_by_name():
    state = RULESET.setup({}, ["a", "b"], RandomStream(b"s" * 32, "m", 1))
    refused(state, state["first"], {"type": "pick", "constructor": "trurl"}, "unknown_constructor")


def test_the_first_turn_is_turn_1_of_the_first_player():
    state = RULESET.setup({}, ["a", "b"], RandomStream(b"s" * 32, "m", 1))
    for _ in range(2):
        state = act(state, next(iter(RULESET.to_act(state))), {"type": "pick", "constructor": "turl"})[0]
    assert state["turn"] == {"seat": state["first"], "number": 1, "played": False, "used": []}


# -- Targets: Machines, Shields, the Machine just played -------------------------------------

def test_its_a_fake_may_target_any_machine_but_a_shielded_opponents():
    # README 9 and 11: any Machine in play, your own included, but not one of a shielded opponent.
    state = table(seats=4, hands=[["its-a-fake", *F[:2]], [], [], []], turn=0,
                  play=[["contraptions"], ["probability-proof-shields", "gnostotron"], ["black-box"], ["baby-cannon"]])
    state = play(state, 0, "its-a-fake", F[:2])
    assert state["prompt"]["kind"] == "machine"
    assert state["prompt"]["options"] == sorted(["contraptions", "black-box", "baby-cannon"])


def test_a_shielded_player_may_still_target_their_own_machines():
    state = table(seats=3, hands=[[], ["disassemble", F[0]], []], turn=1,
                  play=[["black-box"], ["probability-proof-shields", "gnostotron"], []])
    state = play(state, 1, "disassemble", [F[0]])
    assert state["prompt"]["options"] == sorted(["black-box", "probability-proof-shields", "gnostotron"])


def test_auto_destruct_offers_only_your_own_machines_whatever_your_seat():
    state = table(seats=3, hands=[[], ["auto-destruct-mechanism", F[0]], []], turn=1,
                  play=[["black-box"], ["gnostotron", "contraptions"], ["baby-cannon"]])
    state = play(state, 1, "auto-destruct-mechanism", [F[0]])
    assert state["prompt"]["options"] == ["contraptions", "gnostotron"]


@pytest.mark.parametrize("why", ["left play", "shielded", "own"])
def test_invent_it_first_needs_an_opponents_machine_still_in_play_and_unshielded(why):
    play_areas = {"left play": [[], ["black-box"]], "shielded": [[], ["gnostotron", "probability-proof-shields"]],
                  "own": [["gnostotron"], []]}[why]
    seat = 0 if why == "own" else 1
    state = table(seats=2, hands=[["invent-it-first", *F[:3]], []], play=play_areas, number=5,
                  last_machine={"card": "gnostotron", "seat": seat, "turn": 4})
    refused(state, 0, {"type": "play", "card": "invent-it-first", "pay": F[:3]}, "requirement")


# -- Forced discards and choices --------------------------------------------------------------

def test_idiot_machine_makes_only_opponents_discard():
    state = table(seats=3, hands=[["idiot-machine", F[0], F[1], F[2]], [F[3]], [F[4]]])
    state = play(state, 0, "idiot-machine", [F[0], F[1]])
    assert state["hands"] == [[F[2]], [], []]


def test_imprisonment_asks_for_a_target_player():
    state = play(table(seats=3, hands=[["imprisonment", F[0]], [], []]), 0, "imprisonment", [F[0]])
    assert state["prompt"]["kind"] == "target_player" and state["prompt"]["options"] == [0, 1, 2]


def test_search_prompts_name_their_kind():
    state = table(seats=2, hands=[["secret-experiments", *F[:3]], []], play=[["gnostotron"], []], deck=F[5:8])
    assert play(state, 0, "secret-experiments", F[:3])["prompt"]["kind"] == "search_deck"
    state = table(seats=2, hands=[["atomic-resurrection", F[0], F[1]], []], discard=[F[5]])
    assert play(state, 0, "atomic-resurrection", F[:2])["prompt"]["kind"] == "search_discard"


def test_council_of_war_asks_in_turn_order_and_skips_full_hands():
    # README 16: each player still in, in turn order from its player; a full hand is not asked.
    ten = [c for c in CARDS if c not in ("council-of-war", *F[:2], *F[5:9])][:10]
    state = table(seats=4, hands=[["council-of-war", F[0], F[1]], [F[2]], ten, [F[3]]], turn=0, deck=F[5:9])
    state = play(state, 0, "council-of-war", [F[0]])
    asked = []
    while state["prompt"]:
        asked.append(state["prompt"]["seat"])
        state = choose(state, "no")
    assert asked == [0, 1, 3]
    # From seat 2's turn the order is 2, 3, 0, 1.
    state = table(seats=4, hands=[[F[0]], [F[1]], ["council-of-war", F[2], F[3]], [F[4]]], turn=2, deck=F[5:9])
    state = play(state, 2, "council-of-war", [F[2]])
    asked = []
    while state["prompt"]:
        asked.append(state["prompt"]["seat"])
        state = choose(state, "no")
    assert asked == [2, 3, 0, 1]


# -- legal_actions ------------------------------------------------------------------------------

def test_x_cost_cards_are_listed_once_per_x():
    state = table(seats=2, hands=[["altruizine", F[0], F[1], F[2]], []])
    listed = [a for a in RULESET.legal_actions(state, 0) if a.get("card") == "altruizine"]
    assert [a["pay"] for a in listed] == [[F[0]], [F[0], F[1]], [F[0], F[1], F[2]]]
    schema = listed[0]["params"]["pay"]
    assert schema["type"] == "array" and schema["minItems"] == 1 and schema["items"] == {"enum": [F[0], F[1], F[2]]}


def test_aid_the_steelypips_skips_a_shielded_opponent_and_an_empty_hand():
    # README 9: Shields protect from forced discards; README 8: a choice with no option is skipped.
    state = table(seats=4, hands=[["aid-the-steelypips", *F[:3]], [F[4], F[5]], [F[6]], []],
                  play=[[], [], ["probability-proof-shields"], []])
    state = play(state, 0, "aid-the-steelypips", F[:3])
    assert state["prompt"]["seat"] == 1 and state["prompt"]["kind"] == "discard"
    state = choose(state, F[4])
    assert state["prompt"] is None and state["hands"][1:] == [[F[5]], [F[6]], []]


def test_the_outcome_reports_every_seats_points_and_who_went_out():
    state = table(seats=3, hands=[["low-and-underhanded-trick", F[0], F[1]], [], []], trouble=[0, 18, 0],
                  fame=[4, 9, 2], play=[["sally-to-nowhere"], [], ["the-pirate-pugg", "gnostotron"]])
    state = choose(play(state, 0, "low-and-underhanded-trick", F[:2]), 1)
    state["over"] = "deck_empty"
    assert RULESET.outcome(state) == {"reason": "deck_empty", "winners": [2], "fame": [4 + 1 + 1, 9, 2 + 4 + 5],
                                      "trouble": [1, 21, 4], "sallies": [1, 0, 1], "out": [1]}


def test_a_fixed_cost_card_is_listed_once_with_the_fewest_cards_and_a_schema_of_every_payment():
    # The Pirate Pugg costs 4; Gargantius Effect is worth 3 toward a Sally, wherever it sits in the hand.
    state = table(seats=2, hands=[["the-pirate-pugg", F[0], F[1], F[2], "gargantius-effect"], []])
    (listed,) = [a for a in RULESET.legal_actions(state, 0) if a.get("card") == "the-pirate-pugg"]
    assert listed["pay"] == ["gargantius-effect", F[0]]
    assert listed["params"]["pay"] == {"type": "array", "uniqueItems": True,
                                       "items": {"enum": [F[0], F[1], F[2], "gargantius-effect"]},
                                       "worth_at_least": 4, "no_spare": True, "worth": {"gargantius-effect": 3}}
    # Worth counts only toward the kind it names: toward a Machine every card is worth 1.
    state = table(seats=2, hands=[["wish-granting-machine", "gargantius-effect", F[0], F[1]], []])
    (listed,) = [a for a in RULESET.legal_actions(state, 0) if a.get("card") == "wish-granting-machine"]
    assert len(listed["pay"]) == 3 and listed["params"]["pay"]["worth"] == {}


def test_a_card_worth_two_is_named_in_the_payment_schema():
    # Diabolical Algorithm: "Worth 2 cards to pay for Machine or Sally". The Pirate Pugg costs 4.
    state = table(seats=2, hands=[["the-pirate-pugg", F[0], F[1], F[2], "diabolical-algorithm"], []])
    (listed,) = [a for a in RULESET.legal_actions(state, 0) if a.get("card") == "the-pirate-pugg"]
    assert listed["params"]["pay"]["worth"] == {"diabolical-algorithm": 2}
    assert listed["pay"][0] == "diabolical-algorithm" and len(listed["pay"]) == 3


def test_the_x_cost_schema_says_what_x_is():
    state = table(seats=2, hands=[["negotiations", F[0]], []])
    (listed,) = [a for a in RULESET.legal_actions(state, 0) if a.get("card") == "negotiations"]
    assert listed["params"]["pay"] == {"type": "array", "uniqueItems": True, "items": {"enum": [F[0]]},
                                       "minItems": 1, "description": "X = the number of cards discarded"}


def test_a_player_who_is_out_gets_no_turn_no_draw_no_genius():
    state = table(seats=3, hands=[[], [F[0]], []], deck=F[1:6])
    state["out"][1] = True
    state, facts = act(state, 0, {"type": "end_turn"})
    assert [f["seat"] for f in facts if f["f"] == "turn"] == [2]
    assert state["hands"][1] == [F[0]] and state["genius"][1] == 0


# -- Requirements and conversions ---------------------------------------------------------

@pytest.mark.parametrize("position, action, message", [
    (dict(constructors=["turl", "turl"]), {"type": "power"}, "the deck is empty"),
    (dict(play=[["black-box"], []]), {"type": "use", "card": "black-box"}, "the deck and your hand are empty"),
    (dict(play=[["contraptions"], []]), {"type": "use", "card": "contraptions"}, "you have no card in hand"),
    (dict(genius=[5, 0]), {"type": "convert", "into": "draw"}, "the deck is empty"),
])
def test_what_needs_a_card_is_refused_when_there_is_none(position, action, message):
    refusal = refused(table(seats=2, **position), 0, action, "requirement")
    assert message in refusal.message


def test_conversions_are_listed_only_when_they_can_be_made():
    converts = lambda state: [a["into"] for a in RULESET.legal_actions(state, 0) if a["type"] == "convert"]  # noqa
    assert converts(table(seats=2, genius=[5, 0])) == ["fame", "remove_trouble"]
    assert converts(table(seats=2, genius=[5, 0], deck=[F[0]])) == ["fame", "draw", "remove_trouble"]
    assert converts(table(seats=2, genius=[4, 0], deck=[F[0]])) == []


def test_a_shielded_player_still_discards_for_their_own_cards():
    # Shields stop opponents making you lose cards, not your own Black Box.
    state = table(seats=2, play=[["black-box", "probability-proof-shields"], []], hands=[[F[0], F[1]], []],
                  deck=F[2:4])
    state = act(state, 0, {"type": "use", "card": "black-box"})[0]
    assert state["prompt"]["kind"] == "discard" and state["prompt"]["seat"] == 0


def test_the_terminal_phase_discards_every_excess_card_before_the_turn_passes():
    state = table(seats=2, hands=[[*F, "dragons-of-probability"], []], deck=["king-krool-the-hunter", F[0]])
    state = act(state, 0, {"type": "end_turn"})[0]
    for _ in range(3):
        assert state["turn"]["seat"] == 0 and state["prompt"]["kind"] == "discard"
        state = choose(state, state["prompt"]["options"][0])
    assert state["prompt"] is None and len(state["hands"][0]) == 10 and state["turn"]["seat"] == 1


@pytest.mark.parametrize("position, action, message", [
    (dict(play=[["contraptions"], []]), {"type": "use", "card": "contraptions"},
     "Contraptions cannot be used: you have no card in hand to discard"),
    (dict(play=[["solar-schooner"], []]), {"type": "use", "card": "solar-schooner"},
     "Solar Schooner cannot be used: the deck is empty"),
    (dict(play=[["black-box"], []]), {"type": "use", "card": "black-box"},
     "Black Box cannot be used: the deck and your hand are empty"),
    (dict(play=[["juris-consulenta"], []], genius=[4, 0]), {"type": "use", "card": "juris-consulenta"},
     "Juris Consulenta cannot be used: it needs 5 GP; you have 4"),
    (dict(play=[["femfatalatron"], []]), {"type": "use", "card": "femfatalatron"},
     "Femfatalatron cannot be used: you have no Fame token to lose"),
    (dict(hands=[["sated-with-glory", *F[:4]], []]), {"type": "play", "card": "sated-with-glory", "pay": F[:4]},
     "Sated with Glory cannot be played: it needs 10+ FP; you have 0"),
    (dict(hands=[["harsh-justice-of-the-constructor", F[0]], []]),
     {"type": "play", "card": "harsh-justice-of-the-constructor", "pay": [F[0]]},
     "Harsh Justice of the Constructor cannot be played: it needs 5+ Sallies in play"),
    (dict(hands=[["its-a-fake", *F[:2]], []]), {"type": "play", "card": "its-a-fake", "pay": F[:2]},
     "It’s a Fake! cannot be played: there is no Machine it can target"),
    (dict(hands=[["invent-it-first", *F[:3]], []]), {"type": "play", "card": "invent-it-first", "pay": F[:3]},
     "Invent it First cannot be played: no opponent put a Machine into play last turn"),
    (dict(hands=[["spies", F[0]], []], play=[[], ["probability-proof-shields"]]),
     {"type": "play", "card": "spies", "pay": [F[0]]},
     "Spies cannot be played: no opponent can be targeted (Probability Proof Shields)"),
    (dict(constructors=["cerebron", "turl"]), {"type": "power"},
     "Cerebron Emtardata's power cannot be used: it needs 3 GP; you have 0"),
])
def test_each_requirement_says_why_it_is_unmet(position, action, message):
    assert refused(table(seats=2, **position), 0, action, "requirement").message == message


def test_a_card_without_ability_cannot_be_used():
    refusal = refused(table(seats=2, play=[["sally-to-nowhere"], []]), 0, {"type": "use", "card": "sally-to-nowhere"},
                      "no_ability")
    assert refusal.message == "Sally to Nowhere has no ability to use"


def test_requirements_hold_at_their_exact_thresholds():
    # Black Box needs a card in the deck *or* the hand; Femfatalatron needs 1 Fame token.
    state = act(table(seats=2, play=[["black-box"], []], hands=[[F[0]], []]), 0, {"type": "use", "card": "black-box"})[0]
    assert state["discard"] == [F[0]]
    state = act(table(seats=2, play=[["femfatalatron"], []], fame=[1, 0], deck=[F[0]]), 0,
                {"type": "use", "card": "femfatalatron"})[0]
    assert state["fame"][0] == 0 and state["hands"][0] == [F[0]]


def test_looking_and_target_trouble_may_pick_a_shielded_opponent_taking_cards_may_not():
    # README 9: Shields stop losing cards, not being looked at or given Trouble.
    shields = [[], [], ["probability-proof-shields"]]
    state = table(seats=3, play=[["telepathitron"], [], ["probability-proof-shields"]], genius=[1, 0, 0],
                  hands=[[], [F[0]], [F[1]]])
    state = act(state, 0, {"type": "use", "card": "telepathitron"})[0]
    assert state["prompt"]["options"] == [1, 2]
    state = play(table(seats=3, hands=[["dragons-of-probability", *F[:5]], [], []], play=shields),
                 0, "dragons-of-probability", F[:5])
    assert state["prompt"]["options"] == [1, 2]
    state = play(table(seats=3, hands=[["spies", F[0]], [F[5], F[7]], [F[6]]], play=shields), 0, "spies", [F[0]])
    assert state["prompt"]["kind"] == "steal" and state["prompt"]["options"] == sorted([F[5], F[7]])  # seat 1
    facts = act(table(seats=2, play=[["telepathitron"], ["probability-proof-shields"]], genius=[1, 0],
                      hands=[[], [F[2]]]), 0, {"type": "use", "card": "telepathitron"})[1]
    assert {"f": "peek", "seat": 0, "zone": "hand:1", "cards": [F[2]]} in facts


def test_a_searched_sally_without_a_note_enters_play_and_its_a_effect_comes_before_the_shuffle():
    state = table(seats=2, hands=[["magnificent-electroknight", *F[:4]], []],
                  deck=["journey-to-the-galactic-pole", F[6], "the-pirate-pugg"])
    state = play(state, 0, "magnificent-electroknight", F[:4])
    state = choose(state, "journey-to-the-galactic-pole")
    assert "journey-to-the-galactic-pole" in state["play"][0] and sorted(state["deck"]) == sorted([F[6], "the-pirate-pugg"])
    state = table(seats=2, hands=[["magnificent-electroknight", *F[:4]], []], deck=["the-pirate-pugg", F[6], F[7]])
    state = act(state, 0, {"type": "play", "card": "magnificent-electroknight", "pay": F[:4]})[0]
    facts = act(state, 0, {"type": "choose", "option": "the-pirate-pugg"})[1]  # asked even with one Sally
    kinds = [f["f"] for f in facts]
    assert kinds.index("shuffle") > max(i for i, f in enumerate(facts) if f["f"] == "tokens" and f["seat"] == 1)


def test_the_perfect_advisors_discard_follows_its_draw_at_once():
    # "When drawing cards draw 2 & discard 1": Tales of the Hermetic Hermit draws 3 (+1), the discard
    # is asked before its next step (opponents gain 2 FP) happens.
    state = table(seats=2, hands=[["tales-of-the-hermetic-hermit"], []], play=[["the-perfect-advisor"], []],
                  deck=F[:6])
    state = play(state, 0, "tales-of-the-hermetic-hermit")
    assert len(state["hands"][0]) == 4 and state["prompt"]["kind"] == "discard" and state["fame"][1] == 0
    state = choose(state, state["prompt"]["options"][0])
    assert len(state["hands"][0]) == 3 and state["fame"][1] == 2


def test_diploma_counts_1_fp_per_2_machines_rounded_down():
    machines = ["contraptions", "instruments", "black-box", "gnostotron"]
    from domain.games.cyberiad.rules import fame
    assert fame(table(seats=2, play=[["diploma-of-perpetual-omnipotence", *machines], []]), 0) == 2 + 5 + 2
    assert fame(table(seats=2, play=[["diploma-of-perpetual-omnipotence", *machines[:3]], []]), 0) == 1 + 2


@pytest.mark.parametrize("in_play, allowed", [
    (["sally-to-nowhere"], True),                                   # a Sally counts
    (["contraptions", "instruments", "great-labors"], True),        # 1 Effect + 1 <= 2 Machines
    (["contraptions", "great-labors"], False),                      # 1 Effect + 1 > 1 Machine
])
def test_no_more_effects_than_sallies_or_machines_counts_both(in_play, allowed):
    state = table(seats=2, hands=[["publish-an-excellent-article", F[0]], []], play=[in_play, []])
    action = {"type": "play", "card": "publish-an-excellent-article", "pay": [F[0]]}
    if allowed:
        assert "publish-an-excellent-article" in act(state, 0, action)[0]["play"][0]
    else:
        refused(state, 0, action, "effect_limit")


def test_payment_may_be_left_out_for_a_free_card_but_an_x_cost_needs_one():
    state = act(table(seats=2, hands=[["matter-of-remuneration"], []], deck=F[:2]), 0,
                {"type": "play", "card": "matter-of-remuneration"})[0]
    assert state["fame"][0] == 2
    refused(table(seats=2, hands=[["altruizine", F[0]], []]), 0, {"type": "play", "card": "altruizine", "pay": []},
            "bad_payment")


def test_a_shuffle_sets_the_deck_order_and_the_game_end_sets_the_phase():
    state = table(seats=2, hands=[["magnificent-electroknight", *F[:4]], []], deck=["the-pirate-pugg", F[6], F[7]])
    state = act(state, 0, {"type": "play", "card": "magnificent-electroknight", "pay": F[:4]})[0]
    state, facts = act(state, 0, {"type": "choose", "option": "the-pirate-pugg"})
    assert state["deck"] == [f for f in facts if f["f"] == "shuffle"][0]["order"]
    state = act(table(seats=2, fame=[49, 0], genius=[5, 0]), 0, {"type": "convert", "into": "fame"})[0]
    assert state["phase"] == "over" and RULESET.view(state, 0)["phase"] == "over"


def test_council_of_war_a_yes_draws_before_the_next_player_is_asked():
    state = table(seats=2, hands=[["council-of-war", F[0], F[1]], [F[2]]], deck=[*F, *F[:6]])
    state = choose(play(state, 0, "council-of-war", [F[0]]), "yes")
    assert len(state["hands"][0]) == 10 and state["prompt"]["seat"] == 1


def test_a_search_of_the_deck_is_asked_even_with_one_match_so_it_does_not_count_the_deck():
    """README 8 (since 1.3.0): Magnificent Electroknight, "Search deck for Sally and put it in
    play". Made for the player when only one Sally matched, the search told every spectator
    that the hidden deck held exactly one Sally (no prompt) or several (a prompt). Two positions
    a spectator reads alike, one Sally in the deck or two, now give the same public facts."""
    from domain.games.cyberiad.board import is_sally
    from domain.games.cyberiad.cards import CARDS, card_of
    from domain.kernel.canonical import json_copy
    from domain.kernel.rng import RandomStream

    def sally(card):
        return is_sally(CARDS[card_of(card)])

    state = RULESET.setup({}, ["a", "b", "c"], RandomStream(b"k" * 32, "m", 1))
    while any(name is None for name in state["constructors"]):  # every Constructor picked
        picker = sorted(RULESET.to_act(state))[0]
        for fact in RULESET.decide(state, picker, RULESET.legal_actions(state, picker)[0], None):
            state = RULESET.evolve(state, fact)
    seat = state["turn"]["seat"]
    state["phase"], state["prompt"] = "play", None
    knight = "magnificent-electroknight"
    for zone in (state["deck"], *state["hands"]):
        if knight in zone:
            zone.remove(knight)
    state["hands"][seat] = [knight] + [c for c in state["deck"] if not sally(c)][:6]
    for card in state["hands"][seat][1:]:
        state["deck"].remove(card)
    sallies = [c for c in state["deck"] if sally(c)]
    plain = [c for c in state["deck"] if not sally(c)]

    def with_sallies(n):
        """The same deck size, n of its cards Sallies (what is hidden is only which cards)."""
        world = json_copy(state)
        world["deck"] = plain[:len(plain) - n] + sallies[:n]
        return world

    assert len(sallies) >= 2
    one, two = with_sallies(1), with_sallies(2)
    assert RULESET.view(one, None) == RULESET.view(two, None)
    play = next(a for a in RULESET.legal_actions(one, seat) if a.get("card") == knight)
    action = {k: v for k, v in play.items() if k != "params"}
    public = [[RULESET.redact(f, None) for f in RULESET.decide(w, seat, action, RandomStream(b"r" * 32, "m", 5))]
              for w in (one, two)]
    assert public[0] == public[1]
    assert any(f["f"] == "prompt" and f["prompt"] for f in public[0]), "asked even with one Sally"
