"""The network-tile board: placing and attaching tiles, networks, open connections, pendant
tiles, and how Avatars reach and touch each other (login paths, adjacency for attacks).

A placed tile is `board["x,y"] = {"tile": id, "rot": r}`; its connections are the tile's
sides turned clockwise by r (sides: 0 north, 1 east, 2 south, 3 west; y grows southward).
The play area is a size x size grid; the first tile goes in its centre.
"""

from functools import lru_cache

import orjson

from domain.kernel.memo import Memo

from .tiles import TILES

STEP = {0: (0, -1), 1: (1, 0), 2: (0, 1), 3: (-1, 0)}
SIDE_NAMES = ("north", "east", "south", "west")


def key(x, y):
    return f"{x},{y}"


@lru_cache(maxsize=4096)
def coords(cell):
    x, y = cell.split(",")
    return int(x), int(y)


@lru_cache(maxsize=16384)
def neighbour(cell, side):
    x, y = coords(cell)
    dx, dy = STEP[side]
    return key(x + dx, y + dy)


def opposite(side):
    return (side + 2) % 4


@lru_cache(maxsize=1024)
def turned(tile, rot):
    return frozenset((side + rot) % 4 for side in TILES[tile]["connections"])


def sides_of(board, cell):
    placed = board[cell]
    return turned(placed["tile"], placed["rot"])


def node_of(board, cell):
    return TILES[board[cell]["tile"]]["node"]


def in_area(size, x, y):
    return 0 <= x < size and 0 <= y < size


