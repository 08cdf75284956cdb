"""Issue 29, the third independent read of rules/algomancy.txt: each test is written from the
rulebook's words and failed on the code before its fix (README "Third read")."""

from domain.games.algomancy import RULESET
from domain.games.algomancy.flow import _begin
from domain.games.algomancy.state import attributes, stats

from .arena import act, at, battle, game, give, put, resources
from .test_examples import pass_all
from .test_review import attacking


# --- 1: a card's own Augment text works when it is played as a unit -----------------------

def test_stoneskin_adept_played_as_a_unit_has_its_augment_tough():
    """"Cards with the augment and graft abilities still function as written, even if they are
    not applied as mods"; Q&A: the text after the Augment symbol "is active on cards played
    normally". Stoneskin Adept (1/3, "Augment: Tough.") played as a unit is a Tough 1/6."""
    state = at(game(), "deploy", seats=[0])
    resources(state, 0, "earth", 2)
    adept = give(state, 0, "Stoneskin Adept")
    state = act(state, 0, {"type": "play", "card": adept, "targets": []})
    assert "tough" in attributes(state, adept) and stats(state, adept) == (1, 6)


def test_blightspore_played_as_a_unit_has_its_augment_minus_two_and_dies():
    """Blightspore (1/1, "Augment: I have -2/-2.") played normally has -2/-2: "A unit with 0 or
    less defense will immediately die" - it goes to the bin."""
    state = at(game(), "deploy", seats=[0])
    resources(state, 0, "wood", 1)
    spore = give(state, 0, "Blightspore")
    state = act(state, 0, {"type": "play", "card": spore, "targets": []})
    assert spore not in state["units"] and state["players"][0]["bin"] == [spore]


def test_smouldering_inferno_played_as_a_unit_sacrifices_itself_after_combat():
    """Smouldering Inferno ("Augment: After combat, sacrifice me.") attacking as a unit: after
    combat its own trigger goes on the stack and it dies into the bin (not modded, so not
    erased)."""
    state = game()
    inferno = put(state, 0, "Smouldering Inferno", region="r1")
    attacking(state, 0, 1, [[inferno]])
    state["battle"]["formations"][0].update(blocks=[], blocked=[False])
    state = at(state, "window", region="r1", stage="after_combat")
    _begin(state, state["step"])
    assert [item["source"] for item in state["stack"]] == [inferno]
    state = pass_all(state, 2)
    assert inferno not in state["units"] and state["players"][0]["bin"] == [inferno]


def test_pathogenic_enclave_played_as_a_unit_deletes_your_tokens_when_it_dies():
    """Pathogenic Enclave ("Augment: When I despawn, delete all your token allies.") played
    normally: sacrificed to Soul Swallower, it takes its controller's Saplings with it; the
    opponent's tokens and the card units stay."""
    state = at(game(), "deploy", seats=[0])
    resources(state, 0, "wood", 2)
    enclave = give(state, 0, "Pathogenic Enclave")
    state = act(state, 0, {"type": "play", "card": enclave, "targets": []})
    from domain.games.algomancy.effects import spawn_unit
    mine = [spawn_unit(state, "Sapling", 0, "r0", token=True) for _ in range(2)]
    theirs = spawn_unit(state, "Sapling", 1, "r1", token=True)
    swallower = put(state, 0, "Soul Swallower")
    state = act(state, 0, {"type": "activate", "unit": swallower, "targets": [], "sacrifice": enclave})
    assert not set(mine) & set(state["units"]) and theirs in state["units"] and swallower in state["units"]
    assert state["players"][0]["bin"] == [enclave]


# --- 4: Prickly Protector counts a team-mate's units -------------------------------------

def test_prickly_protector_counts_every_other_allied_unit_in_its_region_a_team_mates_too():
    """Prickly Protector: "I have +1/+1 for each other allied unit in this region." In a joint
    team game the partners share a region: the partner's unit is allied and counts; the
    opponents' unit there does not."""
    state = game("teams_joint", 4, initiative=0)
    prickly = put(state, 0, "Prickly Protector")
    put(state, 0, "Jelly")
    put(state, 2, "Jelly")  # seat 2 is seat 0's partner, in the same region r0
    put(state, 1, "Jelly", region="r0")  # an enemy in the region
    assert state["home"][2] == "r0" and stats(state, prickly) == (3, 3)


# --- 2: burst targets can be sent over the API -------------------------------------------

