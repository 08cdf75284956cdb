"""Findings of the independent review against rules/algomancy.txt (README "Review"): each
test is written from the rulebook's wording and failed before its fix; the checks at the
end pin down rules the review found faithful where the code was suspected."""

import pytest

from domain.games.algomancy import RULESET
from domain.kernel.errors import InvalidSetup
from domain.kernel.rng import RandomStream

from .arena import act, at, battle, game, give, put, refused, resources, window
from .test_examples import pass_all


def new(options, seats=2):
    return RULESET.setup(options, [f"p{i}" for i in range(seats)], RandomStream(b"r" * 32, "review", 1))


def attacking(state, attacker, defender, columns, region=None):
    """A formation already sent (blocks not yet declared)."""
    battle(state)["battle"]["next"] += 1
    fid = f"f{state['battle']['next']}"
    state["battle"]["formations"].append({
        "id": fid, "attacker": attacker, "defender": defender, "region": region or state["home"][defender],
        "destination": state["home"][defender], "columns": columns, "blocks": None, "blocked": [], "tokens": []})
    return fid


def sparks(state, seat, region, count):
    tokens = []
    for _ in range(count):
        state["next_id"] += 1
        token = f"Spark#{600 + state['next_id']}"
        state["spell_tokens"][token] = {"controller": seat, "region": region, "x": 0}
        tokens.append(token)
    return tokens


# --- D1: burst spell tokens are individual spells -----------------------------------------

def test_d1_each_burst_spell_token_is_a_spell_played_so_sparkwraith_triggers_for_each():
    """"Multiple spell tokens played with burst are still individual spells, but they are
    played at the same time." Sparkwraith: "Whenever you play a spell, each opponent loses 1
    life." Three Sparks at the defender: 3 damage and 3 life lost to Sparkwraith."""
    state = game()
    wraith = put(state, 0, "Sparkwraith", region="r1")
    attacking(state, 0, 1, [[wraith]])
    first, *_ = sparks(state, 0, "r1", 3)
    window(state, "r1")
    state = act(state, 0, {"type": "play", "card": first, "targets": ["player:1"]})
    assert [item["kind"] for item in state["stack"]].count("trigger") == 3
    state = pass_all(state, 2 * 6)
    assert state["players"][1]["life"] == 30 - 3 - 3 and not state["stack"]


def test_d4_burst_tokens_each_choose_their_own_targets():
    """Burst spell tokens are individual spells played at the same time, so each has the
    targets chosen for it: one Spark at the player, two at Jelly and Coral Guard."""
    state = game()
    hound = put(state, 0, "Cinder Hound", region="r1")
    jelly, guard = put(state, 1, "Jelly"), put(state, 1, "Coral Guard")
    attacking(state, 0, 1, [[hound]])
    first, *_ = sparks(state, 0, "r1", 3)
    window(state, "r1")
    listed = [a for a in RULESET.legal_actions(state, 0) if a.get("card") == first]
    assert listed and all("burst_targets" in a["params"] for a in listed)
    refused(state, 0, {"type": "play", "card": first, "targets": ["player:1"], "burst_targets": [[jelly]]},
            "burst_targets")
    refused(state, 0, {"type": "play", "card": first, "targets": ["player:1"], "burst_targets": [[jelly], ["r0"]]},
            "target_in_region")
    state = act(state, 0, {"type": "play", "card": first, "targets": ["player:1"],
                           "burst_targets": [[jelly], [guard]]})
    assert [item["targets"] for item in state["stack"]] == [["player:1"], [jelly], [guard]]
    state = pass_all(state, 2 * 3)
    assert state["players"][1]["life"] == 29 and jelly not in state["units"] and state["units"][guard]["damage"] == 1


# --- D2: a team's deck holds at most 2 copies --------------------------------------------

