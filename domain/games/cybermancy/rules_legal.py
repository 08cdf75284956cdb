"""Cybermancy's listing of legal actions: what a seat may do now, each summon with its
cheapest payment (fewest, then lowest, power cards) and the schema of every payment accepted.
Apart from rules.py (the turn structure, which decides actions) because deciding never needs
it: a summon is judged by summon_refusal, whatever is paid. Read by the Ruleset's wiring
(__init__.py) and the bots; it imports rules.py, never the reverse.
"""

import functools

from .cards import CREATURES, POWER_VALUE
from .rules import to_act
from .rules_state import KINDS, creature_ids, valid_targets


def cheapest_payment(st, seat, card):
    """Fewest, then lowest, face-up power cards that cover what the pool lacks (overpay is lost)."""
    player, creature = st["players"][seat], CREATURES[card]
    return {kind: _fewest_lowest(player[kind], creature[kind] - player["pool"][kind]) for kind in KINDS}


def _fewest_lowest(cards, need):
    """The fewest cards worth at least `need`, of those the lowest total, of those the one that
    keeps the biggest cards (2+2 rather than 3+1); within a value the lowest ids. Cards of one
    value are interchangeable, so only how many of each value to take is searched."""
    if need <= 0:
        return []
    return _fewest_lowest_of(_by_value(cards), need)


def _by_value(cards):
    """Power cards by value, the lowest value first; each value's cards by id."""
    by_value = {}
    for power_card in sorted(cards):
        by_value.setdefault(POWER_VALUE[power_card], []).append(power_card)
    return {value: by_value[value] for value in sorted(by_value)}


def _fewest_lowest_of(by_value, need):
    """_fewest_lowest of the cards in `by_value` (from _by_value), for a `need` above 0."""
    counts = _fewest_lowest_counts(tuple((value, len(cards)) for value, cards in by_value.items()), need)
    if counts is None:  # not enough power: offer everything, by id (and the refusal says why)
        return sorted(card for cards in by_value.values() for card in cards)
    return [card for n, cards in zip(counts, by_value.values()) for card in cards[:n]]


# Remembered: the listing asks it for every card in hand at every step of the search bot's
# playouts. Keyed by how many cards of each value, not by which: few keys, nearly always a hit.
@functools.lru_cache(maxsize=4096)
def _fewest_lowest_counts(available: tuple, need: int) -> tuple | None:
    """How many cards of each value to take, (value, how many there are) ascending by value,
    or None when all of them are not worth `need`."""
    values = [value for value, _ in available]
    best = None
    # More than `need` cards of one value is never the cheapest.
    for counts in _count_vectors([min(count, need) for _, count in available]):
        total = sum(c * v for c, v in zip(counts, values))
        # Fewest cards, then the lowest total, then keep the biggest cards for later.
        key = (sum(counts), total, sorted((v for c, v in zip(counts, values) for _ in range(c)), reverse=True))
        if total >= need and (best is None or key < best[0]):
            best = (key, counts)
    return None if best is None else tuple(best[1])


def _count_vectors(available):
    """Every way to take 0..available[i] cards of each value."""
    vectors = [[]]
    for most in available:
        vectors = [vector + [n] for vector in vectors for n in range(most + 1)]
    return vectors


def _payment_schema(player, creature, kind):
    """Every accepted payment: any distinct face-up cards of the kind worth at least the shortfall."""
    return {"type": "array", "uniqueItems": True, "items": {"enum": list(player[kind])},
            "worth_at_least": max(0, creature[kind] - player["pool"][kind]),
            "worth": {c: POWER_VALUE[c] for c in player[kind]},
            "description": f"any of your face-up {kind.upper()} cards whose values, with the {kind.upper()} "
                           "already paid this round, cover the cost; overpay is lost"}


def on_turn(state, seat):
    """Whether `seat` is to summon or attack (the main phase) or to summon (the last chance):
    where the listing is summons, attacks and end_turn."""
    return (seat in to_act(state) and not state["prompt"] and not state.get("owed")
            and state["phase"] in ("main", "last_summon"))


def summon_options(state, seat):
    """(card, {kind: cheapest payment}) for each creature in hand `seat` may summon now, in the
    listing's order (by card id), for a seat on_turn. The same creatures as summon_refusal
    accepts with the cheapest payment, found without trying it: the payment is taken from the
    seat's own cards, so only the tracks and the power can refuse it, and the cheapest payment
    covers the shortfall exactly when all the seat's cards of the kind would."""
    player = state["players"][seat]
    pool = player["pool"]
    held = {kind: _by_value(player[kind]) for kind in KINDS}
    # The most a creature may cost of each kind: what the track leaves this round (_track_refusal's
    # two tests in one, as what was summoned this round is never negative) and what can be paid.
    limit = {kind: min(player["track"][kind] - player["summoned"][kind],
                       pool[kind] + sum(value * len(cards) for value, cards in held[kind].items()))
             for kind in KINDS}
    options = []
    for card in sorted(set(player["hand"])):
        creature = CREATURES[card]
        if creature["cpu"] > limit["cpu"] or creature["ram"] > limit["ram"]:
            continue
        options.append((card, {kind: _fewest_lowest_of(held[kind], creature[kind] - pool[kind])
                               if creature[kind] > pool[kind] else [] for kind in KINDS}))
    return options


def summon_action(state, seat, card, pay):
    """The listed summon of `card` paid with `pay` (from summon_options)."""
    player, creature = state["players"][seat], CREATURES[card]
    return {"type": "summon", "card": card, "cpu": pay["cpu"], "ram": pay["ram"],
            "params": {kind: _payment_schema(player, creature, kind) for kind in KINDS}}


def attack_actions(state, seat):
    """Every attack `seat` may make now, for a seat on_turn."""
    if state["phase"] != "main" or state["attacked"]:
        return []
    targets = valid_targets(state, seat)
    creatures = state["creatures"]
    return [{"type": "attack", "attacker": uid, "target": t}
            for uid in creature_ids(state, seat) if creatures[uid]["status"] == "active" for t in targets]


def legal_actions(state, seat):
    if seat not in to_act(state):
        return []
    if state["prompt"]:
        return [{"type": "choose", "option": o} for o in state["prompt"]["options"]]
    if state.get("owed"):
        return [{"type": "proceed"}]
    phase, player = state["phase"], state["players"][seat]
    if phase == "draft":
        return [{"type": "draft", "card": card} for card in sorted(set(state["draft_pool"]) - set(player["deck"]))]
    if phase == "mulligan":
        params = {"creatures": "any of your creature cards", "cpu": "any of your CPU cards",
                  "ram": "any of your RAM cards"}
        keep = {"type": "mulligan", "creatures": [], "cpu": [], "ram": [], "params": params}
        return [keep, {**keep, "creatures": list(player["hand"])},
                {**keep, "cpu": [c for c in player["cpu"] if POWER_VALUE[c] == 1],
                 "ram": [c for c in player["ram"] if POWER_VALUE[c] == 1]}]
    if phase == "advance":
        return [{"type": "advance", "track": kind} for kind in KINDS]
    actions = [summon_action(state, seat, card, pay) for card, pay in summon_options(state, seat)]
    actions += attack_actions(state, seat)
    actions.append({"type": "end_turn"})
    return actions
