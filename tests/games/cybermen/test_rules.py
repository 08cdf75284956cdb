"""One test per rule of Cybermen Rules v1, each quoting the rule it checks; positions are built
by hand on the designed map (tests/games/cybermen/helpers.py) and the dice are scripted."""

from domain.games.cybermen import RULESET
from domain.games.cybermen.data import CONST

from domain.kernel.canonical import json_copy
from domain.kernel.rng import RandomStream

from .helpers import act, fresh, give, place, refused, with_cyberleader, with_lieutenants


def carrier(cid, pos, chars, **extra):
    return {"id": cid, "pos": pos, "carrying": chars, **extra}


# ---------------------------------------------------------------------------------------
# Facing
# ---------------------------------------------------------------------------------------

def test_after_a_cyberman_is_moved_the_moving_player_chooses_one_of_four_facings():
    """'After a Cyberman is moved, the moving player determines which of the four possible
    directions it faces.' 'Wedding Guests (humans) do not have a facing.'"""
    state = place(fresh(3), cybermen=[{"id": "c1", "pos": [3, 2], "facing": "N"}], turn=1)
    state, _ = act(state, 1, {"type": "roll"}, 1)  # the player whose turn it is rolls: one Cyberman moves
    state, _ = act(state, 1, {"type": "cyber_move", "id": "c1", "to": [3, 3]})
    assert RULESET.to_act(state) == {1}
    assert RULESET.legal_actions(state, 1) == [{"type": "face", "facing": f} for f in "NESW"]
    assert refused(state, 1, {"type": "face", "facing": "NE"}) == "facing"
    state, _ = act(state, 1, {"type": "face", "facing": "E"}, 1)
    assert state["cybermen"]["c1"]["facing"] == "E"
    assert all("facing" not in group for group in state["groups"])


# ---------------------------------------------------------------------------------------
# Special abilities: Energy Beam, Guns, Mind Control
# ---------------------------------------------------------------------------------------

def abilities_phase(state, controller, cid):
    state, _ = act(state, controller, {"type": "end_cyber"}, 1)  # the abilities die: one Cyberman
    return act(state, controller, {"type": "use_ability", "id": cid})


def test_energy_beam_hits_within_four_squares_in_front_in_line_of_sight_and_stuns():
    """'Any player within 4 squares of the front of this Cyberman that isn't out of line of sight
    (ie no hedge or building in the way) is hit ... The player hit is stunned and may not move
    next turn.' 'Cybermen cannot shoot through other Cybermen or Cyberconversion Units.'"""
    state = place(fresh(3), groups={0: [3, 4], 1: [3, 5], 2: [3, 7]},
                  cybermen=[{"id": "c1", "pos": [3, 1], "facing": "E", "mark": 1}], turn=0)
    state["count"] = 0
    state, facts = abilities_phase(state, 0, "c1")
    hits = [(f["seat"], f["effect"]) for f in facts if f["f"] == "hit"]
    assert (0, "stunned") in hits  # 3 squares ahead
    assert (1, "stunned") in hits  # 4 squares ahead
    assert (2, "stunned") not in hits  # behind the hedge at (3, 6)


def test_energy_beam_reach_is_four_squares_and_stops_at_a_cyberman():
    state = place(fresh(3), groups={0: [3, 4], 1: [3, 5]}, cybermen=[
        {"id": "c1", "pos": [3, 0], "facing": "E", "mark": 1},
        {"id": "c2", "pos": [7, 2], "facing": "E", "mark": 1}], turn=0)
    state["count"] = 0
    state, facts = abilities_phase(state, 0, "c1")
    hit = {f["seat"] for f in facts if f["f"] == "hit" and f["effect"] == "stunned"}
    assert hit == {0}  # (3, 4) is 4 squares in front; (3, 5) is 5
    state = place(fresh(3), groups={0: [7, 5]}, cybermen=[
        {"id": "c1", "pos": [7, 2], "facing": "E", "mark": 1}, {"id": "c2", "pos": [7, 3], "facing": "N", "mark": 1}])
    state["count"] = 0
    state, facts = abilities_phase(state, 0, "c1")
    assert not [f for f in facts if f["f"] == "hit" and f["effect"] == "stunned"]  # c2 is in the way
    state = place(fresh(3), groups={0: [3, 1]}, cybermen=[{"id": "c1", "pos": [3, 3], "facing": "E", "mark": 1}])
    state["count"] = 0
    state, facts = abilities_phase(state, 0, "c1")
    assert not [f for f in facts if f["f"] == "hit" and f["effect"] == "stunned"]  # behind it: not in front


def test_a_stunned_group_may_not_move_next_turn():
    state = place(fresh(2), groups={0: [7, 5]}, cybermen=[{"id": "c1", "pos": [0, 6]}], turn=1, phase="end")
    state["groups"][0]["stunned"] = True
    state, _ = _end_turn(state)  # seat 1's turn ends; seat 0's group phase is skipped
    assert state["turn"] == 0 and state["phase"] != "group" and state["groups"][0]["pos"] == [7, 5]
    assert not state["groups"][0]["stunned"]


def test_a_stun_an_injury_and_a_mind_control_pass_with_the_players_next_turn_when_no_member_is_on_the_map():
    """"The player hit is stunned and may not move next turn"; "must reduce their movement roll
    by half for the next two turns"; Mind Control: "move towards the nearest Cyberman in their
    next turn". A turn of the player with every member carried off is still that player's next
    turn: the stun and the Mind Control are used up and one of the two halved rolls passes, so a
    member freed later does not lose a second turn to one Energy Beam."""
    state = place(fresh(2), groups={0: [7, 5]}, cybermen=[{"id": "c1", "pos": [0, 6], "carrying": ["0.groom"]}],
                  turn=1, phase="end")
    state["groups"][0].update(members=[], stunned=True, injured=2, mind=True)
    state, facts = _end_turn(state)  # seat 1's turn ends; seat 0's turn begins with no member on the map
    assert state["turn"] == 0 and state["phase"] != "group"
    assert (state["groups"][0]["stunned"], state["groups"][0]["mind"], state["groups"][0]["injured"]) == (False, False, 1)


def _end_turn(state):
    from domain.kernel.decision import Decision
    from domain.games.cybermen.facts import evolve
    from domain.games.cybermen.flow import advance
    from .helpers import Dice
    d = Decision(state, Dice(1, 1, 1, 1), evolve)
    d.emit({"f": "phase", "phase": "end"})
    advance(d)
    return d.state, d.facts


def test_guns_hit_within_eight_squares_and_halve_movement_for_two_turns():
    """'Any player within 8 squares of the front ... is shot with a cybergun ... The player hit is
    injured and must reduce their movement roll by half for the next two turns.'"""
    state = place(fresh(3), groups={0: [3, 5], 1: [3, 8]},
                  cybermen=[{"id": "c1", "pos": [3, 0], "facing": "E", "mark": 3}], turn=0, tech=3)
    state["count"] = 0
    state, facts = abilities_phase(state, 0, "c1")
    assert [(f["seat"], f["effect"]) for f in facts if f["f"] == "hit"] == [(0, "injured")]  # 5 ahead; 8 is behind the hedge
    assert state["groups"][0]["injured"] == 2
    state = place(state, groups={0: [7, 5]}, phase="group", turn=0)
    state["groups"][0]["members"] = ["0.groom", "0.singer"]  # no Bride: no extra square
    state, _ = act(state, 0, {"type": "roll"}, 5)
    assert state["roll"] == 2 and state["groups"][0]["injured"] == 1  # half of 5, rounded down
    state = place(state, groups={0: [7, 5]}, phase="group", turn=0)
    state, _ = act(state, 0, {"type": "roll"}, 4)
    assert state["roll"] == 2 and state["groups"][0]["injured"] == 0
    state = place(state, groups={0: [7, 5]}, phase="group", turn=0)
    state, _ = act(state, 0, {"type": "roll"}, 4)
    assert state["roll"] == 4  # two turns are over


def test_mind_control_reaches_three_squares_through_walls_unless_a_singer_is_in_the_group():
    """'Any player within 3 squares of this Cyberman in any direction, whether in line of sight or
    not, is affected by Mind Control (unless there is a Singer in the group).'"""
    state = place(fresh(4), groups={0: [7, 3], 1: [8, 2], 3: [6, 2]},
                  cybermen=[{"id": "c1", "pos": [7, 2], "facing": "N", "mark": 2}], turn=2, tech=2)
    state["count"] = 0
    state, facts = abilities_phase(state, 2, "c1")
    hit = {f["seat"] for f in facts if f["f"] == "hit" and f["effect"] == "mind"}
    assert hit == {1, 3}  # seat 0 has the Singer; seat 2 is parked far away


def test_a_mind_controlled_group_must_move_its_entire_movement_toward_the_nearest_cyberman():
    """'The player must move towards the nearest Cyberman in their next turn ... by the shortest
    legal route ... They must move their entire possible movement.'"""
    state = place(fresh(2), groups={1: [7, 9]}, cybermen=[{"id": "c1", "pos": [7, 3]}], turn=1, phase="group")
    state["groups"][1]["mind"] = True
    state, _ = act(state, 1, {"type": "roll"}, 2)
    moves = [a for a in RULESET.legal_actions(state, 1) if a["type"] == "move"]
    assert moves == [{"type": "move", "to": [7, 7], "fatigue": 0}]
    assert refused(state, 1, {"type": "move", "to": [7, 10], "fatigue": 0}) == "mind_control"
    assert refused(state, 1, {"type": "move", "to": [7, 9], "fatigue": 0}) == "mind_control"
    state, _ = act(state, 1, moves[0])
    assert not state["groups"][1]["mind"]


def test_designed_an_escape_token_breaks_a_mind_control_once_the_group_has_rolled():
    """Designed (README, 'Tokens'): a mind-controlled group that has rolled may spend an Escape
    token (`break_free`) and then move as if it were not controlled, Fatigue tokens included."""
    state = place(fresh(2), groups={1: [7, 9]}, cybermen=[{"id": "c1", "pos": [7, 3]}], turn=1, phase="group")
    state["groups"][1]["mind"] = True
    assert refused(state, 1, {"type": "break_free"}) == "not_now"  # the roll comes first
    state, _ = act(state, 1, {"type": "roll"}, 2)
    assert RULESET.legal_actions(state, 1) == [{"type": "move", "to": [7, 7], "fatigue": 0}, {"type": "break_free"}]
    state, facts = act(state, 1, {"type": "break_free"})
    assert state["groups"][1]["escape"] == 2 and not state["groups"][1]["mind"]
    assert facts == [{"f": "group", "seat": 1, "set": {"escape": 2, "mind": False}}]
    moves = RULESET.legal_actions(state, 1)
    assert {"type": "move", "to": [7, 10], "fatigue": 0} in moves  # away from the Cyberman
    assert {"type": "break_free"} not in moves
    assert any(m["fatigue"] == 1 for m in moves)  # a free move may spend Fatigue tokens again
    state, _ = act(state, 1, {"type": "move", "to": [7, 10], "fatigue": 0})
    assert state["groups"][1]["pos"] == [7, 10]


def test_designed_breaking_free_needs_an_escape_token_and_a_mind_control():
    state = place(fresh(2), groups={1: [7, 9]}, cybermen=[{"id": "c1", "pos": [7, 3]}], turn=1, phase="group")
    state, _ = act(state, 1, {"type": "roll"}, 2)
    assert {"type": "break_free"} not in RULESET.legal_actions(state, 1)
    assert refused(state, 1, {"type": "break_free"}) == "not_mind_controlled"
    state["groups"][1].update(mind=True, escape=0)
    assert RULESET.legal_actions(state, 1) == [{"type": "move", "to": [7, 7], "fatigue": 0}]
    assert refused(state, 1, {"type": "break_free"}) == "no_tokens"
    assert refused(state, 1, {"type": "move", "to": [7, 10], "fatigue": 0}) == "mind_control"


