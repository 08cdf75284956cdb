"""A "when I despawn" trigger in battle goes on the stack (README interpretation 30, 1.6.0).

"Interaction between players during the battle phase uses the stack ... Whenever a card gets
played or an ability is activated or triggered, it is added to the stack as an "effect". This
means it does not resolve immediately, giving other players in the region a chance to
respond." Each rule test failed on the 1.5.0 code, which ran the trigger at once."""

from domain.games.algomancy import RULESET
from domain.games.algomancy.effects import leave_play, spawn_unit
from domain.games.algomancy.flow import _region_battle, advance
from domain.games.algomancy.words import WORDS
from domain.kernel.rng import RandomStream
from domain.kernel.words import Context

from .arena import HALT, act, game, give, put, resources, window
from .test_examples import pass_all
from .test_review import attacking

ENCLAVE = "Pathogenic Enclave"  # "Virus. Augment: When I despawn, delete all your token allies."


def enclave_on(state, uid, owner, number):
    """Pathogenic Enclave augmented onto a unit (by `owner`): "When a card is augmented onto an
    opposing unit, they will control the augment and its new ability"."""
    state["units"][uid]["mods"].append({"card": f"{ENCLAVE}#{number}", "kind": "augment", "owner": owner})


def saplings(state, seat, region, count=2):
    return [spawn_unit(state, "Sapling", seat, region, token=True) for _ in range(count)]


def to_blocks(state, region):
    """The region's battle from its block step on: blocks, block window, combat, after combat."""
    state["step"], state["script"] = None, _region_battle(state, region, with_attack_window=False) + HALT(state)
    advance(state, None)
    return state


def after_combat(state, defender, blocks):
    """Blocks declared, everyone passes in the block window, combat: the after-combat window."""
    state = act(state, defender, {"type": "declare_blocks", "blocks": blocks})
    state = pass_all_groups(state, 2)
    assert state["window"]["stage"] == "after_combat"
    return state


def test_a_despawn_trigger_in_combat_goes_on_the_stack_and_a_player_may_respond_to_it():
    """The rulebook's own case: "if you augment Pathogenic Enclave onto an enemy unit, when
    that unit despawns, all of their tokens will be deleted, not yours". Seat 0 gave seat 1's
    Jelly the Enclave; the Jelly blocks a Cinder Hound and dies in combat. Its trigger is added
    to the stack (seat 1 controls it), it "does not resolve immediately": in the after-combat
    window seat 1's Saplings are still there, and seat 1 responds with Null Drone ("Negate
    target effect on the stack"), so they stay."""
    state = game()
    hound = put(state, 0, "Cinder Hound", region="r1")
    jelly = put(state, 1, "Jelly")
    enclave_on(state, jelly, 0, 701)
    tokens = saplings(state, 1, "r1")
    attacking(state, 0, 1, [[hound]])
    state = after_combat(to_blocks(state, "r1"), 1, {"f1": [[jelly]]})
    assert jelly not in state["units"], "the Jelly died in combat"
    assert all(t in state["units"] for t in tokens), "the trigger does not resolve immediately"
    (trigger,) = state["stack"]
    assert (trigger["kind"], trigger["source"], trigger["controller"]) == ("trigger", jelly, 1)
    resources(state, 1, "metal", 2)
    drone = give(state, 1, "Null Drone")
    state = act(state, 0, {"type": "pass_priority"})  # the initiative player first
    state = act(state, 1, {"type": "play", "card": drone, "targets": [trigger["id"]]})
    state = pass_all(state, 2 + 2)  # Null Drone resolves, then the empty stack ends the window
    assert all(t in state["units"] for t in tokens) and drone in state["players"][1]["bin"]
    assert not state["stack"] and state["step"]["k"] == "deploy"


