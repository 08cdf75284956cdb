"""Spawn, Login, Link, Firewall, Remap, the three-program limit and Rebooting, each from
the rulebook's wording (and its OK / Invalid figures)."""

import pytest

from domain.games.cyberspace import RULESET
from domain.games.cyberspace.board import firewalls_on, link_at
from domain.kernel.canonical import json_copy

from .boards import E, N, S, W, act, avatar, legal_of, new_state, put, refused, rot_for


def line_network(state, y=3, nodes=("client", "server", "client", "server")):
    """Tiles joined west to east along row y, from x=1: ports at both ends."""
    last = len(nodes) - 1
    for i, node in enumerate(nodes):
        sides = [E] if i == 0 else [W] if i == last else [W, E]
        put(state, 1 + i, y, node, sides)
    return state


# ---------------------------------------------------------------------------------------
# Spawn
# ---------------------------------------------------------------------------------------

def test_first_avatar_on_any_empty_client_never_a_server_or_an_occupied_node():
    state = line_network(new_state())
    refused(state, 0, {"type": "spawn", "x": 2, "y": 3}, "spawn_on_client")
    avatar(state, 1, 1, 3)
    refused(state, 0, {"type": "spawn", "x": 1, "y": 3}, "node_occupied")
    refused(state, 0, {"type": "spawn", "x": 6, "y": 6}, "no_tile")
    assert {(a["x"], a["y"]) for a in legal_of(state, 0, "spawn")} == {(3, 3)}
    state, _ = act(state, 0, {"type": "spawn", "x": 3, "y": 3})
    assert state["players"][0]["avatars"] == ["3,3", None, None]


def test_further_avatars_only_once_every_avatar_is_on_a_server_and_in_the_same_network():
    """'Each of these Avatars must login to a server node before spawning another Avatar.
    Once all your Avatars are on servers, you may place a new Avatar on any empty client in
    the same network as one of your existing Avatars.'"""
    state = line_network(new_state())
    put(state, 1, 2, "client", [N])  # a client in another network (blank south against the port's blank north)
    avatar(state, 0, 1, 3)
    refused(state, 0, {"type": "spawn", "x": 3, "y": 3}, "spawn_needs_servers")  # "no avatar may be on a client"
    state, _ = act(state, 0, {"type": "login", "avatar": 0, "x": 2, "y": 3})
    refused(state, 0, {"type": "spawn", "x": 1, "y": 2}, "spawn_same_network")
    assert {(a["x"], a["y"]) for a in legal_of(state, 0, "spawn")} == {(1, 3), (3, 3)}
    state, _ = act(state, 0, {"type": "spawn", "x": 3, "y": 3})
    assert state["players"][0]["avatars"] == ["2,3", "3,3", None]


def test_a_further_avatar_may_go_in_the_network_of_any_one_of_your_avatars():
    """'... place a new Avatar on any empty client in the same network as one of your existing
    Avatars': one of them, not all of them."""
    state = line_network(new_state(), nodes=("client", "server", "client"))
    put(state, 1, 5, "server", [E]), put(state, 2, 5, "client", [W])  # another network
    state["players"][0]["avatars"] = ["2,3", "1,5", None]  # a server in each network
    assert {(a["x"], a["y"]) for a in legal_of(state, 0, "spawn")} == {(1, 3), (3, 3), (2, 5)}
    state, _ = act(state, 0, {"type": "spawn", "x": 2, "y": 5})
    assert state["players"][0]["avatars"] == ["2,3", "1,5", "2,5"]


def test_three_avatars_to_spawn_two_with_the_handicap():
    """'You have three Avatars'; Handicap: 'the expert player(s) receive two Avatars'."""
    expert = line_network(new_state(options={"handicap": [0]}))
    expert["players"][0]["avatars"] = ["2,3", "4,3"]  # both servers held: a third would be next
    refused(expert, 0, {"type": "spawn", "x": 1, "y": 3}, "no_avatar_left")
    beginner = line_network(new_state(options={"handicap": [0]}))
    beginner["players"][1]["avatars"] = ["2,3", "4,3", None]
    beginner["turn"] = 1
    beginner, _ = act(beginner, 1, {"type": "spawn", "x": 1, "y": 3})
    assert beginner["players"][1]["avatars"] == ["2,3", "4,3", "1,3"]


