"""Hacking with Bit Duels: who may be attacked, the coin, one bit duel a turn, and every
result of a successful attack (a hijacked session, a destroyed Firewall or Link)."""

import pytest

from domain.games.cyberspace import RULESET
from domain.games.cyberspace.board import firewalls_on

from .boards import E, N, S, W, act, avatar, legal_of, new_state, put, refused, rng
from .test_programs import line_network, two_walls_by_remap


def coin_seq(side):
    """A sequence number whose first draw is `side` ('heads' = randbelow(2) == 1)."""
    return next(seq for seq in range(2, 200) if (rng(seq).randbelow(2) == 1) == (side == "heads"))


HEADS, TAILS = coin_seq("heads"), coin_seq("tails")


def duel_facts(facts):
    return [f["fact"] for f in facts if f["f"] == "duel"]


def face_off():
    """Seat 0 on the server at 2,3, seat 1 on the client at 3,3 next to it."""
    state = line_network(new_state(), nodes=("client", "server", "client", "client", "client"))
    avatar(state, 0, 2, 3)
    avatar(state, 1, 3, 3)
    return state


def test_heads_the_attack_succeeds_and_hijacks_the_targets_session():
    state = face_off()
    state, facts = act(state, 0, {"type": "attack", "target": "avatar", "seat": 1, "avatar": 0}, seq=HEADS)
    assert duel_facts(facts) == [{"kind": "bit", "attacker": 0, "defenders": [1], "coin": "heads"}]
    assert state["hijack"] == {"target": 1, "by": 0, "programs": 0, "menu": []}
    assert state["last_duel"]["success"] is True


def test_a_resolved_hack_is_recorded_and_the_turn_goes_on_with_its_programs():
    """After the duel: the hack's record (who, what, who defended, the result), nothing left
    open; an attack is an action, so no Reboot after it; the session's programs are listed with
    its end, even when the hacker's own three are spent."""
    state = face_off()
    state, _ = act(state, 0, {"type": "login", "avatar": 0, "x": 1, "y": 3})
    state, _ = act(state, 0, {"type": "login", "avatar": 0, "x": 2, "y": 3})
    state, _ = act(state, 0, {"type": "link", "x": 5, "y": 3, "from": None})
    state, _ = act(state, 0, {"type": "attack", "target": "avatar", "seat": 1, "avatar": 0}, seq=HEADS)
    assert state["attack"] is None and state["duel"] is None and state["attacked"] and state["acted"]
    assert state["last_duel"] == {"seat": 0, "target": {"kind": "avatar", "seat": 1, "avatar": 0, "at": "3,3"},
                                  "defenders": [1], "success": True,
                                  "duel": {"kind": "bit", "attacker": 0, "defenders": [1], "coin": "heads", "seats": []}}
    listed = RULESET.legal_actions(state, 0)
    assert {"type": "end_session"} in listed and {"type": "draw"} in listed and legal_of(state, 0, "login")
    state, _ = act(state, 0, {"type": "end_session"})
    assert not legal_of(state, 0, "reboot") and not legal_of(state, 0, "login")  # its own three are spent
    refused(state, 0, {"type": "reboot", "avatars": []}, "reboot_instead_of_acting")
    state, _ = act(state, 0, {"type": "end_turn"})
    assert state["turn_number"] == 2 and state["turn"] == 1 and state["menu"] == [] and state["programs"] == 0
    assert state["attacked"] is False and state["acted"] is False and state["closing"] is False
    assert legal_of(state, 1, "attack") and legal_of(state, 1, "reboot")


def test_an_attack_is_the_action_phase_begun_so_no_reboot_after_it():
    """'You can skip the Action phase in your turn to reboot': not once an attack was made."""
    state = face_off()
    state, _ = act(state, 0, {"type": "attack", "target": "avatar", "seat": 1, "avatar": 0}, seq=TAILS)
    assert state["acted"] is True and state["programs"] == 0
    refused(state, 0, {"type": "reboot", "avatars": []}, "reboot_instead_of_acting")


def test_tails_the_attack_fails_and_nothing_happens():
    state = face_off()
    state, facts = act(state, 0, {"type": "attack", "target": "avatar", "seat": 1, "avatar": 0}, seq=TAILS)
    assert duel_facts(facts)[0]["coin"] == "tails"
    assert state["hijack"] is None and state["players"][1]["avatars"][0] == "3,3"
    assert state["last_duel"]["success"] is False


