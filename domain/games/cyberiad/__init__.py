"""Cyberiad: the card game after Stanislaw Lem's book (rules/cyberiad.txt)."""

from domain.kernel.ruleset import Ruleset, register

from . import rules, view as views
from .bots import BOTS
from .cards import CARDS_DIGEST, CONSTRUCTORS
from .stats import PROFILE

RULES_VERSION = "1.1.0"  # 1.1: thresholds before every choice; players out together ranked (issue 13)

RULESET = register(Ruleset.assemble(
    rules=rules,
    views=views,
    name="cyberiad",
    version=f"{RULES_VERSION}+cards.{CARDS_DIGEST}",
    title="Cyberiad",
    min_seats=2,
    max_seats=4,
    options_schema={"type": "object", "additionalProperties": False, "properties": {},
                    "description": "Cyberiad takes no options; Constructors are picked in play "
                                   f"({', '.join(sorted(CONSTRUCTORS))})."},
    bots=BOTS,
    profile=PROFILE,
))
