"""What Cyberspace statistics count: with card duels, the card each play or hack opens with
(none with Bit Duels), the Heroes as factions; the first player and rounds."""

from domain.kernel.ruleset import GameProfile


def card_played(action):
    played = action.get("duel") if action.get("type") == "duel" else action if action.get("type") == "attack" else None
    if isinstance(played, dict) and isinstance(played.get("cards"), list) and played["cards"] and \
            (action.get("type") == "attack" or played.get("type") == "play"):
        return played["cards"][0]
    return None


def summary(state, outcome):
    cards = state.get("cards")
    factions = [p["hero"] for p in cards["players"]] if cards is not None else []
    return {"first_player": state["first"], "factions": factions, "rounds": -(-state["turn_number"] // state["seats"])}


PROFILE = GameProfile(card_played=card_played, summary=summary)