def test_designed_the_last_escape_token_breaks_a_mind_control_and_a_forced_move_spends_no_fatigue():
    state = place(fresh(2), groups={1: [7, 9]}, cybermen=[{"id": "c1", "pos": [7, 3]}], turn=1, phase="group")
    state["groups"][1].update(mind=True, escape=1)
    state, _ = act(state, 1, {"type": "roll"}, 2)
    assert refused(state, 1, {"type": "move", "to": [7, 7], "fatigue": 1}) == "mind_control"
    assert refused(state, 1, {"type": "break_free", "fatigue": 0}) == "malformed"  # not "no tokens": it has one
    state, _ = act(state, 1, {"type": "break_free"})
    assert state["groups"][1]["escape"] == 0 and not state["groups"][1]["mind"]


def test_mind_control_stops_next_to_the_cyberman_and_goes_around_impassable_terrain():
    """'If there is terrain in the way that is impassable, the player must move around it by the
    shortest legal route'; '... always go towards an unobstructed Cyberman'."""
    state = place(fresh(2), groups={1: [7, 6]}, cybermen=[{"id": "c1", "pos": [7, 4]}, {"id": "c2", "pos": [9, 6]}],
                  turn=1, phase="group")
    state["groups"][1]["mind"] = True
    state, _ = act(state, 1, {"type": "roll"}, 6)
    # c1 is 2 squares along row 7 (stop at 1), c2 is 2 squares down (8,6) then (9,6): both nearest
    assert RULESET.legal_actions(state, 1) == [{"type": "move", "to": [7, 5], "fatigue": 0},
                                               {"type": "move", "to": [8, 6], "fatigue": 0}, {"type": "break_free"}]


def test_mind_control_goes_around_impassable_terrain_to_the_cyberman_nearest_in_squares():
    """'The player must move towards the nearest Cyberman ... If there is terrain in the way that
    is impassable, the player must move around it by the shortest legal route to the nearest
    Cyberman.' c1 is 4 squares north, behind the church; c2 is 5 squares east with nothing in the
    way: c1 is the nearest, so the group goes around the church toward it, not toward c2 (whose
    route, 5 against 8, is shorter)."""
    state = place(fresh(2), groups={1: [7, 5]}, cybermen=[{"id": "c1", "pos": [3, 5]}, {"id": "c2", "pos": [7, 10]}],
                  turn=1, phase="group")
    state["groups"][1]["mind"] = True
    state, _ = act(state, 1, {"type": "roll"}, 2)
    moves = [a["to"] for a in RULESET.legal_actions(state, 1) if a["type"] == "move"]
    assert moves == [[7, 3]], "two squares along the shortest way around the church (west of it)"
    assert refused(state, 1, {"type": "move", "to": [7, 7], "fatigue": 0}) == "mind_control"
    state, _ = act(state, 1, {"type": "move", "to": [7, 3], "fatigue": 0})
    assert state["groups"][1]["pos"] == [7, 3]


def test_mind_control_at_the_same_distance_goes_towards_an_unobstructed_cyberman():
    """'If there are multiple Cybermen at the same distance, the player may choose which one to
    move towards, but will always go towards an unobstructed Cyberman rather than towards one
    behind impassable terrain.' c1 is 2 squares west behind a hedge, c2 2 squares east in the
    open: only the move toward c2 is allowed."""
    state = place(fresh(2), groups={1: [7, 2]}, cybermen=[{"id": "c1", "pos": [7, 0]}, {"id": "c2", "pos": [7, 4]}],
                  turn=1, phase="group")
    state["groups"][1]["mind"] = True
    state, _ = act(state, 1, {"type": "roll"}, 3)
    assert [a for a in RULESET.legal_actions(state, 1) if a["type"] == "move"] == [
        {"type": "move", "to": [7, 3], "fatigue": 0}]
    assert refused(state, 1, {"type": "move", "to": [6, 0], "fatigue": 0}) == "mind_control"


def test_special_abilities_a_die_worth_must_be_used_and_lieutenants_go_first():
    """'During the Cyberman Special Abilities phase, a die worth of Cyberman must use their
    abilities.' 'Cyberlieutenants may always use their abilities first. They may choose not to
    ... The order of precedence is oldest to youngest Cyberlieutenant.'"""
    state = place(fresh(4), cybermen=[{"id": "c1", "pos": [0, 6]}, {"id": "c2", "pos": [3, 0]},
                                      {"id": "c3", "pos": [5, 0]},
                                      {"id": "c8", "pos": [9, 0], "role": "lieutenant", "seat": 3},
                                      {"id": "c9", "pos": [8, 0], "role": "lieutenant", "seat": 2}], turn=0)
    with_lieutenants(state)
    state, _ = act(state, 0, {"type": "roll"}, 1)
    state, _ = act(state, 0, {"type": "end_cyber"}, 2)  # 2 Cybermen must use their abilities
    assert RULESET.to_act(state) == {2}  # the oldest Cyberlieutenant first
    assert RULESET.legal_actions(state, 2) == [{"type": "use_ability", "id": "c9"}, {"type": "decline"}]
    state, _ = act(state, 2, {"type": "decline"})
    assert RULESET.to_act(state) == {3}
    state, _ = act(state, 3, {"type": "use_ability", "id": "c8"})
    assert RULESET.to_act(state) == {0}
    assert refused(state, 0, {"type": "use_ability", "id": "c9"}) == "abilities_die"
    state, _ = act(state, 0, {"type": "use_ability", "id": "c2"}, 1, 1)
    assert state["turn"] == 1  # two used: the turn is over


# ---------------------------------------------------------------------------------------
# Combat and capture
# ---------------------------------------------------------------------------------------

def attack(state, seat, cid, to, target, roll, facing="N"):
    state, _ = act(state, seat, {"type": "roll"}, 1) if state["count"] is None else (state, [])
    state, _ = act(state, seat, {"type": "cyber_move", "id": cid, "to": to})
    state, _ = act(state, seat, {"type": "face", "facing": facing})
    return act(state, seat, {"type": "attack", "target": target}, roll)


def test_capture_takes_the_geek_bride_or_groom_first_chosen_by_the_cyberman():
    """'If you have a Geek, Bride or Groom in your group, the Cyberman will choose them first.'"""
    state = place(fresh(3), groups={0: [7, 5]}, cybermen=[{"id": "c1", "pos": [7, 3]}], turn=1)
    state["groups"][0].update(fatigue=0, escape=0)
    state, _ = attack(state, 1, "c1", [7, 4], "group0", 6)
    prompt = state["prompt"]
    assert prompt["kind"] == "capture" and prompt["seat"] == 1  # the Cyberman's player chooses
    assert prompt["options"] == ["0.bride", "0.groom"]
    assert refused(state, 1, {"type": "capture", "character": "0.singer"}) == "capture_order"
    state, _ = act(state, 1, {"type": "capture", "character": "0.groom"})
    assert state["cybermen"]["c1"]["carrying"] == ["0.groom"]  # 'place the character on the Cyberman counter'
    assert state["groups"][0]["members"] == ["0.bride", "0.singer"]


def test_without_geek_bride_or_groom_the_groups_owner_chooses():
    """'If not, then you choose one character to be captured.'"""
    state = place(fresh(4), groups={3: [7, 5]}, cybermen=[{"id": "c1", "pos": [7, 3]}], turn=1)
    state["groups"][3].update(fatigue=0, escape=0)
    state, _ = attack(state, 1, "c1", [7, 4], "group3", 5)  # the Family has no tough Aunt? it has: needs 5
    assert state["prompt"] == {"kind": "capture", "seat": 3, "attacker": "c1", "victim": 3,
                               "options": ["3.vicar", "3.aunt", "3.uncle"]}
    state, _ = act(state, 3, {"type": "capture", "character": "3.uncle"})
    assert state["cybermen"]["c1"]["carrying"] == ["3.uncle"]


def test_capture_restores_escape_and_fatigue_to_three_and_ends_the_captured_players_turn():
    """'Restore your Escape and Fatigue tokens to 3 each if less than 3.' 'Your turn is ended.'"""
    state = place(fresh(2), groups={1: [7, 5]}, cybermen=[{"id": "c1", "pos": [7, 3]}], turn=1)
    state["groups"][1].update(fatigue=0, escape=0)
    state, facts = attack(state, 1, "c1", [7, 4], "group1", 6)  # seat 1's own Cyberman phase
    assert state["groups"][1]["escape"] == state["groups"][1]["fatigue"] == CONST["tokens"]
    assert state["cybermen"]["c1"]["carrying"] == ["1.geek"]
    assert state["turn"] == 0 and state["round"] == 2  # no abilities phase: the turn ended at once


def test_a_captured_characters_ability_can_no_longer_be_used():
    """'This character's ability can no longer be used.' (the Groom made attackers need 5-6)"""
    state = place(fresh(2), groups={0: [7, 5]}, cybermen=[{"id": "c1", "pos": [7, 3]}], turn=1)
    state, facts = attack(state, 1, "c1", [7, 4], "group0", 4)
    assert state["prompt"] is None and not [f for f in facts if f["f"] == "capture"]  # 4 fails against the Groom
    state = place(fresh(2), groups={0: [7, 5]}, cybermen=[{"id": "c2", "pos": [7, 3]}], turn=1)
    state["groups"][0]["members"].remove("0.groom")
    state["groups"][0]["converted"].append("0.groom")
    state, _ = attack(state, 1, "c2", [7, 4], "group0", 4)
    assert state["prompt"]["kind"] == "defend" and state["prompt"]["needs"] == 4


def test_fatigue_escape_and_the_weakness_card_answer_a_won_attack():
    """Designed defence: a Fatigue token lowers the roll by one, an Escape token gets away, the
    item card of the Mark's weakness (Mark I: Solvents) drives it off."""
    state = place(fresh(2), groups={1: [7, 5]}, cybermen=[{"id": "c1", "pos": [7, 3]}], turn=0)
    give(state, 1, "solvents")
    state, _ = attack(state, 0, "c1", [7, 4], "group1", 5)  # the Best Man: 5-6 needed
    assert RULESET.legal_actions(state, 1) == [{"type": t} for t in ("fatigue", "escape", "weakness", "submit")]
    state, _ = act(state, 1, {"type": "fatigue"})  # 5 - 1 = 4: beaten off
    assert state["prompt"] is None and state["groups"][1]["fatigue"] == 2
    state = place(state, groups={1: [7, 5]}, cybermen=[{"id": "c1", "pos": [7, 3]}], turn=0)
    state["groups"][1].update(fatigue=0, escape=0)
    give(state, 1, "solvents")
    state, _ = attack(state, 0, "c1", [7, 4], "group1", 6)
    assert refused(state, 1, {"type": "escape"}) == "no_tokens"
    state, _ = act(state, 1, {"type": "weakness"})
    assert state["discard"][-1] == "solvents" and state["prompt"] is None


def test_a_group_holding_cards_is_always_asked_so_a_capture_reveals_nothing_of_its_hand():
    state = place(fresh(2), groups={1: [7, 5]}, cybermen=[{"id": "c1", "pos": [7, 3]}], turn=0)
    state["groups"][1].update(fatigue=0, escape=0)
    give(state, 1, "gold")  # not Mark I's weakness
    state, _ = attack(state, 0, "c1", [7, 4], "group1", 6)
    assert state["prompt"]["kind"] == "defend" and RULESET.legal_actions(state, 1) == [{"type": "submit"}]
    assert "weakness" not in str(RULESET.view(state, 0)["prompt"])


# ---------------------------------------------------------------------------------------
# Carrying, conversion, upgrades
# ---------------------------------------------------------------------------------------

