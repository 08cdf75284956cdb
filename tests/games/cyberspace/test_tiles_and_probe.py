"""Set-up, the tiles, Probing Cyberspace: placing, attaching, closing, unplayable tiles and
the edge of the play area, each from the rulebook's wording."""

import orjson
import pytest

from domain.games.cyberspace import RULESET
from domain.games.cyberspace.board import is_closed, network_of, networks, open_connections, placements
from domain.games.cyberspace.scoring import network_worth
from domain.games.cyberspace.tiles import DEFAULT_TILES, TILES
from domain.kernel.errors import InvalidSetup
from domain.kernel.terminal import plain_text

from .boards import E, N, S, W, act, avatar, legal_of, new_state, put, refused, rng, rot_for, tile_like


def test_the_24_designed_tiles_are_clients_and_servers_with_one_to_three_connections():
    document = orjson.loads(DEFAULT_TILES.read_bytes())
    assert document["designed"].startswith("DESIGNED")
    assert len(TILES) == 24  # "24 Network Tiles"
    assert {t["node"] for t in TILES.values()} == {"client", "server"}
    assert {len(t["connections"]) for t in TILES.values()} == {1, 2, 3}
    ports = [t for t in TILES.values() if t["node"] == "client" and len(t["connections"]) == 1]
    assert ports, "'Each client with a single connection has a port': Links need ports"


def test_a_tiles_file_is_checked_and_its_digest_names_it(tmp_path):
    """'Each tile has a node in the center which represents a client or server computer ...
    Each tile has one, two or three connections leading from the node to the edge of the tile.'
    A user's own file (ARBITER_CYBERSPACE_TILES) is held to the same."""
    import hashlib
    import os
    import subprocess
    import sys

    from domain.games.cyberspace.tiles import load

    def written(tiles):
        path = tmp_path / "tiles.json"
        path.write_bytes(orjson.dumps({"tiles": tiles}))
        return path

    good = written([{"id": "a", "node": "client", "connections": [2, 0]}, {"id": "b", "node": "server", "connections": [1]}])
    tiles, digest = load(good)
    assert tiles == {"a": {"node": "client", "connections": [0, 2]}, "b": {"node": "server", "connections": [1]}}
    assert digest == hashlib.sha256(good.read_bytes()).hexdigest()[:12]
    for bad, reason in (({"node": "router", "connections": [0]}, "client or a server"),
                        ({"node": "client", "connections": []}, "one, two or three"),
                        ({"node": "client", "connections": [0, 1, 2, 3]}, "one, two or three"),
                        ({"node": "client", "connections": [1, 1]}, "distinct"),
                        ({"node": "server", "connections": [4]}, "among 0-3")):
        with pytest.raises(ValueError, match=reason):
            load(written([{"id": "x", **bad}]))
    assert load(DEFAULT_TILES) == (TILES, load(DEFAULT_TILES)[1])
    own = written([{"id": "solo", "node": "server", "connections": [0]}])
    shown = subprocess.run([sys.executable, "-c", "from domain.games.cyberspace.tiles import TILES, TILES_DIGEST;"
                            "print(sorted(TILES), TILES_DIGEST)"], capture_output=True, text=True, check=True,
                           env={**os.environ, "ARBITER_CYBERSPACE_TILES": str(own)})
    assert shown.stdout.split() == ["['solo']", load(own)[1]]


def test_setup_stack_two_face_up_avatars_tokens_and_a_random_first_player():
    state = new_state(seats=3)
    assert len(state["stack"]) == 22 and len(state["face_up"]) == 2  # "Draw the top two tiles, ... face up"
    assert sorted(state["stack"] + state["face_up"]) == sorted(TILES)
    assert state["board"] == {}
    for player in state["players"]:
        assert player["avatars"] == [None, None, None]  # 12 Avatar Pawns: three each
        assert player["links"] == [] and player["firewalls"] == []
    firsts = {RULESET.setup({}, ["a", "b", "c"], rng(1, seed))["first"] for seed in range(40)}
    assert firsts == {0, 1, 2}  # "Randomly determine who starts."
    fresh = RULESET.setup({"duels": "bit"}, ["a", "b", "c"], rng(1, 3))
    assert fresh["turn"] == fresh["first"] and fresh["turn_number"] == 1 and fresh["duels"] == "bit"
    assert not (state["final_round"] or state["closing"] or state["acted"]) and state["programs"] == 0
    assert new_state(seats=1)["duels"] is None  # the Engineering Puzzle duels with no one


