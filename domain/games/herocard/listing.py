"""The candidate actions engine.legal_actions tries: every way to play, deploy or reveal the
cards a seat holds, a forced discard's choices; the engine lists those `decide` accepts."""

from itertools import combinations

from domain.kernel.errors import IllegalAction

from .cards import ATTRIBUTES, CARDS, SET_KINDS, side_of
from .plays import (check_not_twisted, check_sequence_needs, check_timing, free_points, losing_side, must_discard,
                    opponents, secret_cost, side_commitment, target_seats)


def sub_multisets(cards, size=None):
    cards = sorted(cards)
    sizes = range(len(cards) + 1) if size is None else [size]
    return sorted({combo for n in sizes for combo in combinations(cards, n)}, key=lambda c: (len(c), c))


def choices(duel, seat):
    matching, count = must_discard(duel, seat)
    return [{"type": "choose", "cards": list(c)} for c in sub_multisets(matching, count)]


def _param_options(duel, seat, card):
    """Every way to fill a card's choices: target, selected Attribute, replayed card."""
    effect = card.get("effect", {})
    targets = [None]
    if card["kind"] == "base_attack" or "discard" in effect or "duplicate" in effect:
        targets = target_seats(duel, seat)
    if "twist" in effect:
        targets = opponents(duel, seat)
    attributes = list(ATTRIBUTES) if {"twist", "variable", "clear_own"} & set(effect) else [None]
    if "replay" in effect:
        # Recursion takes the replayed card's own choices too ("as if playing a free copy"):
        # a Cipher Lance or a Logic Bomb replayed with three or four players needs its target.
        return [{**params, "uid": entry["uid"]}
                for a in ATTRIBUTES for entry in duel["players"][seat]["stacks"][a]
                if entry["face"] == "up" and not entry.get("dud")
                and "replay" not in CARDS[entry["card"]].get("effect", {})
                for params in _param_options(duel, seat, CARDS[entry["card"]])]
    return [{k: v for k, v in (("target", target), ("attribute", attribute)) if v is not None}
            for target in targets for attribute in attributes]


# card id -> (Attribute, cost, kind, rank in check_play's order of a set's cards)
_SHAPE = {c: (card["attribute"], card["cost"], card["kind"],
              SET_KINDS.index(card["kind"]) if card["kind"] in SET_KINDS else 0) for c, card in CARDS.items()}


class _Refusals:
    """Which plays from the hand plays.check_play refuses whatever they name (a target, an
    Attribute): those that cost more than the free points, and those whose first card
    check_card refuses for its Action Type, Attribute, the sequence it needs or its side. The
    listing leaves them out untried: about half the candidates, each a pre-check's work
    (tests/games/herocard/test_listing.py holds every one left out to a refusal)."""

    def __init__(self, duel, seat):
        self.duel, self.seat = duel, seat
        player = duel["players"][seat]
        self.free = {a: free_points(player, a) for a in ATTRIBUTES}
        self.losing = losing_side(duel) if duel["sequence"] is not None else None
        self.known = {}

    def refused(self, cards):
        costs = dict.fromkeys(ATTRIBUTES, 0)
        first, order, base_attack, base_block = None, None, False, False
        for card in cards:
            attribute, cost, kind, rank = _SHAPE[card]
            costs[attribute] += cost
            if order is None or rank < order:  # check_play's first card: the first of the lowest rank
                first, order = card, rank
            base_attack = base_attack or kind == "base_attack"
            base_block = base_block or kind == "base_block"
        free = self.free
        if any(cost > free[a] for a, cost in costs.items()):
            return True
        key = (first, base_attack, base_block)  # check_sequence_needs reads the set only for a base of each side
        known = self.known.get(key)
        if known is None:
            known = self.known[key] = self._card_refused(first, cards)
        return known

    def deploy_refused(self, card, attribute):
        """plays.check_deploy's refusals of a Secret Card in hand: off one's own turn, too few points."""
        return self.seat != self.duel["turn"]["active"] or secret_cost(self.duel, card) > self.free[attribute]

    def _card_refused(self, card_id, cards):
        duel, seat, card = self.duel, self.seat, CARDS[card_id]
        try:
            check_timing(duel, seat, card)
            check_not_twisted(duel, seat, card["attribute"])
            check_sequence_needs(duel, seat, card, cards)
            if card["kind"] != "base_attack":  # a Base Attack's target is the action's
                side_commitment(duel, seat, card, self.losing)
        except IllegalAction:
            return True
        return False


def candidates(duel, seat, everything=False):
    """The plays, deployments and reveals to try; `everything` (tests) keeps the plays that
    _Refusals leaves out."""
    player = duel["players"][seat]
    hand = sorted(set(player["hand"]))
    actions = []
    refusals = _Refusals(duel, seat)
    for card_id in hand:
        card = CARDS[card_id]
        if card.get("secret"):
            actions += [{"type": "deploy", "card": card_id, "attribute": a} for a in ATTRIBUTES
                        if everything or not refusals.deploy_refused(card, a)]
            continue
        if not everything and refusals.refused([card_id]):
            continue
        actions += [{"type": "play", "cards": [card_id], **params} for params in _param_options(duel, seat, card)]
    set_cards = [c for c in player["hand"] if CARDS[c]["kind"] in SET_KINDS and not CARDS[c].get("secret")]
    for side in ("attack", "block"):
        mine = [c for c in set_cards if side_of(CARDS[c]["kind"]) == side]
        for combo in sub_multisets(mine):
            bases = [c for c in combo if CARDS[c]["kind"] == "base_attack"]
            if len(combo) < 2 or len(bases) > 1:  # check_set refuses two Base Attacks in any duel
                continue
            if not everything and refusals.refused(combo):
                continue
            base = bases[0] if bases else None
            for params in _param_options(duel, seat, CARDS[base]) if base else [{}]:
                actions.append({"type": "play", "cards": list(combo), **params})
    for attribute in ATTRIBUTES:
        for entry in player["stacks"][attribute]:
            if entry["face"] == "down" and entry["turn"] < duel["turn"]["number"]:
                for params in _param_options(duel, seat, CARDS[entry["card"]]):
                    actions.append({"type": "reveal", "uid": entry["uid"], **params})
    return actions
