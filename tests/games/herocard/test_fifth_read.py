"""A fifth independent read (rules 1.5): a purge takes back what the purged card's effect did to
hands, decks and stacks (README 12), and the attacking side may play special blocks, and the
defending side special attacks, as their Action Type allows (README 5). Each test quotes the
rulebook and fails on rules 1.4."""

import orjson
import pytest

from domain.games.herocard import engine

from domain.kernel.errors import IllegalAction
from domain.kernel.rng import RandomStream

from .arena import act, duel, pass_, play, put, refused, spent, values

RNG = RandomStream(b"\x02" * 32, "fifth read", 9)

# --- Defect 1: a purge undoes the card's effects ----------------------------------------------

def test_purging_forfeiture_gives_the_target_back_the_block_card_it_discarded():
    """Purging a Card: "purge removes a card from play and sends it to the Discard Stack, but also
    removes any effects the card had on the game ... If you purge a card, it is as if the card was
    never played." Glossary, Purge: "To completely negate the effect of a card, as if it had never
    been played." Forfeiture ("Target discards one block card") purged: the block card returns
    from the target's discard stack to its hand."""
    d = duel(heroes=("sinner", "bioengineer"), hands={0: ["diamond_nails", "forfeiture"],
                                                      1: ["efficient_block", "enzyme_purge"]})
    d = pass_(play(d, 0, "diamond_nails", target=1), 1)
    d = play(d, 0, "forfeiture", target=1)
    d = act(d, 1, {"type": "choose", "cards": ["efficient_block"]})
    assert d["players"][1]["discard"] == ["efficient_block"]
    d = play(d, 1, "enzyme_purge")
    assert d["players"][1]["hand"] == ["efficient_block"] and d["players"][1]["discard"] == []
    assert d["players"][0]["discard"] == ["forfeiture"] and spent(d, 0, "x") == 4  # Diamond Nails only
    # and the block card may be played again in the same sequence, as if never discarded
    d = play(pass_(d, 0), 1, "efficient_block")
    assert values(d) == (4, 4)


def test_purging_decrypt_puts_the_cards_it_drew_back_on_top_of_the_deck_in_order():
    """As above: "If you purge a card, it is as if the card was never played." Decrypt ("Draw two
    cards") purged: both cards leave the hand for the top of the Action Deck, in the order drawn,
    so the next draw takes them again."""
    d = duel(heroes=("cryptomancer", "bioengineer"), hands={0: ["cipher_lance", "decrypt"], 1: ["enzyme_purge"]},
             decks={0: ["packet_storm", "checksum", "firewall_glyph"]})
    d = pass_(play(d, 0, "cipher_lance", target=1), 1)
    d = play(d, 0, "decrypt")
    assert d["players"][0]["hand"] == ["packet_storm", "checksum"]
    d = play(d, 1, "enzyme_purge")
    assert d["players"][0]["hand"] == []
    assert d["players"][0]["deck"] == ["packet_storm", "checksum", "firewall_glyph"]
    assert d["players"][0]["discard"] == ["decrypt"]


def test_purging_a_draw_hides_the_cards_that_go_back_as_the_draw_did():
    """The drawn cards' identities are their owner's secret: the fact that puts them back on the
    deck shows the other seat and spectators only how many (as the draw's fact did), and no view
    but the owner's names them, before or after the purge. Purging a Card: "purge removes a card
    from play and sends it to the Discard Stack, but also removes any effects the card had on the
    game ... If you purge a card, it is as if the card was never played." """
    d = duel(heroes=("cryptomancer", "bioengineer"), hands={0: ["cipher_lance", "decrypt"], 1: ["enzyme_purge"]},
             decks={0: ["packet_storm", "checksum", "firewall_glyph"]})
    d = pass_(play(d, 0, "cipher_lance", target=1), 1)
    d = play(d, 0, "decrypt")
    facts = engine.decide(d, 1, {"type": "play", "cards": ["enzyme_purge"]}, RNG)
    undraw = next(f for f in facts if f["f"] == "hc.undraw")
    assert undraw["cards"] == ["packet_storm", "checksum"]
    assert engine.redact(undraw, 0) == undraw
    assert engine.redact(undraw, 1) == engine.redact(undraw, RNG) == {**undraw, "cards": 2}
    after = play(d, 1, "enzyme_purge")
    for state in (d, after):
        for seat in (1, RNG):
            shown = orjson.dumps(engine.view(state, seat))
            assert b"packet_storm" not in shown and b"checksum" not in shown
    assert engine.view(d, 0)["players"][0]["hand"] == ["packet_storm", "checksum"]