def burst_position(seed_state=None):
    """Seat 0's Cinder Hound attacks seat 1 with three Sparks; the attack window in r1."""
    from .test_review import sparks
    state = seed_state or game()
    hound = put(state, 0, "Cinder Hound", region="r1")
    jelly, guard = put(state, 1, "Jelly"), put(state, 1, "Coral Guard")
    attacking(state, 0, 1, [[hound]])
    first, *_ = sparks(state, 0, "r1", 3)
    from .arena import window
    window(state, "r1")
    return state, first, jelly, guard


def test_burst_targets_are_listed_so_match_act_accepts_them():
    """"Multiple spell tokens played with burst are still individual spells": each Spark has
    its own targets. The listed play carries `burst_targets` (README: every optional field
    `decide` accepts is described by the listing), so Match.act, which refuses a field no
    listed play has, accepts one Spark at the player and one at each of two units."""
    import uuid

    from domain.kernel.match import Match
    state, first, jelly, guard = burst_position()
    listed = [a for a in RULESET.legal_actions(state, 0) if a.get("card") == first]
    assert listed and all(a["burst_targets"] == [a["targets"]] * 2 and "burst_targets" in a["params"]
                          for a in listed)
    match = Match.start(uuid.uuid4(), RULESET, ["ann", "bob"], {}, {}, b"\x05" * 32)
    match.state = state
    match.act(0, {"type": "play", "card": first, "targets": ["player:1"], "burst_targets": [[jelly], [guard]]},
              b"\x05" * 32)
    assert [item["targets"] for item in match.state["stack"]] == [["player:1"], [jelly], [guard]]


def test_every_optional_field_decide_accepts_passes_match_act():
    """The other optional fields, each in a position where it is listed: a mod's `position`
    and the unit an ability sacrifices (`sacrifice`), through Match.act's stray-field check."""
    import uuid

    from domain.kernel.match import Match
    state = at(game(), "deploy", seats=[0])
    menace, swallower = put(state, 0, "Tidal Menace"), put(state, 0, "Soul Swallower")
    state["units"][menace]["mods"].append({"card": "Kelp Lurker#653", "kind": "augment", "owner": 0})
    resources(state, 0, "earth", 2)
    adept = give(state, 0, "Stoneskin Adept")
    match = Match.start(uuid.uuid4(), RULESET, ["ann", "bob"], {}, {}, b"\x06" * 32)
    match.state = state
    match.act(0, {"type": "mod", "card": adept, "onto": menace, "position": 0}, b"\x06" * 32)
    match.act(0, {"type": "activate", "unit": swallower, "targets": [], "sacrifice": menace}, b"\x06" * 32)
    assert menace not in match.state["units"] and match.state["units"][swallower]["counters"] == 1


def test_burst_targets_posted_over_http_are_accepted(client, monkeypatch):
    """The same play posted over HTTP with a seat token: the match begins at the staged
    position (a ruleset whose set-up returns it, registered for this test only)."""
    from dataclasses import replace

    from domain.kernel import ruleset as rulesets
    from tests.service.helpers import bearer
    state, first, jelly, guard = burst_position()
    staged = replace(RULESET, version=RULESET.version + "-staged", setup=lambda options, seats, rng: state)
    monkeypatch.setitem(rulesets._LATEST, "algomancy", staged)
    monkeypatch.setitem(rulesets._BY_VERSION, ("algomancy", staged.version), staged)
    created = client.post("/v1/matches", json={"game": "algomancy", "seats": ["ann", "bob"]}).json
    token = created["seats"][0]["token"]
    url = f"/v1/matches/{created['match_id']}"
    listed = client.get(f"{url}/legal-actions", headers=bearer(token)).json
    assert any("burst_targets" in a for a in listed["actions"] if a.get("card") == first)
    response = client.post(f"{url}/actions", headers=bearer(token), json={
        "action": {"type": "play", "card": first, "targets": ["player:1"], "burst_targets": [[jelly], [guard]]},
        "expected_version": listed["version"]})
    assert response.status_code == 201, response.json
    board = client.get(f"{url}/board", headers=bearer(token)).json["board"]
    assert [item["targets"] for item in board["stack"]] == [["player:1"], [jelly], [guard]]


# --- 3: Tough augmented onto a Balanced unit ---------------------------------------------