def test_a_carrying_cyberman_moves_toward_the_nearest_cyberconversion_unit():
    """'During the Cyberman movement phase of the turn, move any Cyberman carrying a human towards
    the nearest Cyberconversion Unit.'"""
    state = place(fresh(2), cybermen=[carrier("c1", [3, 6], ["0.bride"], mark=2)], turn=1, tech=2)
    state["groups"][0]["members"].remove("0.bride")
    from domain.games.cybermen.flow import enter_cyber_move
    from domain.kernel.decision import Decision
    from domain.games.cybermen.facts import evolve
    d = Decision(state, None, evolve)
    enter_cyber_move(d)
    state = d.state
    assert state["queue"] == [{"id": "c1", "kind": "carrier"}] and RULESET.to_act(state) == {1}
    # from (3, 6) the Unit at (2, 3) is 4 away: two squares along a shortest route
    assert RULESET.legal_actions(state, 1) == [{"type": "cyber_move", "id": "c1", "to": [2, 5]},
                                               {"type": "cyber_move", "id": "c1", "to": [3, 4]}]
    assert refused(state, 1, {"type": "cyber_move", "id": "c1", "to": [3, 8]}) == "carrying_to_unit"


def test_conversion_places_a_new_cyberman_of_the_latest_model_and_upgrades_the_carrier():
    """'When a Cyberman carrying a human reaches a Cyberconversion Unit, remove the character
    counter. Place a second Cyberman counter ... If the Cyberman that was carrying the human was an
    older model, they are automatically upgraded. Converted humans are always of the latest model.'"""
    state = place(fresh(2), cybermen=[carrier("c1", [2, 4], ["0.bride"], mark=1)], turn=1, tech=3)
    state["groups"][0]["members"].remove("0.bride")
    state["queue"] = [{"id": "c1", "seat": 1, "kind": "carrier"}]
    state, facts = act(state, 1, {"type": "cyber_move", "id": "c1", "to": [2, 3]})
    assert state["groups"][0]["converted"] == ["0.bride"]
    new = [f for f in facts if f["f"] == "spawn"][0]
    assert new["mark"] == 3 and new["pos"] == [2, 3] and new["origin"] == "0.bride" and new["role"] == "normal"
    assert state["cybermen"]["c1"]["mark"] == 3 and state["cybermen"]["c1"]["carrying"] == []


def test_a_converted_geek_upgrades_the_cybermen():
    """'Whenever a Geek character is cyberconverted ... upgrade. All newly converted humans are
    now the next higher model.'"""
    state = place(fresh(2), cybermen=[carrier("c1", [2, 4], ["1.geek"], mark=2)], turn=0, tech=2)
    state["groups"][1]["members"].remove("1.geek")
    state["queue"] = [{"id": "c1", "seat": 0, "kind": "carrier"}]
    state, facts = act(state, 0, {"type": "cyber_move", "id": "c1", "to": [2, 3]})
    assert state["tech"] == 3
    assert [f["mark"] for f in facts if f["f"] == "spawn"] == [3]


def test_the_cyberleader_upgrades_outdated_cybermen_it_moves_into_a_chamber():
    """'If a player is the Cyberleader, they may move any outdated Cybermen into a Cyberconversion
    chamber and upgrade them to the latest version.'"""
    state = place(fresh(3), cybermen=[{"id": "c1", "pos": [2, 4], "mark": 2},
                                      {"id": "c2", "pos": [0, 0], "mark": 3, "role": "leader", "seat": 2}],
                  turn=0, tech=3)
    state["leader"] = 2
    state["groups"][2].update(status="leader", members=[], converted=["2.singer", "2.drummer", "2.roadie"])
    state, _ = act(state, 0, {"type": "roll"}, 1)  # the player whose turn it is rolls ...
    assert RULESET.to_act(state) == {2}  # ... and the Cyberleader moves
    assert refused(state, 0, {"type": "cyber_move", "id": "c1", "to": [2, 3]}) == "not_your_turn"
    state, _ = act(state, 2, {"type": "cyber_move", "id": "c1", "to": [2, 3]})
    assert state["cybermen"]["c1"]["mark"] == 3


# ---------------------------------------------------------------------------------------
# The Cyberleader and the Cyberlieutenants
# ---------------------------------------------------------------------------------------

def lose_last(state, seat, char, cid="c1", turn=None, accept=True):
    """Convert `char`, the last member of seat's group, at the Unit (2, 3); a player offered its
    Cyberlieutenant takes it up (accept) or not (None: the offer left open)."""
    state["groups"][seat]["members"] = []
    state["groups"][seat]["converted"] = [c for c in (f"{seat}.{k}" for k in ("a", "b"))]
    state["cybermen"][cid] = {"pos": [2, 4], "facing": "W", "mark": state["tech"], "role": "normal", "seat": None,
                              "origin": None, "carrying": [char]}
    mover = state["leader"] if state["leader"] is not None else state["turn"]
    state.update(phase="cyber_move", queue=[{"id": cid, "seat": mover, "kind": "carrier"}], active=None,
                 count=None, used=0, moved=[])
    state, facts = act(state, mover, {"type": "cyber_move", "id": cid, "to": [2, 3]})
    if accept is not None and (state["prompt"] or {}).get("kind") == "offer":
        answer = {"type": "lieutenant", "id": state["prompt"]["options"][0]} if accept else {"type": "stand_down"}
        state, more = act(state, seat, answer)
        facts = facts + more
    return state, facts


def test_no_cyberleader_under_mark_i_the_player_becomes_a_cyberlieutenant():
    """'Mark I Cybermen do not have a Cyberleader. Therefore no player will become the Cyberleader
    until the Cybermen upgrade to Mark II'; 'Players that lose all their group members that can't
    become Cyberleader may instead play the Cyberman who represents their last Human.'"""
    state = place(fresh(4), turn=0, tech=1)
    give(state, 2, "gold")
    state, facts = lose_last(state, 2, "2.singer")
    new = [f["id"] for f in facts if f["f"] == "spawn"][0]
    assert state["leader"] is None and state["lieutenants"] == [2]
    assert state["cybermen"][new]["role"] == "lieutenant" and state["cybermen"][new]["seat"] == 2
    assert state["groups"][2]["hand"] == []  # 'Any items cards they have in front of them are discarded.'
    state, _ = lose_last(state, 1, "1.usher", cid="c7")
    assert state["lieutenants"] == [2, 1]


def test_the_oldest_cyberlieutenant_becomes_cyberleader_when_the_cybermen_reach_mark_ii():
    """'The oldest Cyberlieutenant is upgraded to Cyberleader when the Cybermen upgrade to Mark II.'"""
    state = place(fresh(4), turn=0, tech=1)
    state, _ = lose_last(state, 2, "2.singer")
    state, _ = lose_last(state, 3, "3.vicar", cid="c7")
    state, _ = lose_last(state, 1, "1.geek", cid="c8")  # a Geek: the Cybermen upgrade to Mark II
    assert state["tech"] == 2 and state["leader"] == 2 and state["lieutenants"] == [3, 1]
    assert state["groups"][2]["status"] == "leader"


def test_the_first_player_to_lose_every_member_under_mark_ii_becomes_the_cyberleader():
    """'The first player to lose every member of their group to cyberconversion when there is no
    Cyberleader, becomes the Cyberleader.' 'Place the Cyberleader figure at the conversion chamber
    where the player's last surviving group member was converted.'"""
    state = place(fresh(3), turn=0, tech=2)
    give(state, 1, "gold", "hacking")
    state, facts = lose_last(state, 1, "1.usher")
    new = [f["id"] for f in facts if f["f"] == "spawn"][0]
    assert state["leader"] == 1 and state["cybermen"][new]["role"] == "leader" and state["cybermen"][new]["seat"] == 1
    assert state["groups"][1]["status"] == "leader"
    assert state["cybermen"][new]["pos"] == [2, 3] and state["groups"][1]["hand"] == []
    state, _ = lose_last(state, 2, "2.roadie", cid="c7")
    assert state["leader"] == 1 and state["lieutenants"] == [2]


def test_a_converted_human_is_worth_one_victory_point_to_the_current_cyberleader():
    """'A converted human is worth 1 Victory Point to the current Cyberleader.'"""
    state = place(fresh(3), turn=0, tech=2)
    state, _ = lose_last(state, 1, "1.usher")
    assert state["groups"][1]["vp"] == 0  # its own last member made it Cyberleader after the point
    state["groups"][2]["members"] = ["2.singer", "2.drummer"]
    state["cybermen"]["c5"] = {"pos": [2, 4], "facing": "W", "mark": 2, "role": "normal", "seat": None,
                               "origin": None, "carrying": ["2.roadie"]}
    state.update(queue=[{"id": "c5", "seat": 1, "kind": "carrier"}], active=None, phase="cyber_move")
    state, _ = act(state, 1, {"type": "cyber_move", "id": "c5", "to": [2, 3]})
    assert state["groups"][1]["vp"] == 1


def leader_and_lieutenants(seats=4):
    """Seat 1 Cyberleader (c10), seats 2 then 3 Cyberlieutenants (c11, c12), seat 0's partial
    conversion c20 next to all three; Mark II."""
    state = place(fresh(seats), groups={0: [7, 3]}, cybermen=[
        {"id": "c10", "pos": [3, 4], "role": "leader", "seat": 1},
        {"id": "c11", "pos": [2, 5], "role": "lieutenant", "seat": 2},
        {"id": "c12", "pos": [4, 3], "role": "lieutenant", "seat": 3},
        {"id": "c13", "pos": [0, 8]},
        {"id": "c20", "pos": [3, 3], "role": "partial", "seat": 0}], turn=0, phase="partials", tech=2)
    state["leader"], state["lieutenants"] = 1, [2, 3]
    for seat, status in ((1, "leader"), (2, "lieutenant"), (3, "lieutenant")):
        state["groups"][seat].update(status=status, members=[])
    return state


def partial_attack(state, target, roll, fatigue=0):
    state, _ = act(state, 0, {"type": "partial_move", "id": "c20", "to": [3, 3]})
    state, _ = act(state, 0, {"type": "face", "facing": "E"})
    return act(state, 0, {"type": "attack", "target": target, "fatigue": fatigue}, roll)


def test_a_destroyed_cyberleader_is_replaced_by_the_oldest_lieutenant_and_its_player_picks_a_lieutenant():
    """'The oldest (ie earliest converted) Cyberlieutenant in the game is upgraded to Cyberleader.'
    'The player of the destroyed Cyberleader now chooses a normal Cyberman and upgrades it to
    Cyberlieutenant.' 'A destroyed Cyberleader is worth 2 Victory Points.'"""
    state = leader_and_lieutenants()
    state["cybermen"]["c14"] = {**state["cybermen"]["c13"], "pos": [0, 7]}
    state, _ = partial_attack(state, "c10", 4)
    assert "c10" not in state["cybermen"] and state["groups"][0]["vp"] == 2
    assert state["leader"] == 2 and state["cybermen"]["c11"]["role"] == "leader"
    assert state["prompt"] == {"kind": "lieutenant", "seat": 1, "options": ["c13", "c14"]}
    state, _ = act(state, 1, {"type": "lieutenant", "id": "c14"})
    assert state["lieutenants"] == [3, 1] and state["cybermen"]["c14"]["role"] == "lieutenant"


def test_without_cyberlieutenants_there_is_no_cyberleader_until_another_player_loses_all():
    """'If there are no Cyberlieutenants, then there is no Cyberleader until another human player
    loses all their characters.'"""
    state = leader_and_lieutenants()
    state["lieutenants"] = []
    for cid in ("c11", "c12"):
        del state["cybermen"][cid]
    for seat in (2, 3):
        state["groups"][seat]["status"] = "out"
    state, _ = partial_attack(state, "c10", 5)
    assert state["leader"] is None and state["lieutenants"] == [1]  # c13 is the only normal Cyberman
    assert state["cybermen"]["c13"]["role"] == "lieutenant"


