"""What Cybermen statistics count: item cards played, the first player, each seat's group, rounds."""

from domain.kernel.ruleset import GameProfile


def card_played(action):
    return action["type"] if action.get("type") == "weakness" else None


def summary(state, outcome):
    return {"first_player": 0, "factions": [g["name"] for g in state["groups"]], "rounds": state["round"]}


PROFILE = GameProfile(card_played=card_played, summary=summary)
