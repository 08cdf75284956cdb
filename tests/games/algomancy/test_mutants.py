"""Rule tests written for the mutants that survived the third read's mutation run (README
"Test strength"): each asserts a rule, from the rulebook's words where it has them, that no
test asserted before (card effects never resolved in a test, elimination, the turn's steps,
the listing's target and sacrifice choices, set-up options)."""

import random

import pytest

from domain.games.algomancy import RULESET
from domain.games.algomancy.effects import check_deaths, spawn_unit
from domain.games.algomancy.flow import _end_of_turn, eliminate
from domain.games.algomancy.state import attributes, stats
from domain.kernel.errors import InvalidSetup
from domain.kernel.rng import RandomStream

from .arena import act, at, battle, game, give, put, refused, resources, window
from .test_examples import pass_all
from .test_review import attacking


def in_battle(initiative=0):
    """Seat 0's Cinder Hound attacks seat 1; the attack window in r1."""
    state = game(initiative=initiative)
    hound = put(state, 0, "Cinder Hound", region="r1")
    attacking(state, 0, 1, [[hound]])
    window(state, "r1")
    return state, hound


def play_and_resolve(state, seat, name, targets, element, cost):
    while seat not in RULESET.to_act(state):
        state = pass_all(state, 1)
    resources(state, seat, element, cost)
    card = give(state, seat, name)
    state = act(state, seat, {"type": "play", "card": card, "targets": targets})
    return pass_all(state, 2 * max(1, len(state["stack"]))), card


# --- card effects ------------------------------------------------------------------------

def test_battle_the_two_units_deal_damage_equal_to_their_power_to_each_other():
    """Battle: "Target allied unit and target enemy unit deal damage equal to their power to
    each other." Cinder Hound (3/2) and Boulder Golem (3/5): the Hound dies, the Golem has 3."""
    state, hound = in_battle()
    golem = put(state, 1, "Boulder Golem")
    state, _ = play_and_resolve(state, 0, "Battle", [hound, golem], "metal", 2)
    assert hound not in state["units"] and state["units"][golem]["damage"] == 3


def test_magnetic_pulse_deletes_into_the_bin_and_undertow_returns_to_hand():
    """"When a unit dies or is deleted, it is placed in the bin"; Undertow: "Return target unit
    to its owner's hand"."""
    state, hound = in_battle()
    golem, guard = put(state, 1, "Boulder Golem"), put(state, 1, "Coral Guard")
    state, _ = play_and_resolve(state, 0, "Magnetic Pulse", [golem], "metal", 4)
    assert golem not in state["units"] and state["players"][1]["bin"] == [golem]
    state, _ = play_and_resolve(state, 0, "Undertow", [guard], "water", 2)
    assert guard not in state["units"] and guard in state["players"][1]["hand"]


def test_quake_siphon_current_boon_of_protection_and_mist_veil():
    """Quake: "Deal 1 damage to each enemy unit"; Siphon Current: "Each opponent loses 2 life
    and you gain 2 life"; Boon of Protection: "Prevent all damage to target unit until
    regroup"; Mist Veil: "Target unit gains Flying until regroup"."""
    state, hound = in_battle()
    jelly, guard = put(state, 1, "Jelly"), put(state, 1, "Coral Guard")
    state, _ = play_and_resolve(state, 1, "Boon of Protection", [guard], "earth", 1)
    state, _ = play_and_resolve(state, 0, "Quake", [], "earth", 3)
    assert jelly not in state["units"] and state["units"][guard]["damage"] == 0 and state["units"][hound]["damage"] == 0
    state, _ = play_and_resolve(state, 0, "Siphon Current", [], "water", 2)
    assert state["players"][1]["life"] == 28 and state["players"][0]["life"] == 32
    state, _ = play_and_resolve(state, 0, "Mist Veil", [hound], "water", 1)
    state, _ = play_and_resolve(state, 0, "Mist Veil", [hound], "water", 1)
    assert state["units"][hound]["temp_attributes"] == ["flying"]
    from domain.games.algomancy.flow import _regroup
    _regroup(state)
    assert not state["units"][guard]["protected"] and "flying" not in attributes(state, hound)