def test_a_destroyed_cyberlieutenant_puts_its_player_out_for_one_victory_point():
    """'If a Cyberlieutenant is destroyed, the player is out of the game.' '... worth 1 Victory Point'"""
    state = leader_and_lieutenants()
    state, _ = partial_attack(state, "c12", 6)
    assert state["groups"][3]["status"] == "out" and state["lieutenants"] == [2] and state["groups"][0]["vp"] == 1


def test_cyberlieutenants_are_moved_first_by_their_own_players_oldest_first():
    """'Cyberlieutenants are always moved first in the Cyberman Phase. The order of precedence is
    oldest to youngest Cyberlieutenant.' 'This Cyberman is not moved by the Cyberleader.'"""
    state = leader_and_lieutenants()
    state, _ = act(state, 0, {"type": "end_partials"})
    assert state["queue"][0]["seat"] == 2 and RULESET.to_act(state) == {2}
    assert refused(state, 2, {"type": "cyber_move", "id": "c12", "to": [4, 2]}) == "lieutenants_first"
    state, _ = act(state, 2, {"type": "pass"})
    assert RULESET.to_act(state) == {3}
    state, _ = act(state, 3, {"type": "pass"})
    state, _ = act(state, 0, {"type": "roll"}, 3)
    assert RULESET.to_act(state) == {1}
    assert refused(state, 1, {"type": "cyber_move", "id": "c12", "to": [4, 2]}) == "lieutenant_moved_by_owner"


def test_cyberlieutenants_and_the_cyberleader_never_use_items_or_tokens():
    """'Cyberlieutenants and the Cyberleader may never use items or tokens.' (a partial conversion
    of a Cyberlieutenant's player cannot spend Fatigue tokens) 'Cyberlieutenants cannot earn
    Victory Points.'"""
    state = leader_and_lieutenants()
    for cid, c in state["cybermen"].items():
        if cid == "c20":
            c["seat"] = 3
    state["turn"] = 3
    state, _ = act(state, 3, {"type": "partial_move", "id": "c20", "to": [3, 3]})
    state, _ = act(state, 3, {"type": "face", "facing": "E"})
    assert refused(state, 3, {"type": "attack", "target": "c10", "fatigue": 1}) == "no_items_or_tokens"
    state, _ = act(state, 3, {"type": "attack", "target": "c10", "fatigue": 0}, 6)
    assert state["groups"][3]["vp"] == 0


def test_the_cyberleader_discards_drawn_cards_to_teleport_a_cyberman_a_unit_or_raise_the_mark():
    """'Any item cards that are drawn as part of their turn may be discarded to teleport in another
    Cyberman onto any legal map space. Two ... another Cyberconversion Unit ... Three ... increase
    the Cyberman technology level by 1.'"""
    state = place(fresh(3), turn=1, phase="leader", tech=2)
    with_cyberleader(state, mark=2)
    give(state, 1, "gold")
    kinds = {a["type"] for a in RULESET.legal_actions(state, 1)}
    assert kinds == {"teleport", "done"}
    assert refused(state, 1, {"type": "unit", "to": [3, 3]}) == "leader_cards"
    assert refused(state, 1, {"type": "teleport", "to": [4, 4]}) == "legal_space"  # a building
    state, facts = act(state, 1, {"type": "teleport", "to": [3, 3]})
    spawned = [f for f in facts if f["f"] == "spawn"][0]
    assert spawned["mark"] == 2 and state["active"]["stage"] == "face"
    state, _ = act(state, 1, {"type": "face", "facing": "S"})
    give(state, 1, "gold", "gold", "hacking")
    state, _ = act(state, 1, {"type": "upgrade_tech"})
    assert state["tech"] == 3 and state["groups"][1]["hand"] == []


def test_a_cyberlieutenant_may_trade_its_drawn_card_with_another_player():
    """'Any item cards that are drawn as part of their turn may be traded with any other player for
    another card.'"""
    state = place(fresh(3), turn=2, phase="trade")
    state["groups"][2].update(status="lieutenant", members=[])
    state["lieutenants"] = [2]
    state["cybermen"]["c9"] = {"pos": [0, 0], "facing": "N", "mark": 1, "role": "lieutenant", "seat": 2,
                               "origin": None, "carrying": []}
    give(state, 2, "gold")
    give(state, 0, "hacking")
    assert RULESET.legal_actions(state, 2) == [{"type": "trade", "seat": 0}, {"type": "discard"}]
    state, facts = act(state, 2, {"type": "trade", "seat": 0})
    assert state["groups"][0]["hand"] == ["gold"] and state["groups"][2]["hand"] == []
    assert state["discard"][-1] == "hacking"
    give_fact = [f for f in facts if f["f"] == "give"][0]
    assert RULESET.redact(give_fact, 1)["card"] is None and RULESET.redact(give_fact, 0)["card"] == "gold"


# ---------------------------------------------------------------------------------------
# Partial conversions
# ---------------------------------------------------------------------------------------

def convert_at_unit(state, captives, mover=1, **extra):
    """c1 carries `captives` from (2, 4) into the Unit at (2, 3), moved by `mover`."""
    state["cybermen"]["c1"] = {"pos": [2, 4], "facing": "W", "mark": state["tech"], "role": "normal", "seat": None,
                               "origin": None, "carrying": list(captives), **extra}
    for char in captives:
        state["groups"][int(char[0])]["members"].remove(char)
    state.update(phase="cyber_move", queue=[{"id": "c1", "seat": mover, "kind": "carrier"}], count=None)
    return act(state, mover, {"type": "cyber_move", "id": "c1", "to": [2, 3]})


def test_a_conversion_glitch_card_makes_a_partial_conversion_for_its_player():
    """'If there is a glitch in the Cyberconversion process resulting in a Cyberman that retains
    their humanity' (designed: the Conversion Glitch item card, which its holder may play at the
    conversion)."""
    state = place(fresh(2), turn=1)
    give(state, 0, "glitch")
    state, _ = convert_at_unit(state, ["0.bride"])
    assert state["prompt"] == {"kind": "glitch", "seat": 0, "carrier": "c1", "char": "0.bride"}
    assert RULESET.legal_actions(state, 0) == [{"type": "glitch"}, {"type": "no_glitch"}]
    state, facts = act(state, 0, {"type": "glitch"})
    spawned = [f for f in facts if f["f"] == "spawn"][0]
    assert spawned["role"] == "partial" and spawned["seat"] == 0 and state["groups"][0]["hand"] == []
    assert RULESET.to_act(state) == {1} and state["active"]["stage"] == "face"  # the mover faces its Cyberman


def test_a_conversion_asks_every_card_holder_so_a_full_conversion_reveals_nothing_of_its_hand():
    """The Conversion Glitch is kept as hidden as the weakness card of a defence: a player holding
    any item card is asked, so declining (or holding no Glitch) looks the same to the table."""
    state = place(fresh(2), turn=1)
    give(state, 0, "gold")
    state, facts = convert_at_unit(state, ["0.bride"])
    assert state["prompt"]["kind"] == "glitch" and not [f for f in facts if f["f"] == "spawn"]
    assert RULESET.legal_actions(state, 0) == [{"type": "no_glitch"}]
    assert refused(state, 0, {"type": "glitch"}) == "no_glitch_card"
    state, facts = act(state, 0, {"type": "no_glitch"})
    assert [f["role"] for f in facts if f["f"] == "spawn"] == ["normal"] and state["groups"][0]["hand"] == ["gold"]
    state = place(fresh(2), turn=1)  # an empty hand (public: hand sizes are shown) is not asked
    state, facts = convert_at_unit(state, ["0.bride"])
    assert state["prompt"] is None and [f["role"] for f in facts if f["f"] == "spawn"] == ["normal"]


def test_each_captive_of_a_carrier_is_asked_in_turn_and_the_carrier_upgrades_after_them():
    """'When a Cyberman carrying a human reaches a Cyberconversion Unit, remove the character
    counter ... If the Cyberman that was carrying the human was an older model, they are
    automatically upgraded.'"""
    state = place(fresh(3), turn=1, tech=2)
    give(state, 0, "glitch")
    give(state, 2, "gold")
    state, _ = convert_at_unit(state, ["0.bride", "2.roadie"], mark=1)
    assert state["prompt"]["seat"] == 0 and state["cybermen"]["c1"]["mark"] == 1
    state, _ = act(state, 0, {"type": "glitch"})
    assert state["prompt"] == {"kind": "glitch", "seat": 2, "carrier": "c1", "char": "2.roadie"}
    state, _ = act(state, 2, {"type": "no_glitch"})
    roles = sorted(c["role"] for cid, c in state["cybermen"].items() if cid != "c1")
    assert roles == ["normal", "partial"] and state["cybermen"]["c1"] == {**state["cybermen"]["c1"], "mark": 2,
                                                                           "carrying": []}


def test_a_glitch_needs_another_human_of_the_group_in_play_free_or_carried():
    state = place(fresh(2), cybermen=[carrier("c2", [0, 0], ["0.groom"])], turn=1)
    state["groups"][0].update(members=["0.bride"], converted=["0.singer"])
    give(state, 0, "glitch")
    state, _ = convert_at_unit(state, ["0.bride"])
    assert state["prompt"]["kind"] == "glitch"  # the Groom is still carried
    state, facts = act(state, 0, {"type": "glitch"})
    assert [f["role"] for f in facts if f["f"] == "spawn"] == ["partial"]
    state = place(fresh(2), turn=1)
    state["groups"][0].update(members=["0.bride"], converted=["0.singer", "0.groom"])
    give(state, 0, "glitch")
    state, facts = convert_at_unit(state, ["0.bride"])
    (spawned,) = [f["id"] for f in facts if f["f"] == "spawn"]  # the last member: no glitch, a Cyberlieutenant offered
    assert state["prompt"]["kind"] == "offer" and state["groups"][0]["hand"] == []
    state, _ = act(state, 0, {"type": "lieutenant", "id": spawned})
    assert state["prompt"] is None and state["cybermen"][spawned]["role"] == "lieutenant"


def test_the_captives_of_a_destroyed_cyberman_rejoin_their_group():
    state = place(fresh(2), groups={1: [7, 3]}, cybermen=[
        {"id": "c20", "pos": [1, 5], "role": "partial", "seat": 0}, carrier("c1", [1, 6], ["1.geek"])],
        turn=0, phase="partials")
    state["groups"][1]["members"].remove("1.geek")
    state, _ = act(state, 0, {"type": "partial_move", "id": "c20", "to": [1, 5]})
    state, _ = act(state, 0, {"type": "face", "facing": "E"})
    state, _ = act(state, 0, {"type": "attack", "target": "c1", "fatigue": 0}, 6)
    assert "1.geek" in state["groups"][1]["members"] and state["groups"][1]["pos"] == [7, 3]


def test_a_player_whose_last_human_is_converted_after_others_escaped_has_escaped():
    state = place(fresh(2), cybermen=[carrier("c1", [2, 4], ["0.bride"])], turn=1, tech=2)
    state["groups"][0].update(members=[], escaped=["0.groom"], converted=["0.singer"])
    state["queue"] = [{"id": "c1", "seat": 1, "kind": "carrier"}]
    state, _ = act(state, 1, {"type": "cyber_move", "id": "c1", "to": [2, 3]})
    assert state["groups"][0]["status"] == "escaped" and state["leader"] is None


