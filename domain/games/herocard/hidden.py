"""Hidden information in a HeroCard duel (part of the engine's API, engine.view / redact /
redact_action): other hands and every deck as counts, deployed Secret Cards face down with
only the points they expend and the turn deployed, a reshuffle's order, a deployment's card."""

from .cards import ATTRIBUTES
from .plays import attack_values, free_points


def view(duel, seat):
    """The duel as `seat` (None: a spectator) may see it: other hands and every deck as
    counts, deployed Secret Cards face down with only the points they expend."""
    players = []
    for s, player in enumerate(duel["players"]):
        stacks = {a: [_shown_entry(e, s == seat) for e in stack] for a, stack in player["stacks"].items()}
        players.append({
            "seat": s, "hero": player["hero"], "scores": dict(player["scores"]),
            "free": {a: free_points(player, a) for a in ATTRIBUTES},
            "hand": list(player["hand"]) if s == seat else len(player["hand"]),
            "deck": len(player["deck"]), "discard": list(player["discard"]), "stacks": stacks,
            "twisted": [t["attribute"] for t in player["twisted"]], "vp": player["vp"],
            "skip_turns": player["skip_turns"], "preference": player["preference"],
        })
    pending = duel["pending"]
    sequence = duel["sequence"]
    attack, block = attack_values(duel)
    return {
        "attribute_names": dict(duel["config"]["attribute_names"]), "goal": duel["config"]["victory_points"],
        "teams": duel["config"]["teams"], "turn": dict(duel["turn"]), "priority": duel["priority"],
        "passes": duel["passes"], "players": players,
        "sequence": None if sequence is None else {**sequence, "attack_value": attack, "block_value": block},
        "pending": None if pending is None else dict(pending),
        "duplicates": [dict(d) for d in duel["duplicates"]], "assist": dict(duel["assist"]),
        "last_result": duel["last_result"], "over": duel["over"], "winners": list(duel["winners"]),
    }


def _shown_entry(entry, own):
    if entry["face"] == "down" and not own:
        return {"uid": entry["uid"], "card": None, "face": "down", "cost": entry["cost"], "turn": entry["turn"]}
    return dict(entry)


def redact(fact, seat):
    kind = fact["f"]
    if kind in ("hc.draw", "hc.undraw") and fact["seat"] != seat:  # which cards go back is as secret as what was drawn
        return {**fact, "cards": len(fact["cards"])}
    if kind == "hc.reshuffle":
        return {**fact, "order": len(fact["order"])}
    if kind == "hc.place" and fact["face"] == "down" and fact["seat"] != seat:
        return {**fact, "card": None}
    return fact


def redact_action(action, actor, seat):
    """Deploying names the face-down card; only its owner sees which."""
    if action.get("type") == "deploy" and seat != actor:
        return {"type": "deploy", "attribute": action.get("attribute")}
    return action

