"""Algomancy rules, each from the rulebook's wording."""

import pytest

from domain.games.algomancy import RULESET
from domain.games.algomancy.battle import assigned, combat, place_attack, place_blocks
from domain.games.algomancy.cards import CARDS, ELEMENT_DECKS
from domain.games.algomancy.effects import leave_play, spawn_unit
from domain.games.algomancy.state import attributes, stats
from domain.kernel.errors import InvalidSetup
from domain.kernel.rng import RandomStream

from .arena import act, at, battle, game, give, put, refused, resources, window


def new(options, seats=2):
    return RULESET.setup(options, [f"p{i}" for i in range(seats)], RandomStream(b"s" * 32, "m", 1))


def test_setup_two_dormant_prismites_30_life_and_the_opening_deal():
    """30 life; two Prismites face down (dormant); live draft deals 16: 4 for the hand, 10 for
    the pack and 2 for the first draw step (so no draw on the first turn)."""
    state = new({"format": "live_draft"})
    for player in state["players"]:
        assert player["life"] == 30 and [r["kind"] for r in player["dormant"]] == ["Prismite", "Prismite"]
        assert len(player["hand"]) == 6 and len(player["pack"]) == 10 and not player["resources"]
    assert len(state["elements"]) == 3, "2-3 players use 3 elements"
    assert len(new({"format": "live_draft", "setup": "ffa"}, 4)["elements"]) == 4, "4-6 players use 4 elements"
    assert state["step"]["k"] == "draft"


def test_constructed_decks_at_least_30_cards_at_most_2_copies():
    with pytest.raises(InvalidSetup, match="at most 2 copies"):
        new({"decks": {"0": ["Jelly"] * 3 + ELEMENT_DECKS["water"][:27]}})
    with pytest.raises(InvalidSetup, match="at least 30"):
        new({"decks": {"0": ELEMENT_DECKS["water"][:29]}})
    assert all(len(deck) >= 30 and max(deck.count(c) for c in deck) == 2 for deck in ELEMENT_DECKS.values())


def test_setups_need_their_player_counts():
    for options, seats in (({"setup": "1v1"}, 3), ({"setup": "teams_joint"}, 3), ({"setup": "archenemy"}, 4),
                           ({"setup": "ffa"}, 2), ({"format": "team_draft"}, 2)):
        with pytest.raises(InvalidSetup):
            new(options, seats)


def test_constructed_draft_step_draws_two_then_recycles_two():
    state = new({})
    hand = len(state["players"][0]["hand"])
    assert hand == 6 + 2, "opening 4 + first-turn 2, then the draft step's draw 2"
    card = state["players"][0]["hand"][0]
    after = act(state, 0, {"type": "recycle", "card": card})
    assert after["decks"]["p0"][-1] == card, "recycled to the bottom of the deck"
    after = act(after, 0, {"type": "recycle", "card": after["players"][0]["hand"][0]})
    refused(after, 0, {"type": "recycle", "card": after["players"][0]["hand"][0]}, "not_your_priority")
    refused(state, 0, {"type": "end_draft"}, "recycle_two")


def test_live_draft_exchanges_always_leave_ten_in_the_pack():
    state = new({"format": "live_draft"})
    player = state["players"][0]
    hand_card, pack_card = player["hand"][0], player["pack"][0]
    after = act(state, 0, {"type": "exchange", "hand_card": hand_card, "pack_card": pack_card})
    assert pack_card in after["players"][0]["hand"] and hand_card in after["players"][0]["pack"]
    assert len(after["players"][0]["pack"]) == 10 and len(after["players"][0]["hand"]) == 6
    refused(state, 0, {"type": "recycle", "card": hand_card}, "draft_exchange")


