"""What each seat may see. The one place Cyberiad hides anything.

Hidden while the game runs: the order and contents of the deck, other players' hands,
and the options of a choice that belongs to someone else. Seats see their own hand and
every card in play and in the discard pile.
"""

from .board import fame, hand_limit, sallies, shielded, trouble


def view(state, seat):
    in_play = {card for cards in state["play"] for card in cards}
    players = []
    for s in range(state["seats"]):
        players.append({
            "seat": s,
            "constructor": state["constructors"][s],
            "hand": list(state["hands"][s]) if s == seat else len(state["hands"][s]),
            "in_play": list(state["play"][s]),
            "fame": fame(state, s),
            "trouble": trouble(state, s),
            "tokens": {"fame": state["fame"][s], "trouble": state["trouble"][s], "genius": state["genius"][s]},
            "sallies": sallies(state, s),
            "hand_limit": hand_limit(state, s),
            "shielded": shielded(state, s),
            "imprisoned": state["imprisoned"][s],
            "out": state["out"][s],
        })
    return {
        "phase": state["phase"],
        "turn": {"seat": state["turn"]["seat"], "number": state["turn"]["number"],
                 "played": state["turn"]["played"],
                 # Abilities used this turn, of cards still in play (a card taken back to hand is hidden).
                 "used": [u for u in state["turn"]["used"] if u == "power" or u in in_play]},
        "first": state["first"],
        "deck": len(state["deck"]),
        "discard": list(state["discard"]),
        "players": players,
        "prompt": _prompt(state["prompt"], seat),
        "over": state["over"],
    }


def _prompt(prompt, seat):
    if prompt is None:
        return None
    shown = {"seat": prompt["seat"], "kind": prompt["kind"], "actor": prompt["actor"]}
    if prompt["seat"] == seat:
        shown["options"] = list(prompt["options"])
    return shown


def _public(zone: str) -> bool:
    return zone in ("discard",) or zone.startswith("play:")


def redact(fact, seat):
    """One fact of the log as `seat` (None: a spectator) may see it."""
    kind = fact["f"]
    if kind == "move":
        source, target = fact["from"], fact["to"]
        if _public(source) or _public(target) or seat is not None and f"hand:{seat}" in (source, target):
            return fact
        return {**fact, "card": None}
    if kind == "peek":
        return fact if fact["seat"] == seat else {**fact, "cards": len(fact["cards"])}
    if kind == "shuffle":
        return {"f": "shuffle", "order": len(fact["order"])}
    if kind == "prompt" and fact["prompt"] is not None:
        return {"f": "prompt", "prompt": _prompt(fact["prompt"], seat)}
    return fact


def redact_action(action, actor, seat):
    """Plays, uses and picks are public; a choice may name a hidden card, so only its maker sees it."""
    if seat == actor or action.get("type") != "choose":
        return action
    return {"type": "choose"}
