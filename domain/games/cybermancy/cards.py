"""Creature and power-card data: cards.json beside this file (designed: see README.md), or
a user's own file named by ARBITER_CYBERMANCY_CARDS. The ruleset version carries its digest."""

import hashlib
import os
from pathlib import Path

import orjson

DEFAULT_CARDS = Path(__file__).with_name("cards.json")
KEYWORDS = {"battle_ready", "frontline", "promote"}
EFFECT_KINDS = {"health", "attack", "damage"}


def load(path: Path):
    raw = path.read_bytes()
    document = orjson.loads(raw)
    creatures = {}
    for card in document["creatures"]:
        unknown = set(card["keywords"]) - KEYWORDS
        if unknown:
            raise ValueError(f"{path}: {card['id']} has unknown keywords {sorted(unknown)}")
        for trigger in ("call_to_arms", "last_gasp"):
            if trigger in card and card[trigger]["kind"] not in EFFECT_KINDS:
                raise ValueError(f"{path}: {card['id']} has an unknown {trigger} effect")
        creatures[card["id"]] = card
    suggested = {faction: [c["id"] for c in document["creatures"] if c["faction"] == faction and c["suggested"]]
                 for faction in ("human", "undead")}
    power = document["power"]
    values = {c["id"]: c["value"] for kind in power for c in power[kind]}
    return creatures, suggested, power, values, hashlib.sha256(raw).hexdigest()[:12]


CREATURES, SUGGESTED, POWER, POWER_VALUE, CARDS_DIGEST = load(
    Path(os.environ.get("ARBITER_CYBERMANCY_CARDS", DEFAULT_CARDS)))
