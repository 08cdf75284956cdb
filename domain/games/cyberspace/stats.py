"""What Cyberspace statistics count: no cards are played with Bit Duels; the first player
and rounds. No factions: every seat plays the same pieces."""

from domain.kernel.ruleset import GameProfile


def card_played(action):
    return None


def summary(state, outcome):
    return {"first_player": state["first"], "factions": [], "rounds": -(-state["turn_number"] // state["seats"])}


PROFILE = GameProfile(card_played=card_played, summary=summary)