def test_a_despawn_trigger_from_a_resolving_spell_goes_on_top_of_the_stack_after_it():
    """"New spells can be added on top of an active stack even after it has started
    resolving": Flame of History kills seat 1's Pathogenic Enclave (played as a unit: "Cards
    with the augment and graft abilities still function as written"); its trigger goes on the
    stack, not at once, so seat 1 may first sacrifice a Sapling to Soul Swallower ("Activated
    abilities can be used any time a player has priority during battle"). Then the trigger
    deletes the other Sapling."""
    state = game()
    hound = put(state, 0, "Cinder Hound", region="r1")
    enclave, swallower = put(state, 1, ENCLAVE), put(state, 1, "Soul Swallower")
    first, second = saplings(state, 1, "r1")
    attacking(state, 0, 1, [[hound]])
    window(state, "r1")
    resources(state, 0, "fire", 2)
    flame = give(state, 0, "Flame of History")
    state = act(state, 0, {"type": "play", "card": flame, "targets": [enclave]})
    state = act(state, 0, {"type": "pass_priority"})
    facts = RULESET.decide(state, 1, {"type": "pass_priority"}, RandomStream(b"\x02" * 32, "arena", 9))
    context = Context(["ann", "bob"])
    context.known["stack"] = state["stack"]  # what the reader was shown: Flame of History
    state = act(state, 1, {"type": "pass_priority"})
    assert enclave not in state["units"] and first in state["units"] and second in state["units"]
    assert [(item["kind"], item["source"]) for item in state["stack"]] == [("trigger", enclave)]
    # the stack kept its length (Flame of History off, the trigger on): one fact sets it whole
    (stack_fact,) = [fact for fact in facts if fact["path"][0] == "stack"]
    assert stack_fact["path"] == ["stack"] and WORDS.fact(stack_fact, context, True) == (
        "Flame of History resolved; bob put Pathogenic Enclave's ability on the stack")
    state = act(state, 0, {"type": "pass_priority"})
    state = act(state, 1, {"type": "activate", "unit": swallower, "targets": [], "sacrifice": first})
    state = pass_all(state, 2)  # Soul Swallower's ability, on top, resolves first
    assert state["units"][swallower]["counters"] == 1 and second in state["units"]
    state = pass_all(state, 2)  # then the trigger
    assert second not in state["units"] and swallower in state["units"] and not state["stack"]


def test_despawn_triggers_of_one_combat_enter_the_stack_nit_last_and_resolve_before_it_ones():
    """Q&A: "Each player decides the order their effects go on the stack. NIT effects will
    enter the stack last and resolve before IT effects", "Teams always act together". 2v2
    split, seat 0 holds the initiative (team 0: seats 0 and 2). Seats 0 and 2 each attack
    seat 1 with a Cinder Hound carrying Pathogenic Enclave; seat 1 blocks each with one of its
    own: all four die at once. The triggers enter the stack 0, 2, then seat 1's two on top;
    seat 0's "After combat, sacrifice me" (Smouldering Inferno, unblocked) triggers later, in
    the After Combat step, and goes on top of them. Seat 1's triggers resolve before seat 0's
    and seat 2's: its Sapling goes while theirs are still there."""
    state = game("teams_split", 4, initiative=0)
    blockers = [put(state, 1, "Cinder Hound") for _ in range(2)]  # first in unit order: not the stack's
    hounds = {seat: put(state, seat, "Cinder Hound", region="r1") for seat in (0, 2)}
    for number, uid in enumerate([*blockers, *hounds.values()]):
        enclave_on(state, uid, state["units"][uid]["controller"], 710 + number)
    inferno = put(state, 0, "Smouldering Inferno", region="r1")
    tokens = {seat: saplings(state, seat, "r1", 1)[0] for seat in (0, 1, 2)}
    attacking(state, 0, 1, [[hounds[0]], [inferno]])
    attacking(state, 2, 1, [[hounds[2]]])
    state = after_combat(to_blocks(state, "r1"), 1, {"f1": [[blockers[0]]], "f2": [[blockers[1]]]})
    assert not set(hounds.values()) & set(state["units"]) and not set(blockers) & set(state["units"])
    assert [(item["controller"], item["source"]) for item in state["stack"]] == [
        (0, hounds[0]), (2, hounds[2]), (1, blockers[0]), (1, blockers[1]), (0, inferno)]
    state = pass_all_groups(state, 2)  # the Inferno's sacrifice
    assert inferno not in state["units"] and all(t in state["units"] for t in tokens.values())
    state = pass_all_groups(state, 2)  # seat 1's last trigger: its Sapling goes, the others stay
    assert tokens[1] not in state["units"] and tokens[0] in state["units"] and tokens[2] in state["units"]
    state = pass_all_groups(state, 2 * 3 + 2)  # the rest, then the window ends
    assert not set(tokens.values()) & set(state["units"]) and not state["stack"]