def test_a_player_may_only_initiate_one_bit_duel_per_turn():
    state = face_off()
    state, _ = act(state, 0, {"type": "attack", "target": "avatar", "seat": 1, "avatar": 0}, seq=TAILS)
    refused(state, 0, {"type": "attack", "target": "avatar", "seat": 1, "avatar": 0}, "one_bit_duel_per_turn")
    assert not legal_of(state, 0, "attack")


def test_the_coin_is_fair_over_the_random_stream():
    heads = sum(rng(seq).randbelow(2) for seq in range(2, 2002))
    assert 900 < heads < 1100


def test_the_hijacker_executes_up_to_three_of_the_targets_programs_on_the_targets_pieces():
    """'Choose up to three of your target's programs to execute. These hijacked programs
    affect your target's game pieces ... You may not play cards or execute your own
    programs during the hijacked session.'"""
    state = face_off()
    state, _ = act(state, 0, {"type": "login", "avatar": 0, "x": 1, "y": 3})  # one of seat 0's own programs
    avatar(state, 0, 2, 3)
    state, _ = act(state, 0, {"type": "attack", "target": "avatar", "seat": 1, "avatar": 0}, seq=HEADS)
    refused(state, 0, {"type": "end_turn"}, "hijacked_session")
    refused(state, 0, {"type": "attack", "target": "avatar", "seat": 1, "avatar": 0}, "hijacked_session")
    logins = legal_of(state, 0, "login")
    assert {a["avatar"] for a in logins} == {0} and {(a["x"], a["y"]) for a in logins} == {(4, 3), (5, 3)}
    state, _ = act(state, 0, {"type": "login", "avatar": 0, "x": 5, "y": 3})  # seat 1's Avatar moves
    assert state["players"][1]["avatars"][0] == "5,3" and state["players"][0]["avatars"][1] == "2,3"
    state, _ = act(state, 0, {"type": "firewall", "x": 5, "y": 3, "side": W, "from": None})
    assert state["players"][1]["firewalls"] == [["5,3", W]] and state["players"][0]["firewalls"] == []
    state, _ = act(state, 0, {"type": "link", "x": 5, "y": 3, "from": None})
    assert state["players"][1]["links"] == ["5,3"]
    assert state["hijack"] is None  # three hijacked programs: the session is over
    assert state["programs"] == 1  # the hijacked programs do not count against the hacker's three
    state, _ = act(state, 0, {"type": "end_turn"})


def test_a_hijacked_session_may_stop_early():
    state = face_off()
    state, _ = act(state, 0, {"type": "attack", "target": "avatar", "seat": 1, "avatar": 0}, seq=HEADS)
    state, _ = act(state, 0, {"type": "end_session"})
    assert state["hijack"] is None and legal_of(state, 0, "end_turn")


def test_hackers_must_be_adjacent_and_never_through_a_firewall():
    state = face_off()
    avatar(state, 1, 5, 3, index=1)
    refused(state, 0, {"type": "attack", "target": "avatar", "seat": 1, "avatar": 1}, "target_not_adjacent")
    state["players"][1]["firewalls"] = [["3,3", W]]  # "An avatar may not login or hack through a firewall"
    refused(state, 0, {"type": "attack", "target": "avatar", "seat": 1, "avatar": 0}, "target_not_adjacent")
    refused(state, 0, {"type": "attack", "target": "avatar", "seat": 0, "avatar": 0}, "hack_opponent_only")
    assert all(a["target"] != "avatar" for a in legal_of(state, 0, "attack"))


def test_from_a_linked_node_hack_an_avatar_on_a_linked_node_of_the_same_colour():
    state = new_state()
    put(state, 1, 1, "client", [E])
    put(state, 2, 1, "server", [W])
    put(state, 1, 4, "client", [E])
    put(state, 2, 4, "server", [W])
    avatar(state, 0, 1, 1)
    avatar(state, 1, 1, 4)
    state["players"][1]["links"] = ["1,1"]
    state["players"][0]["links"] = ["1,4"]
    refused(state, 0, {"type": "attack", "target": "avatar", "seat": 1, "avatar": 0}, "target_not_adjacent")
    state["players"][0]["links"] = []
    state["players"][1]["links"] = ["1,1", "1,4"]
    assert {"type": "attack", "target": "avatar", "seat": 1, "avatar": 0} in legal_of(state, 0, "attack")


