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
