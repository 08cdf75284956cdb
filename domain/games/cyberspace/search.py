"""What the search bot needs of Cyberspace (domain/kernel/search.py): a determinization and an
evaluation of a cut-off playout.

The board holds no secret (rules.py: the face-down stack is a sorted list, each tile drawn at
random when it is drawn, and the tile list is public); a HeroCard card duel hides hands, deck
order and face-down Secret Cards, which herocard/search.py deals."""

from domain.kernel.canonical import json_copy
from domain.kernel.search import lead_scores
from domain.games.herocard.search import determinize_duel

from .scoring import network_points


# The search bot's budget here (domain/kernel/search.py), measured with bench/search_strength.py
# against the greedy bot: the greedy bot looks ahead 60 moves an action, so playouts are cut at
# 24 actions and scored by Network Points; they won 22, tied 23 and lost 5 of 50 while the
# evaluation scored a tie like a lead (greedy play ties itself in 7 of 20). Scored as a lead
# over the best rival (lead_scores) and keeping the greedy move unless a challenger is a
# standard error clear (DEPART_Z): won 36, tied 11, lost 3 of 50 (72 %, 95 % 58-83); against
# the random bot, 40 of the first 40 (stopped there: 80 % of 50 reached).
SETTINGS = {"playouts": 16, "width": 4, "depth": 24}


def determinize(state, seat, rand):
    sample = json_copy(state)
    if sample.get("cards") is not None:
        determinize_duel(sample["cards"], seat, rand)
    return sample


def evaluate(state):
    """Each seat's lead in Network Points now over its best rival (partners are one side in
    Teams), as a share of the most anyone holds."""
    if state["puzzle"]:
        return [0.5]
    points = [network_points(state, seat) for seat in range(len(state["players"]))]
    return lead_scores(points, max(points), lambda seat, other: seat == other or (
        state["teams"] and (seat - other) % 2 == 0))