def test_an_avatar_on_a_linked_port_may_attack_the_link_under_it():
    """'You can attack any Firewall or Link adjacent to your Avatar': the Link on the node the
    Avatar occupies is the nearest of all."""
    state = face_off()
    avatar(state, 0, 1, 3, index=1)  # a second Avatar of seat 0, on the port at 1,3 ...
    state["players"][0]["avatars"][0] = None
    state["players"][1]["links"] = ["1,3"]  # ... which carries seat 1's Link
    link = {"type": "attack", "target": "link", "x": 1, "y": 3}
    assert link in legal_of(state, 0, "attack")
    state, _ = act(state, 0, link, seq=HEADS)
    assert state["players"][1]["links"] == []


def test_a_hijacked_spawn_places_the_targets_avatar_by_the_targets_spawn_rule():
    """'These hijacked programs affect your target's game pieces ..., not your own. You may
    execute whichever three programs you wish, placing and moving your target's Avatars.'"""
    state = line_network(new_state())  # client, server, client, server along row 3
    avatar(state, 0, 2, 3)
    avatar(state, 1, 3, 3)
    state, _ = act(state, 0, {"type": "attack", "target": "avatar", "seat": 1, "avatar": 0}, seq=HEADS)
    refused(state, 0, {"type": "spawn", "x": 1, "y": 3}, "spawn_needs_servers")  # seat 1's Avatar is on a client
    state, _ = act(state, 0, {"type": "login", "avatar": 0, "x": 4, "y": 3})  # seat 1's Avatar to the server
    state, _ = act(state, 0, {"type": "spawn", "x": 3, "y": 3})
    assert state["players"][1]["avatars"] == ["4,3", "3,3", None]
    assert state["players"][0]["avatars"] == ["2,3", None, None]


def test_destroying_a_firewall_removes_it_and_returns_it_to_its_owner():
    state = face_off()
    state["players"][1]["firewalls"] = [["3,3", E]]
    refused(state, 0, {"type": "attack", "target": "firewall", "x": 3, "y": 3, "side": E}, "target_not_adjacent")
    state["players"][1]["firewalls"] = [["3,3", W]]  # on the connection of seat 0's node
    state, facts = act(state, 0, {"type": "attack", "target": "firewall", "x": 3, "y": 3, "side": W}, seq=HEADS)
    assert state["players"][1]["firewalls"] == [] and duel_facts(facts)[0]["defenders"] == [1]


def test_a_firewall_on_any_side_of_the_hackers_node_and_only_there():
    """'You can attack any Firewall or Link adjacent to your Avatar': on a connection of its node
    (either half), whichever side; a Firewall on the same side of another tile is not adjacent."""
    state = new_state()
    put(state, 3, 2, "client", [S]), put(state, 3, 3, "server", [N, S, E]), put(state, 3, 4, "client", [N])
    put(state, 4, 3, "client", [W]), put(state, 1, 1, "server", [S]), put(state, 1, 2, "client", [N])
    avatar(state, 0, 3, 3)
    state["players"][1]["firewalls"] = [["3,4", N], ["1,1", S], ["1,2", N]]  # 3,4 N: 3,3's south connection
    south = {"type": "attack", "target": "firewall", "x": 3, "y": 4, "side": N}
    assert south in legal_of(state, 0, "attack")
    refused(state, 0, {"type": "attack", "target": "firewall", "x": 1, "y": 1, "side": S}, "target_not_adjacent")
    refused(state, 0, {"type": "attack", "target": "firewall", "x": 1, "y": 2, "side": N}, "target_not_adjacent")
    state["players"][1]["firewalls"] = [["3,3", S]]
    state, facts = act(state, 0, {"type": "attack", "target": "firewall", "x": 3, "y": 3, "side": S}, seq=HEADS)
    assert state["players"][1]["firewalls"] == [] and state["last_duel"]["target"] == \
        {"kind": "firewall", "at": ["3,3", S], "owners": [1]}