def test_the_cybermen_stop_at_mark_v_and_only_mark_ii_promotes_a_cyberlieutenant():
    from domain.games.cybermen.effects import upgrade_technology
    from domain.games.cybermen.facts import evolve
    from domain.kernel.decision import Decision
    state = place(fresh(3), turn=0, tech=5)
    d = Decision(state, None, evolve)
    upgrade_technology(d)
    assert d.facts == [] and d.state["tech"] == 5
    state = place(fresh(3), cybermen=[{"id": "c9", "pos": [0, 0], "role": "lieutenant", "seat": 2}], turn=0, tech=2)
    state["groups"][2].update(status="lieutenant", members=[])
    state["lieutenants"] = [2]  # e.g. a destroyed Cyberleader's player, with no Cyberlieutenant to succeed
    d = Decision(state, None, evolve)
    upgrade_technology(d)
    assert d.state["tech"] == 3 and d.state["leader"] is None


def test_a_partial_conversion_moves_in_its_players_turn_without_dice_separately_from_the_group():
    """'This Cyberman character may be moved during the turn of original player. The Cyberman moves
    separately to any humans moved by the player. It moves as a Cyberman without using die rolls.'"""
    state = place(fresh(2), groups={0: [7, 3]}, cybermen=[{"id": "c20", "pos": [7, 7], "role": "partial",
                                                            "seat": 0, "mark": 2}], turn=0, phase="group", tech=2)
    state, _ = act(state, 0, {"type": "roll"}, 1)
    state, _ = act(state, 0, {"type": "move", "to": [7, 3], "fatigue": 0})
    assert state["phase"] == "partials"
    targets = {tuple(a["to"]) for a in RULESET.legal_actions(state, 0) if a["type"] == "partial_move"}
    assert (7, 9) in targets and (7, 10) not in targets  # Mark II speed 2, no die
    assert refused(state, 0, {"type": "partial_move", "id": "c20", "to": [7, 10]}) == "partial_move"
    state1 = place(fresh(2), cybermen=[{"id": "c20", "pos": [7, 7], "role": "partial", "seat": 0},
                                       {"id": "c1", "pos": [0, 6]}], turn=1)
    state1, _ = act(state1, 1, {"type": "roll"}, 6)
    assert refused(state1, 1, {"type": "cyber_move", "id": "c20", "to": [7, 8]}) == "partial_moved_by_owner"


def test_a_partial_conversion_destroys_a_cyberman_on_4_to_6_and_is_destroyed_if_it_loses():
    """'If attacking a Cyberman of any sort, or a Cyberconversion Unit, it will destroy the opponent
    on a 4-6. Fatigue tokens may be spent. Escape tokens cannot be spent and if the combat is lost,
    it is destroyed.' 'A destroyed Cyberman ... or Cyberconversion Unit is worth 1 Victory Point.'"""
    state = place(fresh(2), groups={0: [7, 3]}, cybermen=[{"id": "c20", "pos": [2, 4], "role": "partial", "seat": 0},
                                                           {"id": "c1", "pos": [1, 3]}], turn=0, phase="partials")
    state, _ = act(state, 0, {"type": "partial_move", "id": "c20", "to": [2, 4]})
    state, _ = act(state, 0, {"type": "face", "facing": "W"})
    listed = RULESET.legal_actions(state, 0)
    assert {a["target"] for a in listed if a["type"] == "attack"} == {"u1"}  # c1 at (1, 3) is diagonal
    state, _ = act(state, 0, {"type": "attack", "target": "u1", "fatigue": 1}, 3)  # 3 + 1 Fatigue = 4
    assert "u1" not in state["units"] and state["groups"][0]["vp"] == 1 and state["groups"][0]["fatigue"] == 2
    state = place(state, groups={0: [7, 3]}, cybermen=[{"id": "c20", "pos": [1, 5], "role": "partial", "seat": 0},
                                                        {"id": "c1", "pos": [1, 6]}], turn=0, phase="partials")
    state, _ = act(state, 0, {"type": "partial_move", "id": "c20", "to": [1, 5]})
    state, _ = act(state, 0, {"type": "face", "facing": "E"})
    state, _ = act(state, 0, {"type": "attack", "target": "c1", "fatigue": 0}, 3)
    assert "c20" not in state["cybermen"] and "c1" in state["cybermen"]


def test_only_a_partial_conversion_may_destroy_cybermen_and_it_never_attacks_humans():
    """'Only a partially converted Cyberman may ever destroy other Cybermen in combat.' 'Partial
    Conversions may never attack a human.'"""
    state = place(fresh(2), groups={1: [7, 4]}, cybermen=[{"id": "c1", "pos": [7, 3]}, {"id": "c2", "pos": [6, 3]},
                                                           {"id": "c20", "pos": [7, 6], "role": "partial", "seat": 0}],
                  turn=0)
    state, _ = act(state, 0, {"type": "roll"}, 2)
    state, _ = act(state, 0, {"type": "cyber_move", "id": "c1", "to": [7, 3]})
    state, _ = act(state, 0, {"type": "face", "facing": "N"})
    assert refused(state, 0, {"type": "attack", "target": "c2"}) == "only_partials_destroy"
    state = place(state, groups={1: [7, 5]}, cybermen=[{"id": "c20", "pos": [7, 6], "role": "partial", "seat": 0}],
                  phase="partials")
    state, _ = act(state, 0, {"type": "partial_move", "id": "c20", "to": [7, 6]})
    assert state["active"] and state["active"]["stage"] == "face"
    state, _ = act(state, 0, {"type": "face", "facing": "W"})
    assert state["active"] is None  # no Cyberman or Unit next to it; the group next to it is no target


def test_cybermen_attack_partial_conversions_freely_and_destroy_rather_than_capture():
    """'Cybermen may freely attack a partially converted Cyberman. If they win in combat, the loser
    is destroyed rather than captured.' 'Partial Conversions are not affected by Cyberman Guns,
    Energy Beams or Mind control.'"""
    state = place(fresh(2), cybermen=[{"id": "c1", "pos": [7, 3]}, {"id": "c20", "pos": [7, 5], "role": "partial",
                                                                     "seat": 0}], turn=1)
    state, facts = attack(state, 1, "c1", [7, 4], "c20", 4, facing="E")
    assert "c20" not in state["cybermen"] and not [f for f in facts if f["f"] == "capture"]
    state = place(fresh(2), cybermen=[{"id": "c1", "pos": [7, 3], "facing": "E", "mark": 4},
                                      {"id": "c20", "pos": [7, 5], "role": "partial", "seat": 0}], turn=1, tech=4)
    state["count"] = 0
    state, facts = abilities_phase(state, 1, "c1")
    assert not [f for f in facts if f["f"] == "hit"]


# ---------------------------------------------------------------------------------------
# Technology levels, arrivals, the end
# ---------------------------------------------------------------------------------------

def test_no_current_mark_counters_left_at_the_arrival_phase_upgrades_the_cybermen():
    """'... or there are no more current Mark counters able to be placed in the reveal tile phase,
    the Cybermen gain knowledge of how to improve themselves and upgrade.' (designed: the end of
    round arrival phase stands in for the reveal tile phase)"""
    state = place(fresh(2), turn=1, phase="abilities", tech=1)
    state["supply"]["1"] = 0
    state["count"], state["used"] = 0, 0
    state, facts = _end_turn(state)
    assert state["tech"] == 2 and [f["mark"] for f in facts if f["f"] == "spawn"] == [2]
    assert state["supply"]["2"] == CONST["supply_per_mark"] - 1


def test_a_group_on_an_exit_escapes_from_the_designed_round_and_scores():
    state = place(fresh(2), groups={0: [10, 0]}, turn=0, phase="group")
    state["round"] = CONST["exits_open_round"]
    state, _ = act(state, 0, {"type": "roll"}, 1)
    state, facts = act(state, 0, {"type": "move", "to": [11, 0], "fatigue": 0})
    assert state["groups"][0]["escaped"] == ["0.bride", "0.groom", "0.singer"]
    assert state["groups"][0]["vp"] == 3 * CONST["escape_vp"] and state["groups"][0]["status"] == "escaped"
    assert state["turn"] == 1  # an escaped player takes no more turns


def test_a_group_waiting_on_an_exit_escapes_when_its_turn_begins_even_stunned():
    state = place(fresh(2), groups={0: [11, 0]}, turn=1, phase="end")
    state["round"] = CONST["exits_open_round"] - 1
    state["groups"][0]["stunned"] = True
    state, _ = _end_turn(state)
    assert state["groups"][0]["status"] == "escaped" and state["groups"][0]["vp"] == 3 * CONST["escape_vp"]


def test_a_carrying_cyberlieutenant_cannot_pass():
    state = place(fresh(3), cybermen=[carrier("c9", [3, 6], ["0.bride"], role="lieutenant", seat=2)], turn=0)
    state["groups"][0]["members"].remove("0.bride")
    state["groups"][2].update(status="lieutenant", members=[])
    state["lieutenants"] = [2]
    state["queue"] = [{"id": "c9", "seat": 2, "kind": "lieutenant"}]
    assert {a["type"] for a in RULESET.legal_actions(state, 2)} == {"cyber_move"}
    assert refused(state, 2, {"type": "pass"}) == "carrying_to_unit"


def test_the_game_ends_at_the_round_limit_and_the_most_victory_points_win():
    state = place(fresh(2), turn=1, phase="abilities")
    state["round"] = CONST["round_limit"]
    state["count"] = 0
    state["groups"][1]["vp"] = 2
    state, _ = _end_turn(state)
    assert RULESET.outcome(state)["reason"] == "round_limit" and RULESET.outcome(state)["winners"] == [1]


def test_the_game_ends_when_no_human_is_left_in_play():
    state = place(fresh(2), cybermen=[carrier("c1", [2, 4], ["0.bride"])], turn=1, tech=2)
    state["groups"][0].update(members=[], escaped=["0.groom", "0.singer"], vp=4)
    state["groups"][1].update(members=[], escaped=["1.geek", "1.usher", "1.best_man"], status="escaped", vp=6)
    state["queue"] = [{"id": "c1", "seat": 1, "kind": "carrier"}]
    state, _ = act(state, 1, {"type": "cyber_move", "id": "c1", "to": [2, 3]})
    assert RULESET.outcome(state)["reason"] == "no_humans_left" and RULESET.outcome(state)["winners"] == [1]


def test_the_game_ends_as_soon_as_the_last_human_is_converted_asking_nothing_more():
    """'The game ends ... as soon as no human is left in play' (designed host): the conversion of
    the last human ends it there, with no facing to choose for the carrier, no attack on a partial
    conversion beside it and no Cyberlieutenant offered to a player whose game is over."""
    state = place(fresh(2), cybermen=[carrier("c1", [2, 4], ["0.bride"]),
                                      {"id": "c2", "pos": [1, 3], "role": "partial", "seat": 1}], turn=1, tech=1)
    state["groups"][0].update(members=[], converted=["0.groom", "0.singer"], vp=0)
    state["groups"][1].update(members=[], escaped=["1.geek", "1.usher", "1.best_man"], status="escaped", vp=6)
    state["queue"] = [{"id": "c1", "seat": 1, "kind": "carrier"}]
    state, facts = act(state, 1, {"type": "cyber_move", "id": "c1", "to": [2, 3]})
    result = RULESET.outcome(state)
    assert result is not None and result["reason"] == "no_humans_left" and result["winners"] == [1]
    assert RULESET.to_act(state) == set() and state["prompt"] is None and state["active"] is None
    assert facts[-1]["f"] == "over" and not any(f["f"] == "prompt" and f["prompt"] for f in facts)