def test_twin_flame_with_one_target_gone_still_damages_the_other():
    """Q&A: "if one of the two Twin Flame targets is removed, the other will still receive
    damage"; and the same unit cannot be chosen twice."""
    state, hound = in_battle()
    jelly, guard = put(state, 1, "Jelly"), put(state, 1, "Coral Guard")
    resources(state, 0, "fire", 2)
    flame = give(state, 0, "Twin Flame")
    refused(state, 0, {"type": "play", "card": flame, "targets": [guard, guard]}, "targets_chosen_on_play")
    state = act(state, 0, {"type": "play", "card": flame, "targets": [jelly, guard]})
    state = act(state, 0, {"type": "pass_priority"})
    state, _ = play_and_resolve(state, 1, "Undertow", [jelly], "water", 2)
    assert jelly in state["players"][1]["hand"] and state["units"][guard]["damage"] == 2


def test_null_drone_targets_only_an_effect_on_the_stack():
    """Null Drone: "Negate target effect on the stack" - an effect that is not (or no longer)
    on the stack cannot be chosen; the one there is negated and goes to the bin."""
    state, hound = in_battle()
    resources(state, 0, "fire", 1)
    arc = give(state, 0, "Arc Lightning")
    state = act(state, 0, {"type": "play", "card": arc, "targets": ["player:1"]})
    state = act(state, 0, {"type": "pass_priority"})
    target = state["stack"][0]["id"]
    resources(state, 1, "metal", 2)
    drone = give(state, 1, "Null Drone")
    assert [a["targets"] for a in RULESET.legal_actions(state, 1) if a.get("card") == drone] == [[target]]
    refused(state, 1, {"type": "play", "card": drone, "targets": ["effect#999"]}, "target_in_region")
    state = pass_all(act(state, 1, {"type": "play", "card": drone, "targets": [target]}), 4)
    assert state["players"][1]["life"] == 30 and arc in state["players"][0]["bin"] and drone in state["players"][1]["bin"]


def test_fireball_deals_the_x_its_creator_set_and_a_leaping_lillik_spawns():
    """Oracle of the Flame: "Sacrifice me: Create a Fireball 1" - its Fireball deals 1. A
    spell unit (Leaping Lillik) "spawns into play as a unit" when it resolves."""
    state, hound = in_battle()
    oracle = put(state, 0, "Oracle of the Flame", region="r1")
    state = act(state, 0, {"type": "activate", "unit": oracle, "targets": []})
    state = pass_all(state, 2)
    (fireball,) = state["spell_tokens"]
    assert state["spell_tokens"][fireball]["x"] == 1
    state = act(state, 0, {"type": "play", "card": fireball, "targets": ["player:1"]})
    state = pass_all(state, 2)
    assert state["players"][1]["life"] == 29
    jelly = put(state, 1, "Jelly")
    state, lillik = play_and_resolve(state, 0, "Leaping Lillik", [jelly], "water", 2)
    assert jelly not in state["units"] and state["units"][lillik]["region"] == "r1"


def test_an_ability_whose_only_target_is_gone_fizzles_without_a_card():
    """Arc Welder's "Deal 2 damage to target unit" with the unit gone: nothing happens (an
    ability has no card to put in a bin)."""
    state, hound = in_battle()
    welder, jelly = put(state, 0, "Arc Welder", region="r1"), put(state, 1, "Jelly")
    state = act(state, 0, {"type": "activate", "unit": welder, "targets": [jelly]})
    bins = [list(p["bin"]) for p in state["players"]]
    state = act(state, 0, {"type": "pass_priority"})
    state, _ = play_and_resolve(state, 1, "Undertow", [jelly], "water", 2)
    assert not state["stack"] and state["players"][0]["bin"] == bins[0] and welder in bins[0]


def test_a_bounded_graft_effect_triggers_once_a_turn_on_an_unbounded_cause():
    """"If you have an unbounded graft cause and a mixture of bounded and unbounded effects, the
    graft cause will trigger an unlimited number of times, but each of the bounded effects will
    only trigger a limited number of times." Servo Mechanic with Accelerated Germination: two
    activations, two counters, one pair of Saplings; Arc Welder grafted below targets its own."""
    state = at(game(), "deploy", seats=[0])
    servo, golem = put(state, 0, "Servo Mechanic"), put(state, 0, "Boulder Golem")
    resources(state, 0, "wood", 4)
    resources(state, 0, "metal", 4)
    state = act(state, 0, {"type": "mod", "card": give(state, 0, "Accelerated Germination"), "onto": servo})
    for _ in range(2):
        state = act(state, 0, {"type": "activate", "unit": servo, "targets": [golem]})
    assert state["units"][golem]["counters"] == 2
    assert sorted(u["card"] for u in state["units"].values() if u["token"]) == ["Sapling", "Sapling"]
    from domain.games.algomancy.plays import ability_of
    state = act(state, 0, {"type": "mod", "card": give(state, 0, "Arc Welder"), "onto": servo})
    _, kinds, effects, _ = ability_of(state, servo)
    assert kinds == ["ally_unit", "unit"] and [e.get("t") for e in effects] == [0, None, 1]