def test_d2_team_draft_deck_has_at_most_two_copies_of_each_card():
    """"Team Draft: Each team brings a constructed deck including 30 cards per player on the
    team with up to 2 copies of each card." Partners bringing the same designed deck would
    put 4 copies of each card in their team's deck."""
    with pytest.raises(InvalidSetup, match="at most 2 copies"):
        new({"setup": "teams_split", "format": "team_draft", "decks": {"0": "fire", "2": "fire"}}, 4)
    state = new({"setup": "teams_split", "format": "team_draft", "decks": {"0": "fire", "2": "water"}}, 4)
    deck = state["decks"]["team0"] + [c for s in (0, 2) for c in state["players"][s]["hand"] + state["players"][s]["pack"]]
    names = [card.split("#")[0] for card in deck]
    assert len(names) == 64 and max(names.count(n) for n in names) == 2


# --- D3: FFA attackers set their formation after the intent cards flip ---------------------

def test_d3_ffa_each_region_begins_with_the_attacker_setting_their_formation():
    """FFA: "After a simultaneous attack declaration, each region follows the steps of: The
    attacker sets their units into Formation. There is a priority window for interaction.
    Defender sets their blocking formation..." Two players attack player 2; once the intent
    cards flip, each arranges their own formation in region 2, then the window opens."""
    state = game("ffa", 3, initiative=0)
    battle(at(state, "attack", intent=True))
    a, b = put(state, 0, "Cinder Hound"), put(state, 0, "Jelly")
    c = put(state, 1, "Ashen Brute")
    state = act(state, 0, {"type": "declare_attack", "formations": [{"target": 2, "columns": [[a], [b]]}]})
    state = act(state, 1, {"type": "declare_attack", "formations": [{"target": 2, "columns": [[c]]}]})
    state = act(state, 2, {"type": "declare_attack", "formations": []})
    assert state["step"] == {"k": "form", "seats": [0, 1], "region": "r2"}
    assert RULESET.to_act(state) == {0, 1}
    mine = {fid for action in RULESET.legal_actions(state, 0) for fid in action["formations"]}
    assert mine == {"f1"}, "each arranges only their own formation"
    refused(state, 0, {"type": "form_attack", "formations": {"f2": [[c]]}}, "form_own_formation")
    state = act(state, 0, {"type": "form_attack", "formations": {"f1": [[a, b]]}})
    assert RULESET.to_act(state) == {1}
    state = act(state, 1, {"type": "form_attack", "formations": {}})
    assert state["battle"]["formations"][0]["columns"] == [[a, b]]
    assert state["step"] == {"k": "window", "region": "r2", "stage": "attack"}


# --- D5: a pack passed on is not looked at before the next draft step ----------------------

def test_d5_the_pack_passed_to_a_player_is_not_seen_before_their_next_draft_step():
    """"Packs may only be interacted with and looked at during the draft step, and players may
    not look at the packs of other players." The pack player 0 drafted from and passed
    clockwise reaches player 1 - and player 1's view - only when the next draft step begins."""
    from domain.games.algomancy.flow import _begin
    state = new({"format": "live_draft"})
    drafted = {seat: list(state["players"][seat]["pack"]) for seat in (0, 1)}
    state = act(state, 0, {"type": "end_draft"})
    state = act(state, 1, {"type": "end_draft"})
    assert state["step"]["k"] == "resources"
    shown = str(RULESET.view(state, 1))
    assert not [card for card in drafted[0] if card in shown], "player 0's pack is hidden from player 1"
    assert state["players"][1]["pack"] == drafted[1]
    state["step"] = {"k": "draft", "seats": [0, 1]}
    _begin(state, state["step"])
    assert state["players"][1]["pack"] == drafted[0] and state["players"][0]["pack"] == drafted[1]


# --- checks: suspected gaps the review found faithful ---------------------------------------