def test_refusals_name_the_rule():
    state = place(fresh(2), groups={0: [7, 3]}, turn=0, phase="group")
    assert refused(state, 1, {"type": "roll"}) == "not_your_turn"
    assert refused(state, 0, {"type": "end_cyber"}) == "not_now"
    state, _ = act(state, 0, {"type": "roll"}, 1)  # the Bride: 2 squares
    assert refused(state, 0, {"type": "move", "to": [4, 4], "fatigue": 0}) == "impassable"
    assert refused(state, 0, {"type": "move", "to": [7, 9], "fatigue": 0}) == "movement_roll"
    assert refused(state, 0, {"type": "move", "to": [7, 7], "fatigue": 4}) == "no_tokens"
    state, _ = act(state, 0, {"type": "move", "to": [7, 7], "fatigue": 2})  # more than the fewest is allowed
    assert state["groups"][0]["fatigue"] == 1


# ---------------------------------------------------------------------------------------
# Found by the independent review (each fails on the code before its fix)
# ---------------------------------------------------------------------------------------

def test_a_destroyed_cyberleaders_player_who_becomes_a_cyberlieutenant_discards_its_item_cards():
    """Cyberlieutenant card: 'Any items cards they have in front of them are immediately
    discarded.' 'Cyberlieutenants and the Cyberleader may never use items or tokens.'"""
    state = leader_and_lieutenants()
    state["lieutenants"] = []
    for cid in ("c11", "c12"):
        del state["cybermen"][cid]
    for seat in (2, 3):
        state["groups"][seat]["status"] = "out"
    give(state, 1, "gold", "hacking")  # drawn by the Cyberleader and kept
    state, facts = partial_attack(state, "c10", 5)
    assert state["lieutenants"] == [1] and state["groups"][1]["hand"] == []
    assert sorted(f["card"] for f in facts if f["f"] == "discard") == ["gold", "hacking"]
    state = leader_and_lieutenants()  # the player chooses among several normal Cybermen
    state["cybermen"]["c14"] = {**state["cybermen"]["c13"], "pos": [0, 7]}
    give(state, 1, "glitch")
    state, _ = partial_attack(state, "c10", 4)
    assert state["prompt"]["kind"] == "lieutenant"
    state, _ = act(state, 1, {"type": "lieutenant", "id": "c13"})
    assert state["groups"][1]["hand"] == [] and state["groups"][1]["status"] == "lieutenant"


def test_the_cyberlieutenant_promoted_at_mark_ii_is_a_cyberleader_of_the_latest_mark():
    """'Mark I Cybermen do not have a Cyberleader ... The oldest Cyberlieutenant is upgraded to
    Cyberleader when the Cybermen upgrade to Mark II': its figure becomes a Mark II Cyberleader
    with the Mark II Cyberleader's Mind Control."""
    from domain.games.cybermen.state import cyberman_abilities
    state = place(fresh(4), turn=0, tech=1)
    state, _ = lose_last(state, 2, "2.singer")
    figure = next(cid for cid, c in state["cybermen"].items() if c["role"] == "lieutenant")
    assert state["cybermen"][figure]["mark"] == 1
    state, _ = lose_last(state, 1, "1.geek", cid="c8")  # the Geek's conversion: Mark II
    assert state["leader"] == 2 and state["cybermen"][figure]["role"] == "leader"
    assert state["cybermen"][figure]["mark"] == 2 and cyberman_abilities(state, figure) == ["mind_control"]


def test_a_cyberlieutenant_succeeding_a_destroyed_cyberleader_is_upgraded_to_the_latest_mark():
    """'The oldest (ie earliest converted) Cyberlieutenant in the game is upgraded to Cyberleader.'"""
    state = leader_and_lieutenants()
    state["tech"] = 3
    state["cybermen"]["c10"]["mark"] = 3
    state, _ = partial_attack(state, "c10", 6)
    assert state["leader"] == 2 and state["cybermen"]["c11"]["mark"] == 3


def test_released_captives_never_share_a_square_with_a_cyberman_or_unit():
    """Designed (README 20): captives of a destroyed Cyberman rejoin their group where its counter
    stands; the counter stays on the map while its members are carried, so 'Cybermen do not pass
    ... groups', and nothing is teleported or placed there meanwhile."""
    from domain.games.cybermen.legal import free_squares
    captives = ["1.geek", "1.usher", "1.best_man"]
    state = place(fresh(3), groups={1: [0, 7]}, cybermen=[
        {"id": "c20", "pos": [0, 5], "role": "partial", "seat": 0}, carrier("c1", [0, 6], captives),
        {"id": "c2", "pos": [0, 8], "mark": 2}], turn=0, tech=2)
    state["groups"][1]["members"] = []
    assert [0, 7] not in free_squares(state)  # no teleport, Unit or arrival there
    state, _ = act(state, 0, {"type": "roll"}, 1)
    targets = [a["to"] for a in RULESET.legal_actions(state, 0) if a["type"] == "cyber_move" and a["id"] == "c2"]
    assert targets == [[0, 8]]  # hemmed in by the hedge, the building and the counter at (0, 7)
    assert refused(state, 0, {"type": "cyber_move", "id": "c2", "to": [0, 7]}) == "cyberman_speed"
    state = place(state, groups={1: [0, 7]}, cybermen=[
        {"id": "c20", "pos": [0, 5], "role": "partial", "seat": 0}, carrier("c1", [0, 6], captives),
        {"id": "c2", "pos": [0, 8], "mark": 2}], turn=0, phase="partials", tech=2)
    state, _ = act(state, 0, {"type": "partial_move", "id": "c20", "to": [0, 5]})
    state, _ = act(state, 0, {"type": "face", "facing": "E"})
    state, _ = act(state, 0, {"type": "attack", "target": "c1", "fatigue": 0}, 6)
    assert sorted(state["groups"][1]["members"]) == sorted(captives) and state["groups"][1]["pos"] == [0, 7]
    assert [0, 7] not in [c["pos"] for c in state["cybermen"].values()]


def test_a_partial_conversion_destroying_another_players_partial_scores_but_never_attacks_its_own():
    """'If attacking a Cyberman of any sort ... it will destroy the opponent on a 4-6.' 'A destroyed
    Cyberman ... is worth 1 Victory Point.' A player's own partial conversion is no opponent."""
    state = place(fresh(3), groups={0: [7, 3]}, cybermen=[
        {"id": "c20", "pos": [1, 5], "role": "partial", "seat": 0},
        {"id": "c21", "pos": [1, 6], "role": "partial", "seat": 2},
        {"id": "c22", "pos": [0, 5], "role": "partial", "seat": 0}], turn=0, phase="partials", tech=2)
    state, _ = act(state, 0, {"type": "partial_move", "id": "c20", "to": [1, 5]})
    state, _ = act(state, 0, {"type": "face", "facing": "E"})
    assert {a["target"] for a in RULESET.legal_actions(state, 0) if a["type"] == "attack"} == {"c21"}
    assert refused(state, 0, {"type": "attack", "target": "c22", "fatigue": 0}) == "not_an_opponent"
    state, _ = act(state, 0, {"type": "attack", "target": "c21", "fatigue": 0}, 4)
    assert "c21" not in state["cybermen"] and state["groups"][0]["vp"] == 1


def test_mind_control_reaches_two_and_three_squares_through_a_hedge_but_not_four():
    """'Any player within 3 squares of this Cyberman in any direction, whether in line of sight or
    not, is affected by Mind Control.'"""
    state = place(fresh(6), groups={1: [9, 5], 3: [10, 5], 4: [7, 9], 5: [7, 2]},
                  cybermen=[{"id": "c1", "pos": [7, 5], "facing": "N", "mark": 2}], turn=0, tech=2)
    state["count"] = 0
    state, facts = abilities_phase(state, 0, "c1")
    hit = {f["seat"] for f in facts if f["f"] == "hit" and f["effect"] == "mind"}
    assert hit == {1, 3, 5}  # 2 and 3 squares behind the hedge at (8, 5); 3 in the open; 4 is too far


def test_guns_reach_eight_squares_ahead_but_not_nine(monkeypatch):
    """'Any player within 8 squares of the front of this Cyberman ... is shot with a cybergun.'
    (The designed map's longest open line is 9 squares, so 9 ahead is tried on an open field.)"""
    import domain.games.cybermen.board as board
    state = place(fresh(3), groups={0: [7, 10]}, cybermen=[{"id": "c1", "pos": [7, 2], "facing": "E", "mark": 3}],
                  turn=0, tech=3)
    state["count"] = 0
    state, facts = abilities_phase(state, 0, "c1")
    assert [(f["seat"], f["effect"]) for f in facts if f["f"] == "hit"] == [(0, "injured")]  # 8 ahead
    monkeypatch.setattr(board, "terrain", lambda pos: ".")
    state = place(fresh(3), groups={0: [8, 0], 2: [9, 0]},  # (seat 1's Usher is never injured)
                  cybermen=[{"id": "c1", "pos": [0, 0], "facing": "S", "mark": 3}], turn=0, tech=3)
    state["count"] = 0
    state, facts = abilities_phase(state, 0, "c1")
    assert [(f["seat"], f["effect"]) for f in facts if f["f"] == "hit"] == [(0, "injured")]


def test_the_energy_beam_reaches_four_squares_ahead_but_not_five_on_an_open_field(monkeypatch):
    import domain.games.cybermen.board as board
    monkeypatch.setattr(board, "terrain", lambda pos: ".")
    state = place(fresh(3), groups={0: [4, 0], 1: [5, 0]},
                  cybermen=[{"id": "c1", "pos": [0, 0], "facing": "S", "mark": 1}], turn=0, tech=1)
    state["count"] = 0
    state, facts = abilities_phase(state, 0, "c1")
    assert [(f["seat"], f["effect"]) for f in facts if f["f"] == "hit"] == [(0, "stunned")]


def test_the_photographer_is_not_stunned_and_the_usher_is_not_injured():
    """Designed abilities: the Photographer (and the Vicar) 'not stunned by beams', the Usher (and
    the Chef) 'not injured by guns'; a group without them is hit."""
    state = place(fresh(6), groups={5: [7, 4], 4: [7, 5]},
                  cybermen=[{"id": "c1", "pos": [7, 2], "facing": "E", "mark": 1}], turn=0, tech=1)
    state["count"] = 0
    state, facts = abilities_phase(state, 0, "c1")
    assert [(f["seat"], f["effect"]) for f in facts if f["f"] == "hit" and f["effect"] == "stunned"] == [(4, "stunned")]
    state = place(fresh(6), groups={1: [7, 8], 3: [7, 9]},
                  cybermen=[{"id": "c1", "pos": [7, 2], "facing": "E", "mark": 3}], turn=0, tech=3)
    state["count"] = 0
    state, facts = abilities_phase(state, 0, "c1")
    assert [(f["seat"], f["effect"]) for f in facts if f["f"] == "hit"] == [(3, "injured")]


def test_a_group_with_a_geek_draws_two_item_cards_and_one_without():
    """Designed: 'Geek: 2 item cards a turn'."""
    state = place(fresh(3), turn=0, phase="end")
    state, _ = _end_turn(state)
    assert state["turn"] == 1 and len(state["groups"][1]["hand"]) == 2  # the Best Man's Lot has the Geek
    state = place(fresh(3), turn=0, phase="end")
    state["groups"][1]["members"] = ["1.best_man", "1.usher"]  # the Geek is carried off
    state, _ = _end_turn(state)
    assert len(state["groups"][1]["hand"]) == 1


def test_a_cyberleader_uses_the_cyberleader_special_abilities_column():
    """Mark IV: 'Energy Beam, Guns, Mind Control' for Cybermen but 'Mind Control' for the
    Cyberleader."""
    state = place(fresh(4), groups={3: [7, 4]}, cybermen=[
        {"id": "c1", "pos": [7, 2], "facing": "E", "mark": 4, "role": "leader", "seat": 1}], turn=0, tech=4)
    state["leader"] = 1
    state["groups"][1].update(status="leader", members=[])
    state["groups"][3]["members"] = ["3.aunt", "3.uncle"]  # without the Vicar, who is not stunned
    state["count"] = 0
    state, facts = abilities_phase(state, 1, "c1")
    assert [(f["seat"], f["effect"]) for f in facts if f["f"] == "hit"] == [(3, "mind")]


