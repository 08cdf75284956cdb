"""What each seat may see in Algomancy; the one place anything is hidden.

Hidden while the game runs: every deck's order and contents (the shared deck, a team's,
each player's own, the cube), other players' hands, packs, dormant (face-down) resources,
decklists and FFA intent cards until they flip. Units, resources in play, bins, the stack
and formations are public. Facts are differences at a path, so one rule (`hidden_prefix`)
hides the same places in the view and in every fact."""

from domain.kernel.canonical import json_copy

from .cards import name_of
from .state import attributes, stats

HIDDEN_FIELDS = ("hand", "pack", "dormant", "intent", "deck_list")


def hidden_prefix(path, seat):
    """How long the hidden part of `path` is for `seat` (0: nothing hidden)."""
    if len(path) >= 2 and path[0] == "decks":
        return 2
    if len(path) >= 2 and path[0] == "cube" and path[1] == "pool":
        return 2
    if len(path) >= 3 and path[0] == "players" and path[2] in HIDDEN_FIELDS and path[1] != seat:
        return 3
    return 0


def _summary(value, field=None):
    """What others see of a hidden zone: a deck's, hand's, pack's or the face-down resources'
    size (all public); of an intent card only that it lies there (its formations' number would
    tell whether and whom it attacks); of a deck list only that there is one (its length, the
    number of different cards in it once, told how many were singles)."""
    if field in ("intent", "deck_list"):
        return {"hidden": bool(value) if field == "deck_list" else value is not None}
    if isinstance(value, list):
        return {"count": len(value)}
    return {"hidden": value is not None}


def view(state, seat):
    seen = json_copy(state)
    seen["decks"] = {key: _summary(deck) for key, deck in state["decks"].items()}
    if seen["cube"]:
        seen["cube"]["pool"] = _summary(state["cube"]["pool"])
    for other, player in enumerate(seen["players"]):
        if other != seat:
            for field in HIDDEN_FIELDS:
                player[field] = _summary(player[field], field)
    seen["script"] = [step["k"] for step in state["script"]]
    seen["shown_units"] = {uid: _unit(state, uid) for uid in sorted(state["units"])}
    seen["seat"] = seat
    return seen


def _unit(state, uid):
    unit = state["units"][uid]
    power, defense = stats(state, uid)
    return {"name": name_of(unit["card"]), "controller": unit["controller"], "region": unit["region"],
            "power": power, "defense": defense, "damage": unit["damage"], "attributes": attributes(state, uid),
            "mods": [name_of(m["card"]) for m in unit["mods"]], "token": unit["token"]}


def redact(fact, seat):
    cut = hidden_prefix(fact["path"], seat)
    if not cut:
        return fact
    shown = {"f": fact["f"], "path": fact["path"][:cut]}
    if fact["f"] == "set":  # rules.diff sets a hidden zone as a whole, so every fact is the summary
        shown["value"] = _summary(fact["value"], fact["path"][cut - 1]) if len(fact["path"]) == cut else None
    return shown


def redact_action(action, actor, seat):
    """Cards exchanged with a pack, picked from one or left out of a drafted deck, recycled or
    turned into dormant resources, and attack declarations (face-down intent cards in FFA; the
    other setups place the attack at once, in facts everyone reads) are not shown to others:
    not even how many formations a declaration holds."""
    if seat == actor:
        return action
    kind = action.get("type")
    if kind in ("exchange", "recycle", "pick", "cut", "create_resource", "declare_attack"):
        return {"type": kind}
    return action