def test_check_paying_mana_automatically_loses_no_choice_affinity_counts_expended_resources():
    """"Affinity: Resource types needed to be present among your resources"; "a player must
    expend a number of un-expended resources equal to the card's mana cost." Every resource
    gives 1 mana and affinity counts expended resources too, so which resources pay never
    changes what can be played: the water resource paid for Pyre Cultist, and Jelly (water)
    is still played with the fire resource's mana."""
    state = at(game(), "deploy", seats=[0])
    resources(state, 0, "fire", 1)
    resources(state, 0, "water", 1)
    cultist, jelly = give(state, 0, "Pyre Cultist"), give(state, 0, "Jelly")
    state = act(state, 0, {"type": "play", "card": cultist, "targets": []})
    water = [r for r in state["players"][0]["resources"] if r["element"] == "water"]
    assert water[0]["expended"], "the automatic payment took the water resource"
    assert {"type": "play", "card": jelly, "targets": []} in RULESET.legal_actions(state, 0)
    state = act(state, 0, {"type": "play", "card": jelly, "targets": []})
    assert {state["units"][u]["card"] for u in state["units"]} == {cultist, jelly}


def test_check_an_augment_needs_its_affinity_and_mana_from_hand_or_bin_and_as_a_virus():
    """"To apply an augment, the player must first meet its affinity requirement, followed by
    paying its mana cost and selecting a target ... Augments can be applied from either the
    hand or from the bin." Kelp Lurker (water 1, cost 3) onto Tidal Menace: refused without
    water affinity, refused from the bin without 3 mana, then paid (3 resources expended)."""
    state = at(game(), "deploy", seats=[0])
    menace = put(state, 0, "Tidal Menace")
    lurker = give(state, 0, "Kelp Lurker", where="bin")
    resources(state, 0, "earth", 3)
    refused(state, 0, {"type": "mod", "card": lurker, "onto": menace}, "affinity")
    state["players"][0]["resources"] = state["players"][0]["resources"][:1]
    resources(state, 0, "water", 1)
    refused(state, 0, {"type": "mod", "card": lurker, "onto": menace}, "mana_cost")
    resources(state, 0, "water", 1)
    state = act(state, 0, {"type": "mod", "card": lurker, "onto": menace})
    assert all(r["expended"] for r in state["players"][0]["resources"]) and lurker not in state["players"][0]["bin"]
    fight = game()
    enemy = put(fight, 1, "Boulder Golem")
    attacking(fight, 0, 1, [[put(fight, 0, "Jelly", region="r1")]])
    inferno = give(fight, 0, "Smouldering Inferno")
    resources(fight, 0, "fire", 1)
    fight["players"][0]["resources"][0]["expended"] = True  # affinity, but no mana for its cost of 1
    window(fight, "r1")
    refused(fight, 0, {"type": "mod", "card": inferno, "onto": enemy}, "mana_cost")


def test_check_priority_windows_are_only_in_battle_steps_deployment_resolves_at_once():
    """"The following steps are followed by a priority window inside of each region: Attack
    step, Block step, After Combat step." Deployment and the haste step have none: "Each
    player is in their own region during the deployment phase", so nobody can respond and a
    card resolves at once. A 1v1 battle with a counter-attack opens exactly those windows."""
    state = game()
    a, b = put(state, 0, "Cinder Hound"), put(state, 1, "Jelly")
    battle(at(state, "attack", seats=[0]))
    state["script"] = [{"k": "regroup"}, {"k": "deploy", "seats": [0, 1]}]
    state = act(state, 0, {"type": "declare_attack", "formations": [{"target": 1, "columns": [[a]]}]})
    windows = []
    while state["step"]["k"] != "deploy":
        step = state["step"]
        (seat, *_) = sorted(RULESET.to_act(state))
        if step["k"] == "window":
            if not windows or windows[-1] != (step["region"], step["stage"]):
                windows.append((step["region"], step["stage"]))
            state = act(state, seat, {"type": "pass_priority"})
        elif step["k"] == "block":
            if f"attack:{seat}" not in state["done"]:
                state = act(state, seat, {"type": "declare_attack", "formations": [{"target": 0, "columns": [[b]]}]})
            else:
                state = act(state, seat, {"type": "declare_blocks", "blocks": {}})
        else:
            state = act(state, seat, {"type": "form_attack", "formations": {}})
    stages = [("r1", "attack"), ("r1", "block"), ("r1", "after_combat"),
              ("r0", "attack"), ("r0", "block"), ("r0", "after_combat")]
    assert windows == stages
    refused(state, 0, {"type": "pass_priority"}, "priority_window")
    resources(state, 0, "wood", 3)
    state = act(state, 0, {"type": "play", "card": give(state, 0, "Mycelial Web"), "targets": []})
    assert not state["stack"] and len([u for u in state["units"].values() if u["token"]]) == 3