# ---------------------------------------------------------------------------------------
# Issue 29: the third read
# ---------------------------------------------------------------------------------------

def finish_now(state):
    from domain.games.cybermen.facts import evolve
    from domain.games.cybermen.flow import finish
    from domain.kernel.decision import Decision
    d = Decision(state, None, evolve)
    finish(d, "round_limit")
    return d.state


def test_a_player_out_because_its_cyberlieutenant_was_destroyed_plays_no_more_and_wins_nothing():
    """'If a Cyberlieutenant is destroyed, the player is out of the game.' Its points stay on
    record, but it is no winner, takes no more turns, and its partial conversions leave with it."""
    from domain.games.cybermen.state import next_turn, takes_turns
    state = leader_and_lieutenants()
    state["groups"][3]["vp"] = 9  # more than anyone: it would win if it were still in the game
    state["cybermen"]["c21"] = {"pos": [9, 1], "facing": "N", "mark": 2, "role": "partial", "seat": 3,
                                "origin": None, "carrying": []}
    state, facts = partial_attack(state, "c12", 6)
    assert state["groups"][3]["status"] == "out" and "c21" not in state["cybermen"]
    assert not takes_turns(state, 3)
    state["turn"] = 2
    assert next_turn(state) == (0, True)  # seat 3 is skipped
    over = finish_now(state)
    assert 3 not in over["winners"] and over["winners"] == [0]
    assert RULESET.outcome(over)["victory_points"][3] == 9


def test_a_player_that_cannot_become_cyberleader_may_play_its_cyberlieutenant_or_stand_down():
    """'Players that lose all their group members that can't become Cyberleader may instead play the
    Cyberman who represents their last Human.' Standing down, the player keeps its points and plays
    no more; its last human's Cyberman stays a normal Cyberman."""
    from domain.games.cybermen.state import takes_turns
    state = place(fresh(4), turn=0, tech=1)
    give(state, 2, "gold")
    state["groups"][2]["vp"] = 4
    state, facts = lose_last(state, 2, "2.singer", accept=None)
    new = [f["id"] for f in facts if f["f"] == "spawn"][0]
    assert RULESET.to_act(state) == {2}
    assert RULESET.legal_actions(state, 2) == [{"type": "lieutenant", "id": new}, {"type": "stand_down"}]
    assert state["groups"][2]["hand"] == []  # 'Any items cards they have in front of them are discarded.'
    stood, _ = act(json_copy(state), 2, {"type": "stand_down"})
    assert stood["cybermen"][new]["role"] == "normal" and stood["lieutenants"] == [] and stood["prompt"] is None
    assert stood["groups"][2]["status"] == "converted" and not takes_turns(stood, 2)
    assert finish_now(stood)["winners"] == [2]  # its 4 points still count
    took, _ = act(state, 2, {"type": "lieutenant", "id": new})
    assert took["cybermen"][new]["role"] == "lieutenant" and took["lieutenants"] == [2]


def test_a_partial_conversion_never_attacks_its_own_players_cyberleader_or_cyberlieutenant():
    """'If attacking a Cyberman of any sort ... it will destroy the opponent': the figure its own
    player plays is no opponent (and destroying it would pay its player 2 Victory Points)."""
    state = leader_and_lieutenants()
    state["cybermen"]["c20"]["seat"] = 1  # the Cyberleader's player's partial conversion, next to c10
    state["turn"] = 1
    state, _ = act(state, 1, {"type": "partial_move", "id": "c20", "to": [3, 3]})
    state, _ = act(state, 1, {"type": "face", "facing": "E"})
    assert {a["target"] for a in RULESET.legal_actions(state, 1) if a["type"] == "attack"} == {"c12", "u1"}
    assert refused(state, 1, {"type": "attack", "target": "c10", "fatigue": 0}) == "not_an_opponent"
    state = leader_and_lieutenants()
    state["cybermen"]["c20"]["seat"] = 3  # a Cyberlieutenant's player's partial, next to its own c12
    state["turn"] = 3
    state, _ = act(state, 3, {"type": "partial_move", "id": "c20", "to": [3, 3]})
    state, _ = act(state, 3, {"type": "face", "facing": "E"})
    assert {a["target"] for a in RULESET.legal_actions(state, 3) if a["type"] == "attack"} == {"c10", "u1"}


def test_a_cyberleader_arising_mid_phase_moves_the_carriers_still_queued():
    """'From now on, no other player in the game moves Cybermen ... the Cyberleader chooses which
    Cybermen to move and where.'"""
    state = place(fresh(3), cybermen=[carrier("c1", [2, 4], ["2.singer"]), carrier("c2", [9, 6], ["1.usher"])],
                  turn=0, tech=2)
    state["groups"][2].update(members=[], converted=["2.drummer", "2.roadie"])
    state["groups"][1]["members"].remove("1.usher")
    state, _ = act(state, 0, {"type": "end_partials"}) if state["phase"] == "partials" else (state, [])
    from domain.games.cybermen.flow import enter_cyber_move
    from domain.games.cybermen.facts import evolve
    from domain.kernel.decision import Decision
    d = Decision(state, None, evolve)
    enter_cyber_move(d)
    state = d.state
    assert RULESET.to_act(state) == {0}
    state, _ = act(state, 0, {"type": "cyber_move", "id": "c1", "to": [2, 3]})  # seat 2's last human converted
    assert state["leader"] == 2
    state, _ = act(state, 0, {"type": "face", "facing": "N"})
    assert state["queue"][0]["id"] == "c2" and RULESET.to_act(state) == {2}
    assert RULESET.legal_actions(state, 0) == []


def test_the_cyberleader_spends_only_cards_drawn_this_turn():
    """'Any item cards that are drawn as part of their turn may be discarded to teleport ...': cards
    not spent are discarded when the Cyberleader is done, never pooled for a later turn. Designed:
    the Cyberleader draws three cards a turn, so one turn's draw can pay for any of the three."""
    state = place(fresh(3), turn=1, phase="leader", tech=2)
    with_cyberleader(state, mark=2)
    give(state, 1, "gold", "hacking")
    state, facts = act(state, 1, {"type": "done"})
    assert state["groups"][1]["hand"] == [] and sorted(state["discard"][-2:]) == ["gold", "hacking"]
    from domain.games.cybermen.flow import start_turn
    from domain.games.cybermen.facts import evolve
    from domain.kernel.decision import Decision
    d = Decision(state, RandomStream(b"k" * 32, "m", 7), evolve)
    start_turn(d, 1, 2)
    assert len(d.state["groups"][1]["hand"]) == CONST["leader_draw"] == 3
    assert {a["type"] for a in RULESET.legal_actions(d.state, 1)} == {"teleport", "unit", "upgrade_tech", "done"}


def test_a_captured_characters_ability_stays_lost_when_a_partial_conversion_frees_it():
    """'This character's ability can no longer be used': the Groom (tough) freed from its Cyberman
    rejoins its group without its ability."""
    from domain.games.cybermen.state import abilities
    state = place(fresh(3), groups={0: [7, 5]}, cybermen=[{"id": "c1", "pos": [7, 3]}], turn=1)
    state["groups"][0].update(fatigue=0, escape=0)
    state, _ = attack(state, 1, "c1", [7, 4], "group0", 6)
    state, _ = act(state, 1, {"type": "capture", "character": "0.groom"})
    assert "tough" not in abilities(state, 0)
    state["cybermen"]["c20"] = {"pos": [6, 4], "facing": "N", "mark": 1, "role": "partial", "seat": 2,
                                "origin": None, "carrying": []}
    state.update(turn=2, phase="partials", prompt=None, active=None, queue=[], moved=[], count=None, used=0)
    state, _ = act(state, 2, {"type": "partial_move", "id": "c20", "to": [6, 4]})
    state, _ = act(state, 2, {"type": "face", "facing": "S"})
    state, _ = act(state, 2, {"type": "attack", "target": "c1", "fatigue": 0}, 6)
    assert "0.groom" in state["groups"][0]["members"]
    assert "tough" not in abilities(state, 0)
    state = place(state, groups={0: [7, 5]}, cybermen=[{"id": "c3", "pos": [7, 3]}], turn=1)
    state, _ = attack(state, 1, "c3", [7, 4], "group0", 4)
    assert state["prompt"]["kind"] == "defend" and state["prompt"]["needs"] == 4  # the Groom no longer makes it 5


# Tests that kill the surviving mutants of issue 29 (item 7)

def test_a_capture_in_another_players_turn_does_not_end_that_turn():
    """'Your turn is ended': the captured group's player's turn, not the turn of whoever moved the Cyberman."""
    state = place(fresh(3), groups={0: [7, 5]}, cybermen=[{"id": "c1", "pos": [7, 3]}, {"id": "c2", "pos": [0, 8]}],
                  turn=1)
    state["groups"][0].update(fatigue=0, escape=0)
    state, _ = act(state, 1, {"type": "roll"}, 2)  # two Cybermen may move this turn
    state, _ = attack(state, 1, "c1", [7, 4], "group0", 6)
    state, _ = act(state, 1, {"type": "capture", "character": "0.groom"})
    assert state["turn"] == 1 and state["phase"] == "cyber_move" and RULESET.to_act(state) == {1}
    assert any(a["type"] == "cyber_move" and a["id"] == "c2" for a in RULESET.legal_actions(state, 1))


def test_a_group_escaping_while_a_member_is_carried_still_plays():
    """Designed (interpretation 20, 16): a player is done only when no human of its group is left;
    while a member is carried it may still be freed, so the player keeps its turns."""
    from domain.games.cybermen.state import takes_turns
    state = place(fresh(2), groups={0: [10, 0]}, cybermen=[carrier("c1", [0, 8], ["0.groom"])], turn=0, phase="group")
    state["groups"][0]["members"].remove("0.groom")
    state["round"] = CONST["exits_open_round"]
    state, _ = act(state, 0, {"type": "roll"}, 1)
    state, _ = act(state, 0, {"type": "move", "to": [11, 0], "fatigue": 0})
    assert state["groups"][0]["escaped"] == ["0.bride", "0.singer"]
    assert state["groups"][0]["status"] == "human" and takes_turns(state, 0)


def test_an_energy_beam_does_not_pass_through_a_cyberconversion_unit():
    """'Cybermen cannot shoot through other Cybermen or Cyberconversion Units.' (the Unit at (2, 3))"""
    state = place(fresh(3), groups={0: [1, 3], 1: [0, 3]}, cybermen=[{"id": "c1", "pos": [3, 3], "facing": "N", "mark": 1}],
                  turn=2)
    state["count"] = 0
    state, facts = abilities_phase(state, 2, "c1")
    assert not [f for f in facts if f["f"] == "hit" and f["effect"] == "stunned"]  # the Unit stands between
    del state["units"]["u1"]
    state = place(state, groups={0: [1, 3], 1: [0, 3]}, cybermen=[{"id": "c1", "pos": [3, 3], "facing": "N", "mark": 1}],
                  turn=2)
    state["count"] = 0
    state, facts = abilities_phase(state, 2, "c1")
    assert {f["seat"] for f in facts if f["f"] == "hit" and f["effect"] == "stunned"} == {0, 1}  # without it: hit