def test_maw_of_damnation_asks_who_has_a_choice_and_settles_the_rest():
    """Maw of Damnation: "Each player sacrifices a unit" - "they would get to decide what to
    sacrifice": a player with one unit is not asked; one with two chooses; then the spell
    finishes into the bin."""
    state, hound = in_battle()
    jelly, guard = put(state, 1, "Jelly"), put(state, 1, "Coral Guard")
    resources(state, 0, "fire", 3)
    maw = give(state, 0, "Maw of Damnation")
    state = act(state, 0, {"type": "play", "card": maw, "targets": []})
    state = pass_all(state, 2)
    assert hound not in state["units"] and state["choice"]["queue"] == [1]
    state = act(state, 1, {"type": "choose", "option": jelly})
    assert jelly not in state["units"] and guard in state["units"] and state["players"][0]["bin"].count(maw) == 1


def test_corrupting_blight_gone_before_its_trigger_resolves_changes_nothing():
    state = game()
    blight = put(state, 0, "Corrupting Blight", region="r1")
    attacking(state, 0, 1, [[blight]])
    state["battle"]["formations"][0].update(blocks=[], blocked=[False])
    state = at(state, "window", region="r1", stage="after_combat")
    from domain.games.algomancy.flow import _begin
    _begin(state, state["step"])
    state = act(state, 0, {"type": "pass_priority"})
    state, _ = play_and_resolve(state, 1, "Undertow", [blight], "water", 2)
    assert blight in state["players"][0]["hand"] and not state["stack"] and not state["choice"]


def test_a_unit_at_exactly_zero_defense_dies():
    """"A unit with 0 or less defense will immediately die." Jelly (1/1) with a -1/-1 counter."""
    state = game()
    jelly = put(state, 0, "Jelly")
    state["units"][jelly]["counters"] = -1
    check_deaths(state)
    assert jelly not in state["units"]


def test_prickly_protector_adds_its_allies_to_its_own_stat_changes():
    state = game()
    prickly = put(state, 0, "Prickly Protector")
    put(state, 0, "Jelly")
    state["units"][prickly]["counters"] = 1
    assert stats(state, prickly) == (3, 3)


def test_shards_are_expended_first():
    """README I4: a cost expends Shards first (they give no affinity), then Prismites."""
    state = at(game(), "deploy", seats=[0])
    resources(state, 0, "earth", 2)
    state["players"][0]["resources"].insert(1, {"id": "Shard#1", "kind": "Shard", "element": None,
                                                 "expended": False})
    state = act(state, 0, {"type": "play", "card": give(state, 0, "Mesa Sentry"), "targets": []})
    assert [r["expended"] for r in state["players"][0]["resources"]] == [False, True, False]


def test_rift_dryads_end_of_turn_ability_gains_a_life():
    """Rift Dryad: "At the end of turn, gain 1 life" - a special action after deployment."""
    state = game()
    put(state, 0, "Rift Dryad")
    put(state, 0, "Rift Dryad")
    _end_of_turn(state)
    assert state["players"][0]["life"] == 32 and state["players"][1]["life"] == 30 and not state["stack"]


# --- playing: what is listed and refused -------------------------------------------------