def test_a_purged_draw_takes_back_one_card_fewer_for_each_card_the_hand_lost_since():
    """Purging a Card: "If you purge a card, it is as if the card was never played" — as far as it
    can be: a drawn card deployed face down since cannot go back, and which card was deployed is hidden, so the
    number going back is worked out from what everyone sees (cards drawn, less cards the hand has
    lost since). Whether the Cryptomancer deployed a drawn Zero-Day or the one it held before, one
    card goes back, the other seat sees the same, and the deployed card stays on its stack."""
    seen = []
    for held, drawn in ((["cipher_lance", "decrypt", "checksum"], ["zero_day_exploit", "packet_storm"]),
                        (["cipher_lance", "decrypt", "zero_day_exploit"], ["checksum", "packet_storm"])):
        d = duel(heroes=("cryptomancer", "bioengineer"), hands={0: held, 1: ["enzyme_purge"]},
                 decks={0: drawn + ["firewall_glyph"]})
        d = pass_(play(d, 0, "cipher_lance", target=1), 1)
        d = pass_(play(d, 0, "decrypt"), 1)
        d = act(d, 0, {"type": "deploy", "card": "zero_day_exploit", "attribute": "mind"})
        facts = engine.decide(d, 1, {"type": "play", "cards": ["enzyme_purge"]}, RNG)
        d = play(d, 1, "enzyme_purge")
        assert d["players"][0]["deck"] == ["packet_storm", "firewall_glyph"]
        assert [e["card"] for e in d["players"][0]["stacks"]["mind"]] == ["cipher_lance", "zero_day_exploit"]
        seen.append(([engine.redact(f, 1) for f in facts], engine.view(d, 1)["players"][0]["hand"]))
    assert seen[0] == seen[1]
    assert d["players"][0]["hand"] == ["checksum"]


def test_purging_second_wind_puts_the_cleared_card_back_in_its_stack_and_the_sequence():
    """Purging a Card: "purge removes a card from play and sends it to the Discard Stack, but also
    removes any effects the card had on the game ... If you purge a card, it is as if the card was
    never played." Second Wind ("clear one of your cards") cleared the Bouncer's own Active Stone
    Falls through Water; purged, the mod is back where it was: on its stack (its points spent
    again), out of the discard stack, and counted in the attack value."""
    d = duel(heroes=("bouncer", "bioengineer"), hands={0: ["attack_from_above", "stone_falls_through_water",
                                                           "second_wind"], 1: ["enzyme_purge"]})
    d = pass_(play(d, 0, "attack_from_above", "stone_falls_through_water", target=1), 1)
    assert values(d) == (9, 0)
    d = play(d, 0, "second_wind", attribute="body")
    assert values(d) == (4, 0) and d["players"][0]["discard"] == ["stone_falls_through_water"]
    d = play(d, 1, "enzyme_purge")
    assert values(d) == (9, 0)
    assert [e["card"] for e in d["players"][0]["stacks"]["body"]] == ["attack_from_above", "stone_falls_through_water"]
    assert d["players"][0]["discard"] == ["second_wind"] and spent(d, 0, "body") == 7 and spent(d, 0, "x") == 0


def test_purging_second_wind_puts_a_card_of_an_earlier_turn_back_in_its_place():
    """Purging a Card: "purge removes a card from play and sends it to the Discard Stack, but also
    removes any effects the card had on the game ... If you purge a card, it is as if the card was
    never played." A card of an earlier turn cleared (to free its points) returns to its place in
    its stack, under its uid, and its points are spent again."""
    d = duel(heroes=("bouncer", "bioengineer"), hands={0: ["attack_from_above", "second_wind"], 1: ["enzyme_purge"]})
    old = put(d, 0, "forearm_block", turn=0)
    d = pass_(play(d, 0, "attack_from_above", target=1), 1)
    d = play(d, 0, "second_wind", attribute="mind")
    assert d["players"][0]["stacks"]["mind"] == [] and spent(d, 0, "mind") == 0
    d = play(d, 1, "enzyme_purge")
    assert [(e["uid"], e["card"]) for e in d["players"][0]["stacks"]["mind"]] == [(old, "forearm_block")]
    assert spent(d, 0, "mind") == 3 and d["players"][0]["discard"] == ["second_wind"] and values(d) == (4, 0)


# --- Defect 2: special attacks and blocks follow their Action Type, not the sides ----------------

