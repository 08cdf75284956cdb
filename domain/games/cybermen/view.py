"""What each seat may see (the map drawn for terminals is render.py).

Hidden while the game runs: the item cards in other players' hands and what the draw pile
holds (only its size is shown). The map, every figure, facing, token, status and Victory
Point is public; a card used or discarded is public from then on."""

from .data import DATA


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