def centre(size):
    return key(size // 2, size // 2)


def is_port(board, cell):
    """'Each client with a single connection has a port.'"""
    return node_of(board, cell) == "client" and len(sides_of(board, cell)) == 1


# ---------------------------------------------------------------------------------------
# Placing a tile
# ---------------------------------------------------------------------------------------

def placement_refusal(board, size, tile, x, y, rot):
    """Why `tile` turned by `rot` may not go at (x, y), or None: the first tile in the centre;
    every later tile inside the play area, on an empty square, touching at least one tile,
    every touching pair of sides matching (connection to connection, blank to blank)."""
    if rot not in (0, 1, 2, 3):
        return "bad_rotation", "a rotation is 0, 1, 2 or 3 quarter turns clockwise"
    if not in_area(size, x, y):
        return "edge_of_play_area", f"({x},{y}) lies beyond the edge of the {size}x{size} play area"
    cell = key(x, y)
    if not board:
        if cell != centre(size):
            return "first_tile_in_centre", f"the first tile goes in the centre of the play area, {centre(size)}"
        return None
    if cell in board:
        return "square_taken", f"a tile already lies at {cell}"
    sides = turned(tile, rot)
    touching = False
    for side in range(4):
        other = neighbour(cell, side)
        if other not in board:
            continue
        touching = True
        if (side in sides) != (opposite(side) in sides_of(board, other)):
            return "sides_must_match", (f"the {SIDE_NAMES[side]} side would meet {other} connection to blank: "
                                        "touching sides must match")
    if not touching:
        return "must_attach", "a tile must have at least one side adjacent to a side of an existing tile"
    return None


def placements(board, size, tile):
    """Every (x, y, rot) where `tile` may be attached; rotations that give the same
    connections are listed once (the lowest). The same rules as `placement_refusal`, with
    each empty square's demands (connection here, blank there) worked out once."""
    if not board:
        x, y = coords(centre(size))
        return [(x, y, rot) for rot in sorted({min(r for r in range(4) if turned(tile, r) == turned(tile, q))
                                                for q in range(4)})]
    found = []
    for cell, (need, blank) in frontier(board, size):
        x, y = coords(cell)
        shapes = set()
        for rot in range(4):
            shape = turned(tile, rot)
            if shape not in shapes and need <= shape and not shape & blank:
                shapes.add(shape)
                found.append((x, y, rot))
    return found


def frontier(board, size):
    """[(cell, (sides that must carry a connection, sides that must be blank))] for every
    empty square inside the play area that touches a tile."""
    demands = {}
    for cell in board:
        sides = sides_of(board, cell)
        for side in range(4):
            other = neighbour(cell, side)
            if other in board or not in_area(size, *coords(other)):
                continue
            need, blank = demands.setdefault(other, (set(), set()))
            (need if side in sides else blank).add(opposite(side))
    return sorted(demands.items())


def playable(board, size, tile):
    return bool(placements(board, size, tile))


def touching_tiles(board, cell):
    return [neighbour(cell, s) for s in range(4) if neighbour(cell, s) in board]


def is_pendant(board, cell):
    """'A tile that touches exactly one other tile, which is called a pendant tile.'"""
    return len(touching_tiles(board, cell)) == 1


# ---------------------------------------------------------------------------------------
# Networks
# ---------------------------------------------------------------------------------------

def joined(board, cell, side):
    """The tile this connection reaches, or None when it does not adjoin another tile."""
    other = neighbour(cell, side)
    if other in board and side in sides_of(board, cell) and opposite(side) in sides_of(board, other):
        return other
    return None


def open_connections(board, cell):
    """'An open connection is one that does not adjoin another tile.'"""
    return sorted(side for side in sides_of(board, cell) if neighbour(cell, side) not in board)


def networks(board):
    """Tiles joined connection to connection, as sorted lists of cells (Access Tokens
    disregarded: Links do not extend a network, Firewalls do not split it)."""
    return [list(cells) for cells, _, _, _ in layout(board)]


def layout(board):
    """[(cells, servers, clients, closed)] of every network, in `networks` order: all that
    only the tiles decide of a network's worth (scoring.network_table). Worked out once per
    layout of tiles, since a bot's trial moves and a search's playouts weigh the same boards
    again and again (most moves place no tile); tuples, so that callers cannot change them."""
    placed = orjson.dumps(board)  # every tile and rotation: all that a layout depends on
    found = _LAYOUTS.get(placed)
    if found is None:
        found = _LAYOUTS.keep(placed, _find_layout(board))
    return found


_LAYOUTS: Memo = Memo(4096)  # a board's JSON -> layout(board)


def _find_layout(board):
    """Tiles joined connection to connection (`joined`), each network closed when none of its
    connections is open (`is_closed`), with its cells sorted; networks in the order of their
    first cell."""
    sides = {cell: sides_of(board, cell) for cell in board}
    seen, found = set(), []
    for start in sorted(board):
        if start in seen:
            continue
        group, frontier, closed = [], [start], True
        seen.add(start)
        while frontier:
            cell = frontier.pop()
            group.append(cell)
            for side in sides[cell]:
                other = neighbour(cell, side)
                if other not in sides:
                    closed = False  # an open connection
                elif (side + 2) % 4 in sides[other] and other not in seen:  # opposite(side)
                    seen.add(other)
                    frontier.append(other)
        group.sort()
        servers, clients = [], []
        for cell in group:
            node = TILES[board[cell]["tile"]]["node"]  # node_of
            if node == "server":
                servers.append(cell)
            elif node == "client":
                clients.append(cell)
        found.append((tuple(group), tuple(servers), tuple(clients), closed))
    return tuple(found)


def network_of(board, cell):
    return list(next(cells for cells, _, _, _ in layout(board) if cell in cells))


def is_closed(board, group):
    """'If a network has no open connections, that network is closed.'"""
    return not any(open_connections(board, cell) for cell in group)


# ---------------------------------------------------------------------------------------
# Pieces: who is where, Firewalls on connections, Links on ports
# ---------------------------------------------------------------------------------------

def occupants(state):
    """cell -> [seat, avatar index] for every Avatar on the board."""
    return {cell: [seat, index] for seat, player in enumerate(state["players"])
            for index, cell in enumerate(player["avatars"]) if cell is not None}


def connection_halves(board, cell, side):
    """A connection is one side of one tile, plus the facing side when a tile adjoins it."""
    other = joined(board, cell, side)
    return [[cell, side]] + ([[other, opposite(side)]] if other else [])


def firewalls_on(state, cell, side):
    """[(owner, [cell, side])] of the Firewalls on this connection (two only after a remap)."""
    halves = connection_halves(state["board"], cell, side)
    return [(seat, wall) for seat, player in enumerate(state["players"]) for wall in player["firewalls"]
            if wall in halves]


def link_at(state, cell):
    """The owner (the Link's colour) of the Link on this port, or None."""
    return next((seat for seat, player in enumerate(state["players"]) if cell in player["links"]), None)


def links_of_colour(state, colour):
    return list(state["players"][colour]["links"])


def steps_from(state, cell):
    """Nodes an Avatar at `cell` reaches in one step: through connections that adjoin
    another tile and carry no Firewall, and between Links of the same colour."""
    board = state["board"]
    walls = [wall for player in state["players"] for wall in player["firewalls"]]
    found = []
    for side in sorted(sides_of(board, cell)):
        other = joined(board, cell, side)
        if other and [cell, side] not in walls and [other, opposite(side)] not in walls:  # no firewalls_on it
            found.append(other)
    colour = link_at(state, cell)
    if colour is not None:
        found += [port for port in links_of_colour(state, colour) if port != cell]
    return found


def login_destinations(state, start):
    """Every empty node reachable from `start` through connected, empty nodes (`steps_from`,
    with the Firewalls and Links looked up once for the whole walk, not at each node: the
    greedy bot asks for every Avatar of every trial move; tests/games/cyberspace holds it to
    a walk by steps_from)."""
    board = state["board"]
    taken = occupants(state)
    walls = {(cell, side) for player in state["players"] for cell, side in player["firewalls"]}
    colours = {}  # port -> the Links of its colour (link_at: the first player holding it)
    for player in state["players"]:
        for port in player["links"]:
            colours.setdefault(port, player["links"])
    seen, frontier = {start}, [start]
    while frontier:
        cell = frontier.pop()
        sides = sides_of(board, cell)
        for side in sides:
            other = neighbour(cell, side)  # joined: an adjoining tile, connection to connection
            if other in seen or other in taken or other not in board or (side + 2) % 4 not in sides_of(board, other) \
                    or (cell, side) in walls or (other, (side + 2) % 4) in walls:
                continue
            seen.add(other)
            frontier.append(other)
        for port in colours.get(cell, ()):
            if port not in seen and port not in taken:
                seen.add(port)
                frontier.append(port)
    return sorted(seen - {start})


def adjacent_firewall_connections(state, cell):
    """[cell, side] of each Firewalled connection of the Avatar's node (either half)."""
    found = []
    for side in sorted(sides_of(state["board"], cell)):
        walls = firewalls_on(state, cell, side)
        if walls:
            found.append([cell, side])
    return found


def adjacent_links(state, cell):
    """Ports with a Link next to this node (or on it), and every Link of the same colour as
    one of them: 'Links of the same color are considered adjacent'."""
    near = [cell] + [other for side in sides_of(state["board"], cell)
                     if (other := joined(state["board"], cell, side)) and not firewalls_on(state, cell, side)]
    colours = {link_at(state, port) for port in near} - {None}
    return sorted(port for colour in colours for port in links_of_colour(state, colour))