def test_packs_pass_clockwise_and_refresh_after_n_plus_one_turns():
    """In a 1v1 game players draft for 3 turns before getting new packs; each drafts a second
    time from the pack they were first dealt."""
    state = new({"format": "live_draft"})
    first = {seat: list(state["players"][seat]["pack"]) for seat in (0, 1)}
    state = act(state, 0, {"type": "end_draft"})
    state = act(state, 1, {"type": "end_draft"})
    assert state["pack_turns"] == {"shared": 1}
    from domain.games.algomancy.flow import _draft_start
    _draft_start(state, at(state, "draft")["step"])  # the passed packs are picked up
    assert state["players"][1]["pack"] == first[0] and state["players"][0]["pack"] == first[1]
    state["pack_turns"]["shared"] = 2
    _draft_start(state, at(state, "draft")["step"])
    assert state["players"][0]["pack"] == first[0], "the second draft from the pack first dealt"
    state["pack_turns"]["shared"] = 3
    state["turn"] = 4
    at(state, "draft")
    _draft_start(state, state["step"])
    assert state["pack_turns"]["shared"] == 0 and not set(state["players"][0]["pack"]) & set(first[0] + first[1])


def test_two_activations_a_turn_shards_at_three_affinity_and_the_prismite_exchange():
    state = at(game(), "resources", seats=[0])
    prismites = [r["id"] for r in state["players"][0]["dormant"]]
    state = act(state, 0, {"type": "activate_resource", "resource": prismites[0]})
    state = act(state, 0, {"type": "activate_resource", "resource": prismites[1]})
    card = give(state, 0, "Jelly")
    state = act(state, 0, {"type": "create_resource", "card": card, "element": "water"})
    fresh = state["players"][0]["dormant"][0]["id"]
    refused(state, 0, {"type": "activate_resource", "resource": fresh}, "two_activations")
    state = act(state, 0, {"type": "exchange_prismite", "resource": prismites[0], "element": "fire"})
    assert state["players"][0]["resources"][0]["element"] == "fire"
    refused(state, 0, {"type": "exchange_prismite", "resource": prismites[0], "element": "fire"}, "active_prismite")
    resources(state, 0, "water", 2)
    state["players"][0]["activations"] = 0
    state = act(state, 0, {"type": "activate_resource", "resource": fresh})
    assert [r["kind"] for r in state["players"][0]["dormant"]] == ["Shard"], "three water affinity: a free Shard"


def test_timings():
    """No icon: deployment only; haste: also the haste step; battle: only in battle."""
    state = at(game(), "haste", seats=[0])
    resources(state, 0, "fire", 3)
    resources(state, 0, "wood", 2)
    hound, imp, flame = give(state, 0, "Cinder Hound"), give(state, 0, "Ember Imp"), give(state, 0, "Flame of History")
    refused(state, 0, {"type": "play", "card": hound, "targets": []}, "timing_normal")
    act(state, 0, {"type": "play", "card": imp, "targets": []})
    deploy = at(state, "deploy", seats=[0])
    refused(deploy, 0, {"type": "play", "card": flame, "targets": [put(deploy, 0, "Jelly")]}, "timing_battle")
    act(deploy, 0, {"type": "play", "card": hound, "targets": []})


def test_affinity_and_mana_are_needed():
    state = at(game(), "deploy", seats=[0])
    colossus = give(state, 0, "Molten Colossus")
    resources(state, 0, "fire", 2)
    resources(state, 0, "water", 3)
    refused(state, 0, {"type": "play", "card": colossus, "targets": []}, "affinity")
    state["players"][0]["resources"] = state["players"][0]["resources"][:2]
    resources(state, 0, "fire", 1)
    refused(state, 0, {"type": "play", "card": colossus, "targets": []}, "mana_cost")


def test_targets_are_region_limited():
    state = game()
    far = put(state, 1, "Jelly")  # at home in r1, while the battle is in r0
    resources(state, 0, "fire", 1)
    arc = give(state, 0, "Arc Lightning")
    battle(state)["battle"]["formations"].append({"id": "f1", "attacker": 1, "defender": 0, "region": "r0",
                                                  "destination": "r0", "columns": [], "blocks": None,
                                                  "blocked": [], "tokens": []})
    window(state, "r0")
    refused(state, 0, {"type": "play", "card": arc, "targets": [far]}, "target_in_region")