def test_battle_listing_offers_own_abilities_ambushes_and_viruses_and_every_target_kind():
    state, hound = in_battle()
    jelly = put(state, 1, "Jelly")
    put(state, 1, "Pyre Cultist")
    swallower, cultist = put(state, 0, "Soul Swallower", region="r1"), put(state, 0, "Pyre Cultist", region="r1")
    resources(state, 0, "fire", 3)
    resources(state, 0, "water", 2)
    resources(state, 0, "wood", 1)
    resources(state, 0, "metal", 2)
    arc, ambusher, spore = give(state, 0, "Arc Lightning"), give(state, 0, "Reef Ambusher"), give(state, 0, "Blightspore")
    fight = give(state, 0, "Battle")
    state["spell_tokens"]["Fireball#990"] = {"controller": 0, "region": "r1", "x": 2}
    listed = RULESET.legal_actions(state, 0)
    mine = {hound, swallower, cultist}
    assert {a["unit"] for a in listed if a["type"] == "activate"} == {swallower, cultist}
    assert {a["sacrifice"] for a in listed if a["type"] == "activate" and a["unit"] == swallower} == {hound, cultist}
    assert {a["recall"] for a in listed if a["type"] == "ambush" and a["card"] == ambusher} == mine
    assert {a["onto"] for a in listed if a["type"] == "mod" and a["card"] == spore} == mine | {jelly} | {
        u for u in state["units"] if state["units"][u]["controller"] == 1}
    assert {tuple(a["targets"]) for a in listed if a.get("card") == fight} == {
        (ally, enemy) for ally in mine for enemy in state["units"] if state["units"][enemy]["controller"] == 1}
    arc_targets = {a["targets"][0] for a in listed if a.get("card") == arc}
    assert {jelly, hound, "player:0", "player:1"} <= arc_targets
    fireball = [a for a in listed if a.get("card") == "Fireball#990"]
    assert fireball and all("burst_targets" not in a for a in fireball)
    refused(state, 0, {"type": "play", "card": arc, "targets": [jelly], "burst_targets": [[hound]]}, "burst_targets")
    for action in listed:
        RULESET.decide(state, 0, action, RandomStream(b"\x03" * 32, "m", 9))


def test_sacrifices_must_be_your_own_other_units_and_a_sacrificed_unit_is_no_target():
    """"You cannot sacrifice something you don't control"; a cost paid by sacrificing a unit
    leaves it no target."""
    state, hound = in_battle()
    swallower, welder = put(state, 0, "Soul Swallower", region="r1"), put(state, 0, "Arc Welder", region="r1")
    jelly = put(state, 1, "Jelly")
    refused(state, 0, {"type": "activate", "unit": swallower, "targets": [], "sacrifice": jelly}, "sacrifice_own_here")
    refused(state, 0, {"type": "activate", "unit": swallower, "targets": [], "sacrifice": swallower},
            "sacrifice_own_here")
    refused(state, 0, {"type": "activate", "unit": welder, "targets": [welder]}, "targets_chosen_on_play")


def test_an_ambush_pays_its_cost_and_spawns_in_the_region():
    state, hound = in_battle()
    resources(state, 0, "water", 3)
    ambusher = give(state, 0, "Reef Ambusher")
    state = act(state, 0, {"type": "ambush", "card": ambusher, "recall": hound})
    assert [r["expended"] for r in state["players"][0]["resources"]] == [True, True, False], "its cost: 2"
    state = pass_all(state, 2)
    assert state["units"][ambusher]["region"] == "r1"


def test_in_battle_only_a_virus_from_hand_is_applied_as_a_mod():
    """"If a virus is in a bin, it can be applied as normal during deployment but cannot be
    used as a mod during battle"."""
    state, hound = in_battle()
    jelly = put(state, 1, "Jelly")
    resources(state, 0, "wood", 2)
    spore = give(state, 0, "Blightspore", where="bin")
    refused(state, 0, {"type": "mod", "card": spore, "onto": jelly}, "virus_from_hand")
    refused(state, 0, {"type": "mod", "card": give(state, 0, "Stoneskin Adept"), "onto": jelly}, "virus_from_hand")


def test_a_graft_is_listed_onto_units_with_the_graft_symbol_only():
    state = at(game(), "deploy", seats=[0])
    oracle, jelly = put(state, 0, "Oracle of the Flame"), put(state, 0, "Jelly")
    resources(state, 0, "wood", 2)
    germination = give(state, 0, "Accelerated Germination")
    assert {a["onto"] for a in RULESET.legal_actions(state, 0) if a.get("card") == germination
            and a["type"] == "mod"} == {oracle}
    assert jelly in state["units"]


# --- the turn, battle and elimination -----------------------------------------------------

