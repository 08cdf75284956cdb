"""Rule tests written for mutants that survived a sampled mutation run of engine.py, plays.py
and rules.py (issue 29; README "Test strength"). Each names the rule it pins."""

from domain.games.herocard import RULESET, engine
from domain.games.herocard.cards import CARDS
from domain.kernel.rng import RandomStream

from .arena import act, duel, pass_, pass_all, play, put, refused, values


def test_two_cards_allowing_another_base_attack_add_up():
    """One More Round: "You may play one more Base Attack this Action Phase" — each copy one more."""
    d = duel(hands={0: ["one_more_round", "one_more_round"]})
    d["players"][0]["scores"]["x"] = 2 * CARDS["one_more_round"]["cost"]
    d = pass_(play(d, 0, "one_more_round"))
    d = play(d, 0, "one_more_round")
    assert d["turn"]["allowance"] == 2


def test_purging_a_card_that_allowed_another_base_attack_withdraws_it():
    d = duel(heroes=("bouncer", "bioengineer"), hands={0: ["attack_from_above", "one_more_round", "knuckle_duster"],
                                                      1: ["enzyme_purge"]})
    d = pass_(play(d, 0, "attack_from_above", target=1))
    d = play(d, 0, "one_more_round")
    assert d["turn"]["allowance"] == 1
    d = play(d, 1, "enzyme_purge")
    assert d["turn"]["allowance"] == 0 and "one_more_round" in d["players"][0]["discard"]
    d = pass_all(d)
    refused(d, 0, {"type": "play", "cards": ["knuckle_duster"], "target": 1}, "one_exclusive_per_turn")


def test_purging_a_duplicate_takes_it_back():
    """Purge: "as if it was never played" — a purged Mimic Gene queues no duplicate (Teams: a
    purge is a block card, so the defender's partner plays it)."""
    d = duel(heroes=("bouncer", "bioengineer", "sinner", "cryptomancer"),
             hands={0: ["attack_from_above"], 1: ["mimic_gene"], 3: ["null_sector"]}, teams=True, victory_points=7)
    d = play(d, 0, "attack_from_above", target=1)
    d = play(d, 1, "mimic_gene")
    assert [q["owner"] for q in d["duplicates"]] == [1]
    d = pass_(d)
    assert d["priority"] == 3
    d = play(d, 3, "null_sector")
    assert d["duplicates"] == [] and "mimic_gene" in d["players"][1]["discard"]
    d = pass_all(d)
    assert d["sequence"] is None and d["results"] == 1


def test_the_duplicates_owner_may_still_add_to_it_after_its_target_passes():
    """The duplicate opens a new Attack Sequence: its target responds first, then its owner; it
    resolves only when both have passed in a row."""
    d = duel(heroes=("bouncer", "bioengineer"), hands={0: ["attack_from_above"], 1: ["mimic_gene", "growth_serum"]})
    d["players"][1]["scores"]["x"] = CARDS["mimic_gene"]["cost"] + CARDS["growth_serum"]["cost"]
    d = pass_all(play(play(d, 0, "attack_from_above", target=1), 1, "mimic_gene"))
    assert d["sequence"]["owner"] == 1 and d["priority"] == 0
    d = pass_(d)
    assert d["sequence"] is not None and d["priority"] == 1
    d = play(d, 1, "growth_serum")
    assert values(d)[0] == CARDS["attack_from_above"]["value"] + CARDS["growth_serum"]["value"]


def test_a_revealed_secret_card_is_purged_off_its_stack():
    """A played Secret Card is a card in play on its stack: purged, it goes to the discard stack."""
    d = duel(heroes=("cryptomancer", "cryptomancer"), hands={0: ["attack_from_above"], 1: ["null_sector"]})
    exploit = put(d, 0, "zero_day_exploit", face="down", turn=0)
    d = pass_(play(d, 0, "attack_from_above", target=1))
    d = act(d, 0, {"type": "reveal", "uid": exploit})
    assert values(d)[0] == CARDS["attack_from_above"]["value"] + CARDS["zero_day_exploit"]["value"]
    d = play(d, 1, "null_sector")
    assert values(d)[0] == CARDS["attack_from_above"]["value"]
    assert d["players"][0]["stacks"]["mind"] == [] and d["players"][0]["discard"] == ["zero_day_exploit"]


def test_an_assistant_may_reveal_a_secret_card_for_the_losing_side():
    """Assistance with a Secret Card: revealing Backdoor (Fast Block 8) assists the defender."""
    d = duel(heroes=("bouncer", "sinner", "cryptomancer"), hands={0: ["attack_from_above"]},
             assistance=True, victory_points=5)
    backdoor = put(d, 2, "backdoor", face="down", turn=0)
    d = play(d, 0, "attack_from_above", target=1)
    d = pass_(d)
    assert d["priority"] == 2
    d = act(d, 2, {"type": "reveal", "uid": backdoor})
    assert d["assist"] == {"2": "block"} and values(d)[1] == CARDS["backdoor"]["value"]