def test_tough_augmented_onto_a_balanced_unit_is_balanced_then_doubled():
    """Q&A: "Attributes apply in order from top to bottom", and an augment is placed "beneath
    the targeted card". Its two example sentences disagree (README I2: we follow the rule and
    the card's layout): Granite Bulwark (2/7, Balanced) with Stoneskin Adept's Tough
    augmented is balanced to 5/5, then doubled to 5/10. In a column Tough in front of a
    Balanced unit behind it is doubled first, then balanced: the Bulwark 2/14 -> 8/8."""
    state = at(game(), "deploy", seats=[0])
    bulwark = put(state, 0, "Granite Bulwark")
    resources(state, 0, "earth", 2)
    state = act(state, 0, {"type": "mod", "card": give(state, 0, "Stoneskin Adept"), "onto": bulwark})
    assert attributes(state, bulwark)[:2] == ["balanced", "tough"] and stats(state, bulwark) == (5, 10)
    column = battle(game())
    adept, behind = put(column, 0, "Stoneskin Adept"), put(column, 0, "Granite Bulwark")
    from domain.games.algomancy.battle import place_attack
    place_attack(column, 0, [{"target": 1, "columns": [[adept, behind]]}])
    assert stats(column, behind) == (8, 8) and stats(column, adept) == (4, 4)


# --- 5: augments may be placed between existing mods -------------------------------------

def test_a_new_augment_may_go_between_old_mods_which_keep_their_order():
    """Q&A: "Can I re-order the mods on my units? No, but you can place new mods in-between
    old ones." Tidal Menace carries Kelp Lurker; Stoneskin Adept goes above it (position 0),
    so the text reads Tough, then Deadly; a position past the bottom is refused."""
    state = at(game(), "deploy", seats=[0])
    menace = put(state, 0, "Tidal Menace")
    lurker, adept = give(state, 0, "Kelp Lurker"), give(state, 0, "Stoneskin Adept")
    resources(state, 0, "water", 3)
    resources(state, 0, "earth", 2)
    state = act(state, 0, {"type": "mod", "card": lurker, "onto": menace})
    mods = [a for a in RULESET.legal_actions(state, 0) if a["type"] == "mod"]
    assert sorted(a["position"] for a in mods if a["card"] == adept and a["onto"] == menace) == [0, 1]
    assert all("position" in a["params"] for a in mods)
    from .arena import refused
    refused(state, 0, {"type": "mod", "card": adept, "onto": menace, "position": 2}, "mod_position")
    state = act(state, 0, {"type": "mod", "card": adept, "onto": menace, "position": 0})
    assert [m["card"] for m in state["units"][menace]["mods"]] == [adept, lurker]
    assert attributes(state, menace) == ["tough", "deadly", "unstable"]


def test_a_virus_applied_in_battle_goes_where_it_was_placed_among_the_mods():
    """A virus augmented in battle from hand is a new mod too: Rampart Guardian placed at
    position 0 on a unit that already carries Kelp Lurker lands above it when it resolves."""
    state = game()
    menace = put(state, 1, "Tidal Menace")
    lurker = "Kelp Lurker#650"
    state["units"][menace]["mods"].append({"card": lurker, "kind": "augment", "owner": 1})
    hound = put(state, 0, "Cinder Hound", region="r1")
    attacking(state, 0, 1, [[hound]])
    from .arena import window
    window(state, "r1")
    resources(state, 0, "earth", 2)
    guardian = give(state, 0, "Rampart Guardian")
    state = act(state, 0, {"type": "mod", "card": guardian, "onto": menace, "position": 0})
    state = pass_all(state, 2)
    assert [m["card"] for m in state["units"][menace]["mods"]] == [guardian, lurker]


# --- 6: the team-draft pack cycle of a team of one ---------------------------------------

def test_team_draft_each_team_refreshes_its_packs_after_its_own_size_plus_one_turns():
    """"After each cycle of N+1 turns, where N is the number of players, all of the existing
    packs are recycled"; in team draft a team's packs pass among its own players (README I6:
    the cycle is team size + 1). Archenemy: the Archenemy alone refreshes after 2 turns of
    drafting, the team of two after 3."""
    from domain.games.algomancy.flow import _draft_start
    state = game("archenemy", 3, fmt="team_draft")
    state["turn"] = 2  # the Archenemy's solo turn is over
    before = {seat: list(state["players"][seat]["pack"]) for seat in range(3)}
    state["pack_turns"] = {"team0": 1, "team1": 1}
    _draft_start(state, at(state, "draft")["step"])
    assert state["players"][0]["pack"] == before[0], "a team of one passes its pack to itself"
    assert state["players"][1]["pack"] == before[2] and state["players"][2]["pack"] == before[1]
    state["pack_turns"] = {"team0": 2, "team1": 2}
    _draft_start(state, at(state, "draft")["step"])
    assert state["pack_turns"] == {"team0": 0, "team1": 2}
    assert not set(state["players"][0]["pack"]) & set(before[0]), "the Archenemy's cycle is 1 + 1 turns"
    assert state["players"][1]["pack"] == before[1], "the team of two drafts a second time from its first pack"
    state["pack_turns"]["team1"] = 3
    _draft_start(state, at(state, "draft")["step"])
    assert state["pack_turns"]["team1"] == 0 and not set(state["players"][1]["pack"]) & set(before[1] + before[2])