def turn_steps(options, seats, seed=5, until=("draft", 2)):
    """Play with the greedy bot until the step `until` (kind, turn); the steps of the turns
    before and who was asked in each."""
    state = RULESET.setup(options, [f"p{i}" for i in range(seats)], RandomStream(bytes([seed]) * 32, "t", 1))
    rand, seq, steps = random.Random(seed), 1, []
    while (state["step"]["k"], state["turn"]) != until and RULESET.outcome(state) is None:
        step = (state["step"]["k"], tuple(sorted(RULESET.to_act(state))))
        if not steps or steps[-1] != step:
            steps.append(step)
        seat = min(RULESET.to_act(state))
        seq += 1
        for fact in RULESET.decide(state, seat, RULESET.bots["greedy"](state, seat, rand),
                                   RandomStream(bytes([seed]) * 32, "t", seq)):
            state = RULESET.evolve(state, fact)
    return state, steps


def test_a_turn_runs_planning_battle_regroup_then_deployment_initiative_side_first():
    """The Turn (teams/1v1): draw, draft, resources, haste; battle: the IT attacks; regroup;
    deployment "IT first, then NIT"; end of turn; then the initiative passes."""
    state, steps = turn_steps({}, 2)
    kinds = [k for i, (k, _) in enumerate(steps) if i == 0 or steps[i - 1][0] != k]
    first = 1 - state["initiative"]  # it has passed on
    assert kinds[:3] == ["draft", "resources", "haste"] and "attack" in kinds
    assert ("attack", (first,)) in steps
    assert [s for k, s in steps if k == "deploy"] == [(first,), (1 - first,)]
    assert kinds.index("attack") < kinds.index("deploy")
    assert state["battle"] is None and all(u["region"] == state["home"][u["controller"]] and not u["damage"]
                                           for u in state["units"].values()), "regrouped"
    assert not any(r["expended"] for p in state["players"] for r in p["resources"]), "resources refreshed"
    assert sum(len(p["hand"]) for p in state["players"]) > 0 and state["turn"] == 2


def test_an_ffa_turn_declares_attacks_simultaneously_and_deploys_at_once():
    state, steps = turn_steps({"setup": "ffa"}, 3)
    assert ("attack", (0, 1, 2)) in steps and ("deploy", (0, 1, 2)) in steps


def test_counter_attacking_units_are_nowhere_until_phase_2():
    """"The counter-attacking units leave the region and are treated as if they don't exist
    until phase 1 finishes." """
    state = game()
    hound, jelly = put(state, 0, "Cinder Hound"), put(state, 1, "Jelly")
    battle(at(state, "attack", seats=[0]))
    state = act(state, 0, {"type": "declare_attack", "formations": [{"target": 1, "columns": [[hound]]}]})
    state = pass_all(state, 2)
    state = act(state, 1, {"type": "declare_attack", "formations": [{"target": 0, "columns": [[jelly]]}]})
    refused(state, 1, {"type": "declare_attack", "formations": []}, "attack_step")
    assert state["units"][jelly]["region"] is None
    state = act(state, 1, {"type": "declare_blocks", "blocks": {}})
    assert state["step"] == {"k": "window", "region": "r1", "stage": "block"}
    assert state["units"][jelly]["region"] is None


def test_an_ffa_defender_alone_is_asked_for_blocks_and_intent_cards_are_cleared():
    state = game("ffa", 3, initiative=0)
    battle(at(state, "attack", intent=True))
    hound = put(state, 0, "Cinder Hound")
    state = act(state, 0, {"type": "declare_attack", "formations": [{"target": 1, "columns": [[hound]]}]})
    state = act(state, 1, {"type": "declare_attack", "formations": []})
    state = act(state, 2, {"type": "declare_attack", "formations": []})
    assert all(p["intent"] is None for p in state["players"])
    state = act(state, 0, {"type": "form_attack", "formations": {}})
    state = pass_all(state, 2)
    assert state["step"]["k"] == "block" and RULESET.to_act(state) == {1}