# --- D6: hybrid cards ------------------------------------------------------------------------

def test_d6_the_live_draft_deck_includes_the_hybrid_cards_of_the_selected_combinations():
    """"Once the elements are selected, shuffle them together to form the deck, including the
    hybrid cards for the selected combinations as well." Fire, water and earth: their three
    hybrids (two copies, as every card of the shared deck), and no hybrid with wood or metal.
    A hybrid needs affinity to both of its elements."""
    from domain.games.algomancy.cards import CARDS, ELEMENT_DECKS, HYBRIDS
    state = new({"format": "live_draft", "elements": ["earth", "fire", "water"]})
    deck = list(state["decks"]["shared"])
    for player in state["players"]:
        deck += player["hand"] + player["pack"]
    names = [card.split("#")[0] for card in deck]
    hybrids = sorted({n for n in names if n in HYBRIDS})
    assert hybrids == ["Magma Striker", "Mudslide", "Steam Geyser"]
    assert all(names.count(n) == 2 for n in hybrids)
    assert len(names) == sum(len(ELEMENT_DECKS[e]) for e in ("earth", "fire", "water")) + 6
    assert len(HYBRIDS) == 10 and {frozenset(p) for p in HYBRIDS.values()} == {
        frozenset((a, b)) for a in ELEMENT_DECKS for b in ELEMENT_DECKS if a < b}
    cube = new({"format": "cube_draft"})  # "Shuffle all of the game cards including hybrids together"
    pool = cube["cube"]["pool"] + [c for p in cube["players"] for c in p["hand"] + p["pack"]]
    assert {card.split("#")[0] for card in pool} == set(CARDS) and len(pool) == 2 * len(CARDS)
    state = at(game(), "deploy", seats=[0])
    striker = give(state, 0, "Magma Striker")
    assert CARDS["Magma Striker"]["affinity"] == {"fire": 1, "earth": 1}
    resources(state, 0, "fire", 3)
    refused(state, 0, {"type": "play", "card": striker, "targets": []}, "affinity")
    resources(state, 0, "earth", 1)
    act(state, 0, {"type": "play", "card": striker, "targets": []})


# --- D7: the traditional cube draft ---------------------------------------------------------