def test_the_first_tile_goes_in_the_centre():
    state = new_state()
    tile = state["face_up"][0]
    refused(state, 0, {"type": "probe", "tile": tile, "x": 0, "y": 0, "rot": 0}, "first_tile_in_centre")
    assert {(a["x"], a["y"]) for a in legal_of(state, 0, "probe")} == {(3, 3)}
    state, _ = act(state, 0, {"type": "probe", "tile": tile, "x": 3, "y": 3, "rot": 0})
    assert state["board"]["3,3"]["tile"] == tile


def test_each_distinct_shape_is_listed_once_where_it_fits():
    """'Any of four rotations' (README 6): a placement is listed once per distinct shape, the
    lowest rotation giving it, wherever the tile's connections meet every demand exactly."""
    from domain.games.cyberspace.board import turned
    state = new_state()
    for tile in sorted(TILES):
        rots = [rot for x, y, rot in placements({}, 7, tile)]
        shapes = [turned(tile, rot) for rot in rots]
        assert len(set(shapes)) == len(shapes) == len({turned(tile, r) for r in range(4)})
        assert rots == sorted(min(r for r in range(4) if turned(tile, r) == shape) for shape in shapes)
    put(state, 3, 3, "client", [E])
    port = tile_like(state, "client", [W])
    found = placements(state["board"], 7, port)
    assert (4, 3, rot_for(port, [W])) in found  # the connection it needs, and no more
    assert len(found) == len(set(found)) and all((x, y) != (4, 3) or rot == rot_for(port, [W]) for x, y, rot in found)
    straight = tile_like(state, "client", [E, W])  # the same shape turned twice: listed once a square
    at_west = [rot for x, y, rot in placements(state["board"], 7, straight) if (x, y) == (2, 3)]
    assert at_west == [min(r for r in range(4) if turned(straight, r) == {N, S})]  # its east side must be blank


def test_ok_ok_invalid_touching_sides_must_match():
    """'Orient it so that a side with a connection adjoins an existing side with a
    connection, or so that a side with no connection adjoins one with no connection.'"""
    def board_with_port():
        state = new_state()
        put(state, 3, 3, "client", [E])  # a port pointing east: its other sides are blank
        tile = tile_like(state, "client", [N, E])
        state["face_up"] = [tile]
        return state, tile

    state, corner = board_with_port()  # OK: connection to connection, east of the port
    state, _ = act(state, 0, {"type": "probe", "tile": corner, "x": 4, "y": 3, "rot": rot_for(corner, [W, N])})
    assert "4,3" in state["board"]
    state, corner = board_with_port()  # OK: blank to blank, north of the port
    state, _ = act(state, 0, {"type": "probe", "tile": corner, "x": 3, "y": 2, "rot": rot_for(corner, [N, E])})
    assert "3,2" in state["board"] and len(networks(state["board"])) == 2
    state, corner = board_with_port()  # Invalid: a connection against the port's blank north side
    refused(state, 0, {"type": "probe", "tile": corner, "x": 3, "y": 2, "rot": rot_for(corner, [S, E])}, "sides_must_match")
    # Invalid: a blank side against the port's connection
    refused(state, 0, {"type": "probe", "tile": corner, "x": 4, "y": 3, "rot": rot_for(corner, [N, E])}, "sides_must_match")


def test_a_tile_must_touch_an_existing_tile_and_an_empty_square():
    state = new_state()
    put(state, 3, 3, "client", [E])
    tile = state["face_up"][0]
    refused(state, 0, {"type": "probe", "tile": tile, "x": 5, "y": 3, "rot": 0}, "must_attach")
    refused(state, 0, {"type": "probe", "tile": tile, "x": 3, "y": 3, "rot": 0}, "square_taken")


def test_unplayable_area_the_edge_of_the_play_area():
    """'If the Network Tiles reach the edge of the play area, you can not play further tiles
    in that area. Do not shift the tiles.'"""
    state = new_state(options={"size": 5})
    for x in range(5):
        put(state, x, 2, "client", [W, E]) if x not in (0, 4) else None
    put(state, 0, 2, "server", [E])
    put(state, 4, 2, "server", [W])
    tile = state["face_up"][0]
    refused(state, 0, {"type": "probe", "tile": tile, "x": 5, "y": 2, "rot": 0}, "edge_of_play_area")
    assert all(0 <= x < 5 and 0 <= y < 5 for x, y, _ in placements(state["board"], 5, tile))