def test_an_eliminated_player_leaves_play_and_their_effects_and_attacks_go():
    """"When a player is eliminated, their pack is recycled"; their permanents leave play,
    their effects leave the stack (a card to its owner's bin), their attacks end; the
    other players keep theirs."""
    state = game("ffa", 3, fmt="live_draft", initiative=0)
    doomed_unit, other = put(state, 1, "Jelly"), put(state, 2, "Jelly")
    state["spell_tokens"]["Spark#991"] = {"controller": 1, "region": "r1", "x": 0}
    state["spell_tokens"]["Spark#992"] = {"controller": 2, "region": "r2", "x": 0}
    attacking(state, 1, 2, [[put(state, 1, "Cinder Hound", region="r2")]])
    attacking(state, 2, 0, [[put(state, 2, "Cinder Hound", region="r0")]])
    from domain.games.algomancy.effects import make_item
    state["stack"] += [make_item(state, 1, "r2", "card", "Arc Lightning#993", None, ["any"], ["player:2"], []),
                       make_item(state, 2, "r0", "card", "Arc Lightning#994", None, ["any"], ["player:0"], [])]
    pack, deck = list(state["players"][1]["pack"]), list(state["decks"]["shared"])
    state["players"][1]["life"] = 0
    eliminate(state)
    assert state["players"][1]["out"] and not state["players"][2]["out"] and not state["over"]
    assert doomed_unit not in state["units"] and other in state["units"]
    assert list(state["spell_tokens"]) == ["Spark#992"]
    assert [i["card"] for i in state["stack"]] == ["Arc Lightning#994"] and "Arc Lightning#993" in state["players"][1]["bin"]
    assert [f["attacker"] for f in state["battle"]["formations"]] == [2]
    assert state["decks"]["shared"] == deck + pack and state["players"][1]["pack"] == []


def test_players_at_zero_are_eliminated_whatever_their_seat():
    state = game("ffa", 3)
    state["players"][2]["life"] = 0
    eliminate(state)
    assert state["players"][2]["out"]


def test_the_winners_are_the_standing_team_or_the_team_with_more_life():
    """"Eliminate all of your opponents" - both partners of the standing team win; at the
    designed safety end the team with most life wins."""
    state = game("teams_split", 4)
    state["players"][1]["life"] = state["players"][3]["life"] = 0
    eliminate(state)
    assert RULESET.outcome(state) == {"reason": "eliminated", "winners": [0, 2]}
    state = game("teams_split", 4, turn_limit=2)
    state["turn"], state["players"][0]["life"] = 2, 10
    _end_of_turn(state)
    assert RULESET.outcome(state) == {"reason": "turn_limit", "winners": [1, 3]}


# --- set-up ------------------------------------------------------------------------------

def new(options, seats=2):
    return RULESET.setup(options, [f"p{i}" for i in range(seats)], RandomStream(b"u" * 32, "m", 1))


def test_setup_options_are_checked():
    """archenemy_turns 1 or 2 ("the single player gets to take 1-2 turns"); turn_limit 2-200;
    decks are brought only to constructed and team draft; decks hold Algomancy cards."""
    assert new({"setup": "archenemy", "archenemy_turns": 2}, 3)["solo_turns"] == 2
    for options, seats in (({"setup": "archenemy", "archenemy_turns": 3}, 3), ({"archenemy_turns": 2}, 2),
                           ({"turn_limit": 1}, 2), ({"turn_limit": 201}, 2),
                           ({"format": "live_draft", "decks": {"0": "fire"}}, 2),
                           ({"decks": {"0": [f"Nope {i}" for i in range(30)]}}, 2)):
        with pytest.raises(InvalidSetup):
            new(options, seats)


def test_decks_by_seat_name_and_what_setup_records():
    state = RULESET.setup({"decks": {"bob": "metal"}}, ["ann", "bob"], RandomStream(b"u" * 32, "m", 1))
    assert "Servo Mechanic" in state["players"][1]["deck_list"] and state["elements"] == []
    assert state["first"] == state["initiative"]
    assert new({"setup": "archenemy"}, 3)["first"] == 0, "the Archenemy holds the initiative first"
    assert len(new({"format": "live_draft", "setup": "ffa"}, 3)["elements"]) == 3, "2-3 players use 3 elements"
    team = new({"setup": "teams_split", "format": "team_draft"}, 4)
    assert all(len(p["pack"]) == 10 for p in team["players"])
    cube = new({"format": "cube_draft"})
    assert cube["step"]["k"] == "cube" and cube["decks"]["p0"] == [] and cube["cube"]["rounds"] == 15