def test_d7_traditional_cube_draft_three_packs_pick_one_and_pass_left_right_left_then_build_30():
    """"Deal each player three packs of 13 to 15 cards (15 cards for 6 players, 13 for 8
    players). Players will each look at their packs and take one card from it before passing
    it to their neighbor and repeat until the first pack is empty. This process is repeated a
    total of three times, alternating passing directions (left, right, left) until players
    have each drafted a pile of cards. From their drafted piles, players each build a 30 card
    deck to use for the following constructed matches." """
    state = new({"format": "traditional_cube", "setup": "ffa"}, 3)
    assert state["step"]["k"] == "pick" and RULESET.to_act(state) == {0, 1, 2}
    assert [len(p["pack"]) for p in state["players"]] == [15, 15, 15] and not state["players"][0]["hand"]
    refused(state, 0, {"type": "exchange", "hand_card": "x", "pack_card": "y"}, "draft_step")
    packs = [list(p["pack"]) for p in state["players"]]
    taken = packs[0][0]
    after = act(state, 0, {"type": "pick", "card": taken})
    refused(after, 0, {"type": "pick", "card": packs[0][1]}, "not_your_priority")
    assert "card" not in RULESET.redact_action({"type": "pick", "card": taken}, 0, 1), "a pick is face down"
    state = after
    for seat in (1, 2):
        state = act(state, seat, {"type": "pick", "card": packs[seat][0]})
    # pack 1 passes left (clockwise): player 1 now holds what is left of player 0's pack
    assert state["players"][1]["pack"] == packs[0][1:] and state["players"][0]["pack"] == packs[2][1:]
    while state["cube"]["round"] == 1:
        for seat in sorted(RULESET.to_act(state)):
            state = act(state, seat, {"type": "pick", "card": state["players"][seat]["pack"][0]})
    assert [len(p["hand"]) for p in state["players"]] == [15, 15, 15]
    second = [list(p["pack"]) for p in state["players"]]
    for seat in (0, 1, 2):
        state = act(state, seat, {"type": "pick", "card": state["players"][seat]["pack"][0]})
    # pack 2 passes right: player 0 now holds what is left of player 1's pack
    assert state["players"][0]["pack"] == second[1][1:] and state["players"][1]["pack"] == second[2][1:]
    while state["step"]["k"] == "pick":
        for seat in sorted(RULESET.to_act(state)):
            state = act(state, seat, {"type": "pick", "card": state["players"][seat]["pack"][0]})
    assert state["step"]["k"] == "build" and [len(p["hand"]) for p in state["players"]] == [45, 45, 45]
    refused(state, 0, {"type": "play", "card": state["players"][0]["hand"][0], "targets": []}, "play_timing")
    pile = list(state["players"][0]["hand"])
    for card in pile[:15]:
        state = act(state, 0, {"type": "cut", "card": card})
    assert RULESET.to_act(state) == {1, 2} and len(state["players"][0]["hand"]) == 30
    for seat in (1, 2):
        for card in list(state["players"][seat]["hand"][:15]):
            state = act(state, seat, {"type": "cut", "card": card})
    assert sorted(state["decks"]["p0"] + state["players"][0]["hand"]) == sorted(pile[15:])
    assert state["step"]["k"] == "draft" and len(state["players"][0]["hand"]) == 6 + 2, "then a constructed match"


# --- D8: the player dealing combat damage may assign more than lethal to the front ----------

def test_d8_the_player_dealing_damage_may_assign_more_than_lethal_to_the_front_unit():
    """Q&A: "Can you assign more than lethal damage to a unit in the frontline? Yes, the player
    dealing damage may choose to assign additional damage beyond lethal to a unit if they
    wish." Ashen Brute (4 power) blocks Jelly (1/1) with Cinder Hound (3/2) behind it: its
    controller, the defender, chooses; putting all 4 on Jelly spares the Hound. The attacking
    column's 4 kills the Brute at the same time."""
    from domain.games.algomancy.battle import place_attack, place_blocks
    state = game()
    jelly, hound = put(state, 0, "Jelly", region="r1"), put(state, 0, "Cinder Hound", region="r1")
    brute = put(state, 1, "Ashen Brute")
    battle(state)
    place_attack(state, 0, [{"target": 1, "columns": [[jelly, hound]]}])
    place_blocks(state, 1, "r1", {"f1": [[brute]]})
    window(state, "r1", stage="block")
    state["script"] = [{"k": "combat", "region": "r1"}, {"k": "window", "region": "r1", "stage": "after_combat"},
                       {"k": "regroup"}, {"k": "deploy", "seats": [0, 1]}]
    state = pass_all(state, 2)
    assert state["step"]["k"] == "combat" and RULESET.to_act(state) == {1}, "the dealer chooses"
    assert [a["option"] for a in RULESET.legal_actions(state, 1)] == ["front:1", "front:2", "front:3", "front:4"]
    refused(state, 0, {"type": "choose", "option": "front:4"}, "not_your_priority")
    refused(state, 1, {"type": "choose", "option": "front:0"}, "choice_option")
    refused(state, 1, {"type": "pass_priority"}, "choice_pending")
    spared = act(state, 1, {"type": "choose", "option": "front:4"})
    assert jelly not in spared["units"] and hound in spared["units"] and spared["units"][hound]["damage"] == 0
    assert brute not in spared["units"] and spared["step"] == {"k": "window", "region": "r1", "stage": "after_combat"}
    assert spared["choice"] is None and spared["battle"]["damage"] is None
    lethal = act(state, 1, {"type": "choose", "option": "front:1"})
    assert jelly not in lethal["units"] and hound not in lethal["units"], "1 kills Jelly, 3 carry to the Hound"
    partial = act(state, 1, {"type": "choose", "option": "front:3"})
    assert jelly not in partial["units"] and partial["units"][hound]["damage"] == 1, "the excess 1 carries"