def test_an_open_connection_does_not_adjoin_a_tile_and_closing_all_closes_the_network():
    state = new_state()
    put(state, 3, 3, "server", [E])
    port = tile_like(state, "client", [N])
    state["face_up"] = [port]
    assert not is_closed(state["board"], ["3,3"])
    state, _ = act(state, 0, {"type": "probe", "tile": port, "x": 4, "y": 3, "rot": rot_for(port, [W])})
    assert is_closed(state["board"], network_of(state["board"], "3,3"))  # "Closing all connections closes a network"


def test_a_closed_network_takes_no_more_connections_but_tiles_may_adjoin_it_blank_to_blank():
    state = new_state()
    put(state, 3, 3, "server", [E])
    put(state, 4, 3, "client", [W])
    tile = tile_like(state, "client", [N, S])
    state["face_up"] = [tile]
    refused(state, 0, {"type": "probe", "tile": tile, "x": 3, "y": 4, "rot": rot_for(tile, [N, S])}, "sides_must_match")
    state, _ = act(state, 0, {"type": "probe", "tile": tile, "x": 3, "y": 4, "rot": rot_for(tile, [W, E])})
    assert len(networks(state["board"])) == 2 and is_closed(state["board"], ["3,3", "4,3"])


def test_a_connection_pointing_off_the_edge_is_open_and_its_network_stays_open():
    """'An open connection is one that does not adjoin another tile'; a connection off the
    edge of the play area can never adjoin one (README 7), so its network is not closed."""
    state = new_state()
    put(state, 0, 3, "client", [W, E])  # its west connection points off the play area
    put(state, 1, 3, "server", [W])
    avatar(state, 0, 1, 3)
    group = network_of(state["board"], "0,3")
    assert group == ["0,3", "1,3"] and open_connections(state["board"], "0,3") == [W]
    assert not is_closed(state["board"], group)
    assert network_worth(state, group)["worth"] == 1  # one empty client, no closed bonus
    put(state, 6, 1, "client", [W, E])  # the east edge too
    put(state, 5, 1, "server", [E])
    assert open_connections(state["board"], "6,1") == [E] and not is_closed(state["board"], ["5,1", "6,1"])
    assert [shown["closed"] for shown in RULESET.view(state, None)["networks"]] == [False, False]


def test_ports_and_links_are_not_open_connections():
    state = new_state()
    put(state, 3, 3, "server", [E])
    put(state, 4, 3, "client", [W])  # a port
    state["players"][1]["links"] = ["4,3"]
    assert is_closed(state["board"], ["3,3", "4,3"])


def test_a_face_up_tile_used_is_replaced_from_the_face_down_stack():
    state = new_state()
    tile = state["face_up"][0]
    state, facts = act(state, 0, {"type": "probe", "tile": tile, "x": 3, "y": 3, "rot": 0})
    assert [f["f"] for f in facts] == ["program", "place", "refill"]
    assert len(state["face_up"]) == 2 and len(state["stack"]) == 21 and tile not in state["face_up"]
    assert state["face_up"][-1] == facts[-1]["tile"] and facts[-1]["tile"] not in state["stack"]
    listed = RULESET.legal_actions(state, 0)
    assert {"type": "draw"} in listed and legal_of(state, 0, "probe")  # the stack or a face-up tile


def test_drawing_from_the_stack_then_placing_the_tile_is_one_probe():
    state = new_state()
    state, facts = act(state, 0, {"type": "draw"})
    held = state["held"]
    assert [f["f"] for f in facts] == ["program", "draw"] and held and len(state["stack"]) == 21
    assert RULESET.legal_actions(state, 0) == legal_of(state, 0, "place")  # nothing else until it is placed
    refused(state, 0, {"type": "end_turn"}, "place_drawn_tile")
    refused(state, 0, {"type": "place", "x": 0, "y": 0, "rot": 0}, "first_tile_in_centre")  # placed by the rules too
    refused(state, 0, {"type": "place", "x": 3, "y": "3", "rot": 0}, "malformed_action")
    state, _ = act(state, 0, {"type": "place", "x": 3, "y": 3, "rot": 0})
    assert state["board"]["3,3"]["tile"] == held and state["held"] is None and state["programs"] == 1


