"""What the board shows, counted from the state: points, Sallies, hand limits, who may be
targeted, what a card costs and whether its requirements hold. Read by the turn structure
(rules.py), the listing of legal actions (legal.py), the card effects (effects.py) and the
views (view.py); changes nothing.
"""

from typing import NamedTuple

from domain.kernel.memo import Memo

from .cards import card_for

# TERMINAL PHASE: "Max hand size is 10 cards."
MAX_HAND = 10


def passive(state, seat, name, default=0):
    """Sum (or any) of one passive ability over the cards a seat has in play."""
    total = default
    for instance in state["play"][seat]:
        value = card_for(instance).get("passive", {}).get(name)
        if value is True:
            return True
        if value:
            total += value
    return total


def is_sally(card) -> bool:
    return card["type"] == "sally" or card.get("passive", {}).get("counts_as_sally", False)


def puts_into_play(card) -> bool:
    """An Action that puts a card into play (Magnificent Electroknight): README 7, 25."""
    return any(step["op"] == "search_deck" and step["to"] == "play" for step in card.get("on_play", []))


class PlayArea(NamedTuple):
    """What the cards in one play area count for: their Fame and Trouble points (tokens not
    included), Sallies (README: Sallies counted for the game's end) and Machines."""
    fame: int
    trouble: int
    sallies: int
    sallies_for_game_end: int
    machines: int


def card_points(card, kind, sallies_in_play, machines_in_play) -> int:
    """A card's printed points, or its X counted from the play area it is in."""
    value = card[kind]
    if value != "X":
        return value
    rule = card.get(f"{kind}_x")
    if rule == "sallies":
        return sallies_in_play
    if rule == "machines_half":
        return machines_in_play // 2
    return 0


def count_play_area(cards_in_play) -> PlayArea:
    """PlayArea of the instances `cards_in_play`, counted card by card."""
    cards = [card_for(i) for i in cards_in_play]
    in_sallies = [card for card in cards if is_sally(card)]
    sally_count = len(in_sallies)
    machine_count = sum(1 for card in cards if card["type"] == "machine")
    return PlayArea(
        fame=sum(card_points(card, "fame", sally_count, machine_count) for card in cards),
        trouble=sum(card_points(card, "trouble", sally_count, machine_count) for card in cards),
        sallies=sally_count,
        sallies_for_game_end=sum(card.get("passive", {}).get("sallies_for_game_end", 1) for card in in_sallies),
        machines=machine_count)


# A play area's counts depend on nothing but its cards (in any order), and the thresholds are
# checked after every step of every decision: counted afresh each time, they were a third of
# a search's time (bench/search_speed.py, issue 32). Few distinct play areas occur, so the
# counts are kept by the area's cards as they lie; the dict is emptied when it grows large.
_PLAY_AREAS: Memo = Memo(100_000)


def play_area(state, seat) -> PlayArea:
    key = tuple(state["play"][seat])
    area = _PLAY_AREAS.get(key)
    if area is None:
        area = _PLAY_AREAS.keep(key, count_play_area(key))
    return area


def sallies(state, seat) -> int:
    return play_area(state, seat).sallies


def sallies_for_game_end(state, seat) -> int:
    return play_area(state, seat).sallies_for_game_end


def machines(state, seat) -> int:
    return play_area(state, seat).machines


def fame(state, seat) -> int:
    """Fame tokens plus the Fame of every card the seat has in play."""
    return state["fame"][seat] + play_area(state, seat).fame


def trouble(state, seat) -> int:
    return state["trouble"][seat] + play_area(state, seat).trouble


def hand_limit(state, seat) -> int:
    return MAX_HAND + passive(state, seat, "hand_size")


def shielded(state, seat) -> bool:
    return passive(state, seat, "shielded", False) is True


def living(state) -> list[int]:
    return [s for s in range(state["seats"]) if not state["out"][s]]


def opponents(state, seat) -> list[int]:
    return [s for s in living(state) if s != seat]


def card_losing_targets(state, seat) -> list[int]:
    """Opponents that an effect may make lose cards (Probability Proof Shields protect)."""
    return [s for s in opponents(state, seat) if not shielded(state, s)]


def owner_in_play(state, instance) -> int | None:
    for seat in range(state["seats"]):
        if instance in state["play"][seat]:
            return seat
    return None


def machines_in_play(state, seat, scope) -> list[str]:
    """Machines `seat` may pick: its own ('mine'), or any not protected by Shields ('any')."""
    found = []
    for owner in range(state["seats"]):
        if scope == "mine" and owner != seat:
            continue
        if owner != seat and shielded(state, owner):
            continue
        found += [i for i in state["play"][owner] if card_for(i)["type"] == "machine"]
    return sorted(found)


def machine_just_played(state, seat) -> str | None:
    """The Machine another player put into play during the turn just before this one."""
    last = state["last_machine"]
    if not last or last["seat"] == seat or last["turn"] != state["turn"]["number"] - 1:
        return None
    if last["card"] not in state["play"][last["seat"]] or shielded(state, last["seat"]):
        return None
    return last["card"]


def cost_of(state, seat, card) -> int | None:
    """What it costs `seat` to play `card` now; None for X costs (chosen by paying)."""
    if card["cost"] == "X":
        return None
    discount = 0
    for instance in state["play"][seat]:
        discount += card_for(instance).get("passive", {}).get("discount", {}).get(card["type"], 0)
    return max(0, card["cost"] - discount)


def worth(instance, paying_for_type) -> int:
    """A discarded card pays 1, or more when its note says so for this kind of card."""
    rule = card_for(instance).get("worth")
    if rule and paying_for_type in rule["for"]:
        return rule["cards"]
    return 1


def requirement_unmet(state, seat, requirement) -> str | None:
    """None when the requirement holds, else the reason it does not."""
    kind, *args = requirement
    if kind == "hand":
        return None if len(state["hands"][seat]) >= args[0] else "you have no card in hand to discard"
    if kind == "deck":
        return None if len(state["deck"]) >= args[0] else "the deck is empty"
    if kind == "deck_or_hand":
        return None if state["deck"] or state["hands"][seat] else "the deck and your hand are empty"
    if kind == "genius":
        return None if state["genius"][seat] >= args[0] else f"it needs {args[0]} GP; you have {state['genius'][seat]}"
    if kind == "fame_tokens":
        return None if state["fame"][seat] >= args[0] else "you have no Fame token to lose"
    if kind == "fame_total":
        return None if fame(state, seat) >= args[0] else f"it needs {args[0]}+ FP; you have {fame(state, seat)}"
    if kind == "sallies":
        return None if sallies(state, seat) >= args[0] else f"it needs {args[0]}+ Sallies in play"
    if kind == "machine":
        return None if machines_in_play(state, seat, args[0]) else "there is no Machine it can target"
    if kind == "machine_just_played":
        return None if machine_just_played(state, seat) else "no opponent put a Machine into play last turn"
    if kind == "opponent":
        targets = card_losing_targets(state, seat) if args[0] == "unshielded" else opponents(state, seat)
        return None if targets else "no opponent can be targeted (Probability Proof Shields)"
    raise ValueError(f"unknown requirement {kind!r} in the card data")


def first_unmet(state, seat, requirements) -> str | None:
    for requirement in requirements:
        reason = requirement_unmet(state, seat, requirement)
        if reason:
            return reason
    return None
