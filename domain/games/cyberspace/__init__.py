"""HeroCard Cyberspace: build networks of tiles, occupy their servers with Avatars, and hack
your rivals (rules/herocard-cyberspace.txt, the Board Game section), with HeroCard card duels
(or Bit Duels)."""

from domain.kernel.ruleset import Ruleset, register

from domain.games.herocard.cards import CARDS_DIGEST, HEROES

from . import render, rules, search, view as views, words
from .bots import BOTS
from .stats import PROFILE
from .tiles import TILES_DIGEST

# 2.0: card duels became the default, so `{}` means something else than in 1.0 (Bit Duels): a 1.0
# match is refused by version, never replayed as card duels.
# 2.1: the HeroCard engine's duel rules 1.1 (Fast-only assists, either Firewall defender may
# duplicate, an assisting set judged whole).
# 2.2: the engine's duel rules 1.2: nobody assists an attack on your own Firewall or Link.
# 2.3: issue 29: one seat per Hero; the other seats' Fast-card window before a turn ends; the
# player who empties the stack (a duplicate's hijacker too) gets the last final turn.
# 2.4: the HeroCard engine's duel rules 1.3: a forced discard always asks its target, no refresh
# after the active seat's pass, a twist takes an opponent only, replays list their targets.
# 2.5: the engine's duel rules 1.4: a Secret Card on the wrong Attribute obeys its Action Type.
# 2.6: a seat that ended its Action Phase may not Refresh or Reboot when a Fast card reopens it.
# 2.7: the engine's duel rules 1.5: a purge takes back the purged card's discards, draws and
# clears; the attacking side may play Fast special blocks in its own Attack Sequence.
RULES_VERSION = "2.7.0"

RULESET = register(Ruleset.assemble(
    rules=rules,
    views=views,
    name="cyberspace",
    version=f"{RULES_VERSION}+tiles.{TILES_DIGEST}+cards.{CARDS_DIGEST}",
    title="HeroCard Cyberspace",
    min_seats=1,
    max_seats=4,
    options_schema={
        "type": "object", "additionalProperties": False,
        "properties": {
            "duels": {"enum": ["cards", "bit"], "default": "cards",
                      "description": "how a hack is resolved: 'cards' = HeroCard card duels (default), "
                                     "'bit' = Bit Duels, a fair coin"},
            "heroes": {"type": "array", "items": {"enum": sorted(HEROES)}, "uniqueItems": True,
                       "description": "card duels: one distinct Hero per seat (default: distinct Heroes at random)"},
            "fair_start": {"type": "boolean", "default": False,
                           "description": "Fair Start (card duels): the starting player skips the first Discard "
                                          "and Draw phases"},
            "discard_queue": {"type": "boolean", "default": False,
                              "description": "Discard Queue (card duels): an empty Action Deck is refilled by turning "
                                             "the discard pile over"},
            "teams": {"type": "boolean", "default": False,
                      "description": "Teams: 4 players, partners opposite (seats 0+2 and 1+3), scores added"},
            "assistance": {"type": "boolean", "default": False,
                           "description": "Assistance (3-4 players, card duels, no teams): others assist the losing "
                                          "side of an attack"},
            "handicap": {"type": "array", "items": {"type": ["string", "integer"]}, "default": [],
                         "description": "seats (names or numbers) of expert players, who get two Avatars, not three"},
            "size": {"type": "integer", "minimum": 5, "maximum": 15, "default": rules.DEFAULT_SIZE,
                     "description": "squares on a side of the play area (odd, so the first tile has a centre)"},
        },
        "description": "one seat plays the Engineering Puzzle (tiles only, probe and remap, then 'done')",
    },
    bots=BOTS,
    determinize=search.determinize,
    evaluate=search.evaluate,
    search_settings=search.SETTINGS,
    profile=PROFILE,
    render=render.render,
    words=words.WORDS,
))
