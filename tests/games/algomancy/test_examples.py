"""The rulebook's own worked examples, played out."""

from domain.games.algomancy import RULESET
from domain.games.algomancy.battle import assigned, combat, place_attack, place_blocks
from domain.games.algomancy.effects import leave_play
from domain.games.algomancy.state import attributes, region_order, stats

from .arena import act, at, battle, game, give, put, refused, resources, window


def pass_all(state, times):
    for _ in range(times):
        (seat,) = RULESET.to_act(state)
        state = act(state, seat, {"type": "pass_priority"})
    return state


def test_four_player_battle_resolution_order_is_clockwise_from_the_left_of_the_initiative_player():
    """"This order is clockwise starting to the left of the initiative player, meaning the
    region of the initiative player will resolve last." Every FFA player attacks the player
    to their left with intent cards; nothing moves until all intent cards flip."""
    state = game("ffa", 4, initiative=2)
    assert region_order(state) == ["r3", "r0", "r1", "r2"]
    battle(at(state, "attack", intent=True))
    units = {seat: put(state, seat, "Cinder Hound") for seat in range(4)}
    for seat in (0, 1, 2):
        state = act(state, seat, {"type": "declare_attack", "formations": [
            {"target": (seat + 1) % 4, "columns": [[units[seat]]]}]})
        assert state["units"][units[seat]]["region"] == f"r{seat}", "intent cards are face down until all flip"
        other_view = RULESET.view(state, (seat + 1) % 4)
        assert other_view["players"][seat]["intent"] == {"hidden": True}, "only that an intent card lies face down"
    state = act(state, 3, {"type": "declare_attack", "formations": [{"target": 0, "columns": [[units[3]]]}]})
    assert all(state["units"][units[s]]["region"] == f"r{(s + 1) % 4}" for s in range(4))
    # Battle resolves in each region in its entirety, one region after the other: record the
    # order in which the defenders take their combat damage (nobody blocks).
    hurt, began = [], []
    while state["battle"] is not None:
        step = state["step"]
        (seat, *_) = sorted(RULESET.to_act(state))
        if step["k"] == "form":
            began.append(step["region"])
            state = act(state, seat, {"type": "form_attack", "formations": {}})
        elif step["k"] == "block":
            state = act(state, seat, {"type": "declare_blocks", "blocks": {}})
        else:
            state = act(state, seat, {"type": "pass_priority"})
        hurt += [f"r{p}" for p in range(4) if state["players"][p]["life"] < 30 and f"r{p}" not in hurt]
    assert began == hurt == ["r3", "r0", "r1", "r2"]


def test_teams_resolve_the_non_initiative_regions_then_the_initiative_regions():
    state = game("teams_split", 4, initiative=0)
    battle(at(state, "attack", seats=[0, 2]))
    hounds = {seat: put(state, seat, "Cinder Hound") for seat in range(4)}
    state = act(state, 0, {"type": "declare_attack", "formations": [{"target": 1, "columns": [[hounds[0]]]}]})
    state = act(state, 2, {"type": "declare_attack", "formations": [{"target": 3, "columns": [[hounds[2]]]}]})
    assert [(s["k"], s.get("region")) for s in [state["step"]] + state["script"][:2]] == \
        [("window", "r1"), ("window", "r3"), ("block", None)]


def test_formation_before_and_after_unit_removal():
    """Hold the line: units behind a removed unit move to the front; an emptied column is
    closed up by its neighbours, but only before blocks are declared."""
    state = battle(game())
    a, b, c, d, e = (put(state, 0, "Jelly") for _ in range(5))
    place_attack(state, 0, [{"target": 1, "columns": [[a, b], [c], [d, e]]}])
    formation = state["battle"]["formations"][0]
    leave_play(state, a, "die")
    leave_play(state, c, "die")
    assert formation["columns"] == [[b], [d, e]]
    place_blocks(state, 1, "r1", {})
    leave_play(state, d, "die")
    leave_play(state, e, "die")
    assert formation["columns"] == [[b], []], "after blocks, columns do not move to fill gaps"


