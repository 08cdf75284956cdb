"""What each seat sees in Cyberspace, and the board drawn as text.

Nothing in Cyberspace with Bit Duels is secret from another seat: tiles on the board, the
face-up tiles, every Avatar, Link and Firewall are on the table, and the face-down stack
is shown only as a count (its draws are made when they happen; see rules.py). So `view`
is the same for every seat and spectators, and facts and actions are shown unchanged.
"""

from .board import SIDE_NAMES, coords, is_pendant, link_at, node_of, occupants, open_connections, sides_of
from .programs import ACCESS_TOKENS
from .scoring import network_points, network_table


def view(state, seat):
    board, taken = state["board"], occupants(state)
    table = network_table(state)
    groups = [group for group, _, _ in table]
    network_index = {cell: i for i, group in enumerate(groups) for cell in group}
    walls = {}
    for owner, player in enumerate(state["players"]):
        for cell, side in player["firewalls"]:
            walls.setdefault(cell, []).append({"side": side, "owner": owner})
    tiles = []
    for cell in sorted(board, key=lambda c: coords(c)[::-1]):
        x, y = coords(cell)
        occupant = taken.get(cell)
        tiles.append({
            "x": x, "y": y, "tile": board[cell]["tile"], "rotation": board[cell]["rot"],
            "node": node_of(board, cell), "connections": sorted(sides_of(board, cell)),
            "open_connections": open_connections(board, cell), "pendant": is_pendant(board, cell),
            "network": network_index[cell],
            "avatar": {"seat": occupant[0], "avatar": occupant[1]} if occupant else None,
            "link": link_at(state, cell), "firewalls": sorted(walls.get(cell, []), key=lambda w: w["side"]),
        })
    nets = [{"id": i, "tiles": group, **worth, "servers_held": {str(s): n for s, n in sorted(held.items())}}
            for i, (group, worth, held) in enumerate(table)]
    players = [{
        "seat": s, "team": s % 2 if state["teams"] else None,
        "avatars": list(p["avatars"]), "avatars_in_reserve": p["avatars"].count(None),
        "links": list(p["links"]), "firewalls": [list(w) for w in p["firewalls"]],
        "access_tokens_left": ACCESS_TOKENS - len(p["links"]) - len(p["firewalls"]),
        "network_points_now": network_points(state, s, table) if not state["puzzle"] else None,
        "tally": state["tallies"][s],
    } for s, p in enumerate(state["players"])]
    return {
        "size": state["size"], "puzzle": state["puzzle"], "teams": state["teams"], "duels": state["duels"],
        "handicap": list(state["handicap"]), "tiles": tiles, "networks": nets, "players": players,
        "stack": len(state["stack"]), "face_up": list(state["face_up"]), "waiting": list(state["waiting"]),
        "held": state["held"], "turn": state["turn"], "turn_number": state["turn_number"], "first": state["first"],
        "programs": state["programs"], "menu": list(state["menu"]), "attacked": state["attacked"],
        "acted": state["acted"], "hijack": state["hijack"], "duel": state["duel"], "last_duel": state["last_duel"],
        "final_round": state["final_round"], "last_seat": state["last_seat"], "final_turn": state["final_turn"],
        "over": state["over"], "winners": state["winners"], "puzzle_score": state["puzzle_score"],
    }


def redact(fact, seat):
    return fact


def redact_action(action, actor, seat):
    return action


# ---------------------------------------------------------------------------------------
# render: the tile grid as text
# ---------------------------------------------------------------------------------------

CELL_WIDTH = 7


def _cell_lines(tile):
    """Three lines of seven characters: connections as | and --, a Firewall as #, the node
    as ( ) for a client and [ ] for a server holding the occupant's seat, a Link as L<seat>."""
    if tile is None:
        return ["       ", "   .   ", "       "]
    connections = set(tile["connections"])
    walled = {w["side"] for w in tile["firewalls"]}

    def arm(side, line, blank):
        return ("#" * len(line) if side in walled else line) if side in connections else blank

    occupant = str(tile["avatar"]["seat"]) if tile["avatar"] else " "
    node = f"({occupant})" if tile["node"] == "client" else f"[{occupant}]"
    link = f"L{tile['link']}" if tile["link"] is not None else "  "
    top = "   " + arm(0, "|", " ") + "   "
    middle = arm(3, "--", "  ") + node + arm(1, "--", "  ")
    bottom = link + " " + arm(2, "|", " ") + "   "
    return [top, middle, bottom]


def render(seen):
    size = seen["size"]
    by_cell = {(t["x"], t["y"]): t for t in seen["tiles"]}
    lines = ["    " + "".join(f"{x:^{CELL_WIDTH}}" for x in range(size))]
    for y in range(size):
        rows = ["", "", ""]
        for x in range(size):
            for i, part in enumerate(_cell_lines(by_cell.get((x, y)))):
                rows[i] += part
        lines += [f"{y:>3} " + rows[0], "    " + rows[1], "    " + rows[2]]
    lines.append("( ) client  [ ] server  digit = Avatar's seat  L<n> = Link of seat n  # = Firewall")
    lines.append(f"stack {seen['stack']}  face up {seen['face_up']}  waiting {seen['waiting']}"
                 + (f"  drawn {seen['held']}" if seen["held"] else ""))
    for net in seen["networks"]:
        lines.append(f"network {net['id']}: {len(net['tiles'])} tiles, {net['servers']} servers, "
                     f"{net['empty_clients']} empty clients, {'closed' if net['closed'] else 'open'}, "
                     f"worth {net['worth']}, servers held {net['servers_held']}")
    for p in seen["players"]:
        walls = ", ".join(f"{c} {SIDE_NAMES[s]}" for c, s in p["firewalls"])
        lines.append(f"seat {p['seat']}: avatars {p['avatars']}  links {p['links']}  firewalls [{walls}]"
                     + (f"  points now {p['network_points_now']}" if p["network_points_now"] is not None else "")
                     + (f"  tally {p['tally']}" if p["tally"] else ""))
    if seen["over"]:
        lines.append(f"over ({seen['over']}): winners {seen['winners']}"
                     + (f", puzzle score {seen['puzzle_score']}" if seen["puzzle_score"] else ""))
    else:
        state = f"turn of seat {seen['turn']}, programs {seen['programs']}/3 {seen['menu']}"
        if seen["hijack"]:
            state += f", hijacking seat {seen['hijack']['target']} ({seen['hijack']['programs']}/3)"
        if seen["final_round"]:
            state += ", final round" + (" (this is a final turn)" if seen["final_turn"] else "")
        lines.append(state)
    return "\n".join(lines)
