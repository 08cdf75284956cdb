"""The Core Rules' special effects: purge, replay, duplicating an attack, twisting an
Attribute and Secret Cards (with the penalty for playing one wrongly)."""

from domain.games.herocard import engine
from domain.games.herocard.cards import CARDS

from .arena import act, duel, pass_, pass_all, play, put, refused, spent, values


def value(card):
    return CARDS[card]["value"]


# --- Purge ------------------------------------------------------------------------------------

def test_purge_needs_a_card_played_in_the_current_attack_sequence():
    """"You may only purge the last card played in the current Attack Sequence." """
    d = duel(heroes=("bouncer", "bioengineer"), hands={0: [], 1: ["enzyme_purge"]})
    refused(pass_(d), 1, {"type": "play", "cards": ["enzyme_purge"]}, "purge_needs_sequence")


def test_purging_a_base_attack_cancels_it_and_its_exclusive_does_not_count():
    """"if you purge a Base Attack, the Base Attack is cancelled and any Attack Modifiers played are
    no longer valid. If you purge a Base Attack (or any Exclusive action), it is as if the Exclusive
    action was not played – the target can then play another Base Attack" """
    d = duel(heroes=("bouncer", "bioengineer"), hands={0: ["attack_from_above", "knuckle_duster"], 1: ["enzyme_purge"]})
    d = play(d, 0, "attack_from_above", target=1)
    d = play(d, 1, "enzyme_purge")
    assert d["sequence"] is None and d["results"] == 0 and d["turn"]["exclusives"] == 0
    assert "attack_from_above" in d["players"][0]["discard"] and spent(d, 0, "body") == 0
    d = pass_(d) if d["priority"] != 0 else d
    d = play(d, 0, "knuckle_duster", target=1)  # another Base Attack is allowed
    assert values(d)[0] == value("knuckle_duster")


def test_purging_a_twist_unwinds_it():
    d = duel(heroes=("bioengineer", "cryptomancer"), hands={0: ["scalpel_strike", "neural_twist"], 1: ["null_sector"]})
    d = pass_(play(d, 0, "scalpel_strike", target=1))
    d = play(d, 0, "neural_twist", target=1, attribute="mind")
    assert d["players"][1]["twisted"]
    d = play(d, 1, "null_sector")
    assert d["players"][1]["twisted"] == [] and "neural_twist" in d["players"][0]["discard"]


def test_a_purge_cannot_be_purged():
    d = duel(heroes=("bouncer", "bioengineer"), hands={0: ["attack_from_above", "jab"], 1: ["enzyme_purge", "enzyme_purge"]})
    d["players"][1]["scores"]["x"] = 2 * CARDS["enzyme_purge"]["cost"]
    d = pass_(play(d, 0, "attack_from_above", target=1))
    d = play(play(d, 0, "jab"), 1, "enzyme_purge")
    d = pass_(d)
    refused(d, 1, {"type": "play", "cards": ["enzyme_purge"]}, "purge_target")


# --- Replay ---------------------------------------------------------------------------------------

def test_a_replay_obeys_the_action_type_rules():
    """"if you have already played an Exclusive card on a given turn, you may not replay an
    Exclusive card on the same turn." """
    d = duel(heroes=("cryptomancer", "bouncer"), hands={0: ["cipher_lance", "recursion"]})
    d = pass_all(play(d, 0, "cipher_lance", target=1))
    lance = d["players"][0]["stacks"]["mind"][-1]["uid"]
    refused(d, 0, {"type": "play", "cards": ["recursion"], "uid": lance, "target": 1}, "one_exclusive_per_turn")


def test_a_deployed_secret_card_cannot_be_replayed():
    """"When you deploy a Secret Card ... it cannot be discarded, purged, or replayed." """
    d = duel(heroes=("cryptomancer", "bouncer"), hands={0: ["recursion"]})
    secret = put(d, 0, "backdoor", face="down")
    refused(d, 0, {"type": "play", "cards": ["recursion"], "uid": secret}, "secret_not_in_play")


# --- Duplicating ------------------------------------------------------------------------------------

def test_duplicating_needs_a_base_attack_against_you_in_the_current_sequence():
    d = duel(heroes=("bouncer", "bioengineer"), hands={0: [], 1: ["mimic_gene"]})
    refused(pass_(d), 1, {"type": "play", "cards": ["mimic_gene"]}, "duplicate_needs_attack")


