"""What the search bot needs of Cyberiad (domain/kernel/search.py): a determinization and an
evaluation of a cut-off playout.

Hidden from a seat (view.py): the deck's order and contents and the other players' hands. The
deck list is public (cards.json), so the multiset of those cards is what the seat can work out
for itself: every card not in its hand, in play or in the discard pile. A prompt of the seat's
own shows it the cards it offers (a hand it spies on, the deck it searches): those stay put.
"""

from domain.kernel.canonical import json_copy
from domain.kernel.search import lead_scores, refill_unseen

from .board import play_area
from .rules import FAME_TO_WIN, TROUBLE_TO_LOSE


# The search bot's budget here (domain/kernel/search.py), measured with bench/search_strength.py.
# Against the random bot with random playouts (before Cyberiad had a greedy bot): to the end, 48
# playouts lost 1 of 4; cut at 12 actions and scored by the seat's own Fame and Trouble, 64 or 128
# won 8 of 10 and 256 over 8 candidates 39 of 50 (78 %); scored by its lead over the best rival,
# 256 over 8 won 44 of 50 (88 %, 95 % 76-94). Against the greedy bot (bots.py) those settings
# won 5 and lost 13 of the first 18. Played out by the greedy bot instead, its move kept unless
# clearly beaten, and scored by `progress` (Trouble squared): 96 over 6, cut at 12 actions,
# won 30 of the first 35 against greedy (86 %, 95 % 71-94) and 40 of the first 41 against
# random (98 %, 87-100); each run stopped once 60 % or 80 % of 50 was reached.
SETTINGS = {"playouts": 96, "width": 6, "depth": 12}


def copy_state(state):
    """json_copy(state), made list by list: Cyberiad's state is a dict of numbers, strings and
    flat lists (the zones of cards, the per-seat counters) with three small dicts (the turn, the
    prompt, the last Machine). The search copies it for every determinization and every trial
    move of the greedy bot, thousands of times a decision; the JSON round trip cost about twice
    this. Nothing is shared with `state` that a fact changes in place (tests/games/cyberiad/
    test_search_shortcuts.py holds it to json_copy, sharing no list or dict, on every state of
    whole matches, and to the keys listed here: a key new to the state must be copied here too)."""
    copy = {**state}  # the scalars: seats, first, phase, over (immutable, shared)
    copy["deck"] = state["deck"][:]
    copy["discard"] = state["discard"][:]
    copy["hands"] = [hand[:] for hand in state["hands"]]
    copy["play"] = [area[:] for area in state["play"]]
    for key in _SEAT_LISTS:
        copy[key] = state[key][:]
    turn = state["turn"]
    copy["turn"] = {**turn, "used": turn["used"][:]}
    if state["prompt"] is not None:  # the steps still to run: nested, and seldom there
        copy["prompt"] = json_copy(state["prompt"])
    if state["last_machine"] is not None:
        copy["last_machine"] = {**state["last_machine"]}
    if "ranked" in state:
        copy["ranked"] = state["ranked"][:]
    return copy


# The flat lists of the state besides the zones: one entry a seat, and the order seats went out.
_SEAT_LISTS = ("fame", "trouble", "genius", "constructors", "imprisoned", "out", "out_order")
# Every key the state may hold, as copy_state copies them.
STATE_KEYS = frozenset({"seats", "deck", "discard", "hands", "play", "first", "phase", "turn", "prompt",
                        "last_machine", "over", "ranked", *_SEAT_LISTS})


def determinize(state, seat, rand):
    sample = copy_state(state)
    hidden = [sample["deck"]] + [hand for other, hand in enumerate(sample["hands"]) if other != seat]
    prompt = sample["prompt"]
    shown = prompt["options"] if prompt is not None and prompt["seat"] == seat else []
    refill_unseen(hidden, rand, known=[option for option in shown if isinstance(option, str)])
    return sample


def progress(state, seat) -> float:
    """How far the seat is toward victory: its share of the Fame that wins less the square of its
    share of the Trouble that loses; -1 once out. Squared, because only reaching 20 TP loses:
    the first points cost little and the last ones most. Counted linearly, 1 TP outweighed
    2.5 FP at any level, and a greedy bot so judging refused every play that cost Trouble and
    lost on Fame when the deck ran out (262 of 300 against random play, 284 squared)."""
    if state["out"][seat]:
        return -1.0
    area = play_area(state, seat)  # read once: fame(state, seat) and trouble(state, seat)
    fame, trouble = state["fame"][seat] + area.fame, state["trouble"][seat] + area.trouble
    return fame / FAME_TO_WIN - (trouble / TROUBLE_TO_LOSE) ** 2


def evaluate(state):
    """Each seat's progress against the best rival's: a move that sets a rival back counts as
    much as one that takes the seat forward. A seat out of the game scores 0."""
    scores = lead_scores([progress(state, seat) for seat in range(state["seats"])], 1)
    return [0.0 if state["out"][seat] else score for seat, score in enumerate(scores)]