def test_a_cut_card_goes_back_to_the_cube_and_exchanges_need_both_cards():
    state = new({"format": "traditional_cube"})
    state["step"] = {"k": "build", "seats": [0, 1]}
    state["players"][0]["hand"] = [f"Jelly#{500 + i}" for i in range(31)]
    state = act(state, 0, {"type": "cut", "card": "Jelly#500"})
    assert state["cube"]["pool"][-1] == "Jelly#500" and 0 in state["done"]
    draft = new({"format": "live_draft"})
    refused(draft, 0, {"type": "exchange", "hand_card": draft["players"][0]["hand"][0], "pack_card": "x"},
            "exchange_cards")


@pytest.mark.parametrize("step, action, code", [
    ("deploy", {"type": "exchange_prismite", "resource": "x", "element": "fire"}, "resource_step"),
    ("deploy", {"type": "recycle", "card": "x"}, "draft_step"),
])
def test_refusal_codes_name_the_step(step, action, code):
    refused(at(game(), step, seats=[0]), 0, action, code)


def test_spell_tokens_follow_the_units_into_the_attacked_region():
    """"They cannot do so on their own, however and must follow at least one other unit into
    battle" - and only your own tokens, from your region."""
    state = game()
    hound = put(state, 0, "Cinder Hound")
    state["spell_tokens"].update({"Spark#995": {"controller": 0, "region": "r0", "x": 0},
                                  "Spark#996": {"controller": 1, "region": "r1", "x": 0}})
    battle(at(state, "attack", seats=[0]))
    refused(state, 0, {"type": "declare_attack", "formations": [{"target": 1, "columns": [[hound]],
                                                                  "tokens": ["Spark#996"]}]}, "formation_unit")
    refused(state, 0, {"type": "form_attack", "formations": {}}, "form_step")
    state = act(state, 0, {"type": "declare_attack", "formations": [{"target": 1, "columns": [[hound]],
                                                                      "tokens": ["Spark#995"]}]})
    assert state["spell_tokens"]["Spark#995"]["region"] == "r1"


def test_a_formation_is_reshaped_with_columns_of_at_most_two():
    state = game()
    a, b, c = put(state, 1, "Jelly"), put(state, 1, "Jelly"), put(state, 1, "Jelly")
    battle(at(state, "attack", seats=[0]))
    state = act(state, 0, {"type": "declare_attack", "formations": []})
    state = act(state, 1, {"type": "declare_attack", "formations": [{"target": 0, "columns": [[a], [b], [c]]}]})
    refused(state, 1, {"type": "form_attack", "formations": {"f1": [[a, b, c]]}}, "formation_front_first")


def test_the_ambusher_stands_in_the_recalled_units_region():
    state, hound = in_battle()
    resources(state, 0, "water", 2)
    ambusher = give(state, 0, "Reef Ambusher")
    state = pass_all(act(state, 0, {"type": "ambush", "card": ambusher, "recall": hound}), 2)
    assert state["units"][ambusher]["region"] == "r1" and spawn_unit


def test_algomancy_cube_draft_fifteen_rounds_of_two_cards_and_a_passed_pack_make_30_card_decks():
    """"Deal each player a pack of 10 cards. Players will then complete the following process a
    total of 15 times, until each player has finished with a 30 card deck: Each player draws 2
    cards from the cube; Players may combine their hands with the packs; Players choose 10
    cards ... and pass that as a new pack clockwise to their neighbor." """
    state = new({"format": "cube_draft"}, 3 - 1)
    packs = [list(p["pack"]) for p in state["players"]]
    assert [len(p["hand"]) for p in state["players"]] == [2, 2] and state["cube"]["round"] == 1
    for seat in (0, 1):
        state = act(state, seat, {"type": "end_draft"})
    assert state["players"][1]["pack"] == packs[0] and state["players"][0]["pack"] == packs[1]
    assert [len(p["hand"]) for p in state["players"]] == [4, 4] and state["cube"]["round"] == 2
    pool = len(state["cube"]["pool"])
    for _ in range(14):
        for seat in (0, 1):
            state = act(state, seat, {"type": "end_draft"})
    assert state["cube"]["round"] == 16 and all(p["pack"] == [] for p in state["players"])
    assert [len(state["decks"][f"p{s}"]) + len(state["players"][s]["hand"]) for s in (0, 1)] == [30, 30]
    assert len(state["cube"]["pool"]) == pool - 2 * 2 * 13 + 2 * 10, "rounds 3-15 draw 2 each; the last packs go back"
    assert [len(p["hand"]) for p in state["players"]] == [8, 8] and state["step"]["k"] == "draft"