def test_swift_deals_first_deadly_kills_and_tough_doubles_defense():
    state = battle(game())
    drifter = put(state, 0, "Dune Drifter")  # 2/2 swift
    hound = put(state, 1, "Steppe Nomad")  # 3/1
    place_attack(state, 0, [{"target": 1, "columns": [[drifter]]}])
    place_blocks(state, 1, "r1", {"f1": [[hound]]})
    combat(state, "r1")
    assert hound not in state["units"] and state["units"][drifter]["damage"] == 0, "swift: first, no reply"
    terror, golem = put(state, 0, "Tidepool Terror", region="r1"), put(state, 1, "Tremor Elemental")
    state["battle"] = {"phase": 1, "formations": [], "next": 1, "triggered": []}
    place_attack(state, 0, [{"target": 1, "columns": [[terror]]}])
    for unit in state["units"].values():
        unit["region"] = "r1"
    place_blocks(state, 1, "r1", {"f2": [[golem]]})
    combat(state, "r1")
    assert golem not in state["units"], "deadly: 1 damage kills a 5/6"
    sentry = put(state, 0, "Mesa Sentry")
    assert stats(state, sentry) == (0, 8)


def test_a_unit_that_dealt_damage_with_its_swift_partner_does_not_deal_again_once_the_partner_is_gone():
    """"Dune Drifter has the 'Swift' attribute, which allows it to deal combat damage first";
    "Combat attributes ... are shared by units in the same column"; "When a unit with
    attributes is removed from a column, all other units in its column immediately lose access
    to any attributes which that unit may have been sharing"; and only Swift with Sluggish
    "deals combat damage twice" (Q&A). The Nomad deals with the Drifter's Swift, first; when
    the Drifter dies in that moment, the Nomad does not deal again at the normal moment."""
    state = battle(game())
    drifter, nomad = put(state, 0, "Dune Drifter"), put(state, 0, "Steppe Nomad")  # 2/2 swift, 3/1
    imp, sentry = put(state, 1, "Ember Imp"), put(state, 1, "Mesa Sentry")
    for unit in state["units"].values():
        unit["region"] = "r1"
    place_attack(state, 0, [{"target": 1, "columns": [[drifter, nomad]]}])
    place_blocks(state, 1, "r1", {"f1": [[imp, sentry]]})
    combat(state, "r1")
    while state.get("choice"):  # the attacker puts the least it may on the front blocker
        assigned(state, state["choice"]["options"][0])
    assert drifter not in state["units"] and imp not in state["units"], "the swift moment's trades"
    dealt_once = 2 + 3 - 2  # the column's 5 power, the Imp's lethal 2 first, the rest to the Sentry
    assert state["units"][sentry]["damage"] == dealt_once, "the Nomad dealt once, in the swift moment"


def test_a_column_with_swift_and_sluggish_deals_twice_first_and_last():
    """Q&A: "How does a unit with Swift and Sluggish work? It deals combat damage twice, going
    first and last". Dune Drifter (2/2, Swift) in front of Deepwater Leviathan (6/6, Sluggish),
    unblocked: the column's 8 reaches the defender twice."""
    state = battle(game())
    drifter, leviathan = put(state, 0, "Dune Drifter"), put(state, 0, "Deepwater Leviathan")
    for unit in state["units"].values():
        unit["region"] = "r1"
    life = state["players"][1]["life"]
    place_attack(state, 0, [{"target": 1, "columns": [[drifter, leviathan]]}])
    place_blocks(state, 1, "r1", {})
    combat(state, "r1")
    assert life - state["players"][1]["life"] == 2 * (2 + 6)


def test_balanced_inverted_and_malformed_monstrosity():
    """Malformed Monstrosity with Reality Bender in its column is Inverted: its -7/-7 becomes
    +7/+7, a 17/16."""
    state = battle(game())
    monster, bender = put(state, 0, "Malformed Monstrosity"), put(state, 0, "Reality Bender")
    assert stats(state, monster) == (3, 2)
    place_attack(state, 0, [{"target": 1, "columns": [[monster, bender]]}])
    assert stats(state, monster) == (17, 16)
    assert stats(state, put(state, 1, "Granite Bulwark")) == (5, 5)