def test_the_damage_example():
    """Living Forge and A Pile of Rubbish deal 3 to the blocking Tiderunner Initiate, which
    deals 2 back, all to Living Forge in front; two unblocked columns deal 2 each to the
    player; Recyclable Sentinel and Jelly deal 3 to Mirage Walker, whose 2 damage kills the
    Sentinel in front (1) and carries 1 to Jelly behind."""
    state = battle(game())
    forge, rubbish = put(state, 0, "Living Forge"), put(state, 0, "A Pile of Rubbish")
    left, right = put(state, 0, "Dune Drifter"), put(state, 0, "Cinder Hound")
    sentinel, jelly = put(state, 0, "Recyclable Sentinel"), put(state, 0, "Jelly")
    state["units"][right]["temp"] = [-1, 0]  # a 2-power unblocked column, as in the picture
    tiderunner, mirage = put(state, 1, "Tiderunner Initiate"), put(state, 1, "Mirage Walker")
    place_attack(state, 0, [{"target": 1, "columns": [[forge, rubbish], [left], [right], [sentinel, jelly]]}])
    place_blocks(state, 1, "r1", {"f1": [[tiderunner], [], [], [mirage]]})
    combat(state, "r1")
    # Mirage Walker's 2 is more than the Sentinel's lethal 1: the defender may put it all on
    # the front unit (Q&A); as in the picture, 1 goes to the Sentinel and 1 carries to Jelly.
    assert state["choice"]["queue"] == [1] and state["choice"]["options"] == ["front:1", "front:2"]
    assigned(state, "front:1")
    assert state["players"][1]["life"] == 30 - 2 - 2
    assert tiderunner not in state["units"] and mirage not in state["units"]
    assert forge not in state["units"] and state["units"][rubbish]["damage"] == 0
    assert sentinel not in state["units"] and jelly not in state["units"]


def test_defending_player_kills_bloodwind_revenant_then_blocks_the_non_flying_unit():
    """Bloodwind Revenant shares Flying with Jelly behind it, so the column cannot be blocked
    without flying; the defender removes the Revenant in the priority window, Jelly loses
    Flying at once and is blocked by a non-flying unit."""
    state = game()
    resources(state, 1, "fire", 1)
    bolt = give(state, 1, "Arc Lightning")
    revenant, jelly = put(state, 0, "Bloodwind Revenant"), put(state, 0, "Jelly")
    guard = put(state, 1, "Coral Guard")
    battle(at(state, "attack", seats=[0]))
    state = act(state, 0, {"type": "declare_attack", "formations": [{"target": 1, "columns": [[revenant, jelly]]}]})
    assert "flying" in attributes(state, jelly), "combat attributes are shared by units in the same column"
    assert state["step"] == {"k": "window", "region": "r1", "stage": "attack"}
    state = pass_all(state, 1)  # the initiative player passes; priority to the defender
    state = act(state, 1, {"type": "play", "card": bolt, "targets": [revenant]})
    state = pass_all(state, 2)  # both pass: Arc Lightning resolves
    assert revenant not in state["units"]
    assert "flying" not in attributes(state, jelly)
    assert state["battle"]["formations"][0]["columns"] == [[jelly]], "Jelly moves to the front row"
    state = pass_all(state, 2)  # an empty stack and both pass: on to blocks
    assert state["step"]["k"] == "block"
    state = act(state, 1, {"type": "declare_blocks", "blocks": {"f1": [[guard]]}})
    assert state["battle"]["formations"][0]["blocked"] == [True]


def test_flying_column_cannot_be_blocked_without_flying():
    state = game()
    revenant, jelly, guard = put(state, 0, "Bloodwind Revenant"), put(state, 0, "Jelly"), put(state, 1, "Coral Guard")
    battle(state)
    place_attack(state, 0, [{"target": 1, "columns": [[revenant, jelly]]}])
    at(state, "block", seats=[1], region="r1")
    refused(state, 1, {"type": "declare_blocks", "blocks": {"f1": [[guard]]}}, "block_flying")
    hawk = put(state, 1, "Chrome Hawk")
    act(state, 1, {"type": "declare_blocks", "blocks": {"f1": [[hawk]]}})