# ---------------------------------------------------------------------------------------
# Login
# ---------------------------------------------------------------------------------------

def test_login_through_any_number_of_connected_empty_nodes_never_through_an_occupied_one():
    state = line_network(new_state(), nodes=("client", "server", "client", "client", "client"))
    avatar(state, 0, 1, 3)
    assert {(a["x"], a["y"]) for a in legal_of(state, 0, "login")} == {(2, 3), (3, 3), (4, 3), (5, 3)}
    avatar(state, 0, 3, 3)  # "even if your own Avatar occupies the node"
    refused(state, 0, {"type": "login", "avatar": 0, "x": 4, "y": 3}, "login_path")
    refused(state, 0, {"type": "login", "avatar": 0, "x": 3, "y": 3}, "login_path")
    state, _ = act(state, 0, {"type": "login", "avatar": 0, "x": 2, "y": 3})
    assert state["players"][0]["avatars"][0] == "2,3" and state["programs"] == 1


def test_no_login_through_a_connection_that_does_not_adjoin_another_tile_or_between_networks():
    state = line_network(new_state())
    put(state, 1, 2, "client", [N])  # touches the row blank to blank: another network
    avatar(state, 0, 1, 3)
    refused(state, 0, {"type": "login", "avatar": 0, "x": 1, "y": 2}, "login_path")


def test_a_firewall_blocks_login_through_its_connection():
    state = line_network(new_state())
    avatar(state, 0, 1, 3)
    state["players"][1]["firewalls"] = [["3,3", W]]  # on the far side of the 2-3 connection
    assert {(a["x"], a["y"]) for a in legal_of(state, 0, "login")} == {(2, 3)}
    refused(state, 0, {"type": "login", "avatar": 0, "x": 4, "y": 3}, "login_path")


def test_any_avatar_logs_in_between_links_of_the_same_colour_only():
    state = new_state()
    put(state, 1, 1, "client", [E])
    put(state, 2, 1, "server", [W])
    put(state, 1, 4, "client", [E])
    put(state, 2, 4, "server", [W])
    avatar(state, 0, 2, 1)
    state["players"][1]["links"] = ["1,1"]
    state["players"][0]["links"] = ["1,4"]
    refused(state, 0, {"type": "login", "avatar": 0, "x": 1, "y": 4}, "login_path")  # colours differ
    state["players"][0]["links"] = []
    state["players"][1]["links"] = ["1,1", "1,4"]  # seat 1's Links carry seat 0's Avatar
    state, _ = act(state, 0, {"type": "login", "avatar": 0, "x": 2, "y": 4})
    assert state["players"][0]["avatars"][0] == "2,4"


# ---------------------------------------------------------------------------------------
# Link and Firewall
# ---------------------------------------------------------------------------------------

def test_a_link_goes_on_an_empty_port_a_client_with_a_single_connection():
    state = line_network(new_state(), nodes=("client", "client", "server"))
    refused(state, 0, {"type": "link", "x": 2, "y": 3, "from": None}, "link_on_port")  # two connections
    refused(state, 0, {"type": "link", "x": 3, "y": 3, "from": None}, "link_on_port")  # a server
    state, _ = act(state, 0, {"type": "link", "x": 1, "y": 3, "from": None})
    assert state["players"][0]["links"] == ["1,3"]
    state["turn"] = 1
    refused(state, 1, {"type": "link", "x": 1, "y": 3, "from": None}, "port_has_link")  # "does not already have a Link"