def test_regroup_erases_spell_tokens_keeps_unit_tokens_and_resets():
    state = game()
    unit = put(state, 0, "Jelly")
    state["units"][unit].update(damage=0, temp=[2, 2], temp_attributes=["flying"])
    state["spell_tokens"]["Fireball#1"] = {"controller": 0, "region": "r0", "x": 1}
    state["units"]["Sapling#2"] = dict(state["units"][unit], card="Sapling", token=True, temp=[0, 0],
                                       temp_attributes=[])
    from domain.games.algomancy.flow import _regroup
    _regroup(state)
    assert state["spell_tokens"] == {} and "Sapling#2" in state["units"]
    assert stats(state, unit) == (1, 1) and attributes(state, unit) == []


def test_graft_accelerated_germination_onto_oracle_of_the_flame():
    """"Sacrifice me: Create a Fireball 1 AND (once per turn) create two 1/1 units."""
    state = at(game(), "deploy", seats=[0])
    oracle = put(state, 0, "Oracle of the Flame")
    germination = give(state, 0, "Accelerated Germination")
    resources(state, 0, "wood", 2)
    jelly = put(state, 0, "Jelly")
    refused(state, 0, {"type": "mod", "card": germination, "onto": jelly}, "graft_both_cards")
    state = act(state, 0, {"type": "mod", "card": germination, "onto": oracle})
    state = act(state, 0, {"type": "activate", "unit": oracle, "targets": []})
    assert oracle not in state["units"]
    assert [name.split("#")[0] for name in state["spell_tokens"]] == ["Fireball"]
    assert sorted(u["card"] for u in state["units"].values() if u["token"]) == ["Sapling", "Sapling"]
    assert germination in state["erased"], "a modded card is erased with its mods"


def test_a_virus_in_battle_is_an_augment_from_hand_onto_an_enemy_unit():
    """Augment Smouldering Inferno onto an opposing unit to force it to sacrifice itself
    after combat; its controller controls the augment's ability."""
    state = game()
    enemy = put(state, 1, "Boulder Golem", region="r1")
    resources(state, 0, "fire", 2)
    inferno = give(state, 0, "Smouldering Inferno")
    battle(state)["battle"]["formations"].append({"id": "f1", "attacker": 0, "defender": 1, "region": "r1",
                                                  "destination": "r1", "columns": [], "blocks": [],
                                                  "blocked": [], "tokens": []})
    window(state, "r1", stage="block")
    state = act(state, 0, {"type": "mod", "card": inferno, "onto": enemy})
    assert state["stack"][-1]["kind"] == "virus"
    state = act(state, 0, {"type": "pass_priority"})
    state = act(state, 1, {"type": "pass_priority"})
    assert "unstable" in attributes(state, enemy) and not state["stack"]
    state["script"] = [{"k": "window", "region": "r1", "stage": "after_combat"}] + state["script"]
    state = act(state, 0, {"type": "pass_priority"})
    state = act(state, 1, {"type": "pass_priority"})
    assert state["step"]["stage"] == "after_combat" and len(state["stack"]) == 1
    state = act(state, 0, {"type": "pass_priority"})
    state = act(state, 1, {"type": "pass_priority"})
    assert enemy not in state["units"] and inferno in state["erased"]
    deploy = at(game(), "deploy", seats=[0])
    other = put(deploy, 1, "Jelly", region="r0")
    resources(deploy, 0, "fire", 2)
    refused(deploy, 0, {"type": "mod", "card": give(deploy, 0, "Smouldering Inferno"), "onto": other}, "mod_own_unit")


