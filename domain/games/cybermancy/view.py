"""What each seat may see in Cybermancy; the one place anything is hidden.

Hidden while the game runs: every Summoning Deck's order and contents, other players'
Creature Hands, and the order of the CPU and RAM decks. Power cards on the table, every
creature in play, graveyards, health and tracks are public.
"""

from .rules_state import living, team_of


def view(state, seat):
    players = []
    for s, player in enumerate(state["players"]):
        players.append({
            "seat": s, "team": team_of(state, s) if state["mode"] == "teams" else None,
            "health": player["health"], "out": player["out"],
            "hand": list(player["hand"]) if s == seat else len(player["hand"]),
            "deck": len(player["deck"]),
            "cpu": list(player["cpu"]), "ram": list(player["ram"]),
            "track": dict(player["track"]), "pool": dict(player["pool"]), "summoned": dict(player["summoned"]),
            "frontline": [_creature(state, uid) for uid in player["frontline"]],
            "main": [_creature(state, uid) for uid in player["main"]],
            "graveyard": list(player["graveyard"]),
        })
    prompt = state["prompt"]
    shown_prompt = None
    if prompt:
        shown_prompt = {"seat": prompt["seat"], "kind": prompt["kind"], "source": prompt["source"],
                        "options": list(prompt["options"])}  # every option is a card in play or a Cybermancer
    return {
        "mode": state["mode"], "phase": state["phase"], "round": state["round"],
        "initiative": state["initiative"], "turn": state["turn"], "to_act_queue": list(state["queue"]),
        "passes": state["passes"], "attacked": state["attacked"], "last_attacker": state["last_attacker"],
        "living": living(state), "players": players, "cpu_deck": len(state["cpu_deck"]),
        "ram_deck": len(state["ram_deck"]), "draft_pool": sorted(state["draft_pool"]),
        "prompt": shown_prompt, "over": state["over"], "winners": state["winners"],
        "owed": state.get("owed"),  # a step owed after a player left: {"seat", "step"} or None
    }


def _creature(state, uid):
    return {"uid": uid, **state["creatures"][uid]}


def redact(fact, seat):
    kind = fact["f"]
    if kind in ("draw", "to_deck") and fact["seat"] != seat:
        return {**fact, "card": None}
    if kind in ("deck_order", "power_order"):
        return {**fact, "order": len(fact["order"])}
    if kind == "pending":
        return {"f": "pending", "steps": len(fact["steps"])}
    return fact


def redact_action(action, actor, seat):
    """A mulligan names cards from a hidden hand; only its maker sees which."""
    if seat == actor or action.get("type") != "mulligan":
        return action
    return {"type": "mulligan", "creatures": len(action.get("creatures", [])), "cpu": action.get("cpu", []),
            "ram": action.get("ram", [])}