def test_the_duplicate_is_resolved_after_the_original_and_the_original_must_still_be_defended():
    """"You must still defend against the original attack. The original Attack Sequence is
    resolved first, and then the duplicate Attack Sequence is resolved." """
    d = duel(heroes=("bouncer", "bioengineer"), hands={0: ["attack_from_above"], 1: ["mimic_gene"]})
    d = pass_all(play(play(d, 0, "attack_from_above", target=1), 1, "mimic_gene"))
    assert d["players"][0]["vp"] == 1  # the original, undefended, succeeded
    assert d["sequence"]["owner"] == 1 and d["sequence"]["target"] == 0 and d["duplicates"] == []


# --- Twisting -------------------------------------------------------------------------------------

def test_a_twisted_attribute_takes_no_plays_but_secret_cards_may_be_deployed_on_it():
    """"your opponent cannot play any cards on that Attribute"; "You may deploy Secret Cards on a
    twisted Attribute. However, you may not actually play Secret Cards on a twisted Attribute." """
    d = duel(heroes=("cryptomancer", "bioengineer"), hands={0: ["backdoor", "cipher_lance"]})
    d["players"][0]["twisted"] = [{"attribute": "x", "by": 1, "uid": 99}, {"attribute": "mind", "by": 1, "uid": 98}]
    refused(d, 0, {"type": "play", "cards": ["cipher_lance"], "target": 1}, "attribute_twisted")
    d = act(d, 0, {"type": "deploy", "card": "backdoor", "attribute": "x"})
    uid = d["players"][0]["stacks"]["x"][-1]["uid"]
    d["turn"]["number"] = 3
    d["players"][1]["hand"] = ["scalpel_strike"]
    d["turn"]["active"], d["priority"], d["passes"] = 1, 1, 0
    d = play(d, 1, "scalpel_strike", target=0)
    refused(d, 0, {"type": "reveal", "uid": uid}, "attribute_twisted")


# --- Secret Cards ---------------------------------------------------------------------------------

def test_a_secret_card_must_be_deployed_face_down_first():
    d = duel(heroes=("cryptomancer", "bouncer"), hands={0: ["logic_bomb"]})
    refused(d, 0, {"type": "play", "cards": ["logic_bomb"], "target": 1}, "secret_must_be_deployed")
    refused(d, 0, {"type": "deploy", "card": "cipher_lance", "attribute": "mind"}, "not_in_hand")


def test_a_deployed_secret_expends_points_and_shows_only_them():
    """"Although a Secret Card expends Attribute Points when it is deployed, it is not yet in-play";
    "If asked, you must reveal the number of Attribute Points expended" """
    d = duel(heroes=("cryptomancer", "bouncer"), hands={0: ["logic_bomb"]})
    d = act(d, 0, {"type": "deploy", "card": "logic_bomb", "attribute": "x"})
    assert spent(d, 0, "x") == CARDS["logic_bomb"]["cost"] and d["players"][0]["hand"] == []
    for seat in (None, 1):
        shown = engine.view(d, seat)["players"][0]["stacks"]["x"][0]
        assert shown["card"] is None and shown["cost"] == CARDS["logic_bomb"]["cost"] and shown["face"] == "down"
    assert engine.view(d, 0)["players"][0]["stacks"]["x"][0]["card"] == "logic_bomb"
    assert engine.redact_action({"type": "deploy", "card": "logic_bomb", "attribute": "x"}, 0, 1) == \
        {"type": "deploy", "attribute": "x"}


def test_a_secret_card_cannot_be_played_on_the_turn_it_was_deployed():
    d = duel(heroes=("cryptomancer", "bouncer"), hands={0: ["logic_bomb"]})
    d = pass_(act(d, 0, {"type": "deploy", "card": "logic_bomb", "attribute": "x"}))
    uid = d["players"][0]["stacks"]["x"][-1]["uid"]
    refused(d, 0, {"type": "reveal", "uid": uid, "target": 1}, "secret_not_ready")


def test_a_fast_secret_card_is_playable_from_the_next_players_turn():
    """"On the next player's turn, rotate the card back to vertical ... you can now play it." """
    d = duel(heroes=("cryptomancer", "bouncer"), hands={0: ["backdoor"], 1: ["attack_from_above"]})
    d = act(d, 0, {"type": "deploy", "card": "backdoor", "attribute": "x"})
    uid = d["players"][0]["stacks"]["x"][-1]["uid"]
    d = pass_(pass_(d))  # the Bouncer's turn begins
    d["turn"]["phase"], d["priority"] = "action", 1
    d = play(d, 1, "attack_from_above", target=0)
    d = act(d, 0, {"type": "reveal", "uid": uid})
    assert values(d) == (value("attack_from_above"), value("backdoor"))
    assert spent(d, 0, "x") == CARDS["backdoor"]["cost"]  # no further points when played


