"""What each seat may see, and the map drawn as text.

Hidden while the game runs: the item cards in other players' hands and what the draw pile
holds (only its size is shown). The map, every figure, facing, token, status and Victory
Point is public; a card used or discarded is public from then on."""

from .board import terrain
from .data import COLS, DATA, MARKS, ROWS, character


def view(state, seat):
    groups = []
    for s, group in enumerate(state["groups"]):
        shown = {k: (list(v) if isinstance(v, list) else v) for k, v in group.items() if k != "hand"}
        shown["hand"] = sorted(group["hand"]) if s == seat else len(group["hand"])
        shown["seat"] = s
        groups.append(shown)
    cybermen = {cid: {**c, "pos": list(c["pos"]), "carrying": list(c["carrying"])}
                for cid, c in state["cybermen"].items()}
    return {
        "round": state["round"], "turn": state["turn"], "phase": state["phase"], "roll": state["roll"],
        "count": state["count"], "used": state["used"], "moved": list(state["moved"]),
        "queue": [dict(slot) for slot in state["queue"]],
        "active": dict(state["active"]) if state["active"] else None,
        "prompt": dict(state["prompt"]) if state["prompt"] else None,
        "mark": state["tech"], "supply": dict(state["supply"]), "groups": groups, "cybermen": cybermen,
        "units": {uid: list(p) for uid, p in state["units"].items()}, "deck": len(state["deck"]),
        "discard": list(state["discard"]), "leader": state["leader"], "lieutenants": list(state["lieutenants"]),
        "over": state["over"], "winners": state["winners"], "map": list(DATA["map"]),
    }


def redact(fact, seat):
    if fact["f"] == "draw" and fact["seat"] != seat:
        return {**fact, "card": None}
    if fact["f"] == "give" and seat not in (fact["from"], fact["to"]):
        return {**fact, "card": None}
    return fact


def redact_action(action, actor, seat):
    """No action names a hidden card: a weakness card played is public, trades name only the seat."""
    return action


ARROWS = {"N": "^", "E": ">", "S": "v", "W": "<"}
ROLE_MARK = {"normal": "", "leader": "L", "lieutenant": "l", "partial": "p"}


def render(seen):
    """The map: '#' building, '%' hedge, 'E' exit, 'U' Cyberconversion Unit, digits the human
    groups by seat, arrows the Cybermen pointing where they face; then every figure listed."""
    cells = [[{"B": "#", "H": "%"}.get(terrain((r, c)), terrain((r, c))) for c in range(COLS)] for r in range(ROWS)]
    for pos in seen["units"].values():
        cells[pos[0]][pos[1]] = "U"
    for s, group in enumerate(seen["groups"]):
        if group["members"]:
            cells[group["pos"][0]][group["pos"][1]] = str(s)
    for cyb in seen["cybermen"].values():
        r, c = cyb["pos"]
        cells[r][c] = ARROWS[cyb["facing"]] if cells[r][c] != "U" else "U"
    lines = ["    " + " ".join(f"{c % 10}" for c in range(COLS))]
    lines += [f"{r:>3} " + " ".join(row) for r, row in enumerate(cells)]
    lines.append(f"Round {seen['round']}  turn of seat {seen['turn']}  phase {seen['phase']}  "
                 f"Cybermen {MARKS[seen['mark']]['name']}  leader {seen['leader']}  "
                 f"lieutenants {seen['lieutenants']}  deck {seen['deck']}")
    for s, g in enumerate(seen["groups"]):
        names = ", ".join(character(c)["name"] for c in g["members"]) or "-"
        flags = [f for f in ("stunned", "mind") if g[f]] + ([f"injured {g['injured']}"] if g["injured"] else [])
        hand = g["hand"] if isinstance(g["hand"], int) else ", ".join(g["hand"]) or "-"
        lines.append(f" {s} {g['name']} [{g['status']}] at {g['pos']}: {names}; escape {g['escape']} "
                     f"fatigue {g['fatigue']} vp {g['vp']} hand {hand} {' '.join(flags)}")
    for cid, cyb in sorted(seen["cybermen"].items(), key=lambda kv: int(kv[0][1:])):
        carrying = ", ".join(character(c)["name"] + f" of {character(c)['seat']}" for c in cyb["carrying"])
        role = f" {cyb['role']} of seat {cyb['seat']}" if cyb["role"] != "normal" else ""
        lines.append(f" {cid} {MARKS[cyb['mark']]['name']} at {cyb['pos']} facing {cyb['facing']}{role}"
                     + (f" carrying {carrying}" if carrying else ""))
    if seen["prompt"]:
        lines.append(f" waiting: {seen['prompt']}")
    if seen["over"]:
        lines.append(f" over: {seen['over']}, winners {seen['winners']}")
    return "\n".join(lines)
