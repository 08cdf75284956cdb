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


def _summary(value):
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
                player[field] = _summary(player[field])
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
    if fact["f"] == "set":
        shown["value"] = _summary(fact["value"]) if len(fact["path"]) == cut else None
    return shown


def redact_action(action, actor, seat):
    """Cards exchanged with a pack, picked from one or left out of a drafted deck, recycled or
    turned into dormant resources, and attack
    declarations (face-down intent cards in FFA), are not shown to others."""
    if seat == actor:
        return action
    kind = action.get("type")
    if kind in ("exchange", "recycle", "pick", "cut"):
        return {"type": kind}
    if kind == "create_resource":
        return {"type": kind}
    if kind == "declare_attack":
        formations = action.get("formations")
        return {"type": kind, "formations": len(formations) if isinstance(formations, list) else 0}
    return action


# --- the board as text -------------------------------------------------------------------

def render(seen):
    step = seen["step"] or {}
    lines = [f"Algomancy · {seen['setup']} · {seen['format']} · turn {seen['turn']} · initiative p{seen['initiative']}"
             + (f" · over: {seen['over']}" if seen["over"] else "")]
    where = f" in {seen['window']['region']} ({seen['window']['stage']})" if seen["window"] else ""
    lines.append(f"Step: {step.get('k', '-')}{where}; then {' > '.join(seen['script'][:6])}")
    choice = seen.get("choice")
    if choice:  # an effect resolving, or combat damage, waits for a player's choice
        what = choice["kind"] + (f" on {choice['key']}" if choice.get("key") else "")
        lines.append(f"Waiting for p{choice['queue'][0]} to choose ({what})"
                     + (f": {', '.join(choice['options'])}" if choice.get("options") else ""))
    for seat, player in enumerate(seen["players"]):
        hand = player["hand"]
        hand_text = ", ".join(name_of(c) for c in hand) if isinstance(hand, list) else f"{hand['count']} cards"
        resources = " ".join(("" if not r["expended"] else "~") + r["kind"] for r in player["resources"])
        dormant = player["dormant"]
        dormant_count = len(dormant) if isinstance(dormant, list) else dormant["count"]
        lines.append(f"p{seat} team {seen['team'][seat]} home {seen['home'][seat]} "
                     f"{'OUT' if player['out'] else str(player['life']) + ' life'} | resources: {resources or '-'} "
                     f"(+{dormant_count} dormant) | hand: {hand_text} | bin {len(player['bin'])}")
    regions = sorted(set(seen["home"]))
    units = seen["shown_units"]
    for region in regions + ([None] if any(u["region"] is None for u in units.values()) else []):
        lines.append(f"── region {region or 'in transit'} " + "─" * 30)
        here = [uid for uid, u in units.items() if u["region"] == region]
        for uid in here:
            lines.append("   " + _unit_text(uid, units[uid]))
        tokens = [f"{t}(p{v['controller']}, X={v['x']})" for t, v in seen["spell_tokens"].items()
                  if v["region"] == region]
        if tokens:
            lines.append("   spell tokens: " + ", ".join(tokens))
        for formation in (seen["battle"] or {}).get("formations", []):
            if formation["region"] == region or (region is None and formation["region"] is None):
                lines += _formation_text(formation, units)
    if seen["stack"]:
        lines.append("Stack (top first):")
        for item in reversed(seen["stack"]):
            what = name_of(item["card"]) if item["card"] else f"{item['kind']} of {item['source']}"
            lines.append(f"   {item['id']}: {what} by p{item['controller']} → {item['targets'] or '-'}")
    return "\n".join(lines)


def _unit_text(uid, unit):
    extra = " ".join(unit["attributes"])
    mods = f" mods[{', '.join(unit['mods'])}]" if unit["mods"] else ""
    damage = f" dmg {unit['damage']}" if unit["damage"] else ""
    return f"{uid} p{unit['controller']} {unit['power']}/{unit['defense']}{damage} {extra}{mods}".rstrip()


def _formation_text(formation, units):
    """Rows drawn as a grid: the defenders' back and front rows facing the attackers' front
    and back rows, one column per attacking column."""
    def cell(column, row):
        if row < len(column) and column[row] in units:
            u = units[column[row]]
            return f"{name_of(column[row])[:14]} {u['power']}/{u['defense']}"
        return "·"
    blocks = formation["blocks"] or []
    width = max(len(formation["columns"]), len(blocks))
    attack = formation["columns"] + [[]] * (width - len(formation["columns"]))
    defend = blocks + [[]] * (width - len(blocks))
    lines = [f"   formation {formation['id']}: p{formation['attacker']} attacks p{formation['defender']}"
             + ("" if formation["blocks"] is not None else " (blocks not declared)")]
    for label, side, row in (("def back ", defend, 1), ("def front", defend, 0), ("att front", attack, 0),
                             ("att back ", attack, 1)):
        lines.append(f"     {label} | " + " | ".join(f"{cell(c, row):<19}" for c in side))
    return lines