def test_two_augments_on_tidal_menace():
    """Augments add their text to the card: Tidal Menace becomes Deadly and Tough (4/8), is
    unstable while modded, and when it dies it and all its mods are erased."""
    state = at(game(), "deploy", seats=[0])
    menace = put(state, 0, "Tidal Menace")
    lurker, adept = give(state, 0, "Kelp Lurker"), give(state, 0, "Stoneskin Adept")
    resources(state, 0, "water", 3)
    resources(state, 0, "earth", 2)
    state = act(state, 0, {"type": "mod", "card": lurker, "onto": menace})
    state = act(state, 0, {"type": "mod", "card": adept, "onto": menace})
    assert stats(state, menace) == (4, 8)
    assert {"deadly", "tough", "unstable"} <= set(attributes(state, menace))
    leave_play(state, menace, "die")
    assert {menace, lurker, adept} <= set(state["erased"]) and not state["players"][0]["bin"]


def test_an_attribute_printed_twice_counts_once():
    """README 26: Rampart Guardian says Tough on the card and again in its own augment
    paragraph; played as a unit it is a Tough 2/2 doubled once, 2/4."""
    state = at(game(), "deploy", seats=[0])
    guardian = put(state, 0, "Rampart Guardian")
    assert stats(state, guardian) == (2, 4)
    assert attributes(state, guardian).count("tough") == 1


def test_a_stack_of_responses_resolves_last_in_first_out():
    """Flame of History; Boon of Protection in response; Arc Lightning in response; both pass
    and Arc Lightning resolves; Null Drone on Boon of Protection; both pass and it negates
    the Boon; both pass and Flame of History finally resolves."""
    state = game()
    golem = put(state, 1, "Gear Golem")
    resources(state, 0, "fire", 2)
    resources(state, 0, "metal", 4)
    resources(state, 1, "earth", 1)
    flame, arc, drone = give(state, 0, "Flame of History"), give(state, 0, "Arc Lightning"), give(state, 0, "Null Drone")
    boon = give(state, 1, "Boon of Protection")
    battle(state)["battle"]["formations"].append({"id": "f1", "attacker": 0, "defender": 1, "region": "r1", "destination": "r1",
                                        "columns": [], "blocks": None, "blocked": [], "tokens": []})
    window(state, "r1")
    state = act(state, 0, {"type": "play", "card": flame, "targets": [golem]})
    state = pass_all(state, 1)
    state = act(state, 1, {"type": "play", "card": boon, "targets": [golem]})
    state = pass_all(state, 1)
    state = act(state, 0, {"type": "play", "card": arc, "targets": ["player:1"]})
    assert [item["card"] for item in state["stack"]] == [flame, boon, arc]
    state = pass_all(state, 2)
    assert state["players"][1]["life"] == 28 and [i["card"] for i in state["stack"]] == [flame, boon]
    boon_effect = state["stack"][1]["id"]
    state = act(state, 0, {"type": "play", "card": drone, "targets": [boon_effect]})
    state = pass_all(state, 2)
    assert [item["card"] for item in state["stack"]] == [flame] and boon in state["players"][1]["bin"]
    assert golem in state["units"]
    state = pass_all(state, 2)
    assert golem not in state["units"] and not state["stack"]
    assert state["step"]["k"] == "window", "the window goes on until all pass with an empty stack"
    state = pass_all(state, 2)
    assert state["window"] is None


def test_everything_is_region_limited_maw_of_damnation_and_sparkwraith():
    """Player 4 plays Maw of Damnation in Player 3's region; their Sparkwraith at home does
    not trigger and cannot be sacrificed: it is treated as though it does not exist."""
    state = game("ffa", 4, initiative=3)
    wraith = put(state, 3, "Sparkwraith")
    raider = put(state, 3, "Cinder Hound", region="r2")
    victim, kept = put(state, 2, "Jelly"), put(state, 2, "Coral Guard")
    resources(state, 3, "fire", 3)
    maw = give(state, 3, "Maw of Damnation")
    battle(state)["battle"]["formations"].append({"id": "f1", "attacker": 3, "defender": 2, "region": "r2", "destination": "r2",
                                        "columns": [[raider]], "blocks": None, "blocked": [], "tokens": []})
    window(state, "r2")
    state = act(state, 3, {"type": "play", "card": maw, "targets": []})
    assert len(state["stack"]) == 1, "Sparkwraith in region 3 does not trigger"
    state = pass_all(state, 2)
    assert wraith in state["units"] and raider not in state["units"], "player 4's only unit in region 3 goes"
    assert RULESET.to_act(state) == {2}, "player 3 decides which of their units to sacrifice"
    assert {a["option"] for a in RULESET.legal_actions(state, 2)} == {victim, kept}
    refused(state, 2, {"type": "pass_priority"}, "choice_pending")
    refused(state, 2, {"type": "choose", "option": wraith}, "choice_option")
    state = act(state, 2, {"type": "choose", "option": victim})
    assert victim not in state["units"] and kept in state["units"] and state["choice"] is None
    assert state["players"][2]["life"] == 30 and state["step"]["k"] == "window"