def test_d8_a_dealer_at_one_life_chooses_a_dealer_at_zero_is_out_and_does_not():
    """A player at 0 life is eliminated (How to win), so only a living dealer is asked; at 1
    life they still choose (the Swift unblocked column hits the defender first)."""
    from domain.games.algomancy.battle import combat, place_attack, place_blocks
    for life, asked in ((3, True), (2, False)):  # the Swift Ember Imp's 2 leaves 1 life, or 0
        state = game()
        jelly, hound = put(state, 0, "Jelly", region="r1"), put(state, 0, "Cinder Hound", region="r1")
        imp = put(state, 0, "Ember Imp", region="r1")  # 2/1 Swift, unblocked
        brute = put(state, 1, "Ashen Brute")
        state["players"][1]["life"] = life
        battle(state)
        place_attack(state, 0, [{"target": 1, "columns": [[jelly, hound], [imp]]}])
        place_blocks(state, 1, "r1", {"f1": [[brute]]})
        state["step"] = {"k": "combat", "region": "r1"}
        combat(state, "r1")
        assert bool(state["choice"]) == asked and state["players"][1]["life"] == (1 if asked else 0)


def test_a_column_stays_blocked_when_its_blocker_is_removed_before_combat():
    """"Once a defending unit has been placed in front of an attacking column, that entire
    column is considered blocked. Blocked units do not deal combat damage to you." and "The
    column is considered blocked even if the defending unit is removed during combat!" The
    blocker is deleted in the block window: the column deals no damage to anyone."""
    from domain.games.algomancy.battle import combat, place_attack, place_blocks
    from domain.games.algomancy.effects import leave_play
    state = game()
    hound, jelly = put(state, 0, "Cinder Hound", region="r1"), put(state, 0, "Jelly", region="r1")
    guard = put(state, 1, "Coral Guard")
    battle(state)
    place_attack(state, 0, [{"target": 1, "columns": [[hound, jelly]]}])
    place_blocks(state, 1, "r1", {"f1": [[guard]]})
    leave_play(state, guard, "die")
    state["step"] = {"k": "combat", "region": "r1"}
    combat(state, "r1")
    assert state["players"][1]["life"] == 30 and state["choice"] is None
    assert state["units"][hound]["damage"] == 0 and state["units"][jelly]["damage"] == 0


def test_lethal_damage_to_the_front_counts_damage_taken_and_deadly_needs_one():
    """"If the amount of damage received would be enough to kill the front row, any excess
    damage is dealt to the unit in the back row." A Coral Guard (1/4) already dealt 2 needs 2
    more; from a Deadly column 1 is enough, so 1 of Kelp Lurker's 2 carries to Jelly behind."""
    from domain.games.algomancy.battle import assigned, combat, place_attack, place_blocks
    for deadly, damaged, options, jelly_dies in ((False, 2, ["front:2", "front:3"], True),
                                                 (True, 0, ["front:1", "front:2"], True)):
        state = game()
        attacker = put(state, 0, "Kelp Lurker" if deadly else "Ashen Brute", region="r1")
        if not deadly:
            state["units"][attacker]["temp"] = [-1, 0]  # a 3-power column
        guard, jelly = put(state, 1, "Coral Guard"), put(state, 1, "Jelly")
        state["units"][guard]["damage"] = damaged
        battle(state)
        place_attack(state, 0, [{"target": 1, "columns": [[attacker]]}])
        place_blocks(state, 1, "r1", {"f1": [[guard, jelly]]})
        state["step"] = {"k": "combat", "region": "r1"}
        combat(state, "r1")
        assert state["choice"]["queue"] == [0] and state["choice"]["options"] == options
        assigned(state, options[0])
        assert guard not in state["units"] and (jelly not in state["units"]) == jelly_dies


# --- the card sample (every 5th card of cards.json): each effect executed ------------------