def test_the_archenemy_gets_a_fresh_pack_every_second_turn_of_a_team_draft_in_play():
    """The same, played by the greedy bot: the Archenemy's pack at the draft step of turn 4
    shares no card with the pack it left at turn 3 (a cycle of 2 turns after its solo turn);
    the team of two keeps drafting from the packs of turn 3."""
    import random

    from domain.kernel.rng import RandomStream
    state = RULESET.setup({"setup": "archenemy", "format": "team_draft"}, ["a", "b", "c"],
                          RandomStream(b"\x07" * 32, "cycle", 1))
    rand, seq, left = random.Random(7), 1, {}
    while state["turn"] < 4 or state["step"]["k"] != "draft":
        if state["turn"] == 3 and state["step"]["k"] == "resources":
            left = {seat: list(state["players"][seat]["pack"]) for seat in range(3)}
        seat = min(RULESET.to_act(state))
        seq += 1
        for fact in RULESET.decide(state, seat, RULESET.bots["greedy"](state, seat, rand),
                                   RandomStream(b"\x07" * 32, "cycle", seq)):
            state = RULESET.evolve(state, fact)
    assert left and not set(state["players"][0]["pack"]) & set(left[0])
    assert state["players"][1]["pack"] == left[2] and state["players"][2]["pack"] == left[1]


# --- 7: rule tests for mutants that survived ----------------------------------------------

def test_simultaneous_after_combat_triggers_the_non_initiative_side_resolves_first():
    """Q&A: "NIT effects will enter the stack last and resolve before IT effects." Both sides
    have a Smouldering Inferno in the battle: the NIT's sacrifice resolves first."""
    state = game(initiative=0)
    mine, theirs = put(state, 0, "Smouldering Inferno", region="r1"), put(state, 1, "Smouldering Inferno")
    attacking(state, 0, 1, [[mine]])
    state["battle"]["formations"][0].update(blocks=[], blocked=[False])
    state = at(state, "window", region="r1", stage="after_combat")
    _begin(state, state["step"])
    assert [item["controller"] for item in state["stack"]] == [0, 1]
    state = pass_all(state, 2)
    assert theirs not in state["units"] and mine in state["units"]


def test_a_modded_unit_returned_to_hand_sends_its_mods_to_their_owners_bins():
    """"If a modded card would leave play but did not die or get erased, for example if it was
    put into a player's hand from play, all of its mods are put back into the bin, while the
    base card goes to the hand." (A virus's owner gets it back in their own bin.)"""
    from domain.games.algomancy.effects import leave_play
    state = game()
    menace = put(state, 0, "Tidal Menace")
    state["units"][menace]["mods"] += [{"card": "Kelp Lurker#651", "kind": "augment", "owner": 0},
                                       {"card": "Blightspore#652", "kind": "augment", "owner": 1}]
    leave_play(state, menace, "recall")
    assert state["players"][0]["hand"][-1] == menace and state["players"][0]["bin"] == ["Kelp Lurker#651"]
    assert state["players"][1]["bin"] == ["Blightspore#652"] and not state["erased"]


def test_a_blocker_may_stand_in_one_spare_slot_beside_the_attackers_but_not_two():
    """"Units may even be placed blocking in slots where attackers aren't" (README I16: one
    slot beside the attacking columns)."""
    from .arena import refused
    state = game()
    hound = put(state, 0, "Cinder Hound", region="r1")
    jelly, guard = put(state, 1, "Jelly"), put(state, 1, "Coral Guard")
    fid = attacking(state, 0, 1, [[hound]])
    at(state, "block", seats=[1], region="r1")
    refused(state, 1, {"type": "declare_blocks", "blocks": {fid: [[], [], [guard]]}}, "block_shape")
    state = act(state, 1, {"type": "declare_blocks", "blocks": {fid: [[jelly], [guard]]}})
    assert state["battle"]["formations"][0]["blocks"] == [[jelly], [guard]]


