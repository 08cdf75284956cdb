"""What HeroCard statistics count: cards played, the first player, the Heroes, turns."""

from domain.kernel.ruleset import GameProfile


def card_played(action):
    if action.get("type") == "play" and action.get("cards"):
        return action["cards"][0]
    return None


def summary(state, outcome):
    duel = state["duel"]
    return {"first_player": duel["first"], "factions": [p["hero"] for p in duel["players"]],
            "rounds": -(-duel["turn"]["number"] // duel["seats"])}


PROFILE = GameProfile(card_played=card_played, summary=summary)
