"""What each seat sees in Cyberspace (the board drawn for terminals is render.py).

The board is public: tiles on the board, the face-up tiles, every Avatar, Link and
Firewall are on the table, and the face-down stack is shown only as a count (its draws are
made when they happen; see rules.py). With card duels the HeroCard duel hides what the
table hides, through the engine's own view and redaction: other players' hands and every
Action Deck's order are counts, a deployed Secret Card shows only the Attribute Points it
expends (face down, `card` null) to anyone but its owner, drawn cards only to the drawer,
and a deploy action names its card only to its owner. With Bit Duels nothing is hidden.
"""

from domain.games.herocard import engine as hc

from .board import coords, is_pendant, link_at, node_of, occupants, open_connections, sides_of
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
        "acted": state["acted"], "closing": state["closing"], "hijack": state["hijack"], "duel": state["duel"], "last_duel": state["last_duel"],
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