def test_inverted_reverses_each_stat_change_by_its_own_amount():
    """Inverted: "my stat changes are reversed". Reality Bender (2/3, Inverted) given +2/+0
    by Bramble Lash is 0/3: the power change is reversed, the defense had none."""
    state = game()
    bender = put(state, 0, "Reality Bender", region="r1")
    hound = put(state, 0, "Cinder Hound", region="r1")
    attacking(state, 0, 1, [[bender], [hound]])
    from .arena import window
    window(state, "r1")
    resources(state, 0, "wood", 1)
    state = act(state, 0, {"type": "play", "card": give(state, 0, "Bramble Lash"), "targets": [bender]})
    state = pass_all(state, 2)
    assert stats(state, bender) == (0, 3)


def test_the_designed_safety_end_comes_after_exactly_turn_limit_turns():
    """README I23: after `turn_limit` turns the game ends (not one turn later)."""
    from domain.games.algomancy.flow import _end_of_turn
    state = game(turn_limit=3)
    state["turn"] = 2
    _end_of_turn(state)
    assert not state["over"] and state["turn"] == 3
    _end_of_turn(state)
    assert state["over"] == "turn_limit" and RULESET.outcome(state)["reason"] == "turn_limit"


def test_no_shard_from_resources_without_an_element():
    """"The elemental resources can provide free Shards when they are activated if the player
    has at least three affinity towards that resource": Prismites and Shards add no affinity,
    so activating a Prismite beside three element-less resources gives no Shard."""
    state = at(game(), "resources", seats=[0])
    player = state["players"][0]
    player["resources"] += [{"id": f"Prismite#66{i}", "kind": "Prismite", "element": None, "expended": False}
                            for i in range(2)] + [{"id": "Shard#669", "kind": "Shard", "element": None,
                                                   "expended": False}]
    state = act(state, 0, {"type": "activate_resource", "resource": player["dormant"][0]["id"]})
    assert [r["kind"] for r in state["players"][0]["dormant"]] == ["Prismite"]


def test_the_initiative_passes_clockwise_to_the_next_living_player_each_turn():
    """"The initiative token and any draft packs are passed to the next player in a clockwise
    direction"; an eliminated player is skipped (their neighbours close up)."""
    from domain.games.algomancy.flow import _end_of_turn
    state = game("ffa", 4, initiative=0)
    _end_of_turn(state)
    assert state["initiative"] == 1
    state["players"][2]["out"] = True
    _end_of_turn(state)
    assert state["initiative"] == 3
    _end_of_turn(state)
    assert state["initiative"] == 0


def test_each_player_draws_two_cards_a_turn_but_not_on_their_first():
    """"Players draw 2 cards during the draw step on every turn"; the first turn's draws came
    with the opening deal, so "they should not draw additional cards during the first turn"."""
    from domain.games.algomancy.flow import _turn_start
    state = game(fmt="live_draft")
    hands = [len(p["hand"]) for p in state["players"]]
    state["turn"] = 1
    _turn_start(state)
    assert [len(p["hand"]) for p in state["players"]] == hands
    state["turn"] = 2
    _turn_start(state)
    assert [len(p["hand"]) for p in state["players"]] == [h + 2 for h in hands]


def test_a_counter_attack_whose_units_all_died_on_arrival_lists_only_formations_it_accepts():
    """Found by random play (seed 13009): a counter-attacking Prickly Protector with a -1/-1
    counter is 1/1 only beside its allies; arriving alone in phase 2 it is 0/0 and dies. The
    listing offered `{f1: []}`, which the rules refuse ("a formation holds at least one unit")."""
    from domain.games.algomancy.battle import place_attack
    from domain.games.algomancy.flow import _phase2
    state = battle(game(initiative=1))
    prickly = put(state, 0, "Prickly Protector")
    put(state, 0, "Jelly")
    state["units"][prickly]["counters"] = -1
    place_attack(state, 0, [{"target": 1, "columns": [[prickly]]}], transit=True)
    state["script"] = []
    _phase2(state)
    state["step"] = state["script"].pop(0)
    from domain.games.algomancy.effects import check_deaths
    check_deaths(state)
    assert prickly not in state["units"] and state["step"]["k"] == "form"
    listed = RULESET.legal_actions(state, 0)
    assert listed == [{"type": "form_attack", "formations": {}}]
    for action in listed:
        act(state, 0, action)