def test_the_owner_of_a_link_defends_it():
    """'The player who owns the Firewall or Link can play cards to defend': tails, it stays."""
    state = face_off()
    state["players"][1]["links"] = ["1,3"]
    state, facts = act(state, 0, {"type": "attack", "target": "link", "x": 1, "y": 3}, seq=TAILS)
    assert duel_facts(facts)[0]["defenders"] == [1] and state["players"][1]["links"] == ["1,3"]
    assert state["last_duel"]["target"] == {"kind": "link", "at": "1,3", "owners": [1]}
    assert not state["last_duel"]["success"]


def test_an_avatar_hack_names_its_target_seat_avatar_and_node():
    state = face_off()
    state, _ = act(state, 0, {"type": "attack", "target": "avatar", "seat": 1, "avatar": 0}, seq=TAILS)
    assert state["last_duel"]["target"] == {"kind": "avatar", "seat": 1, "avatar": 0, "at": "3,3"}


def test_an_attack_on_either_of_two_firewalls_on_one_connection_affects_both_and_both_owners_defend():
    state = two_walls_by_remap()  # seat 0's on 3,3 south, seat 1's on 3,4 north
    avatar(state, 0, 3, 3)
    state, facts = act(state, 0, {"type": "attack", "target": "firewall", "x": 3, "y": 4, "side": N}, seq=HEADS)
    assert duel_facts(facts)[0]["defenders"] == [1]  # the attacker's own Firewall is not defended
    assert firewalls_on(state, "3,3", S) == []
    assert [f["f"] for f in facts].count("firewall_destroyed") == 2  # "remove all firewalls on a single connection"


def test_two_firewalls_on_one_connection_are_one_attack_listed():
    state = two_walls_by_remap()
    avatar(state, 0, 3, 3)
    walls = [a for a in legal_of(state, 0, "attack") if a["target"] == "firewall"]
    assert len(walls) == 1 and (walls[0]["x"], walls[0]["y"], walls[0]["side"]) in ((3, 3, S), (3, 4, N))


def test_destroying_a_link_removes_only_the_targeted_link():
    state = face_off()
    put(state, 1, 5, "client", [E])
    put(state, 2, 5, "client", [W])
    state["players"][1]["links"] = ["1,3", "1,5"]
    state, _ = act(state, 0, {"type": "attack", "target": "link", "x": 1, "y": 5}, seq=HEADS)  # same colour as 1,3
    assert state["players"][1]["links"] == ["1,3"]  # "all other Links of the same color remain"


def test_a_link_not_adjacent_nor_of_an_adjacent_colour_cannot_be_attacked():
    state = face_off()
    put(state, 1, 5, "client", [E])
    put(state, 2, 5, "client", [W])
    state["players"][1]["links"] = ["1,5"]
    refused(state, 0, {"type": "attack", "target": "link", "x": 1, "y": 5}, "target_not_adjacent")
    refused(state, 0, {"type": "attack", "target": "link", "x": 2, "y": 5}, "no_such_link")


def test_a_link_behind_a_firewall_cannot_be_attacked():
    """Hackers must be adjacent, and 'an avatar may not login or hack through a firewall':
    a Link on the next node, behind a Firewall on the connection, is out of reach."""
    state = face_off()  # seat 0 on the server at 2,3, next to the port at 1,3
    state["players"][1]["links"] = ["1,3"]
    link = {"type": "attack", "target": "link", "x": 1, "y": 3}
    assert link in legal_of(state, 0, "attack")
    state["players"][1]["firewalls"] = [["1,3", E]]
    refused(state, 0, link, "target_not_adjacent")
    assert link not in legal_of(state, 0, "attack")


def test_to_destroy_your_own_firewall_attack_it_and_decline_to_defend():
    state = face_off()
    state["players"][0]["firewalls"] = [["2,3", E]]
    state, facts = act(state, 0, {"type": "attack", "target": "firewall", "x": 2, "y": 3, "side": E}, seq=TAILS)
    assert duel_facts(facts) == [] and state["players"][0]["firewalls"] == []
    refused(state, 0, {"type": "attack", "target": "avatar", "seat": 1, "avatar": 0}, "one_bit_duel_per_turn")