def test_card_sample_abyssal_evocation_brine_seer_sandstorm_ritual():
    """Abyssal Evocation: "Spawn target unit card from your bin. It gains Unstable" - and a
    spell unit spawned without being played has no spell effect (Q&A); when it dies it is
    erased. Brine Seer: "When you play me, draw a card." Sandstorm Ritual: "Place a +1/+1
    counter on each of two target allied units." """
    from domain.games.algomancy.effects import leave_play
    from domain.games.algomancy.state import attributes, stats
    state = at(game(), "deploy", seats=[0])
    resources(state, 0, "water", 5)
    resources(state, 0, "earth", 2)
    lillik = give(state, 0, "Leaping Lillik", where="bin")
    enemy = put(state, 0, "Jelly")
    state = act(state, 0, {"type": "play", "card": give(state, 0, "Abyssal Evocation"), "targets": [lillik]})
    assert lillik in state["units"] and "unstable" in attributes(state, lillik)
    assert state["units"][enemy]["damage"] == 0, "no spell effect: the spell unit was not played"
    seer = give(state, 0, "Brine Seer")
    hand = len(state["players"][0]["hand"])
    state = act(state, 0, {"type": "play", "card": seer, "targets": []})
    assert seer in state["units"] and len(state["players"][0]["hand"]) == hand - 1 + 1
    state = act(state, 0, {"type": "play", "card": give(state, 0, "Sandstorm Ritual"), "targets": [seer, lillik]})
    assert stats(state, seer) == (2, 3) and state["units"][lillik]["counters"] == 1
    leave_play(state, lillik, "die")
    assert lillik in state["erased"] and lillik not in state["players"][0]["bin"]


def test_card_sample_sluggish_deals_last_and_steam_geyser():
    """Sluggish: "my column deals combat damage last". Deepwater Leviathan (6/6, Sluggish) is
    blocked by a 6/2 that strikes in the normal moment and kills it first, so the Leviathan
    deals nothing; beside it an ordinary column and its blocker trade at once. Steam Geyser:
    "Deal 2 damage to target unit. Draw a card." """
    from domain.games.algomancy.battle import combat, place_attack, place_blocks
    state = game()
    leviathan = put(state, 0, "Deepwater Leviathan", region="r1")
    hound = put(state, 0, "Cinder Hound", region="r1")
    state["units"][hound]["temp"] = [0, 5]  # 3/7: survives the Brute's 4
    brute, rubbish = put(state, 1, "Ashen Brute"), put(state, 1, "A Pile of Rubbish")
    battle(state)
    place_attack(state, 0, [{"target": 1, "columns": [[leviathan], [hound]]}])
    place_blocks(state, 1, "r1", {"f1": [[rubbish], [brute]]})
    state["units"][rubbish]["temp"] = [5, 0]  # 6/2: kills the 6/6 Leviathan in the normal moment
    state["step"] = {"k": "combat", "region": "r1"}
    combat(state, "r1")
    assert leviathan not in state["units"], "the normal-speed blocker strikes first"
    assert rubbish in state["units"], "the Sluggish Leviathan died before dealing its damage"
    assert brute not in state["units"] and state["units"][hound]["damage"] == 4
    geyser = game()
    target = put(geyser, 1, "Coral Guard")
    attacking(geyser, 0, 1, [[put(geyser, 0, "Jelly", region="r1")]])
    resources(geyser, 0, "fire", 2)
    resources(geyser, 0, "water", 1)
    window(geyser, "r1")
    hand = len(geyser["players"][0]["hand"])
    geyser = act(geyser, 0, {"type": "play", "card": give(geyser, 0, "Steam Geyser"), "targets": [target]})
    geyser = pass_all(geyser, 2)
    assert geyser["units"][target]["damage"] == 2 and len(geyser["players"][0]["hand"]) == hand + 1


