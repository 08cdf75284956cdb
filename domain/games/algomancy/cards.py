"""Algomancy card data: cards.json beside this file (DESIGNED: the rulebook prints no card
pool; see README.md). The ruleset version carries the file's digest."""

import functools
import hashlib
from pathlib import Path

import orjson

ELEMENTS = ("fire", "water", "earth", "wood", "metal")
COMBAT_ATTRIBUTES = ("flying", "swift", "sluggish", "deadly", "tough", "balanced", "inverted")
NON_COMBAT_ATTRIBUTES = ("burst", "unstable")
TIMINGS = ("normal", "haste", "battle", "virus")
TARGET_KINDS = ("unit", "enemy_unit", "ally_unit", "player", "any", "effect", "bin_unit")

_RAW = Path(__file__).with_name("cards.json").read_bytes()
_DOCUMENT = orjson.loads(_RAW)
CARDS_DIGEST = hashlib.sha256(_RAW).hexdigest()[:12]

CARDS = {card["name"]: card for card in _DOCUMENT["cards"]}
TOKENS = {token["name"]: token for token in _DOCUMENT["tokens"]}
RESOURCES = {resource["name"]: resource for resource in _DOCUMENT["resources"]}
RESOURCE_OF = {resource["element"]: name for name, resource in RESOURCES.items() if resource["element"]}
BY_ELEMENT = {element: [name for name, card in CARDS.items() if card["element"] == element] for element in ELEMENTS}
# A designed constructed deck per element: two copies of each of its 16 cards (32 >= 30, <= 2 copies).
ELEMENT_DECKS = {element: sorted(names * 2) for element, names in BY_ELEMENT.items()}
# Hybrid cards (designed, one per pair of elements): "shuffle them together to form the deck,
# including the hybrid cards for the selected combinations as well".
HYBRIDS = {name: tuple(card["hybrid"]) for name, card in CARDS.items() if card.get("hybrid")}


def hybrids_of(elements):
    """The hybrid cards whose two elements are both among `elements`."""
    return sorted(name for name, pair in HYBRIDS.items() if set(pair) <= set(elements))

for _card in list(CARDS.values()) + list(TOKENS.values()):
    assert set(_card["attributes"]) <= set(COMBAT_ATTRIBUTES + NON_COMBAT_ATTRIBUTES), _card["name"]
    assert _card.get("timing", "normal") in TIMINGS, _card["name"]
    assert set(_card.get("targets", [])) <= set(TARGET_KINDS), _card["name"]
    assert _card.get("element") in ELEMENTS or _card in _DOCUMENT["tokens"] or (
        len(set(_card["hybrid"])) == 2 and set(_card["hybrid"]) <= set(ELEMENTS)
        and set(_card["affinity"]) == set(_card["hybrid"])), _card["name"]


def name_of(card_id):
    """Card instances are named `Name#n`; the part before '#' is the card's name."""
    return card_id.split("#")[0]


# Cached: a unit's stats read its card's data for every unit at every death check, tens of
# millions of times in a search bot's match (a fifth of its time uncached). The data is fixed.
@functools.lru_cache(maxsize=None)
def data_of(card_id):
    name = name_of(card_id)
    return CARDS.get(name) or TOKENS[name]
