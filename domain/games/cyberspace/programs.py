"""The six programs (Probe, Spawn, Login, Link, Firewall, Remap), each with the rulebook's
conditions. A program works on the pieces of `owner`: the acting player's own, or, during
a hijacked session, the hacked target's. Every `*_refusal` returns (code, message) naming
the broken rule, or None; the `options_*` functions list every legal use.
"""

from .board import (coords, firewalls_on, is_pendant, is_port, key, link_at, login_destinations, network_of,
                    node_of, occupants, placement_refusal, placements, playable, sides_of, turned)

ACCESS_TOKENS = 3


def integer(action, name):
    value = action.get(name)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


# ---------------------------------------------------------------------------------------
# Probe: draw from the face-down stack (then place), or place a face-up tile
# ---------------------------------------------------------------------------------------

def draw(turn):
    """Draw from the stack; a tile that cannot be played stays face up beside the stack and
    the Probe draws on, until a playable tile is in hand or the stack is empty."""
    st = turn.state
    while st["stack"]:
        tile = st["stack"][turn.rng.randbelow(len(st["stack"]))]
        turn.emit({"f": "draw", "tile": tile})
        if playable(st["board"], st["size"], tile):
            return
        turn.emit({"f": "set_aside", "tile": tile})


def place_refusal(st, tile, action):
    x, y, rot = integer(action, "x"), integer(action, "y"), integer(action, "rot")
    if None in (x, y, rot):
        return "malformed_action", 'placing a tile needs integers "x", "y" and "rot"'
    return placement_refusal(st["board"], st["size"], tile, x, y, rot)


def place(turn, tile, source, action):
    turn.emit({"f": "place", "tile": tile, "from": source, "at": key(action["x"], action["y"]), "rot": action["rot"]})
    if source == "face_up" and turn.state["stack"]:
        # "If you used a face-up tile, replace it with a tile from the face-down stack."
        st = turn.state
        turn.emit({"f": "refill", "tile": st["stack"][turn.rng.randbelow(len(st["stack"]))]})


def probe_source(st, tile):
    if tile in st["face_up"]:
        return "face_up"
    if tile in st["waiting"]:
        return "waiting"
    return None


def options_probe(st):
    actions = []
    for tile in sorted(set(st["face_up"]) | set(st["waiting"])):
        actions += [{"type": "probe", "tile": tile, "x": x, "y": y, "rot": rot}
                    for x, y, rot in placements(st["board"], st["size"], tile)]
    return actions


def options_place(st):
    return [{"type": "place", "x": x, "y": y, "rot": rot} for x, y, rot in placements(st["board"], st["size"], st["held"])]


# ---------------------------------------------------------------------------------------
# Spawn
# ---------------------------------------------------------------------------------------

def on_board(st, owner):
    return [cell for cell in st["players"][owner]["avatars"] if cell is not None]


def spawn_refusal(st, owner, cell):
    avatars = st["players"][owner]["avatars"]
    if None not in avatars:
        return "no_avatar_left", f"all {len(avatars)} Avatars are already on the board"
    if cell not in st["board"]:
        return "no_tile", f"there is no tile at {cell}"
    if node_of(st["board"], cell) != "client":
        return "spawn_on_client", "an Avatar is spawned on a client (circle), not a server"
    if cell in occupants(st):
        return "node_occupied", f"the client at {cell} is not empty"
    placed = on_board(st, owner)
    if not placed:
        return None  # "If you currently have no Avatars on the board, simply place your Avatar on any empty client."
    if any(node_of(st["board"], c) != "server" for c in placed):
        return "spawn_needs_servers", "each of your Avatars must login to a server node before spawning another"
    if not any(cell in network_of(st["board"], c) for c in placed):
        return "spawn_same_network", "a further Avatar is spawned on an empty client in the same network as one of yours"
    return None


def options_spawn(st, owner):
    return [{"type": "spawn", "x": coords(cell)[0], "y": coords(cell)[1]}
            for cell in sorted(st["board"]) if spawn_refusal(st, owner, cell) is None]


# ---------------------------------------------------------------------------------------
# Login
# ---------------------------------------------------------------------------------------

def login_refusal(st, owner, index, cell):
    avatars = st["players"][owner]["avatars"]
    if index is None or not 0 <= index < len(avatars) or avatars[index] is None:
        return "no_such_avatar", "login moves one of the Avatars on the board, by its index"
    if cell not in login_destinations(st, avatars[index]):
        return "login_path", ("login goes node to node through connections that adjoin another tile (or Links "
                              "of one colour), never through a Firewall, into or through an occupied node")
    return None


def options_login(st, owner):
    return [{"type": "login", "avatar": index, "x": coords(cell)[0], "y": coords(cell)[1]}
            for index, start in enumerate(st["players"][owner]["avatars"]) if start is not None
            for cell in login_destinations(st, start)]


# ---------------------------------------------------------------------------------------
# Link and Firewall: Access Tokens
# ---------------------------------------------------------------------------------------

def tokens_left(st, owner):
    player = st["players"][owner]
    return ACCESS_TOKENS - len(player["links"]) - len(player["firewalls"])