def test_three_access_tokens_for_links_and_firewalls_then_only_moves():
    state = line_network(new_state(), nodes=("client", "client", "client", "client"))
    put(state, 1, 5, "client", [E])
    put(state, 2, 5, "client", [W])
    state["players"][0]["links"] = ["1,3", "4,3"]
    state["players"][0]["firewalls"] = [["2,3", E]]
    refused(state, 0, {"type": "link", "x": 1, "y": 5, "from": None}, "no_access_token")
    refused(state, 0, {"type": "firewall", "x": 1, "y": 5, "side": E, "from": None}, "no_access_token")
    refused(state, 0, {"type": "link", "x": 1, "y": 5, "from": "2,5"}, "not_your_link")
    assert all(a["from"] is not None for a in legal_of(state, 0, "link") + legal_of(state, 0, "firewall"))
    state, _ = act(state, 0, {"type": "link", "x": 1, "y": 5, "from": "4,3"})  # "move any of your existing Links"
    assert sorted(state["players"][0]["links"]) == ["1,3", "1,5"]
    state, _ = act(state, 0, {"type": "firewall", "x": 1, "y": 5, "side": E, "from": ["2,3", E]})
    assert state["players"][0]["firewalls"] == [["1,5", E]]


def test_a_firewall_goes_on_an_empty_connection_of_exactly_one_tile():
    state = line_network(new_state())
    refused(state, 0, {"type": "firewall", "x": 2, "y": 3, "side": N, "from": None}, "firewall_on_connection")
    state, _ = act(state, 0, {"type": "firewall", "x": 2, "y": 3, "side": E, "from": None})
    state["turn"] = 1
    refused(state, 1, {"type": "firewall", "x": 2, "y": 3, "side": E, "from": None}, "connection_has_firewall")
    refused(state, 1, {"type": "firewall", "x": 3, "y": 3, "side": W, "from": None}, "connection_has_firewall")


# ---------------------------------------------------------------------------------------
# Remap
# ---------------------------------------------------------------------------------------

def test_only_a_pendant_tile_may_be_remapped_and_its_pieces_ride_along():
    state = line_network(new_state())
    refused(state, 0, {"type": "remap", "from": "2,3", "x": 2, "y": 4, "rot": 0}, "remap_pendant_only")
    avatar(state, 1, 4, 3)
    state["players"][0]["firewalls"] = [["4,3", W]]
    tile = state["board"]["4,3"]["tile"]
    # below the west port: its connection would meet the port's blank south side
    refused(state, 0, {"type": "remap", "from": "4,3", "x": 1, "y": 4, "rot": rot_for(tile, [N])}, "sides_must_match")
    state, facts = act(state, 0, {"type": "remap", "from": "4,3", "x": 1, "y": 2, "rot": rot_for(tile, [N])})
    assert "4,3" not in state["board"] and state["board"]["1,2"]["tile"] == tile
    assert state["players"][1]["avatars"][0] == "1,2"  # the Avatar stays on the moved tile
    assert state["players"][0]["firewalls"] == [["1,2", N]]  # the Firewall turns with it (west to north)


def test_links_ride_along_on_a_remapped_tile():
    """'Any game pieces occupying the tile you move (Avatars, Links, or Firewalls) remain on
    the moved tile.'"""
    state = line_network(new_state())
    state["players"][1]["links"] = ["1,3", "4,3"]
    tile = state["board"]["4,3"]["tile"]
    state, _ = act(state, 0, {"type": "remap", "from": "4,3", "x": 1, "y": 2, "rot": rot_for(tile, [N])})
    assert state["players"][1]["links"] == ["1,3", "1,2"]
    assert link_at(state, "1,2") == 1 and link_at(state, "4,3") is None