def test_d3_an_ffa_attacker_in_two_regions_arranges_each_formation_as_its_region_begins():
    """FFA, each region in turn: "The attacker sets their units into Formation." Player 0
    attacks both neighbours; in the first region's battle only the formation there is set."""
    state = game("ffa", 3, initiative=0)
    battle(at(state, "attack", intent=True))
    a, b, c = put(state, 0, "Cinder Hound"), put(state, 0, "Jelly"), put(state, 0, "Ashen Brute")
    state = act(state, 0, {"type": "declare_attack", "formations": [{"target": 1, "columns": [[a], [b]]},
                                                                    {"target": 2, "columns": [[c]]}]})
    for seat in (1, 2):
        state = act(state, seat, {"type": "declare_attack", "formations": []})
    assert state["step"] == {"k": "form", "seats": [0], "region": "r1"}
    assert {fid for action in RULESET.legal_actions(state, 0) for fid in action["formations"]} == {"f1"}
    refused(state, 0, {"type": "form_attack", "formations": {"f2": [[c]]}}, "form_own_formation")
    state = act(state, 0, {"type": "form_attack", "formations": {"f1": [[a, b]]}})
    assert state["battle"]["formations"][0]["columns"] == [[a, b]]


def test_blocking_columns_deal_damage_too_with_their_attributes_and_a_spare_slot_deals_none():
    """"If a column is blocked, the attacking and defending formations in those columns deal
    combat damage to each other": a Deadly blocker (Tidepool Terror, 1 power) kills Tremor
    Elemental (5/6). "Units may even be placed blocking in slots where attackers aren't": the
    Coral Guard beside the attackers deals and takes nothing. Each blocked column of two gets
    its own damage choice: the defender spares one Hound and not the other."""
    from domain.games.algomancy.battle import assigned, combat, place_attack, place_blocks
    state = game()
    elemental = put(state, 0, "Tremor Elemental", region="r1")
    j1, h1 = put(state, 0, "Jelly", region="r1"), put(state, 0, "Cinder Hound", region="r1")
    j2, h2 = put(state, 0, "Jelly", region="r1"), put(state, 0, "Cinder Hound", region="r1")
    terror, guard = put(state, 1, "Tidepool Terror"), put(state, 1, "Coral Guard")
    b1, b2 = put(state, 1, "Ashen Brute"), put(state, 1, "Ashen Brute")
    battle(state)
    place_attack(state, 0, [{"target": 1, "columns": [[elemental], [j1, h1], [j2, h2]]}])
    place_blocks(state, 1, "r1", {"f1": [[terror], [b1], [b2], [guard]]})
    state["step"] = {"k": "combat", "region": "r1"}
    combat(state, "r1")
    assert state["choice"]["key"] == "f1:columns:1"
    assigned(state, "front:4")
    assert state["choice"]["key"] == "f1:columns:2", "the other column is asked for separately"
    assigned(state, "front:1")
    assert elemental not in state["units"] and terror not in state["units"]
    assert h1 in state["units"] and h2 not in state["units"]
    assert state["units"][guard]["damage"] == 0 and state["players"][1]["life"] == 30


def test_each_defending_column_of_two_gets_its_own_damage_choice():
    """The attacker deals 4 to each of two defending columns of two: asked per column."""
    from domain.games.algomancy.battle import assigned, combat, place_attack, place_blocks
    state = game()
    a1, a2 = put(state, 0, "Ashen Brute", region="r1"), put(state, 0, "Ashen Brute", region="r1")
    j1, h1 = put(state, 1, "Jelly"), put(state, 1, "Cinder Hound")
    j2, h2 = put(state, 1, "Jelly"), put(state, 1, "Cinder Hound")
    battle(state)
    place_attack(state, 0, [{"target": 1, "columns": [[a1], [a2]]}])
    place_blocks(state, 1, "r1", {"f1": [[j1, h1], [j2, h2]]})
    state["step"] = {"k": "combat", "region": "r1"}
    combat(state, "r1")
    assert state["choice"]["queue"] == [0] and state["choice"]["key"] == "f1:blocks:0"
    assigned(state, "front:4")
    assert state["choice"]["key"] == "f1:blocks:1"
    assigned(state, "front:1")
    assert h1 in state["units"] and h2 not in state["units"] and j1 not in state["units"]