def test_overbloom_lasts_until_the_next_regroup():
    state = at(game(), "deploy", seats=[0])
    state["script"] = [{"k": "end_of_turn"}]
    sprout = put(state, 0, "Sproutling")
    resources(state, 0, "wood", 2)
    state = act(state, 0, {"type": "play", "card": give(state, 0, "Overbloom"), "targets": []})
    assert stats(state, sprout) == (2, 3)
    state = act(state, 0, {"type": "end_deployment"})  # end of turn, a new turn: still buffed
    assert stats(state, sprout) == (2, 3) and state["turn"] == 2


def test_ambush_saves_the_targeted_unit_and_the_removal_fizzles():
    """"If a unit is the target of an effect, like a removal spell, a player can use ambush to
    recall the targeted unit and save it. The spell will not change targets to the new unit,
    and will fail to resolve (fizzle)." The ambushing unit takes the recalled one's place."""
    state = game()
    jelly, hound = put(state, 0, "Jelly", region="r1"), put(state, 0, "Cinder Hound", region="r1")
    battle(state)["battle"]["formations"].append({"id": "f1", "attacker": 0, "defender": 1, "region": "r1",
                                                  "destination": "r1", "columns": [[hound, jelly]], "blocks": None,
                                                  "blocked": [], "tokens": []})
    resources(state, 1, "fire", 2)
    resources(state, 0, "water", 2)
    flame, ambusher = give(state, 1, "Flame of History"), give(state, 0, "Reef Ambusher")
    window(state, "r1")
    state = act(state, 0, {"type": "pass_priority"})
    state = act(state, 1, {"type": "play", "card": flame, "targets": [hound]})
    state = act(state, 1, {"type": "pass_priority"})
    state = act(state, 0, {"type": "ambush", "card": ambusher, "recall": hound})
    state = pass_all(state, 2)
    assert state["battle"]["formations"][0]["columns"] == [[ambusher, jelly]], "directly into its position"
    assert hound in state["players"][0]["hand"]
    state = pass_all(state, 2)
    assert flame in state["players"][1]["bin"] and state["units"][ambusher]["damage"] == 0, "the removal fizzles"


def test_two_phase_battle_the_non_initiative_side_counter_attacks_and_forms_in_phase_2():
    """"The NIT can still declare attacks even if the IT decides not to attack." Counter-
    attacking units leave and are treated as if they don't exist until phase 1 finishes; in
    phase 2 "the NIT puts their attacking units into formation", then the priority window."""
    state = game()
    a, b = put(state, 1, "Cinder Hound"), put(state, 1, "Jelly")
    battle(at(state, "attack", seats=[0]))
    state = act(state, 0, {"type": "declare_attack", "formations": []})
    assert state["step"] == {"k": "block", "seats": [1], "counter": True}
    state = act(state, 1, {"type": "declare_attack", "formations": [{"target": 0, "columns": [[a], [b]]}]})
    assert state["step"] == {"k": "form", "seats": [1]}
    assert state["units"][a]["region"] == "r0"
    refused(state, 1, {"type": "form_attack", "formations": {"f1": [[a]]}}, "form_same_units")
    state = act(state, 1, {"type": "form_attack", "formations": {"f1": [[a, b]]}})
    assert state["battle"]["formations"][0]["columns"] == [[a, b]]
    assert state["step"] == {"k": "window", "region": "r0", "stage": "attack"}