def test_a_straight_tile_turned_twice_moves_its_firewall_and_that_remap_is_listed():
    """Remap may 'move any pendant tile to any other valid position', its Firewalls riding
    along (README 13: turning the tile turns them). A straight tile turned twice keeps its
    connections, but its Firewall goes to the other end: a remap of its own, listed."""
    state = new_state()
    put(state, 3, 3, "server", [E, S, W])
    put(state, 3, 4, "client", [N, S])
    state["players"][0]["firewalls"] = [["3,4", S]]
    turned_twice = {"type": "remap", "from": "3,4", "x": 3, "y": 4, "rot": (state["board"]["3,4"]["rot"] + 2) % 4}
    assert turned_twice in legal_of(state, 0, "remap")
    moved, _ = act(state, 0, turned_twice)
    assert moved["players"][0]["firewalls"] == [["3,4", N]]
    # elsewhere too: at 2,3 (turned east-west) the Firewall may end on the east or the west end
    beside = {a["rot"] for a in legal_of(state, 0, "remap") if (a["x"], a["y"]) == (2, 3)}
    assert len(beside) == 2
    # without a Firewall the same turn changes nothing on the board: refused, not listed
    state["players"][0]["firewalls"] = []
    refused(state, 0, turned_twice, "remap_must_move")
    assert turned_twice not in legal_of(state, 0, "remap")
    assert len({a["rot"] for a in legal_of(state, 0, "remap") if (a["x"], a["y"]) == (2, 3)}) == 1


def test_a_tile_turned_in_place_takes_its_firewall_round_whatever_its_first_rotation():
    """The same rule from a tile laid east-west (not its unrotated way): turned twice in place,
    its Firewall goes from the east end to the west end; a quarter turn more is another shape."""
    state = new_state()
    put(state, 3, 3, "server", [E, S, W])
    put(state, 2, 3, "client", [E, W])
    assert state["board"]["2,3"]["rot"] != 0
    state["players"][0]["firewalls"] = [["2,3", E]]
    rot = state["board"]["2,3"]["rot"]
    turned_twice = {"type": "remap", "from": "2,3", "x": 2, "y": 3, "rot": (rot + 2) % 4}
    listed = legal_of(state, 0, "remap")
    assert turned_twice in listed and len(listed) == len({repr(sorted(a.items())) for a in listed})
    moved, _ = act(state, 0, turned_twice)
    assert moved["players"][0]["firewalls"] == [["2,3", W]] and moved["board"]["2,3"]["rot"] == (rot + 2) % 4
    refused(moved, 0, {"type": "remap", "from": "2,3", "x": 2, "y": 3, "rot": (rot + 2) % 4}, "remap_must_move")


def test_every_pendant_tile_is_listed_for_remap_whatever_lies_before_it():
    state = line_network(new_state(), nodes=("client", "server", "client"))  # ports at 1,3 and 3,3
    froms = {a["from"] for a in legal_of(state, 0, "remap")}
    assert froms == {"1,3", "3,3"}  # 2,3 touches two tiles: not pendant


def test_firewall_and_link_options_list_every_empty_place_and_each_own_token_to_move():
    """'To place a firewall, the connection must be empty'; 'To link, the port must be empty';
    new tokens while any of the three is left, else only moves (README 11)."""
    state = line_network(new_state(), nodes=("client", "server", "client"))  # 1,3 E - 2,3 W E - 3,3 W
    walls = legal_of(state, 0, "firewall")
    assert walls == [{"type": "firewall", "x": x, "y": 3, "side": side, "from": None}
                     for x, side in ((1, E), (2, E), (2, W), (3, W))]
    assert legal_of(state, 0, "link") == [{"type": "link", "x": x, "y": 3, "from": None} for x in (1, 3)]
    state["players"][1]["firewalls"] = [["1,3", E]]  # the connection 1,3-2,3 now has a Firewall (both halves)
    state["players"][1]["links"] = ["3,3"]
    assert [(a["x"], a["side"]) for a in legal_of(state, 0, "firewall")] == [(2, E), (3, W)]
    assert legal_of(state, 0, "link") == [{"type": "link", "x": 1, "y": 3, "from": None}]
    state["players"][1]["firewalls"] = []
    state["players"][0]["firewalls"] = [["2,3", E]]
    state["players"][0]["links"] = ["1,3"]  # one token left: new ones still listed
    assert {a["from"] is None for a in legal_of(state, 0, "firewall")} == {True, False}
    state["players"][1]["links"] = []
    assert {a["from"] for a in legal_of(state, 0, "link")} == {None, "1,3"}
    state["players"][0]["links"] = ["1,3", "3,3"]  # none left: only moves
    one_left = json_copy(state)
    one_left["players"][0]["links"] = ["1,3"]
    placed, _ = act(one_left, 0, {"type": "link", "x": 3, "y": 3, "from": None})  # the third token
    assert placed["players"][0]["links"] == ["1,3", "3,3"]
    one_left = json_copy(state)
    one_left["players"][0]["links"] = ["1,3"]
    placed, _ = act(one_left, 0, {"type": "firewall", "x": 1, "y": 3, "side": E, "from": None})
    assert placed["players"][0]["firewalls"] == [["2,3", E], ["1,3", E]]
    walls, links = legal_of(state, 0, "firewall"), legal_of(state, 0, "link")
    assert walls and links == [] and all(a["from"] == ["2,3", E] for a in walls)  # no empty port left to link