def test_corrupting_blight_changes_control_after_combat():
    state = game()
    blight = put(state, 0, "Corrupting Blight", region="r1")
    battle(state)["battle"]["formations"].append({"id": "f1", "attacker": 0, "defender": 1, "region": "r1",
                                                  "destination": "r1", "columns": [[blight]], "blocks": [],
                                                  "blocked": [False], "tokens": []})
    state["step"] = {"k": "window", "region": "r1", "stage": "after_combat"}
    from domain.games.algomancy.flow import _begin
    _begin(state, state["step"])
    state["script"] = [{"k": "regroup"}, {"k": "deploy", "seats": [0, 1]}]
    state = act(state, 0, {"type": "pass_priority"})
    state = act(state, 1, {"type": "pass_priority"})
    assert state["units"][blight]["controller"] == 1
    state = act(state, 0, {"type": "pass_priority"})
    state = act(state, 1, {"type": "pass_priority"})
    assert state["units"][blight]["region"] == "r1", "it returns to its new controller's region at regroup"


def test_prickly_protector_sees_only_its_region_and_flux_resonator_adds_a_counter():
    state = game()
    prickly = put(state, 0, "Prickly Protector")
    put(state, 0, "Jelly")
    put(state, 0, "Jelly", region="r1")
    assert stats(state, prickly) == (2, 2)
    resonator = put(state, 0, "Flux Resonator")
    from domain.games.algomancy.effects import place_counters
    place_counters(state, prickly, 1)
    assert state["units"][prickly]["counters"] == 2
    assert resonator in state["units"]


def test_archenemy_takes_the_opening_turn_alone():
    state = new({"setup": "archenemy"}, 3)
    assert state["step"]["seats"] == [0] and state["initiative"] == 0
    assert RULESET.to_act(state) == {0}


def test_joint_teams_share_a_region_and_priority():
    state = game("teams_joint", 4, initiative=0)
    assert state["home"] == ["r0", "r1", "r0", "r1"]
    battle(state)["battle"]["formations"].append({"id": "f1", "attacker": 0, "defender": 1, "region": "r1",
                                                  "destination": "r1", "columns": [], "blocks": None,
                                                  "blocked": [], "tokens": []})
    window(state, "r1")
    assert RULESET.to_act(state) == {0}
    state = act(state, 0, {"type": "pass_priority"})
    assert RULESET.to_act(state) == {1, 3}, "all players on a team share priority"


def test_the_initiative_team_receives_priority_first_where_the_initiative_player_is_absent():
    """"Teams always act together in all situations and phases of the game. The
    Initiative-Team (IT) must make all of their plays first"; "All players on a team share
    priority ... Teams pass priority and receive priority collectively." Split teams (0 and 2
    against 1 and 3), initiative on seat 0: seat 2 attacks seat 1 in r1, where seat 0 is not.
    The player nearest seat 0 clockwise is seat 1, of the other team; seat 2's team has the
    initiative, so seat 2 receives priority first."""
    state = game("teams_split", 4, initiative=0)
    hound = put(state, 2, "Cinder Hound", region="r1")
    put(state, 1, "Jelly")
    battle(state)["battle"]["formations"].append({"id": "f1", "attacker": 2, "defender": 1, "region": "r1",
                                                  "destination": "r1", "columns": [[hound]], "blocks": None,
                                                  "blocked": [], "tokens": []})
    window(state, "r1")
    assert RULESET.to_act(state) == {2}, "the initiative team first"
    refused(state, 1, {"type": "pass_priority"}, "not_your_priority")
    state = act(state, 2, {"type": "pass_priority"})
    assert RULESET.to_act(state) == {1}


def test_archenemys_opponents_with_the_initiative_receive_priority_before_the_archenemy():
    """"Whichever team the player with the initiative token is on has the initiative." In
    Archenemy (seat 0 against 1 and 2) with the token on seat 2, seat 1 attacks the Archenemy's
    region, where seat 2 is not: seat 1's team has the initiative and acts first, though the
    Archenemy (seat 0) is nearer seat 2 clockwise."""
    state = game("archenemy", 3, initiative=2)
    hound = put(state, 1, "Cinder Hound", region="r0")
    battle(state)["battle"]["formations"].append({"id": "f1", "attacker": 1, "defender": 0, "region": "r0",
                                                  "destination": "r0", "columns": [[hound]], "blocks": None,
                                                  "blocked": [], "tokens": []})
    window(state, "r0")
    assert RULESET.to_act(state) == {1}
    state = act(state, 1, {"type": "pass_priority"})
    assert RULESET.to_act(state) == {0}