# Size 5, every square filled but the middle column; each of its squares meets a connection
# from the west and one from the east, so no tile with a single connection fits anywhere.
GAP_BOARD = [
    (0, 0, "client", [N]), (1, 0, "client", [E]), (3, 0, "client", [W]), (4, 0, "client", [N]),
    (0, 1, "client", [E]), (1, 1, "client", [E, W]), (3, 1, "client", [E, W]), (4, 1, "client", [E, W]),
    (0, 2, "client", [E, S]), (1, 2, "client", [E, S, W]), (3, 2, "client", [S, W]), (4, 2, "client", [E, S]),
    (0, 3, "client", [N, E, S]), (1, 3, "client", [N, E, W]), (3, 3, "server", [N, W]), (4, 3, "server", [N]),
    (0, 4, "server", [N]), (1, 4, "server", [E]), (3, 4, "server", [E, W]), (4, 4, "server", [S, W]),
]


def test_an_unplayable_tile_waits_face_up_beside_the_stack_until_any_player_can_place_it():
    """'If a Network Tile cannot be played, the tile remains face-up beside the tile stack.
    Continue to draw and attach tiles from the stack as usual ... As soon as the tile can be
    played, any player may do so on his or her turn.'"""
    state = new_state(options={"size": 5})
    state["stack"] += state["face_up"]
    state["face_up"] = []
    for x, y, node, sides in GAP_BOARD:
        put(state, x, y, node, sides)
    port = tile_like(state, "client", [N])
    state["face_up"] = sorted(set(state["stack"]) - {port})
    state["stack"] = [port]
    assert placements(state["board"], 5, port) == []
    state, facts = act(state, 0, {"type": "draw"})
    assert [f["f"] for f in facts] == ["program", "draw", "set_aside", "final_round"]  # the last tile was drawn
    assert state["waiting"] == [port] and state["held"] is None
    assert not [a for a in legal_of(state, 0, "probe") if a["tile"] == port]
    del state["board"]["0,0"]  # room opens in the corner (as after a remap)
    probes = [a for a in legal_of(state, 0, "probe") if a["tile"] == port]
    assert {(a["x"], a["y"]) for a in probes} == {(0, 0)}
    state, facts = act(state, 0, probes[0])
    assert state["board"]["0,0"]["tile"] == port and state["waiting"] == []
    assert [f["f"] for f in facts] == ["program", "place"]  # a waiting tile is not one of the two to replace


def gap_table(first, second):
    """The GAP_BOARD, with `first` then `second` the only tiles left face down."""
    state = new_state(options={"size": 5})
    state["stack"] += state["face_up"]
    state["face_up"] = []
    for x, y, node, sides in GAP_BOARD:
        put(state, x, y, node, sides)
    state["face_up"] = sorted(set(state["stack"]) - {first, second})
    state["stack"] = [first, second]
    return state


def test_a_probe_draws_on_past_an_unplayable_tile_until_one_can_be_played():
    """'If a Network Tile cannot be played, the tile remains face-up beside the tile stack.
    Continue to draw and attach tiles from the stack as usual': one Probe draws again."""
    state = new_state(options={"size": 5})
    port, tee = tile_like(state, "client", [N]), tile_like(state, "server", [E, N, W])
    state = gap_table(port, tee)
    assert placements(state["board"], 5, port) == [] and placements(state["board"], 5, tee)
    seq = next(q for q in range(2, 200) if rng(q).randbelow(2) == 0)  # the port is drawn first
    state, facts = act(state, 0, {"type": "draw"}, seq=seq)
    assert [f["f"] for f in facts] == ["program", "draw", "set_aside", "draw", "final_round"]
    assert facts[2] == {"f": "set_aside", "tile": port} and facts[3] == {"f": "draw", "tile": tee}
    assert state["waiting"] == [port] and state["held"] == tee and state["programs"] == 1


def test_a_waiting_tile_used_is_not_replaced_while_the_stack_still_has_tiles():
    """'If you used a face-up tile, replace it with a tile from the face-down stack'; an
    unplayable tile waiting beside the stack is not one of the two face-up tiles: using it
    draws nothing (README 5)."""
    state = new_state(options={"size": 5})
    port, tee = tile_like(state, "client", [N]), tile_like(state, "server", [E, N, W])
    state = gap_table(port, tee)
    state["stack"] = [tee, state["face_up"].pop()]
    state["waiting"] = [port]
    del state["board"]["0,0"]  # room for the waiting port in the corner
    state, facts = act(state, 0, {"type": "probe", "tile": port, "x": 0, "y": 0, "rot": rot_for(port, [N])})
    assert [f["f"] for f in facts] == ["program", "place"]
    assert len(state["stack"]) == 2 and state["waiting"] == []