def pass_all_groups(state, times):
    """Each group passes in turn (a team's lowest seat passes for it)."""
    for _ in range(times):
        state = act(state, min(RULESET.to_act(state)), {"type": "pass_priority"})
    return state


def test_a_trigger_waits_for_a_window_of_its_own_region_and_none_is_lost():
    """"There is zero interaction between regions": a trigger in a region whose battle has no
    window open waits for one of its own, not the window running elsewhere (teams split: seat
    2's unit dies in r2 while r1's window is open). No window comes to r2 this battle, where
    nobody else is, so it resolves when the battle ends, as regroup begins ("Players do not
    gain priority ... during this step"): its Sapling is deleted, none is left waiting."""
    state = game("teams_split", 4, initiative=0)
    hound = put(state, 0, "Cinder Hound", region="r1")
    enclave, token = put(state, 2, ENCLAVE), saplings(state, 2, "r2", 1)[0]
    attacking(state, 0, 1, [[hound]])
    window(state, "r1")
    leave_play(state, enclave, "die")
    assert token in state["units"] and [i["region"] for i in state["battle"]["triggered"]] == ["r2"]
    state = act(state, 0, {"type": "pass_priority"})
    assert not state["stack"] and token in state["units"], "r1's window does not take r2's trigger"
    state = pass_all_groups(state, 1)
    assert state["step"]["k"] == "deploy" and token not in state["units"] and state["battle"] is None


def test_a_unit_lost_on_its_way_to_a_counter_attack_triggers_where_it_was_sent():
    """The counter-attacking units "are treated as if they don't exist until phase 1
    finishes"; then they enter the region they attack. Seat 1 counter-attacks with a Prickly
    Protector ("I have +1/+1 for each other allied unit in this region") carrying two -1/-1
    counters and Pathogenic Enclave, beside a Sapling: on its way it has one ally, not two, and
    dies. Its
    trigger waits for a window of the region it was sent to (seat 0's), past seat 1's own
    battle, and enters the stack there in phase 2; the Sapling, arrived, is still there until
    it resolves."""
    state = game()
    hound = put(state, 0, "Cinder Hound")
    prickly, (token,) = put(state, 1, "Prickly Protector"), saplings(state, 1, "r1", 1)
    put(state, 1, "Jelly")  # stays home: with it and the Sapling the Protector is 1/1 there
    state["units"][prickly]["counters"] = -2
    enclave_on(state, prickly, 1, 720)
    state["step"], state["script"] = None, [{"k": "battle"}] + HALT(state)
    advance(state, None)
    state = act(state, 0, {"type": "declare_attack", "formations": [{"target": 1, "columns": [[hound]]}]})
    state = pass_all(state, 2)  # the attack window in seat 1's region
    state = act(state, 1, {"type": "declare_blocks", "blocks": {}})
    state = act(state, 1, {"type": "declare_attack", "formations": [{"target": 0, "columns": [[prickly], [token]]}]})
    assert prickly not in state["units"] and state["units"][token]["region"] is None
    assert [item["region"] for item in state["battle"]["triggered"]] == ["r0"]
    state = pass_all(state, 2 + 2)  # seat 1's region: block window, combat, after-combat window
    assert token in state["units"] and not state["stack"] and state["battle"]["triggered"]
    state = act(state, 1, {"type": "form_attack", "formations": {}})
    assert state["window"] == {"region": "r0", "stage": "attack", "holder": 0, "passes": 0}
    assert [(i["source"], i["region"]) for i in state["stack"]] == [(prickly, "r0")] and token in state["units"]
    state = pass_all(state, 2)
    assert token not in state["units"] and not state["stack"]