def test_each_player_sacrifices_in_priority_order_the_initiative_team_first():
    """Maw of Damnation, "Each player sacrifices a unit": each decides in priority order, and
    the Initiative-Team "must make all of their plays first". Split teams, initiative on seat 0,
    battle in r1 between seat 2 (initiative team) and seat 1: seat 2 chooses before seat 1."""
    state = game("teams_split", 4, initiative=0)
    hound, imp = put(state, 2, "Cinder Hound", region="r1"), put(state, 2, "Ember Imp", region="r1")
    jelly, guard = put(state, 1, "Jelly"), put(state, 1, "Coral Guard")
    battle(state)["battle"]["formations"].append({"id": "f1", "attacker": 2, "defender": 1, "region": "r1",
                                                  "destination": "r1", "columns": [[hound], [imp]],
                                                  "blocks": None, "blocked": [], "tokens": []})
    window(state, "r1")
    resources(state, 2, "fire", 3)
    state = act(state, 2, {"type": "play", "card": give(state, 2, "Maw of Damnation"), "targets": []})
    state = act(state, 2, {"type": "pass_priority"})
    state = act(state, 1, {"type": "pass_priority"})
    assert state["choice"]["queue"] == [2, 1], "the initiative team's player decides first"
    state = act(state, 2, {"type": "choose", "option": imp})
    state = act(state, 1, {"type": "choose", "option": jelly})
    assert imp not in state["units"] and jelly not in state["units"] and {hound, guard} <= set(state["units"])


ILLEGAL = [
    ("draft", {"type": "play", "card": "Jelly#1", "targets": []}, "play_timing"),
    ("draft", {"type": "pass_priority"}, "priority_window"),
    ("draft", {"type": "declare_blocks", "blocks": {}}, "block_step"),
    ("draft", {"type": "declare_attack", "formations": []}, "attack_step"),
    ("draft", {"type": "end_planning"}, "resource_step"),
    ("draft", {"type": "end_haste"}, "haste_step"),
    ("draft", {"type": "end_deployment"}, "deployment"),
    ("draft", {"type": "mod", "card": "Jelly#1", "onto": "x"}, "mod_timing"),
    ("draft", {"type": "activate", "unit": "x"}, "ability_timing"),
    ("draft", {"type": "exchange", "hand_card": "a", "pack_card": "b"}, "constructed_draft"),
    ("draft", {"type": "create_resource", "card": "a", "element": "fire"}, "resource_step"),
    ("draft", {"type": "fly"}, "unknown_action"),
    ("draft", {"type": "choose", "option": "x"}, "no_choice"),
    ("resources", {"type": "create_resource", "card": "nope", "element": "fire"}, "card_in_hand"),
    ("resources", {"type": "activate_resource", "resource": "nope"}, "dormant_resource"),
    ("deploy", {"type": "play", "card": "nope", "targets": []}, "card_in_hand"),
    ("deploy", {"type": "activate", "unit": "nope", "targets": []}, "ability_own_unit"),
    ("deploy", {"type": "mod", "card": "nope", "onto": "nope"}, "mod_from_hand_or_bin"),
    ("attack", {"type": "declare_attack", "formations": [{"target": 0, "columns": [["x"]]}]},
     "attack_neighbouring_enemy"),
    ("attack", {"type": "declare_attack", "formations": [{"target": 1, "columns": [["x"]]}]}, "formation_unit"),
    ("attack", {"type": "declare_attack", "formations": [{"target": 1, "columns": [["a", "b", "c"]]}]},
     "formation_front_first"),
    ("attack", {"type": "declare_attack", "formations": [{"target": 1, "columns": []}]}, "attack_needs_units"),
]


