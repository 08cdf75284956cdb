"""The candidate actions engine.legal_actions tries: every way to play, deploy or reveal the
cards a seat holds, a forced discard's choices; the engine lists those `decide` accepts."""

from itertools import combinations

from .cards import ATTRIBUTES, CARDS, SET_KINDS, side_of
from .plays import must_discard, opponents, target_seats


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


def candidates(duel, seat):
    player = duel["players"][seat]
    hand = sorted(set(player["hand"]))
    actions = []
    for card_id in hand:
        card = CARDS[card_id]
        if card.get("secret"):
            actions += [{"type": "deploy", "card": card_id, "attribute": a} for a in ATTRIBUTES]
            continue
        actions += [{"type": "play", "cards": [card_id], **params} for params in _param_options(duel, seat, card)]
    set_cards = [c for c in player["hand"] if CARDS[c]["kind"] in SET_KINDS and not CARDS[c].get("secret")]
    for side in ("attack", "block"):
        mine = [c for c in set_cards if side_of(CARDS[c]["kind"]) == side]
        for combo in sub_multisets(mine):
            bases = [c for c in combo if CARDS[c]["kind"] == "base_attack"]
            if len(combo) < 2 or len(bases) > 1:  # check_set refuses two Base Attacks in any duel
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