def test_a_deployed_secret_can_be_cleared():
    """"A deployed Secret Card can be cleared." """
    d = duel(heroes=("cryptomancer", "bouncer"), hands={0: []}, phase="clear")
    put(d, 0, "backdoor", face="down")
    d = act(d, 0, {"type": "clear", "stacks": ["x"]})
    assert d["players"][0]["discard"] == ["backdoor"] and spent(d, 0, "x") == 0


def test_a_secret_played_from_the_wrong_attribute_has_no_effect_and_costs_this_turn_and_the_next():
    """"If you accidentally play a Secret Card incorrectly, either with insufficient Attribute
    Points or by using the wrong Attribute, the card has no affect on game play, and you lose the
    remainder of your turn as well as the entirety of your next turn." """
    d = duel(heroes=("cryptomancer", "bouncer"), hands={0: ["zero_day_exploit", "cipher_lance", "packet_storm"]})
    d = pass_(act(d, 0, {"type": "deploy", "card": "zero_day_exploit", "attribute": "x"}))  # printed on Mind
    uid = d["players"][0]["stacks"]["x"][-1]["uid"]
    d["turn"]["number"] = 3
    d = pass_(play(d, 0, "cipher_lance", target=1))
    d = act(d, 0, {"type": "reveal", "uid": uid})
    assert values(d) == (CARDS["cipher_lance"]["value"], 0)  # no effect
    assert d["players"][0]["stacks"]["x"][-1]["face"] == "up" and d["players"][0]["skip_turns"] == 1
    d = pass_(d)
    refused(d, 0, {"type": "play", "cards": ["packet_storm"]}, "secret_penalty")
    assert engine.legal_actions(d, 0) == [{"type": "pass"}]
    d = pass_all(d)  # the sequence resolves, and with it the Cryptomancer's turn
    assert d["turn"]["active"] == 1
    d["turn"]["phase"], d["priority"], d["passes"] = "action", 1, 0
    d = pass_(pass_(d))
    assert d["turn"]["active"] == 1 and d["turn"]["number"] == 6  # the Cryptomancer's next turn was lost whole
    assert d["players"][0]["skip_turns"] == 0


def test_a_wrong_secret_with_nothing_open_ends_the_turn_at_once():
    d = duel(heroes=("cryptomancer", "bouncer"), hands={0: ["logic_bomb"], 1: ["brace", "bar_stool"]})
    d = pass_(act(d, 0, {"type": "deploy", "card": "logic_bomb", "attribute": "mind"}))  # printed on X
    uid = d["players"][0]["stacks"]["mind"][-1]["uid"]
    d["turn"]["number"] = 3
    d = act(d, 0, {"type": "reveal", "uid": uid, "target": 1})
    assert d["players"][1]["hand"] == ["brace", "bar_stool"] and d["turn"]["active"] == 1
    d["turn"].update(active=0, number=5, phase="action", exclusives=0, forfeit=[])
    d.update(priority=0, passes=0)
    d["players"][0]["hand"] = ["recursion"]
    refused(d, 0, {"type": "play", "cards": ["recursion"], "uid": uid, "target": 1}, "replay_target")  # still no effect


def test_cyberspace_secret_cards_expend_four_points():
    """"All Cyberspace Secret Cards cost four Attribute Points." (the engine's secret_cost setting)"""
    d = duel(heroes=("cryptomancer", "bouncer"), hands={0: ["checksum"]}, secret_cost=4)
    d["players"][0]["hand"] = ["backdoor"]
    d = act(d, 0, {"type": "deploy", "card": "backdoor", "attribute": "x"})
    assert d["players"][0]["stacks"]["x"][-1]["cost"] == 4


def test_a_draw_never_takes_the_hand_above_seven():
    """"You may never hold more than seven cards in your hand at any time." """
    d = duel(heroes=("bioengineer", "bouncer"), hands={0: ["tissue_sample"] + ["efficient_block"] * 6})
    d = play(d, 0, "tissue_sample")
    assert len(d["players"][0]["hand"]) == 7


# --- The engine as a host's duel (Cyberspace) ------------------------------------------------------

def test_a_host_counts_successes_itself_and_owns_the_turn():
    """Cyberspace: no Victory Points; the host reads each resolved sequence and ends turns itself."""
    d = duel(hands={0: ["attack_from_above", "attack_from_above"]}, victory_points=None, host_turns=True,
             attribute_names={"body": "Body", "mind": "Mind", "x": "Gene X"}, turn_limit=None)
    d = pass_all(play(d, 0, "attack_from_above", target=1))
    assert d["last_result"] == {"owner": 0, "target": 1, "attack": value("attack_from_above"), "block": 0,
                                "success": True} and d["results"] == 1
    assert d["players"][0]["vp"] == 0 and not d["over"]
    d = pass_(pass_(d))  # everyone passes outside a sequence: the turn stays the host's to end
    assert d["turn"]["active"] == 0 and d["priority"] == 0 and d["turn"]["phase"] == "action"
    d = act(duel(hands={0: ["jab"]}, host_turns=True), 0, {"type": "refresh"})
    assert d["turn"]["phase"] == "ended"
    facts = engine.start_turn(d, 1, None)
    for fact in facts:
        engine.evolve(d, fact)
    assert d["turn"]["active"] == 1 and d["turn"]["number"] == 2