def test_firewalls_go_on_north_and_south_connections_too_and_never_on_an_empty_square():
    state = new_state()
    put(state, 3, 2, "client", [S]), put(state, 3, 3, "server", [N, S]), put(state, 3, 4, "client", [N])
    for side in (N, S):
        placed, _ = act(json_copy(state), 0, {"type": "firewall", "x": 3, "y": 3, "side": side, "from": None})
        assert placed["players"][0]["firewalls"] == [["3,3", side]]
    refused(state, 0, {"type": "firewall", "x": 5, "y": 5, "side": N, "from": None}, "firewall_on_connection")
    refused(state, 0, {"type": "firewall", "x": 3, "y": 3, "side": E, "from": None}, "firewall_on_connection")
    refused(state, 0, {"type": "firewall", "x": 3, "y": 3, "side": 4, "from": None}, "firewall_on_connection")


def test_a_pendant_tile_is_listed_for_every_square_it_may_go_to():
    """'Move any pendant tile to any other valid position': two squares on one row, both listed."""
    state = new_state()
    put(state, 3, 3, "server", [E, S, W]), put(state, 3, 4, "client", [N])
    targets = {(a["x"], a["y"]) for a in legal_of(state, 0, "remap") if a["from"] == "3,4"}
    assert {(2, 3), (4, 3)} <= targets
    row = new_state()  # a closed line, and a port touching it blank to blank below
    put(row, 2, 3, "client", [E]), put(row, 3, 3, "server", [W, E]), put(row, 4, 3, "client", [W])
    put(row, 3, 4, "client", [E])
    rot = row["board"]["3,4"]["rot"]
    above = {(a["x"], a["y"]) for a in legal_of(row, 0, "remap") if a["from"] == "3,4" and a["rot"] == rot}
    assert {(2, 2), (3, 2), (4, 2)} <= above  # the same turn on three squares of one row


def test_a_remap_that_cannot_be_made_is_cancelled_and_costs_no_program():
    state = line_network(new_state())
    refused(state, 0, {"type": "remap", "from": "4,3", "x": 6, "y": 6, "rot": 0}, "must_attach")
    refused(state, 0, {"type": "remap", "from": "4,3", "x": 4, "y": 3, "rot": state["board"]["4,3"]["rot"]},
            "remap_must_move")
    assert state["programs"] == 0


def two_walls_by_remap():
    """A tee at 3,3 with seat 0's Firewall on its open south connection; seat 1's Firewall
    on the west side of the pendant server-port at 4,3, which is remapped below the tee."""
    state = new_state()
    put(state, 1, 3, "client", [E])
    put(state, 2, 3, "server", [W, E])
    put(state, 3, 3, "client", [W, E, S])
    put(state, 4, 3, "server", [W])
    state["players"][0]["firewalls"] = [["3,3", S]]
    state["players"][1]["firewalls"] = [["4,3", W]]
    tile = state["board"]["4,3"]["tile"]
    state, _ = act(state, 0, {"type": "remap", "from": "4,3", "x": 3, "y": 4, "rot": rot_for(tile, [N])})
    return state