def test_an_eliminated_players_waiting_trigger_leaves_with_them():
    """"A player at 0 life is out": their effects on the stack leave, and so does a trigger of
    theirs still waiting for a window. FFA: seat 0's unblocked Cinder Hound takes seat 1's last
    3 life; seat 1's Pathogenic Enclave leaves play with them, and the after-combat window
    opens on an empty stack."""
    state = game("ffa", 3)
    hound = put(state, 0, "Cinder Hound", region="r1")
    enclave = put(state, 1, ENCLAVE)
    state["players"][1]["life"] = 3
    attacking(state, 0, 1, [[hound]])
    state = after_combat(to_blocks(state, "r1"), 1, {})
    assert state["players"][1]["out"] and enclave not in state["units"]
    assert not state["stack"] and not state["battle"]["triggered"]


def said(state, seat, action, names=("ann", "bob")) -> str:
    """The log's words for `action`, worded fact by fact as a reader learns them."""
    facts = RULESET.decide(state, seat, action, RandomStream(b"\x02" * 32, "arena", 9))
    ctx = Context(list(names))
    ctx.known["stack"] = state["stack"]
    ctx.known["triggered"] = (state["battle"] or {}).get("triggered", [])
    return "; ".join(text for fact in facts if (text := WORDS.fact(fact, ctx, True)))


def bob_may_sacrifice_an_enclave_to_soul_swallower():
    """r1's window in a battle, seat 1 (bob) to act, holding Pathogenic Enclave and Soul
    Swallower there ("sacrifice a unit": the cost). (state, the Enclave, the Swallower)"""
    state = game()
    hound = put(state, 0, "Cinder Hound", region="r1")
    enclave, swallower = put(state, 1, ENCLAVE), put(state, 1, "Soul Swallower")
    saplings(state, 1, "r1")
    attacking(state, 0, 1, [[hound]])
    window(state, "r1")
    state = act(state, 0, {"type": "pass_priority"})
    return state, enclave, swallower


def test_a_despawn_set_off_by_a_sacrifice_paid_as_a_cost_goes_on_the_stack_above_the_ability():
    """README 30: a trigger caused by an action goes on the stack "once the action is done (a
    sacrifice paid as a cost: above the activated ability)": the ability is put on the stack as
    it is activated, its cost paid with it, and the despawn that payment set off follows, on top,
    so it resolves first."""
    state, enclave, swallower = bob_may_sacrifice_an_enclave_to_soul_swallower()
    state = act(state, 1, {"type": "activate", "unit": swallower, "targets": [], "sacrifice": enclave})
    assert [(item["kind"], item["source"]) for item in state["stack"][-2:]] == [("ability", swallower),
                                                                                ("trigger", enclave)], state["stack"]
    assert not state["battle"]["triggered"]


def test_the_log_names_every_effect_put_on_the_stack_at_once():
    """An ability whose cost is a sacrifice, and the despawn trigger the sacrifice set off, go
    on the stack in one step; so do two triggers of one combat. The log says each (it named
    only the top one)."""
    state, enclave, swallower = bob_may_sacrifice_an_enclave_to_soul_swallower()
    words = said(state, 1, {"type": "activate", "unit": swallower, "targets": [], "sacrifice": enclave})
    assert "bob put Soul Swallower's ability on the stack" in words, words
    assert "bob put Pathogenic Enclave's ability on the stack" in words, words

    state = game()
    hounds = [put(state, 0, "Cinder Hound", region="r1") for _ in range(2)]
    jellies = [put(state, 1, "Jelly") for _ in range(2)]
    for number, jelly in enumerate(jellies):
        enclave_on(state, jelly, 0, 701 + number)
    saplings(state, 1, "r1")
    attacking(state, 0, 1, [[hound] for hound in hounds])
    state = act(to_blocks(state, "r1"), 1, {"type": "declare_blocks", "blocks": {"f1": [[j] for j in jellies]}})
    state = act(state, 0, {"type": "pass_priority"})
    words = said(state, 1, {"type": "pass_priority"})  # the block window ends: combat, then after combat
    assert words.count("bob put Jelly's ability on the stack") == 2, words


