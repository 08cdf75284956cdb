"""The refusals the rule tests do not already meet: each names its rule with a code."""

import pytest

from domain.games.cyberspace.duels import BitDuel
from domain.kernel.errors import IllegalAction

from .boards import E, act, avatar, new_state, refused, rng
from .test_hacking import HEADS, face_off
from .test_programs import line_network


def test_unknown_and_malformed_actions():
    state = new_state()
    refused(state, 0, {"type": "teleport"}, "unknown_action")
    refused(state, 0, ["draw"], "malformed_action")
    refused(state, 0, {"type": "probe", "tile": state["face_up"][0], "x": "a", "y": 3, "rot": 0}, "malformed_action")
    refused(state, 1, {"type": "draw"}, "not_your_turn")


def test_probe_refusals():
    state = new_state()
    refused(state, 0, {"type": "place", "x": 3, "y": 3, "rot": 0}, "no_drawn_tile")
    refused(state, 0, {"type": "probe", "tile": "t99", "x": 3, "y": 3, "rot": 0}, "tile_not_face_up")
    refused(state, 0, {"type": "probe", "tile": state["face_up"][0], "x": 3, "y": 3, "rot": 4}, "bad_rotation")
    state["face_up"] += state["stack"]
    state["stack"] = []
    refused(state, 0, {"type": "draw"}, "stack_empty")


def test_turn_refusals():
    state = line_network(new_state())
    avatar(state, 0, 2, 3)
    refused(state, 0, {"type": "end_session"}, "no_hijacked_session")
    refused(state, 0, {"type": "done"}, "puzzle_only")
    refused(state, 0, {"type": "reboot", "avatars": [1]}, "reboot_avatars")
    refused(state, 0, {"type": "reboot", "avatars": [0, 0]}, "reboot_avatars")
    refused(state, 0, {"type": "reboot", "avatars": "all"}, "reboot_avatars")
    for wrong in ([True], [3], ["0"], [-1]):  # indexes of your Avatars on the board, nothing else
        refused(state, 0, {"type": "reboot", "avatars": wrong}, "reboot_avatars")
    refused(state, 0, {"type": "firewall", "x": 2, "y": 3, "side": E, "from": ["3,3", 1]}, "not_your_firewall")
    refused(state, 0, {"type": "duel", "duel": {}}, "no_duel")
    refused(state, 0, {"type": "login", "avatar": 1, "x": 1, "y": 3}, "no_such_avatar")  # not on the board
    refused(state, 0, {"type": "login", "avatar": 3, "x": 1, "y": 3}, "no_such_avatar")


def test_a_hijacked_session_has_three_programs_too():
    state = face_off()
    state, _ = act(state, 0, {"type": "attack", "target": "avatar", "seat": 1, "avatar": 0}, seq=HEADS)
    state["hijack"]["programs"] = 3  # as if a third program were still placing its drawn tile
    refused(state, 0, {"type": "login", "avatar": 0, "x": 4, "y": 3}, "three_programs")


def test_nothing_is_decided_after_the_end():
    state = new_state()
    state["over"], state["winners"] = "final_round_scored", [0]
    state["tallies"] = [{"networks": 0, "bonus": 3, "score": 3}] * 2
    refused(state, 0, {"type": "end_turn"}, "game_over")


def test_a_bit_duel_takes_no_actions():
    duel, facts = BitDuel.start({}, 0, [1], rng())
    assert BitDuel.legal_actions(duel, 0) == BitDuel.legal_actions(duel, 1) == [] and duel["seats"] == []
    assert BitDuel.evolve(None, facts[0]) == duel and BitDuel.result(duel) in ("attacker", "defender")
    for coin, side in (("heads", "attacker"), ("tails", "defender")):  # the duel interface's sub-state
        fact = {"kind": "bit", "attacker": 2, "defenders": [0, 1], "coin": coin}
        made = BitDuel.evolve(None, fact)
        assert made == {"kind": "bit", "attacker": 2, "defenders": [0, 1], "coin": coin, "seats": []}
        assert BitDuel.result(made) == side
    with pytest.raises(IllegalAction) as raised:
        BitDuel.decide(duel, 1, {}, rng())
    assert raised.value.code == "duel_resolved"


def test_remap_refusals():
    state = line_network(new_state())
    refused(state, 0, {"type": "remap", "from": "9,9", "x": 1, "y": 1, "rot": 0}, "no_tile")
    refused(state, 0, {"type": "remap", "from": ["1", "3"], "x": 1, "y": 1, "rot": 0}, "no_tile")
    refused(state, 0, {"type": "remap", "from": "2,3", "x": 1, "y": 1, "rot": 0}, "remap_pendant_only")
    refused(state, 0, {"type": "remap", "from": "1,3", "y": 2, "rot": 0}, "malformed_action")
    refused(state, 0, {"type": "remap", "from": "1,3", "x": 1, "y": 2, "rot": 4}, "bad_rotation")
    refused(state, 0, {"type": "remap", "from": "1,3", "x": 1, "y": 2, "rot": True}, "malformed_action")


def test_a_seat_that_must_move_ends_its_hijacked_session_or_the_puzzle():
    from domain.games.cyberspace.rules import default_action
    state = face_off()
    state, _ = act(state, 0, {"type": "attack", "target": "avatar", "seat": 1, "avatar": 0}, seq=HEADS)
    assert default_action(state, 0) == {"type": "end_session"}
    puzzle = new_state(seats=1)
    assert default_action(puzzle, 0) == {"type": "done"}