def test_the_attacker_may_purge_the_defenders_block_with_its_own_fast_special_block():
    """Attacking: "Of course, you can also play other cards on your turn provided you follow any
    limits imposed by the Action Type and otherwise specified by the card". Special Blocks:
    "Special Blocks are generally Fast Action Types, so you aren't limited to playing them only in
    response to an attack - you can play them at other times too." Null Sector (Fast special block:
    purge) by the attacker takes the defender's Unbroken Defense; the listing offers it."""
    d = duel(heroes=("cryptomancer", "bioengineer"), hands={0: ["cipher_lance", "null_sector"], 1: ["unbroken_defense"]})
    d = play(play(d, 0, "cipher_lance", target=1), 1, "unbroken_defense")
    assert values(d) == (5, 9)
    assert {"type": "play", "cards": ["null_sector"]} in engine.legal_actions(d, 0)
    d = play(d, 0, "null_sector")
    assert values(d) == (5, 0) and d["players"][1]["discard"] == ["unbroken_defense"]


def test_the_attacker_may_play_distracting_smile_in_its_own_attack_sequence():
    """As above ("you aren't limited to playing them only in response to an attack"): the Sinner's
    Distracting Smile (Fast special block: "Target discards two attack cards from their hand")
    in the Sinner's own Attack Sequence; the listing offers it."""
    d = duel(heroes=("sinner", "bouncer"), hands={0: ["diamond_nails", "distracting_smile"], 1: ["jab", "jab", "bar_stool"]})
    d = pass_(play(d, 0, "diamond_nails", target=1), 1)
    assert {"type": "play", "cards": ["distracting_smile"], "target": 1} in engine.legal_actions(d, 0)
    d = play(d, 0, "distracting_smile", target=1)
    d = act(d, 1, {"type": "choose", "cards": ["jab", "jab"]})
    assert d["players"][1]["hand"] == ["bar_stool"] and d["sequence"] is not None


def test_cards_that_add_to_a_sides_value_still_belong_to_that_side():
    """The side rule stays for bases and mods (the attacker plays no Base Block, the message says
    "a block card"), and a special attack by the defender is refused for its Action Type
    (Forfeiture is Restricted: "only on your own turn"), not for its side."""
    d = duel(heroes=("sinner", "sinner"), hands={0: ["diamond_nails", "slow_dance"], 1: ["forfeiture"]})
    d = play(d, 0, "diamond_nails", target=1)
    refused(d, 1, {"type": "play", "cards": ["forfeiture"], "target": 0}, "restricted_own_turn")
    d = pass_(d, 1)
    refused(d, 0, {"type": "play", "cards": ["slow_dance"]}, "wrong_side")
    with pytest.raises(IllegalAction, match="is a block card; you are on the attacking side"):
        engine.decide(d, 0, {"type": "play", "cards": ["slow_dance"]}, RNG)


def test_a_trial_copy_takes_the_facts_that_undo_a_purged_cards_effects():
    """The greedy bot and the listing try moves on a trial copy that shares entries with the duel
    (trial.py): the facts that take back a purged card's discard, draw and clear evolve it as
    they evolve a JSON copy, and leave the duel copied as it was."""
    from domain.games.herocard.trial import trial_copy
    from domain.kernel.canonical import json_copy

    forfeiture = duel(heroes=("sinner", "bioengineer"), hands={0: ["diamond_nails", "forfeiture"],
                                                               1: ["efficient_block", "enzyme_purge"]})
    forfeiture = play(pass_(play(forfeiture, 0, "diamond_nails", target=1), 1), 0, "forfeiture", target=1)
    forfeiture = act(forfeiture, 1, {"type": "choose", "cards": ["efficient_block"]})
    decrypt = duel(heroes=("cryptomancer", "bioengineer"), hands={0: ["cipher_lance", "decrypt"], 1: ["enzyme_purge"]})
    decrypt = play(pass_(play(decrypt, 0, "cipher_lance", target=1), 1), 0, "decrypt")
    wind = duel(heroes=("bouncer", "bioengineer"), hands={0: ["attack_from_above", "stone_falls_through_water",
                                                              "second_wind"], 1: ["enzyme_purge"]})
    wind = play(pass_(play(wind, 0, "attack_from_above", "stone_falls_through_water", target=1), 1),
                0, "second_wind", attribute="body")
    seen = set()
    for d in (forfeiture, decrypt, wind):
        before = json_copy(d)
        facts = engine.decide(d, 1, {"type": "play", "cards": ["enzyme_purge"]}, RNG)
        trial, reference = trial_copy(d), json_copy(d)
        for fact in facts:
            engine.evolve(trial, fact)
            engine.evolve(reference, fact)
            seen.add(fact["f"])
        assert trial == reference and d == before
    assert {"hc.undiscard", "hc.undraw", "hc.unclear"} <= seen