def test_a_remap_can_put_two_firewalls_on_one_connection():
    """'Sometimes remapping tiles can cause two Firewalls to occupy a single connection.'"""
    state = two_walls_by_remap()
    assert state["players"][1]["firewalls"] == [["3,4", N]]
    assert [owner for owner, _ in firewalls_on(state, "3,3", S)] == [0, 1]
    assert [owner for owner, _ in firewalls_on(state, "3,4", N)] == [0, 1]


# ---------------------------------------------------------------------------------------
# Three programs a turn; Reboot
# ---------------------------------------------------------------------------------------

def test_up_to_three_programs_a_turn_in_any_combination():
    state = line_network(new_state(), nodes=("client", "server", "client", "client", "client"))
    avatar(state, 0, 1, 3)
    state, _ = act(state, 0, {"type": "login", "avatar": 0, "x": 2, "y": 3})
    state, _ = act(state, 0, {"type": "link", "x": 5, "y": 3, "from": None})
    state, _ = act(state, 0, {"type": "login", "avatar": 0, "x": 4, "y": 3})
    assert state["programs"] == 3 and state["menu"] == ["login", "link", "login"]
    refused(state, 0, {"type": "login", "avatar": 0, "x": 2, "y": 3}, "three_programs")
    assert {a["type"] for a in RULESET.legal_actions(state, 0)} <= {"attack", "end_turn"}
    state, _ = act(state, 0, {"type": "end_turn"})
    assert state["turn"] == 1 and state["programs"] == 0  # tokens back to Idle in the next Clear Phase


def test_each_program_executed_moves_a_program_token_onto_its_circle():
    """'When you execute a program, move a Program Token to the appropriate program circle on the
    card. If you execute the same program more than once in a turn, stack the Program Tokens'
    (the menu, in order); in a hijacked session the target's menu (README 17)."""
    state = line_network(new_state(), nodes=("client", "server", "client", "client", "client"))
    put(state, 1, 4, "client", [E])  # a pendant tile (blank to blank under the port at 1,3)
    avatar(state, 0, 1, 3)
    programs = [({"type": "login", "avatar": 0, "x": 2, "y": 3}, "login"),
                ({"type": "link", "x": 5, "y": 3, "from": None}, "link"),
                ({"type": "firewall", "x": 2, "y": 3, "side": E, "from": None}, "firewall")]
    for action, name in programs:
        state, facts = act(state, 0, action)
        assert facts[0] == {"f": "program", "program": name, "seat": 0}
    assert state["menu"] == ["login", "link", "firewall"] and state["programs"] == 3
    state["turn"], state["programs"], state["menu"] = 1, 0, []
    avatar(state, 1, 4, 3)
    state["players"][1]["avatars"] = ["4,3", None, None]
    state["players"][0]["avatars"] = ["3,3", None, None]
    state["players"][0]["firewalls"] = []
    for action, name in ((lambda s: next(a for a in legal_of(s, 1, "probe"))), "probe"), \
            ((lambda s: next(a for a in legal_of(s, 1, "remap") if a["from"] == "1,4")), "remap"), \
            ((lambda s: {"type": "draw"}), "probe"):
        state, facts = act(state, 1, action(state))
        assert facts[0] == {"f": "program", "program": name, "seat": 1}
        if state["held"]:
            state, _ = act(state, 1, legal_of(state, 1, "place")[0])
    assert state["menu"] == ["probe", "remap", "probe"]
    fresh = line_network(new_state())
    fresh, facts = act(fresh, 0, {"type": "spawn", "x": 1, "y": 3})
    assert facts[0] == {"f": "program", "program": "spawn", "seat": 0} and fresh["menu"] == ["spawn"]


