"""What Cyberiad statistics count: cards played, the first player, Constructors, rounds."""

from domain.kernel.ruleset import GameProfile


def card_played(action):
    return action.get("card") if action.get("type") == "play" else None


def summary(state, outcome):
    seats = state["seats"]
    return {
        "first_player": state["first"],
        "factions": list(state["constructors"]),
        "rounds": -(-state["turn"]["number"] // seats),  # turns taken, in rounds of every seat
    }


PROFILE = GameProfile(card_played=card_played, summary=summary)
