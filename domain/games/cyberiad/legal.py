"""Cyberiad's listing of legal actions: what a seat may do now, each play with one payment (the
fewest cards that cover a set cost; one listing per X for an X cost) and, in `params`, every
payment accepted.

Apart from rules.py (set-up, the turn sequence, the actions and their checks) because deciding
never needs it: an action is judged by the refusals in rules.py, whatever was listed. Read by the
Ruleset's wiring (__init__.py) and the bots; it imports rules.py, never the reverse.
"""

from .board import cost_of, worth
from .cards import CONSTRUCTORS, card_for
from .rules import CONVERSIONS, GENIUS_PER_CONVERSION, card_refusal, power_refusal, to_act, use_refusal


# ---------------------------------------------------------------------------------------
# legal_actions: every action listed can be posted back as it is.
# ---------------------------------------------------------------------------------------

def legal_actions(state, seat):
    if seat not in to_act(state):
        return []
    if state["prompt"]:
        prompt = state["prompt"]
        return [{"type": "choose", "option": option} for option in prompt["options"]]
    if state["phase"] == "pick":
        return [{"type": "pick", "constructor": name} for name in CONSTRUCTORS]
    actions = []
    hand = state["hands"][seat]
    for instance in hand:
        actions += _play_actions(state, seat, instance)
    for instance in state["play"][seat]:
        if card_for(instance).get("ability") and not use_refusal(state, seat, instance):
            actions.append({"type": "use", "card": instance})
    if state["genius"][seat] >= GENIUS_PER_CONVERSION:
        actions += [{"type": "convert", "into": into} for into in CONVERSIONS if into != "draw" or state["deck"]]
    if not power_refusal(state, seat):
        actions.append({"type": "power"})
    actions.append({"type": "end_turn"})
    return actions


def _play_actions(state, seat, instance):
    if card_refusal(state, seat, instance):  # no payment lists it: no payment to work out
        return []
    card = card_for(instance)
    others = [i for i in state["hands"][seat] if i != instance]
    cost = cost_of(state, seat, card)
    # The listing pays one way; `params` describes every other payment that is accepted.
    pay_schema = {"type": "array", "uniqueItems": True, "items": {"enum": others}}
    if cost is None:  # X costs: one listing per X, paying with the first X other cards
        payments = [others[:x] for x in range(1, len(others) + 1)]
        pay_schema.update(minItems=1, description="X = the number of cards discarded")
    else:
        worths = {i: worth(i, card["type"]) for i in others}  # each read once
        payments = [_cheapest_payment(others, worths, cost)]
        pay_schema.update(worth_at_least=cost, no_spare=True, worth={i: worths[i] for i in others if worths[i] > 1})
    # A payment made here is never refused (`payment_refusal`): other cards from the hand, at
    # least one for an X cost, worth the cost otherwise with no card to spare (the cheapest
    # payment adds the cards by falling worth until the cost is met, so each is needed; asking
    # again was a twentieth of a search). Only distinctness is checked again: it holds while no
    # hand holds an instance twice.
    return [{"type": "play", "card": instance, "pay": pay, "params": {"pay": pay_schema}}
            for pay in payments if pay is not None and len(set(pay)) == len(pay)]


def _cheapest_payment(others, worths, cost):
    """Fewest cards that cover the cost: high-worth cards first, then hand order (`worths`:
    each other card's worth toward this card)."""
    ranked = sorted(others, key=lambda i: -worths[i])
    pay, total = [], 0
    for instance in ranked:
        if total >= cost:
            break
        pay.append(instance)
        total += worths[instance]
    return pay if total >= cost else None