def test_partners_can_not_voluntarily_attack_each_other():
    state = line_network(new_state(seats=4, options={"teams": True}))
    avatar(state, 0, 2, 3)
    avatar(state, 2, 3, 3)
    avatar(state, 1, 1, 3)
    refused(state, 0, {"type": "attack", "target": "avatar", "seat": 2, "avatar": 0}, "no_attack_on_partner")
    state["players"][2]["firewalls"] = [["2,3", E]]
    refused(state, 0, {"type": "attack", "target": "firewall", "x": 2, "y": 3, "side": E}, "no_attack_on_partner")
    assert [(a["target"], a.get("seat")) for a in legal_of(state, 0, "attack")] == [("avatar", 1)]

    state, _ = act(state, 0, {"type": "attack", "target": "avatar", "seat": 1, "avatar": 0}, seq=HEADS)
    assert state["hijack"] == {"target": 1, "by": 0, "programs": 0, "menu": []}  # an opponent may be attacked


def test_partners_sit_opposite_seat_three_with_seat_one():
    """'Partners sit opposite each other': seats 0+2 and 1+3."""
    state = line_network(new_state(seats=4, options={"teams": True}))
    state["turn"] = 3
    avatar(state, 3, 2, 3)
    avatar(state, 1, 3, 3)
    avatar(state, 0, 1, 3)
    refused(state, 3, {"type": "attack", "target": "avatar", "seat": 1, "avatar": 0}, "no_attack_on_partner")
    assert [(a["target"], a.get("seat")) for a in legal_of(state, 3, "attack")] == [("avatar", 0)]


@pytest.mark.parametrize("action, code", [
    ({"type": "attack", "target": "bomb"}, "malformed_action"),
    ({"type": "attack", "target": "avatar", "seat": 7, "avatar": 0}, "no_such_avatar"),
    ({"type": "attack", "target": "avatar", "seat": 2, "avatar": 0}, "no_such_avatar"),  # two seats: 0 and 1
    ({"type": "attack", "target": "avatar", "seat": 1, "avatar": 3}, "no_such_avatar"),  # three Avatars: 0-2
    ({"type": "attack", "target": "avatar", "seat": 1, "avatar": 1}, "no_such_avatar"),  # not on the board
    ({"type": "attack", "target": "avatar", "seat": 1, "avatar": -1}, "no_such_avatar"),
    ({"type": "attack", "target": "firewall", "x": 2, "y": 3, "side": 9}, "no_such_firewall"),
])
def test_malformed_attacks_are_refused_with_a_code(action, code):
    refused(face_off(), 0, action, code)


def test_the_duel_interface_lets_a_multi_step_duel_plug_in(monkeypatch):
    """A duel that takes actions runs through the same five
    functions: the defender is to act until it resolves, then the result applies."""
    from domain.games.cyberspace import duels, rules

    class Standoff:
        @staticmethod
        def start(context, attacker, defenders, rng_):
            fact = {"kind": "standoff", "attacker": attacker, "defender": defenders[0],
                    "target": context["target"]["kind"], "draw": rng_.randbelow(1)}
            return Standoff.evolve(None, fact), [fact]

        @staticmethod
        def legal_actions(duel, seat):
            return [{"yield": True}, {"yield": False}] if duel["winner"] is None and seat == duel["defender"] else []

        @staticmethod
        def decide(duel, seat, action, rng_):
            assert seat == duel["defender"] and rng_.randbelow(1) == 0
            return [{"winner": "attacker" if action["yield"] else "defender"}]

        @staticmethod
        def evolve(duel, fact):
            if duel is None:
                return {**fact, "winner": None, "seats": [fact["attacker"], fact["defender"]]}
            return {**duel, "winner": fact["winner"]}

        @staticmethod
        def result(duel):
            return duel["winner"]

    monkeypatch.setitem(duels.ENGINES, "bit", Standoff)
    state = face_off()
    state, _ = act(state, 0, {"type": "attack", "target": "avatar", "seat": 1, "avatar": 0})
    assert RULESET.to_act(state) == {1} and state["duel"]["winner"] is None and state["duel"]["target"] == "avatar"
    assert RULESET.legal_actions(state, 1) == [{"type": "duel", "duel": {"yield": True}},
                                               {"type": "duel", "duel": {"yield": False}}]
    refused(state, 1, {"type": "end_turn"}, "duel_pending")
    state, _ = act(state, 1, {"type": "duel", "duel": {"yield": True}})
    assert state["duel"] is None and state["hijack"] == {"target": 1, "by": 0, "programs": 0, "menu": []}
    assert rules.to_act(state) == {0}