def link_refusal(st, owner, cell, moved):
    if moved is not None and moved not in st["players"][owner]["links"]:
        return "not_your_link", f"there is no Link of this player's at {moved} to move"
    if moved is None and tokens_left(st, owner) <= 0:
        return "no_access_token", "all three Access Tokens are on the board: move a Link instead"
    if cell not in st["board"] or not is_port(st["board"], cell):
        return "link_on_port", "a Link goes on a port: a client with a single connection"
    if link_at(st, cell) is not None:
        return "port_has_link", f"the port at {cell} already has a Link"
    return None


def options_link(st, owner):
    ports = [cell for cell in sorted(st["board"]) if is_port(st["board"], cell) and link_at(st, cell) is None]
    sources = ([None] if tokens_left(st, owner) > 0 else []) + list(st["players"][owner]["links"])
    return [{"type": "link", "x": coords(cell)[0], "y": coords(cell)[1], "from": moved}
            for moved in sources for cell in ports]


def firewall_refusal(st, owner, cell, side, moved):
    walls = st["players"][owner]["firewalls"]
    if moved is not None and moved not in walls:
        return "not_your_firewall", f"there is no Firewall of this player's at {moved} to move"
    if moved is None and tokens_left(st, owner) <= 0:
        return "no_access_token", "all three Access Tokens are on the board: move a Firewall instead"
    if cell not in st["board"] or side not in (0, 1, 2, 3) or side not in sides_of(st["board"], cell):
        return "firewall_on_connection", "a Firewall goes on a connection of a tile"
    if firewalls_on(st, cell, side):
        return "connection_has_firewall", "to place a firewall, the connection must be empty"
    return None


def options_firewall(st, owner):
    board = st["board"]
    free = [[cell, side] for cell in sorted(board) for side in sorted(sides_of(board, cell))
            if not firewalls_on(st, cell, side)]
    sources = ([None] if tokens_left(st, owner) > 0 else []) + list(st["players"][owner]["firewalls"])
    return [{"type": "firewall", "x": coords(cell)[0], "y": coords(cell)[1], "side": side, "from": moved}
            for moved in sources for cell, side in free]


# ---------------------------------------------------------------------------------------
# Remap
# ---------------------------------------------------------------------------------------

def remap_refusal(st, cell, action):
    board = st["board"]
    if not isinstance(cell, str) or cell not in board:
        return "no_tile", f"there is no tile at {cell}"
    if not is_pendant(board, cell):
        return "remap_pendant_only", "only a pendant tile (one touching exactly one other tile) may be remapped"
    x, y, rot = integer(action, "x"), integer(action, "y"), integer(action, "rot")
    if None in (x, y, rot):
        return "malformed_action", 'a remap needs integers "x", "y" and "rot"'
    if rot not in (0, 1, 2, 3):
        return "bad_rotation", "a rotation is 0, 1, 2 or 3 quarter turns clockwise"
    if key(x, y) == cell and remap_outcome(st, cell, cell, rot) == remap_outcome(st, cell, cell, board[cell]["rot"]):
        # (outcomes begin with their square: another square is another outcome)
        return "remap_must_move", ("a remapped tile must go to another position: another square, or other "
                                   "connections or Firewall sides")
    rest = {c: placed for c, placed in board.items() if c != cell}
    return placement_refusal(rest, st["size"], board[cell]["tile"], x, y, rot)


def options_remap(st):
    """One remap per distinct outcome: `placements` lists one rotation per connection shape,
    but a tile whose shape repeats when turned (a straight one, turned twice) still puts
    its Firewalls on other sides, so every rotation of that shape is weighed."""
    board, actions = st["board"], []
    for cell in sorted(board):
        if not is_pendant(board, cell):
            continue
        rest = {c: placed for c, placed in board.items() if c != cell}
        tile = board[cell]["tile"]
        seen = {remap_outcome(st, cell, cell, board[cell]["rot"])}
        # remap_outcome's connections and Firewall sides for each rotation, worked out once
        # for all the squares (tests/games/cyberspace/test_programs.py holds it to remap_outcome)
        turns = [remap_outcome(st, cell, cell, rot)[1:] for rot in range(4)]
        for x, y, shape_rot in placements(rest, st["size"], tile):
            target = key(x, y)
            for rot in range(4):
                if turns[rot][0] == turned(tile, shape_rot):
                    outcome = (target, *turns[rot])
                    if outcome not in seen:
                        seen.add(outcome)
                        actions.append({"type": "remap", "from": cell, "x": x, "y": y, "rot": rot})
    return actions


def remap_outcome(st, cell, target, rot):
    """What a remap of the tile at `cell` to `target` turned `rot` leaves on the board: the
    square, its connections, and the sides its Firewalls end on (Avatars and Links sit on
    the node, so only the square moves them)."""
    turn_by = (rot - st["board"][cell]["rot"]) % 4
    walls = sorted((seat, (wall[1] + turn_by) % 4) for seat, player in enumerate(st["players"])
                   for wall in player["firewalls"] if wall[0] == cell)
    return target, turned(st["board"][cell]["tile"], rot), tuple(walls)


def remapped_firewall(wall, cell, target, turn_by):
    """A Firewall on the moved tile rides along, turning with it."""
    if wall[0] != cell:
        return wall
    return [target, (wall[1] + turn_by) % 4]

