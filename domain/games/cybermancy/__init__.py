"""Cybermancy: summon creatures in a virtual arena and defeat the opposing Cybermancer
(rules/cybermancy.txt)."""

from domain.kernel.ruleset import Ruleset, register

from . import rules_legal, rules_lifecycle, rules, view as views, search, words
from .render import render
from .bots import BOTS
from .cards import CARDS_DIGEST
from .stats import PROFILE

# 1.3: a Last Gasp set off by a point of a damage effect applies before that effect's next point;
# 1.2: a leaver's pass no longer counts among the passes in a row ending the Main Phase (1.1:
# mulligan redraws before reshuffling; designed ends are draws; Promote wins over Frontline).
RULES_VERSION = "1.3.0"

RULESET = register(Ruleset.assemble(
    rules=rules,
    legal_actions=rules_legal.legal_actions,  # its own module, which imports rules.py
    views=views,
    name="cybermancy",
    version=f"{RULES_VERSION}+cards.{CARDS_DIGEST}",
    title="Cybermancy",
    min_seats=2,
    max_seats=4,
    options_schema={
        "type": "object", "additionalProperties": False,
        "properties": {
            "mode": {"enum": ["standard", "teams"], "default": "standard",
                     "description": "standard: 2-4 players, last Cybermancer standing; teams: 4 players, 0+2 vs 1+3"},
            "draft": {"type": "boolean", "default": False,
                      "description": "build decks by alternating picks from all 100 creatures"},
            "decks": {"type": "object", "description": "seat name or number -> 30 distinct creature ids",
                      "x-hidden": "per-seat"},
        },
    },
    bots=BOTS,
    determinize=search.determinize,
    evaluate=search.evaluate,
    search_settings=search.SETTINGS,
    profile=PROFILE,
    render=render,
    resign=rules_lifecycle.resign,
    default_action=rules_lifecycle.default_action,
    words=words.WORDS,
))
