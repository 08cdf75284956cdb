"""HeroCard: Heroes duel with Action Cards (rulebook: rules/herocard-cyberspace.txt, "Quick
Start" and "HeroCard Dueling Rules"). The dueling engine (engine.py) also serves Cyberspace."""

from domain.kernel.ruleset import Ruleset, register

from . import render, rules, search, view as views, words
from .bots import BOTS
from .cards import CARDS_DIGEST, HEROES
from .stats import PROFILE

# 1.1: from the independent review of Cyberspace's card duels: only a Fast card may assist; any
# defender a host names may duplicate the Base Attack; an assistant's set is judged whole, by who
# was losing when it was played. Each refuses or accepts plays 1.0 did not.
# 1.2: from the review of 1.1: nobody assists an attack on the attacker's own side ("when a
# player attacks an opponent"); 1.1 let a third player block for it.
# 1.3: issue 29, the third read: a replay lists (and takes) the replayed card's target and
# Attribute; with the Discard Queue a discard goes card by card and every clear order is
# offered; no refresh after the active player's pass; a twist takes an opponent only; a forced
# discard always asks its target (the prompt no longer tells whether the hidden hand held more).
# 1.4: a fourth read: a Secret Card played on the wrong Attribute still obeys its Action Type (a
# Restricted or Exclusive one only on your own Action Phase); 1.3 took it on any turn, as a dud.
# 1.5: a fifth read: a purge takes back what the purged card did to hands, decks and stacks (a
# forced discard, a draw, a clear: "as if the card was never played"); special attacks and blocks
# follow their Action Type only, so the attacking side may play a Fast special block (README 5, 12).
RULES_VERSION = "1.5.0"

RULESET = register(Ruleset.assemble(
    rules=rules,
    views=views,
    name="herocard",
    version=f"{RULES_VERSION}+cards.{CARDS_DIGEST}",
    title="HeroCard",
    min_seats=2,
    max_seats=4,
    options_schema={
        "type": "object", "additionalProperties": False,
        "properties": {
            "heroes": {"type": "array", "items": {"enum": sorted(HEROES)},
                       "description": "one Hero per seat (default: distinct Heroes drawn at random)"},
            "teams": {"type": "boolean", "default": False,
                      "description": "Teams: 4 players, partners opposite (0+2 vs 1+3), scores added, seven VP win"},
            "fair_start": {"type": "boolean", "default": False,
                           "description": "Fair Start: the starting player skips the Discard and Draw phases of the first turn"},
            "discard_queue": {"type": "boolean", "default": False,
                              "description": "Discard Queue: an empty Action Deck is refilled by turning the discard stack over"},
            "assistance": {"type": "boolean", "default": False,
                           "description": "Assistance (3-4 players, no teams): others assist the losing side, never switching"},
            "victory_points": {"type": "integer", "minimum": 1, "maximum": 20,
                               "description": "Victory Points to win (default 3/5/7 for 2/3/4 players, 7 in Teams)"},
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