@pytest.mark.parametrize("step, action, code", ILLEGAL, ids=[f"{s}-{a['type']}-{c}" for s, a, c in ILLEGAL])
def test_every_illegal_play_is_refused_with_a_code_naming_the_rule(step, action, code):
    state = game()
    at(state, step, seats=[0])
    if step == "attack":
        battle(state)
    refused(state, 0, action, code)


def test_not_your_priority():
    state = game()
    battle(state)["battle"]["formations"].append({"id": "f1", "attacker": 0, "defender": 1, "region": "r1",
                                                  "destination": "r1", "columns": [], "blocks": None,
                                                  "blocked": [], "tokens": []})
    window(state, "r1")
    refused(state, 1, {"type": "pass_priority"}, "not_your_priority")


def test_every_listed_action_is_accepted_and_the_data_is_complete():
    state = new({"setup": "ffa", "format": "live_draft"}, 3)
    for seat in RULESET.to_act(state):
        for action in RULESET.legal_actions(state, seat)[:30]:
            RULESET.decide(state, seat, action, RandomStream(b"x" * 32, "m", 2))
    assert len(CARDS) == 90 and all(c["text"] or c["type"] == "unit" for c in CARDS.values())


def test_a_new_graft_may_go_anywhere_below_the_card_but_grafts_are_not_reordered():
    """"You may insert the new effect at any position within the graft stack below the
    original card, but you may not re-order the rest of the grafted abilities." """
    state = at(game(), "deploy", seats=[0])
    servo = put(state, 0, "Servo Mechanic")
    resources(state, 0, "wood", 6)
    resources(state, 0, "metal", 4)
    first, second = give(state, 0, "Accelerated Germination"), give(state, 0, "Arc Welder")
    state = act(state, 0, {"type": "mod", "card": first, "onto": servo})
    refused(state, 0, {"type": "mod", "card": second, "onto": servo, "position": 2}, "mod_position")
    state = act(state, 0, {"type": "mod", "card": second, "onto": servo, "position": 0})
    assert [m["card"] for m in state["units"][servo]["mods"]] == [second, first]
    from domain.games.algomancy.plays import ability_of
    cost, kinds, effects, bounded = ability_of(state, servo)
    assert [e["do"] for e in effects] == ["counters", "damage", "create_units"] and kinds == ["ally_unit", "unit"]
    assert bounded == [1, 2], "both grafts are bounded: once per turn each"


def test_two_tokens_carrying_pathogenic_enclave_delete_each_other_and_the_rest():
    """"Augment: When I despawn, delete all your token allies." With two augmented tokens, the
    second's trigger runs inside the first's and deletes the tokens the first was still going
    through; those are gone, not an error (a search-bot match crashed here on KeyError)."""
    state = at(game(), "deploy", seats=[0])
    home = state["home"][0]
    tokens = [spawn_unit(state, "Construct", 0, home, token=True) for _ in range(3)]
    for number, token in enumerate(tokens[:2]):
        state["units"][token]["mods"].append({"card": f"Pathogenic Enclave#{700 + number}", "kind": "augment", "owner": 0})
    keeper = put(state, 0, "Jelly")
    leave_play(state, tokens[0], "die")
    assert sorted(state["units"]) == [keeper], "every token ally is deleted, the card unit stays"


# --- a fourth, independent read (each test failed on the code before its fix) ----------------

def test_nit_effects_will_enter_the_stack_last_and_resolve_before_it_effects_in_a_team_game():
    """Q&A: "Each player decides the order their effects go on the stack. NIT effects will
    enter the stack last and resolve before IT effects." With "Teams always act together" and
    "Whichever team the player with the initiative token is on has the initiative", both
    Initiative-team players' after-combat triggers go beneath the NIT player's. 2v2 split,
    seat 0 holds the initiative (team 0: seats 0 and 2); both attack seat 1's region, and each
    of the three has a Smouldering Inferno there: the stack is 0, 2, then 1 on top, and seat 1's
    sacrifice resolves first. (Clockwise from the initiative player alone put seat 2, an IT
    player, on top of the NIT's effect.)"""
    from domain.games.algomancy.flow import _begin

    from .test_review import attacking
    state = game("teams_split", 4, initiative=0)
    zero, two = put(state, 0, "Smouldering Inferno", region="r1"), put(state, 2, "Smouldering Inferno", region="r1")
    one = put(state, 1, "Smouldering Inferno")
    for attacker, unit in ((0, zero), (2, two)):
        attacking(state, attacker, 1, [[unit]])
    for formation in state["battle"]["formations"]:
        formation.update(blocks=[], blocked=[False])
    state = at(state, "window", region="r1", stage="after_combat")
    _begin(state, state["step"])
    assert [item["controller"] for item in state["stack"]] == [0, 2, 1]
    for _ in range(2):  # the Initiative team passes (either partner for both), then the NIT: the top resolves
        state = act(state, min(RULESET.to_act(state)), {"type": "pass_priority"})
    assert one not in state["units"] and zero in state["units"] and two in state["units"]