def test_options_are_checked_at_setup():
    with pytest.raises(InvalidSetup, match="card duels"):
        new_state(seats=3, options={"assistance": True})
    with pytest.raises(InvalidSetup, match="exactly 4 players"):
        new_state(seats=3, options={"teams": True})
    with pytest.raises(InvalidSetup, match="duels"):
        new_state(options={"duels": "coin"})
    with pytest.raises(InvalidSetup, match="Teams"):
        new_state(seats=4, options={"duels": "cards", "teams": True, "assistance": True})
    with pytest.raises(InvalidSetup, match="one Hero per seat"):
        new_state(options={"duels": "cards", "heroes": ["bouncer"]})
    with pytest.raises(InvalidSetup, match="card duels only"):
        new_state(options={"heroes": ["bouncer", "sinner"]})  # with Bit Duels
    assert RULESET.setup({}, ["a", "b"], rng(1))["duels"] == "cards"  # card duels are the default
    with pytest.raises(InvalidSetup, match="odd"):
        new_state(options={"size": 8})
    with pytest.raises(InvalidSetup, match="Engineering Puzzle"):
        new_state(seats=1, options={"handicap": [0]})
    for alone in ({"teams": True}, {"assistance": True}):
        with pytest.raises(InvalidSetup, match="Engineering Puzzle"):
            RULESET.setup(alone, ["solo"], rng(1))
    with pytest.raises(InvalidSetup, match="unknown Cyberspace options"):
        new_state(options={"tiles": 30})
    for variant in ({"fair_start": True}, {"discard_queue": True}):
        with pytest.raises(InvalidSetup, match="Dueling Variants"):
            new_state(options=variant)  # with Bit Duels
        with pytest.raises(InvalidSetup, match="Dueling Variants"):
            RULESET.setup(variant, ["solo"], rng(1))  # the puzzle
    for size in (7.0, True, 17, 3):
        with pytest.raises(InvalidSetup, match="odd number from 5 to 15"):
            new_state(options={"size": size})
    assert new_state(options={"size": 15})["size"] == 15 and new_state(options={"size": 5})["size"] == 5
    for entry in ("zed", None, True, 2, -1):
        with pytest.raises(InvalidSetup, match="neither a seat name nor a seat number"):
            new_state(options={"handicap": [entry]})
    state = new_state(seats=3, options={"handicap": ["p1"]})  # "the expert player(s) receive two Avatars"
    assert [len(p["avatars"]) for p in state["players"]] == [3, 2, 3]


def test_the_board_view_is_structured_and_render_draws_the_grid():
    from .test_hacking import face_off
    state = face_off()
    state["players"][1]["links"] = ["1,3"]
    state["players"][0]["firewalls"] = [["2,3", E]]
    seen = RULESET.view(state, None)
    server = next(t for t in seen["tiles"] if (t["x"], t["y"]) == (2, 3))
    assert server == {"x": 2, "y": 3, "tile": state["board"]["2,3"]["tile"], "rotation": state["board"]["2,3"]["rot"],
                      "node": "server", "connections": [E, W], "open_connections": [], "pendant": False,
                      "network": 0, "avatar": {"seat": 0, "avatar": 0}, "link": None,
                      "firewalls": [{"side": E, "owner": 0}]}
    assert next(t for t in seen["tiles"] if t["x"] == 1)["link"] == 1
    assert seen["networks"][0]["servers_held"] == {"0": 1}
    drawn = plain_text(RULESET.render(seen)).splitlines()
    assert "--( )L" not in drawn and any("( )----[0]##--(1)" in line for line in drawn)
    assert any(line.startswith("L1") or " L1" in line for line in drawn)


def test_a_timed_out_seat_places_its_drawn_tile_then_ends_its_turn():
    from domain.games.cyberspace.rules import default_action
    state = new_state()
    state, _ = act(state, 0, {"type": "draw"})
    assert default_action(state, 0)["type"] == "place"
    state, _ = act(state, 0, default_action(state, 0))
    assert default_action(state, 0) == {"type": "end_turn"}
