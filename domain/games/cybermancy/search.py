"""What the search bot needs of Cybermancy (domain/kernel/search.py): a determinization and an
evaluation of a cut-off playout.

Hidden from a seat (view.py): every Summoning Deck's order and contents (its own too), the other
players' Creature Hands, and the order of the CPU and RAM decks. A player's deck and hand are
drawn from that player's own list, so each other player's unseen cards are dealt back between
that player's hand and deck only; the seat's own deck and the power decks are shuffled.
"""

from domain.kernel.canonical import json_copy
from domain.kernel.search import refill_unseen

from .rules_state import START_HEALTH


# The search bot's budget here (domain/kernel/search.py), measured with bench/search_strength.py
# against the greedy bot: cut-off playouts scored by health lost (2 of 6 at depth 40); to the
# end, 48 playouts won 6 of 10 and 96 won 42 of 50, and 45 of 50 (90 %, 95 % 79-96) once only a
# challenger a standard error clear replaces the greedy move (search.py, DEPART_Z); against the
# random bot, 40 of the first 40 (stopped there: 80 % of 50 reached).
SETTINGS = {"playouts": 96, "width": 6}


def determinize(state, seat, rand):
    sample = json_copy(state)
    for other, player in enumerate(sample["players"]):
        refill_unseen([player["deck"]] if other == seat else [player["hand"], player["deck"]], rand)
    refill_unseen([sample["cpu_deck"]], rand)
    refill_unseen([sample["ram_deck"]], rand)
    return sample


def evaluate(state):
    """Each Cybermancer's health against the best of the others', from 0 to 1; out is 0."""
    health = [0 if p["out"] else max(p["health"], 0) for p in state["players"]]
    scores = []
    for seat, mine in enumerate(health):
        rival = max((h for s, h in enumerate(health) if s != seat), default=0)
        scores.append(0.0 if state["players"][seat]["out"] else 0.5 + 0.5 * (mine - rival) / START_HEALTH)
    return scores
