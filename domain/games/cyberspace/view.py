"""What each seat sees in Cyberspace, and the board drawn as text.

The board is public: tiles on the board, the face-up tiles, every Avatar, Link and
Firewall are on the table, and the face-down stack is shown only as a count (its draws are
made when they happen; see rules.py). With card duels the HeroCard duel hides what the
table hides, through the engine's own view and redaction: other players' hands and every
Action Deck's order are counts, a deployed Secret Card shows only the Attribute Points it
expends (face down, `card` null) to anyone but its owner, drawn cards only to the drawer,
and a deploy action names its card only to its owner. With Bit Duels nothing is hidden.
"""

from domain.games.herocard import engine as hc
from domain.games.herocard.cards import CARDS

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
        "attack": state["attack"],
        "cards": hc.view(state["cards"], seat) if state.get("cards") is not None else None,
    }


def redact(fact, seat):
    if fact["f"] == "duel" and str(fact["fact"].get("f", "")).startswith("hc."):
        return {**fact, "fact": hc.redact(fact["fact"], seat)}
    return fact


def redact_action(action, actor, seat):
    if isinstance(action, dict) and action.get("type") == "duel" and isinstance(action.get("duel"), dict):
        return {**action, "duel": hc.redact_action(action["duel"], actor, seat)}
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
    if seen.get("cards"):
        lines += _card_lines(seen["cards"])
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


def _card_lines(duel):
    """Each seat's Hero: free/score per Attribute (Gene X), stacks (a face-down Secret Card by
    its points only), hand (or its size), deck and discard; the open Attack Sequence."""
    names = duel["attribute_names"]
    turn = duel["turn"]
    lines = [f"cards: seat {turn['active']}'s {turn['phase']} phase" +
             (f", seat {duel['priority']} to respond" if duel["priority"] not in (None, turn["active"]) else "")]
    for p in duel["players"]:
        stacks = []
        for attribute, stack in p["stacks"].items():
            shown = ", ".join(CARDS[e["card"]]["name"] + (" (secret)" if e["face"] == "down" else "")
                              if e["card"] else f"secret ({e['cost']})" for e in stack)
            twisted = " twisted" if attribute in p["twisted"] else ""
            stacks.append(f"{names[attribute]} {p['free'][attribute]}/{p['scores'][attribute]}{twisted} [{shown}]")
        hand = ", ".join(CARDS[c]["name"] for c in p["hand"]) if isinstance(p["hand"], list) else f"{p['hand']} cards"
        lines.append(f"  seat {p['seat']} {p['hero']}: " + "; ".join(stacks) +
                     f"; hand {hand}; deck {p['deck']}; discard {len(p['discard'])}")
    sequence = duel["sequence"]
    if sequence:
        lines.append(f"  Attack Sequence: seat {sequence['owner']} attack {sequence['attack_value']} vs "
                     f"block {sequence['block_value']} (defending {sequence['block']})")
    return lines
