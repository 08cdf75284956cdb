"""The printed cards, verbatim, and one test per card asserting its effect (README: "Designed data")."""

import pytest

from domain.games.herocard import engine
from domain.games.herocard.cards import CARDS, HEROES, MAX_COPIES, MIN_DECK

from .arena import act, duel, pass_, pass_all, play, put, refused, spent, values

# (name, kind, timing, value, cost, text) as the rulebook prints them; None where it prints nothing.
PRINTED = {
    "smart_drink": ("Smart Drink", "base_block", "fast", 4, 4, None),
    "airswipe": ("Airswipe", "base_block", "fast", 5, 4, None),
    "diamond_nails": ("Diamond Nails", "base_attack", "exclusive", 4, 4, None),
    "synaptic_shock": ("Synaptic Shock", "attack_mod", "fast", 4, 4, None),
    "attack_from_above": ("Attack from Above", "base_attack", None, 4, None, None),
    "stone_falls_through_water": ("Stone Falls through Water", "attack_mod", None, 5, None, None),
    "forfeiture": ("Forfeiture", "special_attack", None, None, None, "Target discards one block card."),
    "unbroken_defense": ("Unbroken Defense", "base_block", None, 9, None, None),
    "efficient_block": ("Efficient Block", "base_block", None, 4, None, None),
    "cross_block": ("Cross Block", "block_mod", None, 5, None, None),
    "distracting_smile": ("Distracting Smile", "special_block", None, None, None,
                          "Target discards two attack cards from their hand."),
    "weakness_analysis": (None, "base_attack", None, 0, None,  # the glossary prints the text, not a name
                          "Attack 0, plus the cost of all cards of selected Attribute in play by target."),
}
PRINTED_ATTRIBUTES = {("sinner", "body"): ("Harmonic Medicine", 6), ("sinner", "mind"): ("Prima Donna", 8),
                      ("sinner", "x"): ("Contact Dancing", 8), ("bouncer", "body"): ("Subdermal Stimpack", 8)}


@pytest.mark.parametrize("card_id", sorted(PRINTED))
def test_printed_cards_are_used_verbatim(card_id):
    name, kind, timing, value, cost, text = PRINTED[card_id]
    card = CARDS[card_id]
    assert name is None or card["name"] == name
    assert card["kind"] == kind and card["printed"]
    assert timing is None or card["timing"] == timing
    assert value is None or card["value"] == value
    assert cost is None or card["cost"] == cost
    assert text is None or card["text"] == text
    assert any(card_id in hero["deck"] for hero in HEROES.values())


def test_printed_attribute_cards_are_used_verbatim():
    for (hero, attribute), (title, score) in PRINTED_ATTRIBUTES.items():
        card = HEROES[hero]["attributes"][attribute]
        assert (card["title"], card["score"], card["printed"]) == (title, score, True)


def test_every_deck_obeys_the_deck_building_rules_and_every_card_is_used():
    """"at least 20 Action Cards, and may contain no more than six copies of the same card";
    "The standard limit for Heroes is 30 points"."""
    used = set()
    for hero in HEROES.values():
        assert MIN_DECK <= sum(hero["deck"].values()) and max(hero["deck"].values()) <= MAX_COPIES
        assert sum(a["hero_points"] for a in hero["attributes"].values()) <= 30
        used |= set(hero["deck"])
    assert used == set(CARDS)


VALUE_CARDS = sorted(c for c, card in CARDS.items() if "value" in card and not card.get("effect") and not card.get("secret"))


def _attacker_and_defender(card_id):
    owner = next(h for h, hero in HEROES.items() if card_id in hero["deck"])
    other = next(h for h in HEROES if h != owner)
    return owner, other