def test_a_deployed_secret_card_is_listed_for_playing_from_a_later_turn():
    d = duel(heroes=("cryptomancer", "bouncer"), hands={0: ["cipher_lance"], 1: []})
    bomb = put(d, 0, "logic_bomb", face="down", turn=0)
    fresh = put(d, 0, "logic_bomb", face="down", turn=1)
    reveals = [a for a in engine.legal_actions(d, 0) if a["type"] == "reveal"]
    assert reveals and {a["uid"] for a in reveals} == {bomb} and fresh != bomb


def test_an_attack_set_is_listed_with_its_target_with_three_players():
    d = duel(heroes=("bouncer", "sinner", "cryptomancer"), hands={0: ["attack_from_above", "jab"]}, victory_points=5)
    sets = [a for a in engine.legal_actions(d, 0) if a["type"] == "play" and len(a["cards"]) == 2]
    assert {a["target"] for a in sets} == {0, 1, 2}


def test_views_show_the_seat_its_own_hand_and_a_face_down_cards_place():
    """A seat sees its own hand; of another seat's face-down Secret Card only its place (uid),
    the points it expends and the turn deployed; everyone sees skipped turns."""
    d = duel(heroes=("cryptomancer", "bouncer"), hands={0: ["cipher_lance"], 1: ["jab"]})
    uid = put(d, 0, "backdoor", face="down", turn=0)
    d["players"][0]["skip_turns"] = 1
    mine, theirs = engine.view(d, 0), engine.view(d, 1)
    assert mine["players"][0]["hand"] == ["cipher_lance"] and theirs["players"][0]["hand"] == 1
    assert [p["seat"] for p in theirs["players"]] == [0, 1] and theirs["players"][0]["skip_turns"] == 1
    assert theirs["players"][0]["stacks"]["x"] == [{"uid": uid, "card": None, "face": "down", "cost": 4, "turn": 0}]
    assert mine["players"][0]["stacks"]["x"][0]["card"] == "backdoor"


def test_a_reshuffle_and_a_deployment_are_redacted_for_those_who_may_not_see_them():
    reshuffle = {"f": "hc.reshuffle", "seat": 0, "order": ["jab", "brace"]}
    assert engine.redact(reshuffle, 0) == engine.redact(reshuffle, None) == {"f": "hc.reshuffle", "seat": 0, "order": 2}
    deploy = {"type": "deploy", "card": "backdoor", "attribute": "x"}
    assert engine.redact_action(deploy, 0, 0) == deploy
    assert engine.redact_action(deploy, 0, 1) == engine.redact_action(deploy, 0, None) == {"type": "deploy", "attribute": "x"}


def test_one_victory_point_may_be_the_goal():
    state = RULESET.setup({"victory_points": 1}, ["a", "b"], RandomStream(b"\x03" * 32, "s", 1))
    assert state["duel"]["config"]["victory_points"] == 1


def test_a_discard_names_one_card_or_the_cards_that_end_the_phase_never_both():
    d = duel(hands={0: ["jab", "brace"]}, phase="discard", discard_queue=True)
    refused(d, 0, {"type": "discard", "card": "jab", "cards": ["brace"]}, "malformed_action")


def test_the_draw_phase_is_skipped_with_a_full_hand():
    """"Do not exceed seven cards in your hand": with seven, the Draw Phase offers no choice."""
    d = duel(hands={0: ["jab"] * 7}, phase="discard")
    d = act(d, 0, {"type": "discard", "cards": []})
    assert d["turn"]["phase"] in ("clear", "action")


def test_a_face_down_deployment_is_hidden_from_everyone_but_its_owner():
    place = {"f": "hc.place", "seat": 0, "from": "hand", "card": "backdoor", "attribute": "x", "face": "down",
             "cost": 4, "turn": 1, "uid": 5}
    assert engine.redact(place, 0) == place
    assert engine.redact(place, 1)["card"] is None and engine.redact(place, None)["card"] is None


def test_a_play_names_at_least_one_card():
    d = duel(hands={0: ["jab"]})
    refused(d, 0, {"type": "play", "cards": []}, "malformed_action")


def test_a_card_played_from_the_hand_lies_face_up_and_can_be_replayed():
    """Recursion replays "a card on your Attribute Stack": one played earlier this turn too."""
    d = duel(heroes=("cryptomancer", "bouncer"), hands={0: ["decrypt", "recursion"], 1: []})
    d = pass_(play(d, 0, "decrypt"))
    decrypt = d["players"][0]["stacks"]["body"][-1]
    assert decrypt["face"] == "up"
    before = len(d["players"][0]["hand"])
    d = play(d, 0, "recursion", uid=decrypt["uid"])
    assert len(d["players"][0]["hand"]) == before - 1 + CARDS["decrypt"]["effect"]["draw"]


def test_a_timed_out_seat_keeps_its_hand_draws_what_it_may_clears_nothing_and_passes():
    d = duel(hands={0: ["jab", "brace"]}, phase="discard")
    put(d, 0, "attack_from_above")
    expected = {"discard": {"type": "discard", "cards": []}, "draw": {"type": "draw", "count": 3},
                "clear": {"type": "clear", "stacks": []}, "action": {"type": "pass"}}
    while d["turn"]["phase"] != "action" or expected:
        phase = d["turn"]["phase"]
        action = RULESET.default_action({"duel": d}, 0)
        assert action == expected.pop(phase)
        if phase == "action":
            break
        d = act(d, 0, action)
    assert not expected
