"""Cybermen (rules/cybermen.txt): the Cybermen expansion - capture, conversion, the Cyberleader,
Cyberlieutenants, Mark upgrades and partial conversions - on a designed host game of wedding
guests fleeing across a map (data.json, README.md)."""

from domain.kernel.ruleset import Ruleset, register

from . import render, rules, search, view as views, words
from .bots import BOTS
from .data import DATA_DIGEST
from .stats import PROFILE

# 1.4: a fifth independent read: Mind Control's "nearest Cyberman" is counted in squares, with the
# unobstructed one first among equals; a stun, injury or Mind Control passes with the player's
# next turn even with no member on the map. A 1.3 match is refused.
RULES_VERSION = "1.4.0"

RULESET = register(Ruleset.assemble(
    rules=rules,
    views=views,
    name="cybermen",
    version=f"{RULES_VERSION}+data.{DATA_DIGEST}",
    title="Cybermen",
    min_seats=2,
    max_seats=6,
    options_schema={"type": "object", "additionalProperties": False, "properties": {}},
    bots=BOTS,
    determinize=search.determinize,
    evaluate=search.evaluate,
    search_settings=search.SETTINGS,
    profile=PROFILE,
    render=render.render,
    words=words.WORDS,
))
