"""What Algomancy statistics count: cards played, the first initiative player, each seat's
element (its deck's most common element) and turns."""

from domain.kernel.ruleset import GameProfile

from .cards import CARDS, name_of


def card_played(action):
    if action.get("type") == "play" and name_of(action.get("card", "")) in CARDS:
        return name_of(action["card"])
    return None


def summary(state, outcome):
    elements = []
    for player in state["players"]:
        counts = {}
        for name in player["deck_list"]:
            for element in [CARDS[name]["element"]] if CARDS[name]["element"] else CARDS[name]["hybrid"]:
                counts[element] = counts.get(element, 0) + 1
        elements.append(max(sorted(counts), key=counts.get) if counts else None)
    return {"first_player": state["first"], "factions": elements, "rounds": state["turn"]}


PROFILE = GameProfile(card_played=card_played, summary=summary)
