"""Algomancy: the global-turn card battler with regions, formations, the stack and
priority, in every format and player setup of rules/algomancy.txt."""

from domain.kernel.ruleset import Ruleset, register

from . import render, rules, search, view as views, words
from .bots import BOTS
from .cards import CARDS_DIGEST, ELEMENTS
from .stats import PROFILE

# 1.1: the review's fixes decide other facts (burst tokens each a spell, FFA formations after the
# intent cards flip, a passed pack arriving at the next draft step, damage beyond lethal chosen), and
# the traditional cube draft and hybrid cards were added: a 1.0 match is refused, not re-read.
# 1.2: issue 29's third read: a card's own Augment text works when played as a unit, Prickly
# Protector counts a team-mate's units, any new mod takes a position among the old ones, team-draft
# packs cycle per team (pack_turns per deck), burst plays list burst_targets: a 1.1 match is refused.
# 1.3: hidden information (tests/games/algomancy/test_hidden_leaks.py): card ids drawn for each card
# from the deal's secret (they were numbered in deck-list order), deck lists dealt in name order, a
# hidden zone's facts one whole-zone fact, an intent card and a deck list shown to others without
# counts, the search bot's samples built from what its seat knows: a 1.2 match is refused.
# 1.4: a unit deals combat damage once a combat (twice only with Swift and Sluggish): a 1.3 match is refused.
# 1.5: a fourth read: after-combat triggers of the whole Initiative team go on the stack beneath the NIT's (a
# partner's too), and an ambush may recall a team-mate's unit (an allied unit): a 1.4 match is refused.
# 1.6: a "when I despawn" trigger in battle goes on the stack in its region's priority window (the next one,
# if none is open; NIT's last) instead of resolving at once (README I30): a 1.5 match is refused.
# 1.7: in team games the Initiative team receives priority first (and sacrifices first) wherever any of its
# players is present, not the player nearest the initiative player clockwise (README I14): a 1.6 match is refused.
RULES_VERSION = "1.7.0"

RULESET = register(Ruleset.assemble(
    rules=rules,
    views=views,
    name="algomancy",
    version=f"{RULES_VERSION}+cards.{CARDS_DIGEST}",
    title="Algomancy",
    min_seats=2,
    max_seats=4,
    options_schema={
        "type": "object", "additionalProperties": False,
        "properties": {
            "setup": {"enum": sorted(rules.SETUPS), "description": "1v1 (2 players, the default for 2), ffa (3-4, "
                      "the default for 3-4; intent cards), teams_split / teams_joint (4: 0+2 against 1+3, a region "
                      "each or one per team), archenemy (3: seat 0 alone against 1+2)"},
            "format": {"enum": list(rules.FORMATS), "default": "constructed",
                       "description": "constructed (own decks: draw 2 recycle 2), live_draft (a shared deck of 3-4 "
                                      "elements, packs of 10), cube_draft (draft 30-card decks first), team_draft "
                                      "(each team live drafts from its own deck), traditional_cube (three packs "
                                      "of 15 picked one at a time, passed left, right, left, then cut to 30)"},
            "elements": {"type": "array", "items": {"enum": list(ELEMENTS)},
                         "description": "live draft: the 3 (2-3 players) or 4 elements of the shared deck"},
            "decks": {"type": "object", "description": "seat name or number -> an element (its designed 32-card "
                      "deck) or a list of card names (at least 30, at most 2 copies)", "x-hidden": "per-seat"},
            "archenemy_turns": {"enum": [1, 2], "default": 1,
                                "description": "turns the Archenemy takes alone before the others begin"},
            "turn_limit": {"type": "integer", "minimum": 2, "maximum": 200, "default": rules.DEFAULT_TURN_LIMIT,
                           "description": "designed safety end: after this turn the side with most life wins"},
        },
    },
    bots=BOTS,
    determinize=search.determinize,
    evaluate=search.evaluate,
    search_settings=search.SETTINGS,
    profile=PROFILE,
    render=render.render,
    words=words.WORDS,
))
