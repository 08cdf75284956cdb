"""What the search bot needs of HeroCard (domain/kernel/search.py), for the standalone game and
for any host that holds a duel (Cyberspace): a determinization and an evaluation.

Hidden from a seat (engine.view): every Action Deck's order (its own too), the other Heroes'
hands, and the cards of their face-down Secret Cards (their cost and turn are public). A Hero's
cards come from its own published deck list, so each other Hero's unseen cards are dealt back
among that Hero's hand, deck and face-down Secrets; the seat's own deck is shuffled."""

from domain.kernel.canonical import json_copy
from domain.kernel.search import refill_unseen

from .plays import side_seats


def determinize_duel(duel, seat, rand):
    """The duel sub-state re-dealt in place (the caller passes a copy)."""
    for other, player in enumerate(duel["players"]):
        if other == seat:
            refill_unseen([player["deck"]], rand)
            continue
        secrets = [entry for stack in player["stacks"].values() for entry in stack if entry["face"] == "down"]
        secret_cards = [entry["card"] for entry in secrets]
        refill_unseen([player["hand"], player["deck"], secret_cards], rand)
        for entry, card in zip(secrets, secret_cards):
            entry["card"] = card
    return duel


def evaluate_duel(duel):
    """Each side's Victory Points against the best other side's, as a share of the goal."""
    goal = duel["config"]["victory_points"]
    side = [sum(duel["players"][s]["vp"] for s in side_seats(duel, seat)) for seat in range(len(duel["players"]))]
    return [min(1.0, max(0.0, 0.5 + 0.5 * (mine - max((v for s, v in enumerate(side) if s not in side_seats(duel, seat)),
                                                       default=0)) / goal))
            for seat, mine in enumerate(side)]


# The search bot's budget here (domain/kernel/search.py), measured with bench/search_strength.py
# against the greedy bot: duels are short, so playouts run to the end; 32 over 4 candidates won
# 6 of 10, 48 over 6 won 27 of 50 while any challenger's lead replaced the greedy move, and 36 of
# 50 (72 %, 95 % 58-83) once only a lead a standard error clear does (search.py, DEPART_Z).
SETTINGS = {"playouts": 48, "width": 6}


def determinize(state, seat, rand):
    sample = json_copy(state)
    determinize_duel(sample["duel"], seat, rand)
    return sample


def evaluate(state):
    return evaluate_duel(state["duel"])