@pytest.mark.parametrize("card_id", VALUE_CARDS)
def test_each_value_card_adds_its_value_and_expends_its_cost(card_id):
    card = CARDS[card_id]
    owner, other = _attacker_and_defender(card_id)
    generous = {"body": 30, "mind": 30, "x": 30}
    if card["kind"] in ("base_attack", "attack_mod"):
        base = card_id if card["kind"] == "base_attack" else "attack_from_above"
        d = duel(heroes=(owner, other), hands={0: [base] + ([card_id] if base != card_id else [])})
        d["players"][0]["scores"] = generous
        d = play(d, 0, *([base] + ([card_id] if base != card_id else [])), target=1)
        base_value = CARDS[base]["value"] if base != card_id else 0
        assert values(d) == (base_value + card["value"], 0)
        assert spent(d, 0, card["attribute"]) == card["cost"] + (CARDS[base]["cost"] if base != card_id and
                                                                  CARDS[base]["attribute"] == card["attribute"] else 0)
    else:
        base = card_id if card["kind"] == "base_block" else "slow_dance"
        d = duel(heroes=(other, owner), hands={0: ["attack_from_above"], 1: [base] + ([card_id] if base != card_id else [])})
        d["players"][0]["scores"] = d["players"][1]["scores"] = generous
        d = play(play(d, 0, "attack_from_above", target=1), 1, *([base] + ([card_id] if base != card_id else [])))
        base_value = CARDS[base]["value"] if base != card_id else 0
        assert values(d)[1] == base_value + card["value"]
        assert spent(d, 1, card["attribute"]) >= card["cost"]


def test_forfeiture_target_discards_one_block_card_of_their_choice():
    d = duel(heroes=("sinner", "bouncer"), hands={0: ["forfeiture"], 1: ["bar_stool", "brace", "jab"]})
    d = play(d, 0, "forfeiture", target=1)
    assert engine.to_act(d) == {1} and d["pending"]["count"] == 1
    refused(d, 1, {"type": "choose", "cards": ["jab"]}, "discard_kind")
    d = act(d, 1, {"type": "choose", "cards": ["brace"]})  # a Block Mod is a block card too
    assert d["players"][1]["discard"] == ["brace"] and sorted(d["players"][1]["hand"]) == ["bar_stool", "jab"]
    assert d["priority"] == 1 and d["pending"] is None


def test_distracting_smile_target_discards_two_attack_cards():
    d = duel(heroes=("bouncer", "sinner"), hands={0: ["attack_from_above", "jab", "forearm_block"], 1: ["distracting_smile"]})
    d = pass_(d)  # Fast: the Sinner plays it on the Bouncer's Action Phase
    d = play(d, 1, "distracting_smile", target=0)
    # the target is asked even with no choice left (README 10): its one option is both attack cards
    assert engine.legal_actions(d, 0) == [{"type": "choose", "cards": ["attack_from_above", "jab"]}]
    d = act(d, 0, {"type": "choose", "cards": ["attack_from_above", "jab"]})
    assert sorted(d["players"][0]["discard"]) == ["attack_from_above", "jab"] and d["players"][0]["hand"] == ["forearm_block"]


def test_one_more_round_allows_another_base_attack():
    d = duel(hands={0: ["one_more_round"]})
    assert play(d, 0, "one_more_round")["turn"]["allowance"] == 1


def test_second_wind_clears_the_top_card_of_one_of_your_stacks():
    d = duel(hands={0: ["second_wind"]})
    put(d, 0, "brace")
    after = play(d, 0, "second_wind", attribute="body")
    assert after["players"][0]["stacks"]["body"] == [] and after["players"][0]["discard"] == ["brace"]
    refused(d, 0, {"type": "play", "cards": ["second_wind"], "attribute": "mind"}, "clear_empty_stack")


def test_weakness_analysis_attacks_for_the_cost_of_the_selected_attribute_in_play_by_target():
    d = duel(heroes=("bioengineer", "sinner"), hands={0: ["weakness_analysis"], 1: ["airswipe"]})
    put(d, 1, "kiss_off")
    d = play(d, 0, "weakness_analysis", target=1, attribute="mind")
    assert values(d)[0] == CARDS["kiss_off"]["cost"]
    d = play(d, 1, "airswipe")  # a variable value changes with the game: blocking with Mind feeds it
    assert values(d) == (CARDS["kiss_off"]["cost"] + CARDS["airswipe"]["cost"], CARDS["airswipe"]["value"])


def test_neural_twist_disables_an_attribute_until_the_twisters_next_clear_phase():
    d = duel(heroes=("bioengineer", "sinner"), hands={0: ["neural_twist"], 1: ["kiss_off"]})
    d = play(d, 0, "neural_twist", target=1, attribute="mind")
    assert d["players"][1]["twisted"][0]["attribute"] == "mind"
    d = pass_(pass_(d))  # the Sinner's turn
    d["turn"]["phase"], d["priority"] = "action", 1
    refused(d, 1, {"type": "play", "cards": ["kiss_off"], "target": 0}, "attribute_twisted")
    d = pass_(pass_(d))  # back to the Bioengineer ...
    assert d["turn"]["active"] == 0 and d["turn"]["phase"] == "draw" and d["players"][1]["twisted"]
    d = act(d, 0, {"type": "draw", "count": 0})  # ... whose Clear Phase unwinds the twist
    assert d["players"][1]["twisted"] == []