def test_ambush_will_recall_an_allied_unit_a_team_mates_too():
    """"The ambush ability allows units to be played as an effect during battle that will
    recall an allied unit, placing the ambushing unit directly into their position in play"
    (Reef Ambusher: "recall target allied unit in this region"). In a joint team game the
    partners share a region and are allies: seat 0 may ambush to save its partner's Cinder
    Hound from a removal, which returns to the partner's (its owner's) hand. An enemy unit is
    no ally."""
    from .test_review import attacking
    state = game("teams_joint", 4, initiative=0)
    partner_hound = put(state, 2, "Cinder Hound")  # seat 2 is seat 0's partner, region r0
    raider = put(state, 1, "Jelly", region="r0")
    attacking(state, 1, 0, [[raider]])
    window(state, "r0")
    resources(state, 0, "water", 2)
    ambusher = give(state, 0, "Reef Ambusher")
    listed = RULESET.legal_actions(state, 0)
    assert {a["recall"] for a in listed if a["type"] == "ambush"} == {partner_hound}
    refused(state, 0, {"type": "ambush", "card": ambusher, "recall": raider}, "target_in_region")
    state = act(state, 0, {"type": "ambush", "card": ambusher, "recall": partner_hound})
    for _ in range(2):
        state = act(state, min(RULESET.to_act(state)), {"type": "pass_priority"})
    assert partner_hound in state["players"][2]["hand"] and partner_hound not in state["units"]
    assert state["units"][ambusher]["controller"] == 0 and state["units"][ambusher]["region"] == "r0"


def test_a_formation_names_its_units_and_tokens_by_id_and_anything_else_is_refused():
    """(From a fresh read.) A formation's columns and tokens hold ids: a list, an object or a
    null in their place is refused with a code. An unhashable one crashed the lookup, a 500
    through the API, whose check of fields against the listing has no item to compare with
    while every listed formation's tokens are empty."""
    state = battle(at(game(), "attack", seats=[0]))
    unit = put(state, 0, "Boulder Golem")
    for tokens in ([["x"]], [{}], None):
        refused(state, 0, {"type": "declare_attack", "formations": [{"target": 1, "columns": [[unit]], "tokens": tokens}]},
                "attack_shape")
    refused(state, 0, {"type": "declare_attack", "formations": [{"target": 1, "columns": [[["x"]]]}]},
            "formation_front_first")


def test_only_an_ability_whose_cost_sacrifices_a_unit_names_one_to_sacrifice():
    """(From a fresh read.) "sacrifice" names the unit an ability's cost sacrifices ("sacrifice
    another unit"): on any other ability it was accepted and nothing was sacrificed, so the log
    recorded a sacrifice that never happened. It is refused there."""
    state = at(game(), "deploy", seats=[0])
    servo, golem, bystander = put(state, 0, "Servo Mechanic"), put(state, 0, "Boulder Golem"), put(state, 0, "Boulder Golem")
    resources(state, 0, "metal", 2)
    refused(state, 0, {"type": "activate", "unit": servo, "targets": [golem], "sacrifice": bystander},
            "sacrifice_own_here")
    assert bystander in act(state, 0, {"type": "activate", "unit": servo, "targets": [golem]})["units"]
