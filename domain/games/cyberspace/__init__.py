"""HeroCard Cyberspace: build networks of tiles, occupy their servers with Avatars, and hack
your rivals (rules/herocard-cyberspace.txt, the Board Game section), with Bit Duels."""

from domain.kernel.ruleset import Ruleset, register

from . import rules, search, view as views
from .bots import BOTS
from .stats import PROFILE
from .tiles import TILES_DIGEST

RULES_VERSION = "1.0.0"

RULESET = register(Ruleset.assemble(
    rules=rules,
    views=views,
    name="cyberspace",
    version=f"{RULES_VERSION}+tiles.{TILES_DIGEST}",
    title="HeroCard Cyberspace",
    min_seats=1,
    max_seats=4,
    options_schema={
        "type": "object", "additionalProperties": False,
        "properties": {
            "duels": {"enum": ["bit"], "default": "bit",
                      "description": "how a hack is resolved: 'bit' = Bit Duels, a fair coin (the only engine so far)"},
            "teams": {"type": "boolean", "default": False,
                      "description": "Teams: 4 players, partners opposite (seats 0+2 and 1+3), scores added"},
            "assistance": {"type": "boolean", "default": False,
                           "description": "Assistance (3-4 players): needs card duels, so refused with duels 'bit'"},
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
    profile=PROFILE,
    render=views.render,
))
