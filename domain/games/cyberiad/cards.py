"""Card data: cards.json beside this file, or a user's own file named by ARBITER_CYBERIAD_CARDS.

The ruleset version carries a digest of the card data, so a match always replays with
the cards it was played with, and a build with other cards refuses it clearly.
"""

import hashlib
import os
from pathlib import Path

import orjson

DEFAULT_CARDS = Path(__file__).with_name("cards.json")
CARD_TYPES = ("sally", "machine", "effect", "action")


def load(path: Path) -> tuple[dict, dict, str]:
    raw = path.read_bytes()
    document = orjson.loads(raw)
    cards = {}
    for card in document["cards"]:
        if card["type"] not in CARD_TYPES:
            raise ValueError(f"{path}: card {card['id']!r} has unknown type {card['type']!r}")
        copies = card.get("copies", 1)
        # One copy keeps the plain id; further copies are told apart as id:2, id:3, ...
        card["instances"] = [card["id"]] + [f"{card['id']}:{k}" for k in range(2, copies + 1)]
        cards[card["id"]] = card
    constructors = {c["id"]: c for c in document["constructors"]}
    return cards, constructors, hashlib.sha256(raw).hexdigest()[:12]


def card_of(instance: str) -> str:
    return instance.split(":", 1)[0]


def card_for(instance: str) -> dict:
    """The card an instance is a copy of: CARDS[card_of(instance)], looked up in one step (the
    rules read a card for every instance in play or in hand at every step of a search)."""
    card = INSTANCE_CARDS.get(instance)
    return card if card is not None else CARDS[card_of(instance)]


CARDS_PATH = Path(os.environ.get("ARBITER_CYBERIAD_CARDS", DEFAULT_CARDS))
CARDS, CONSTRUCTORS, CARDS_DIGEST = load(CARDS_PATH)
INSTANCE_CARDS = {instance: card for card in CARDS.values() for instance in card["instances"]}