def test_the_cyberleader_cannot_raise_the_mark_past_v():
    """'Three item cards may be discarded to increase the Cyberman technology level by 1': at Mark V
    there is no higher level (interpretation 25)."""
    state = place(fresh(3), turn=1, phase="leader", tech=5)
    with_cyberleader(state, mark=5)
    give(state, 1, "gold", "gold", "hacking")
    assert "upgrade_tech" not in {a["type"] for a in RULESET.legal_actions(state, 1)}
    assert refused(state, 1, {"type": "upgrade_tech"}) == "latest_mark"


def test_the_cyberleader_draws_item_cards_at_the_start_of_its_turn():
    """'Any item cards that are drawn as part of their turn': the Cyberleader draws (designed: three)."""
    state = place(fresh(3), turn=0, phase="end", tech=2)
    with_cyberleader(state, mark=2)
    state, facts = _end_turn(state)
    assert state["turn"] == 1 and state["phase"] == "leader"
    assert [f["seat"] for f in facts if f["f"] == "draw"] == [1] * CONST["leader_draw"]


def test_a_player_whose_group_escaped_still_moves_its_partial_conversion():
    """'This Cyberman character may be moved during the turn of original player' (interpretation 14:
    it belongs to its player for good, after the group escaped)."""
    state = place(fresh(3), cybermen=[{"id": "c20", "pos": [7, 7], "role": "partial", "seat": 1}], turn=0, phase="end")
    state["groups"][1].update(status="escaped", members=[], escaped=["1.best_man", "1.usher", "1.geek"])
    state, _ = _end_turn(state)
    assert state["turn"] == 1 and state["phase"] == "partials" and RULESET.to_act(state) == {1}
    assert any(a["type"] == "partial_move" for a in RULESET.legal_actions(state, 1))


def test_taking_up_the_offered_cyberlieutenant_lets_the_carriers_other_captives_be_converted():
    """The offer pauses a conversion: once answered, the carrier's other captives are converted too."""
    state = place(fresh(3), turn=0, tech=1)
    state["groups"][2].update(members=[], converted=["2.drummer", "2.roadie"])
    state["groups"][1]["members"].remove("1.usher")
    state["cybermen"]["c1"] = {"pos": [2, 4], "facing": "W", "mark": 1, "role": "normal", "seat": None,
                               "origin": None, "carrying": ["2.singer", "1.usher"]}
    state.update(phase="cyber_move", queue=[{"id": "c1", "kind": "carrier"}])
    state, facts = act(state, 0, {"type": "cyber_move", "id": "c1", "to": [2, 3]})
    assert state["prompt"]["kind"] == "offer" and state["cybermen"]["c1"]["carrying"] == ["1.usher"]
    new = state["prompt"]["options"][0]
    state, _ = act(state, 2, {"type": "lieutenant", "id": new})
    assert state["cybermen"]["c1"]["carrying"] == [] and state["groups"][1]["converted"] == ["1.usher"]


def test_a_cyberlieutenants_player_chooses_whom_its_cyberman_captures():
    """'If you have a Geek, Bride or Groom in your group, the Cyberman will choose them first': the
    player moving the Cyberman chooses — a Cyberlieutenant's own player ('only controlled by that
    player'), not the player whose turn it is."""
    state = place(fresh(3), groups={0: [7, 5]}, cybermen=[{"id": "c9", "pos": [7, 3], "role": "lieutenant",
                                                           "seat": 2}], turn=1)
    state["groups"][2].update(status="lieutenant", members=[])
    state["lieutenants"] = [2]
    state["groups"][0].update(fatigue=0, escape=0)
    from domain.games.cybermen.flow import enter_cyber_move
    from domain.games.cybermen.facts import evolve
    from domain.kernel.decision import Decision
    d = Decision(state, None, evolve)
    enter_cyber_move(d)
    state = d.state
    state, _ = act(state, 2, {"type": "cyber_move", "id": "c9", "to": [7, 4]})
    state, _ = act(state, 2, {"type": "face", "facing": "E"})
    state, _ = act(state, 2, {"type": "attack", "target": "group0"}, 6)
    assert state["prompt"]["kind"] == "capture" and state["prompt"]["seat"] == 2


# ---------------------------------------------------------------------------------------
# Designed: the two-player sabotage objective (data.json "sabotage", README "Two players")
# ---------------------------------------------------------------------------------------

def test_designed_two_players_a_group_ending_next_to_an_untried_unit_sabotages_it_on_4_to_6():
    """A group that ends its move next to a Cyberconversion Unit it has not tried makes one attempt:
    4-6 scores 3 Victory Points; each group tries each Unit once."""
    state = place(fresh(2), groups={0: [3, 1]}, turn=0, phase="group")
    state, _ = act(state, 0, {"type": "roll"}, 2)
    state, facts = act(state, 0, {"type": "move", "to": [3, 3], "fatigue": 0}, 4)  # next to the Unit u1 at (2, 3)
    assert [f for f in facts if f["f"] == "sabotage"] == [{"f": "sabotage", "seat": 0, "unit": "u1", "roll": 4,
                                                          "success": True}]
    assert state["groups"][0]["vp"] == 3 and state["groups"][0]["tried"] == ["u1"]
    state = place(state, groups={0: [3, 1]}, turn=0, phase="group")
    state, _ = act(state, 0, {"type": "roll"}, 2)
    state, facts = act(state, 0, {"type": "move", "to": [3, 3], "fatigue": 0}, 6)
    assert not [f for f in facts if f["f"] == "sabotage"] and state["groups"][0]["vp"] == 3  # tried already


def test_designed_a_failed_sabotage_lets_the_unit_take_a_member_and_ends_the_turn():
    """1-3: a Cyberman of the current Mark appears on the Unit carrying a member (the capture rules
    choose it: the Bride or Groom first), the turn ends, and the next Cyberman phase converts it."""
    state = place(fresh(2), groups={0: [3, 1]}, turn=0, phase="group", tech=2)
    state["groups"][0]["fatigue"] = 1
    state, _ = act(state, 0, {"type": "roll"}, 2)
    state, facts = act(state, 0, {"type": "move", "to": [3, 3], "fatigue": 0}, 3)
    assert {"f": "roll", "purpose": "sabotage", "value": 3} in facts
    (spawned,) = [f for f in facts if f["f"] == "spawn"]
    assert spawned["role"] == "normal" and spawned["facing"] == "N" and spawned["seat"] is None
    assert state["prompt"]["kind"] == "capture" and state["prompt"]["options"] == ["0.bride", "0.groom"]
    state, facts = act(state, 0, {"type": "capture", "character": "0.groom"})
    (carrier_id,) = [cid for cid, c in state["cybermen"].items() if c["carrying"] == ["0.groom"]]
    assert state["cybermen"][carrier_id]["pos"] == [2, 3] and state["cybermen"][carrier_id]["mark"] == 2
    assert state["groups"][0]["fatigue"] == 3 and state["groups"][0]["vp"] == 0  # tokens restored, no points
    assert state["turn"] == 1 and state["groups"][0]["tried"] == ["u1"]  # the turn ended
    state, _ = act(state, 1, {"type": "roll"}, 1)  # seat 1's group move
    state, _ = act(state, 1, {"type": "move", "to": state["groups"][1]["pos"], "fatigue": 0})
    assert state["queue"][0]["id"] == carrier_id
    state, _ = act(state, 1, {"type": "cyber_move", "id": carrier_id, "to": [2, 3]})
    assert state["groups"][0]["converted"] == ["0.groom"]


def test_designed_sabotage_is_only_for_two_players():
    state = place(fresh(3), groups={0: [3, 1]}, turn=0, phase="group")
    state, _ = act(state, 0, {"type": "roll"}, 2)
    state, facts = act(state, 0, {"type": "move", "to": [3, 3], "fatigue": 0}, 6)
    assert not [f for f in facts if f["f"] == "sabotage"] and state["groups"][0]["vp"] == 0


def test_the_cyberleader_with_two_cards_drawn_may_place_a_unit_from_the_listing():
    """'Two item cards may be discarded to teleport in another Cyberconversion Unit onto any legal map space.'"""
    state = place(fresh(3), turn=1, phase="leader", tech=2)
    with_cyberleader(state, mark=2)
    give(state, 1, "gold", "hacking")
    listed = RULESET.legal_actions(state, 1)
    assert {a["type"] for a in listed} == {"teleport", "unit", "done"}
    assert {"type": "unit", "to": [3, 3]} in listed
    state, _ = act(state, 1, {"type": "unit", "to": [3, 3]})
    assert [3, 3] in state["units"].values() and state["groups"][1]["hand"] == []


def test_a_building_or_hedge_within_reach_stops_an_energy_beam_and_the_map_edge_ends_it():
    """'Any player within 4 squares of the front of this Cyberman that isn't out of line of sight (ie
    no hedge or building in the way)': the hedge at (3, 6) hides a group 3 squares ahead."""
    state = place(fresh(3), groups={0: [3, 7], 1: [3, 5]}, cybermen=[{"id": "c1", "pos": [3, 4], "facing": "E", "mark": 1}],
                  turn=2)
    state["count"] = 0
    state, facts = abilities_phase(state, 2, "c1")
    assert {f["seat"] for f in facts if f["f"] == "hit" and f["effect"] == "stunned"} == {1}
    state = place(fresh(3), groups={0: [9, 0]}, cybermen=[{"id": "c1", "pos": [11, 0], "facing": "S", "mark": 1}], turn=2)
    state["count"] = 0
    state, facts = abilities_phase(state, 2, "c1")  # facing off the map: nothing ahead
    assert not [f for f in facts if f["f"] == "hit" and f["effect"] == "stunned"]


def test_when_every_player_is_out_nobody_wins():
    state = place(fresh(2), turn=0)
    for group in state["groups"]:
        group.update(status="out", members=[], vp=2)
    assert finish_now(state)["winners"] == []


def test_a_cyberlieutenants_player_and_a_stood_down_player_with_a_partial_take_turns():
    """A Cyberlieutenant is 'only controlled by that player': its player keeps taking turns; a player
    that stood down still moves its partial conversion in its turns, and without one plays no more."""
    from domain.games.cybermen.state import takes_turns
    state = place(fresh(3), cybermen=[{"id": "c9", "pos": [0, 0], "role": "lieutenant", "seat": 1},
                                      {"id": "c20", "pos": [7, 7], "role": "partial", "seat": 2}], turn=0)
    state["groups"][1].update(status="lieutenant", members=[])
    state["groups"][2].update(status="converted", members=[])
    state["lieutenants"] = [1]
    assert takes_turns(state, 1) and takes_turns(state, 2)
    del state["cybermen"]["c20"]
    assert not takes_turns(state, 2)


def test_a_cyberleader_arising_during_a_carriers_move_chooses_whom_that_cyberman_captures():
    """Interpretation 8 with 33: 'From now on, no other player in the game moves Cybermen': the
    player who moved the carrier faces it and decides its attack, but the Cyberleader its conversion
    made chooses among the Bride and Groom ('the Cyberman will choose them first')."""
    state = place(fresh(3), groups={0: [3, 3]}, cybermen=[carrier("c1", [2, 4], ["1.usher"])], turn=0, tech=2)
    state["groups"][1].update(members=[], converted=["1.best_man", "1.geek"])
    state["queue"] = [{"id": "c1", "kind": "carrier"}]
    state, _ = act(state, 0, {"type": "cyber_move", "id": "c1", "to": [2, 3]})
    assert state["leader"] == 1 and RULESET.to_act(state) == {0}  # the mover faces it
    state, _ = act(state, 0, {"type": "face", "facing": "S"})
    state, _ = act(state, 0, {"type": "attack", "target": "group0"}, 6)
    state, _ = act(state, 0, {"type": "submit"})
    assert state["prompt"]["kind"] == "capture" and RULESET.to_act(state) == {1}
    assert RULESET.legal_actions(state, 1) == [{"type": "capture", "character": "0.bride"},
                                               {"type": "capture", "character": "0.groom"}]
