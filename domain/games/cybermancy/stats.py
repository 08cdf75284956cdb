"""What Cybermancy statistics count: creatures summoned, the first player, factions, rounds."""

from domain.kernel.ruleset import GameProfile

from .cards import CREATURES


def card_played(action):
    return action.get("card") if action.get("type") == "summon" else None


def summary(state, outcome):
    factions = []
    for player in state["players"]:
        cards = player["deck"] + player["hand"] + player["graveyard"] + \
            [state["creatures"][uid]["card"] for uid in player["frontline"] + player["main"]]
        counts = {}
        for card in cards:
            counts[CREATURES[card]["faction"]] = counts.get(CREATURES[card]["faction"], 0) + 1
        factions.append(max(sorted(counts), key=counts.get) if counts else None)
    return {"first_player": state["first"], "factions": factions, "rounds": state["round"]}


PROFILE = GameProfile(card_played=card_played, summary=summary)
