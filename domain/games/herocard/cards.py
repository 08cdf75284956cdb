"""Heroes and Action Cards: heroes.json beside this file (designed except the printed cards:
see README.md), or a user's own file named by ARBITER_HEROCARD_CARDS. The ruleset version
carries its digest, so a match is never replayed against other card data."""

import hashlib
import os
from pathlib import Path

import orjson

DEFAULT_CARDS = Path(__file__).with_name("heroes.json")
ATTRIBUTES = ("body", "mind", "x")
KINDS = ("base_attack", "attack_mod", "special_attack", "base_block", "block_mod", "special_block", "action")
ATTACK_KINDS = ("base_attack", "attack_mod", "special_attack")
BLOCK_KINDS = ("base_block", "block_mod", "special_block")
SET_KINDS = ("base_attack", "attack_mod", "base_block", "block_mod")
TIMINGS = ("fast", "restricted", "exclusive")
EFFECTS = {"discard", "extra_base_attack", "clear_own", "purge", "replay", "duplicate", "twist", "draw", "variable"}
MIN_DECK, MAX_COPIES = 20, 6  # glossary, Action Deck: "not ... fewer than 20 cards, nor more than 6 of the same card"
HERO_POINT_LIMIT = 30  # "The standard limit for Heroes is 30 points."


def load(path: Path):
    raw = path.read_bytes()
    document = orjson.loads(raw)
    cards = {}
    for card in document["cards"]:
        if card["kind"] not in KINDS or card["timing"] not in TIMINGS or card["attribute"] not in ATTRIBUTES:
            raise ValueError(f"{path}: {card['id']} has an unknown kind, timing or attribute")
        unknown = set(card.get("effect", {})) - EFFECTS
        if unknown:
            raise ValueError(f"{path}: {card['id']} has unknown effects {sorted(unknown)}")
        cards[card["id"]] = card
    heroes = document["heroes"]
    for hero_id, hero in heroes.items():
        if set(hero["attributes"]) != set(ATTRIBUTES):
            raise ValueError(f"{path}: {hero_id} needs one Body, one Mind and one X Attribute Card")
        if sum(hero["deck"].values()) < MIN_DECK or max(hero["deck"].values()) > MAX_COPIES:
            raise ValueError(f"{path}: {hero_id}'s Action Deck breaks the 20-card / 6-copy rule")
        if sum(a["hero_points"] for a in hero["attributes"].values()) > HERO_POINT_LIMIT:
            raise ValueError(f"{path}: {hero_id} exceeds the standard limit of {HERO_POINT_LIMIT} hero points")
        if set(hero["deck"]) - set(cards):
            raise ValueError(f"{path}: {hero_id}'s deck names unknown cards {sorted(set(hero['deck']) - set(cards))}")
    return heroes, cards, hashlib.sha256(raw).hexdigest()[:12]


def deck_list(hero_id):
    """The hero's Action Deck as card ids, copies repeated, in a fixed order (setup shuffles it)."""
    return [card for card, copies in sorted(HEROES[hero_id]["deck"].items()) for _ in range(copies)]


def side_of(kind):
    return "attack" if kind in ATTACK_KINDS else "block" if kind in BLOCK_KINDS else None


HEROES, CARDS, CARDS_DIGEST = load(Path(os.environ.get("ARBITER_HEROCARD_CARDS", DEFAULT_CARDS)))