def test_the_log_says_a_trigger_left_waiting_resolved_as_the_battle_ended():
    """A trigger whose region has no window left resolves as regroup begins; the log said only
    "The battle is over"."""
    state = game("teams_split", 4, initiative=0)
    hound = put(state, 0, "Cinder Hound", region="r1")
    enclave = put(state, 2, ENCLAVE)
    saplings(state, 2, "r2", 1)
    attacking(state, 0, 1, [[hound]])
    window(state, "r1")
    state = act(state, 0, {"type": "pass_priority"})
    leave_play(state, enclave, "die")
    assert state["battle"]["triggered"], "the Enclave's trigger waits"
    words = said(state, 1, {"type": "pass_priority"}, names=("ann", "bob", "cat", "dan"))
    assert "Pathogenic Enclave's ability resolved; The battle is over" in words, words


def test_a_trigger_left_waiting_resolves_where_it_was_before_anyone_returns_home():
    """A trigger whose region has no window left resolves as regroup begins, "as outside
    battle", in the region where its unit despawned: Pathogenic Enclave ("delete all your
    token allies") there deletes the Sapling beside it, not the allies that go home. Resolved
    after units return to their home regions, it found no token ally and deleted nothing."""
    state = game("teams_split", 4, initiative=0)
    hound = put(state, 0, "Cinder Hound", region="r1")
    away = next(r for r in state["home"] if r not in (state["home"][2], "r1"))  # nobody's battle there
    enclave = put(state, 2, ENCLAVE, region=away)
    (token,) = saplings(state, 2, away, 1)
    attacking(state, 0, 1, [[hound]])
    window(state, "r1")
    state = act(state, 0, {"type": "pass_priority"})
    leave_play(state, enclave, "die")
    assert [item["region"] for item in state["battle"]["triggered"]] == [away]
    state = act(state, 1, {"type": "pass_priority"})  # the last window closes: the battle ends
    assert state["battle"] is None and token not in state["units"]


def test_nit_effects_left_waiting_as_the_battle_ends_resolve_before_it_effects():
    """Q&A: "NIT effects will enter the stack last and resolve before IT effects"; README 30:
    "Triggers entering together are simultaneous: the Initiative team's first, the NIT's last,
    so the NIT's resolve first", and a trigger in a region with no window left this battle
    "resolves as regroup begins". 2v2 split, seat 0 holds the initiative (team 0: seats 0 and
    2). r1's battle is over (seat 0's Cinder Hound still there) while r3's window is open; in
    r1 seat 0's Hound and seat 1's Jelly, each carrying Pathogenic Enclave, die: seat 0's
    trigger first, both wait in r1. Each side has a Sapling there carrying Kelp Lurker; a
    modded card "and all of its mods are erased" when it dies. The battle ends: seat 1's
    trigger resolves first, so its Sapling's Kelp Lurker is erased before seat 0's."""
    state = game("teams_split", 4, initiative=0)
    hound, jelly = put(state, 0, "Cinder Hound", region="r1"), put(state, 1, "Jelly")
    enclave_on(state, hound, 0, 730)
    enclave_on(state, jelly, 1, 731)
    tokens, lurkers = {}, {}
    for seat in (0, 1):
        (tokens[seat],) = saplings(state, seat, "r1", 1)
        lurkers[seat] = f"Kelp Lurker#{740 + seat}"
        state["units"][tokens[seat]]["mods"].append({"card": lurkers[seat], "kind": "augment", "owner": seat})
    attacking(state, 0, 1, [[hound]])
    attacking(state, 2, 3, [[put(state, 2, "Cinder Hound", region="r3")]])
    window(state, "r3")
    leave_play(state, hound, "die")
    leave_play(state, jelly, "die")
    assert [(i["controller"], i["region"]) for i in state["battle"]["triggered"]] == [(0, "r1"), (1, "r1")]
    assert all(t in state["units"] for t in tokens.values()), "the triggers wait"
    erased = len(state["erased"])
    state = pass_all_groups(state, 2)  # r3's window closes with an empty stack: the battle ends
    assert state["battle"] is None and state["step"]["k"] == "deploy" and not state["stack"]
    assert not set(tokens.values()) & set(state["units"]), "both triggers resolved"
    assert state["erased"][erased:] == [lurkers[1], lurkers[0]], "the NIT's trigger resolved first"