def test_weakness_analysis_does_not_count_a_face_down_secret_card():
    """Variable value: "the cost of all cards of selected Attribute in play by target"; a
    deployed Secret Card "is not in play" until it is played (review D1)."""
    d = duel(heroes=("bioengineer", "cryptomancer"), hands={0: ["weakness_analysis"], 1: []})
    put(d, 1, "backdoor", face="down", turn=0)
    assert values(play(d, 0, "weakness_analysis", target=1, attribute="x"))[0] == CARDS["weakness_analysis"].get("value", 0)
    up = put(d, 1, "null_sector")
    assert up is not None
    assert values(play(d, 0, "weakness_analysis", target=1, attribute="x"))[0] == \
        CARDS["weakness_analysis"].get("value", 0) + CARDS["null_sector"]["cost"]


def test_recursion_replaying_null_sector_purges_the_opponents_last_card_not_itself():
    """A replay is "as if playing a free copy of the card from your hand": the replayed purge
    takes the last card played before the Recursion (review D2)."""
    d = duel(heroes=("bouncer", "cryptomancer"), hands={0: ["attack_from_above", "jab"], 1: ["recursion"]})
    ns = put(d, 1, "null_sector")
    d = play(d, 0, "attack_from_above", target=1)
    d = pass_(d)
    d = play(d, 0, "jab")
    before = values(d)[0]
    d = play(d, 1, "recursion", uid=ns)
    assert values(d)[0] == before - value("jab")
    assert [e["card"] for e in d["sequence"]["played"]] == ["attack_from_above", "recursion", "null_sector"]
    assert "jab" in d["players"][0]["discard"]
    assert d["players"][1]["discard"] == [] and [e["card"] for e in d["players"][1]["stacks"]["mind"]] == ["recursion"]
    # the replayed purge is the last card played: it cannot itself be purged
    assert d["sequence"]["played"][-1]["replay"]


def test_a_player_may_target_themself_but_a_successful_attack_on_themself_scores_nothing():
    """"You may select any player in the game, including yourself" (review D3); partners stay
    out of reach in Teams. In the standalone duel an attack on yourself earns no Victory Point."""
    d = duel(hands={0: ["attack_from_above"]})
    assert any(a.get("target") == 0 for a in engine.legal_actions(d, 0))
    d = pass_all(play(d, 0, "attack_from_above", target=0))
    assert d["last_result"]["success"] and d["last_result"]["target"] == 0
    assert d["players"][0]["vp"] == 0 and d["players"][1]["vp"] == 0
    t = duel(heroes=("bouncer", "sinner", "bioengineer", "cryptomancer"), hands={0: ["attack_from_above"]},
             teams=True, victory_points=7)
    refused(t, 0, {"type": "play", "cards": ["attack_from_above"], "target": 2}, "partners_may_not_attack")
    assert play(t, 0, "attack_from_above", target=0)["sequence"]["target"] == 0


def test_a_restricted_secret_card_is_played_only_on_your_own_turn_even_on_the_wrong_attribute():
    """"Restricted: You can play as many Restricted actions as you have free Attribute points
    for, but only on your own turn during your Action Phase." "To play the card, turn the card
    face up." A Secret Card played on the wrong Attribute "has no affect on game play" and costs
    the turns, but it is still played: its Action Type still says when."""
    d = duel(heroes=("cryptomancer", "bouncer"), hands={1: ["attack_from_above"]}, active=1)
    wrong = put(d, 0, "logic_bomb", "mind", face="down")  # Logic Bomb is printed on X
    right = put(d, 0, "logic_bomb", "x", face="down")
    d = play(d, 1, "attack_from_above", target=0)
    assert d["priority"] == 0, "seat 0 may respond, with a Fast card only"
    for uid in (right, wrong):
        refused(d, 0, {"type": "reveal", "uid": uid, "target": 1}, "restricted_own_turn")
    assert not [a for a in engine.legal_actions(d, 0) if a["type"] == "reveal"]
    # on its own turn the wrongly placed one is played: no effect, and the penalty
    mine = duel(heroes=("cryptomancer", "bouncer"))
    wrong = put(mine, 0, "logic_bomb", "mind", face="down")
    after = act(mine, 0, {"type": "reveal", "uid": wrong, "target": 1})
    assert after["players"][0]["skip_turns"] >= 1