@pytest.mark.parametrize("card_id", ["enzyme_purge", "null_sector"])
def test_purge_cards_negate_the_last_card_played(card_id):
    owner = "bioengineer" if card_id == "enzyme_purge" else "cryptomancer"
    d = duel(heroes=("bouncer", owner), hands={0: ["attack_from_above", "jab"], 1: [card_id]})
    d = pass_(play(d, 0, "attack_from_above", target=1))
    d = play(d, 0, "jab")
    d = play(d, 1, card_id)
    assert values(d) == (CARDS["attack_from_above"]["value"], 0) and d["players"][0]["discard"] == ["jab"]


def test_mimic_gene_duplicates_the_base_attack_played_against_you():
    d = duel(heroes=("bouncer", "bioengineer"), hands={0: ["attack_from_above", "jab"], 1: ["mimic_gene"]})
    d = play(d, 0, "attack_from_above", "jab", target=1)
    d = play(d, 1, "mimic_gene")
    d = pass_all(d)  # the original resolves first ...
    assert d["last_result"]["owner"] == 0 and d["sequence"]["owner"] == 1 and d["sequence"]["duplicate"]
    assert values(d) == (CARDS["attack_from_above"]["value"], 0)  # ... then the duplicate: the Base Attack only
    d = pass_all(d)
    assert d["players"][1]["vp"] == 1  # the duplicator owns it and gains the benefits


@pytest.mark.parametrize("card_id", ["tissue_sample", "decrypt"])
def test_draw_cards_draw_two(card_id):
    owner = next(h for h, hero in HEROES.items() if card_id in hero["deck"])
    d = duel(heroes=(owner, "bouncer"), hands={0: [card_id]})
    after = play(d, 0, card_id)
    assert len(after["players"][0]["hand"]) == 2 and len(after["players"][0]["deck"]) == len(d["players"][0]["deck"]) - 2


def test_recursion_replays_a_card_on_your_stack_for_free():
    d = duel(heroes=("cryptomancer", "bouncer"), hands={0: ["cipher_lance", "packet_storm", "recursion"]})
    d = pass_(play(d, 0, "cipher_lance", "packet_storm", target=1))
    mod = d["players"][0]["stacks"]["body"][-1]["uid"]
    body = spent(d, 0, "body")
    d = play(d, 0, "recursion", uid=mod)
    assert values(d)[0] == CARDS["cipher_lance"]["value"] + 2 * CARDS["packet_storm"]["value"]
    assert spent(d, 0, "body") == body and d["sequence"]["played"][-1]["replay"]


SECRETS = sorted(c for c, card in CARDS.items() if card.get("secret"))


@pytest.mark.parametrize("card_id", SECRETS)
def test_each_secret_card_takes_effect_when_played_on_a_later_turn(card_id):
    card = CARDS[card_id]
    d = duel(heroes=("cryptomancer", "bouncer"), hands={0: [card_id, "cipher_lance"], 1: ["bar_stool", "brace", "jab"]})
    d = pass_(act(d, 0, {"type": "deploy", "card": card_id, "attribute": card["attribute"]}))
    uid = d["players"][0]["stacks"][card["attribute"]][-1]["uid"]
    d["turn"]["number"] = 2  # a later turn of the Cryptomancer's
    if card["kind"] == "base_block":
        d["turn"]["active"], d["priority"] = 1, 1
        d["players"][1]["hand"] = ["attack_from_above"]
        d = play(d, 1, "attack_from_above", target=0)
        d = act(d, 0, {"type": "reveal", "uid": uid})
        assert values(d)[1] == card["value"]
    elif card["kind"] == "attack_mod":
        d = pass_(play(d, 0, "cipher_lance", target=1))
        d = act(d, 0, {"type": "reveal", "uid": uid})
        assert values(d)[0] == CARDS["cipher_lance"]["value"] + card["value"]
    else:
        d = act(d, 0, {"type": "reveal", "uid": uid, "target": 1})
        if d["pending"]:
            d = act(d, 1, {"type": "choose", "cards": ["bar_stool", "brace"]})
        assert sorted(d["players"][1]["discard"]) == ["bar_stool", "brace"]