def test_a_hijacked_sessions_programs_go_on_the_targets_menu():
    from .test_hacking import HEADS
    state = line_network(new_state())
    avatar(state, 0, 2, 3)
    avatar(state, 1, 3, 3)
    state, _ = act(state, 0, {"type": "attack", "target": "avatar", "seat": 1, "avatar": 0}, seq=HEADS)
    state, facts = act(state, 0, {"type": "login", "avatar": 0, "x": 4, "y": 3})
    assert facts[0] == {"f": "program", "program": "login", "seat": 1}
    state, facts = act(state, 0, {"type": "spawn", "x": 3, "y": 3})
    assert facts[0] == {"f": "program", "program": "spawn", "seat": 1}
    assert state["hijack"]["menu"] == ["login", "spawn"] and state["menu"] == [] and state["programs"] == 0


def test_reboot_removes_any_of_your_avatars_instead_of_the_action_phase():
    state = line_network(new_state())
    avatar(state, 0, 2, 3)
    avatar(state, 0, 4, 3)
    state["players"][0]["links"] = ["1,3"]
    assert [a["avatars"] for a in legal_of(state, 0, "reboot")] == [[], [0], [1], [0, 1]]
    rebooted, _ = act(state, 0, {"type": "reboot", "avatars": [1]})
    assert rebooted["players"][0]["avatars"] == ["2,3", None, None]
    assert rebooted["players"][0]["links"] == ["1,3"]  # "You may not remove Links or Firewalls"
    assert rebooted["turn"] == 1  # no programs, no cards: the turn is over


def test_no_reboot_after_acting_and_a_full_reboot_frees_the_next_spawn():
    state = line_network(new_state())
    put(state, 1, 2, "client", [N])
    avatar(state, 0, 2, 3)
    state, _ = act(state, 0, {"type": "firewall", "x": 2, "y": 3, "side": E, "from": None})
    refused(state, 0, {"type": "reboot", "avatars": [0]}, "reboot_instead_of_acting")
    state["acted"] = False
    state, _ = act(state, 0, {"type": "reboot", "avatars": [0]})
    state["turn"] = 0
    # "If you remove all your Avatars during reboot ... place it on any empty client in any network."
    state, _ = act(state, 0, {"type": "spawn", "x": 1, "y": 2})
    assert state["players"][0]["avatars"][0] == "1,2"


def remaps_one_by_one(st):
    """programs.options_remap as written first: remap_outcome asked for every square and turn."""
    from domain.games.cyberspace.board import is_pendant, key, placements, turned
    from domain.games.cyberspace.programs import remap_outcome
    board, actions = st["board"], []
    for cell in sorted(board):
        if not is_pendant(board, cell):
            continue
        rest = {c: placed for c, placed in board.items() if c != cell}
        tile = board[cell]["tile"]
        seen = {remap_outcome(st, cell, cell, board[cell]["rot"])}
        for x, y, shape_rot in placements(rest, st["size"], tile):
            for rot in range(4):
                outcome = remap_outcome(st, cell, key(x, y), rot)
                if turned(tile, rot) == turned(tile, shape_rot) and outcome not in seen:
                    seen.add(outcome)
                    actions.append({"type": "remap", "from": cell, "x": x, "y": y, "rot": rot})
    return actions


@pytest.mark.parametrize("options, seats", [({"duels": "bit"}, 2), ({"duels": "bit", "teams": True}, 4), ({}, 3)])
def test_the_remaps_listed_are_those_remap_outcome_tells_apart(options, seats):
    """options_remap works each turn's connections and Firewall sides out once per tile: the
    same remaps, in the same order, as asking remap_outcome at every square, at every state
    of random and greedy matches (Firewalls on the tiles too)."""
    from domain.games.cyberspace.programs import options_remap
    from .test_layout import states
    walled = listed = 0
    for bot in ("random", "greedy"):
        for state in states(options, seats, seed=seats + 5, bot=bot):
            found = options_remap(state)
            assert found == remaps_one_by_one(state)
            listed += len(found)
            walled += any(p["firewalls"] for p in state["players"]) and bool(found)
    assert listed >= 200 and walled >= 20
