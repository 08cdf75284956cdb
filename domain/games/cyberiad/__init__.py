"""Cyberiad: the card game after Stanislaw Lem's book (rules/cyberiad.txt)."""

from domain.kernel.ruleset import Ruleset, register

from . import rules
from .bots import BOTS
from .cards import CARDS_DIGEST, CONSTRUCTORS
from .stats import PROFILE
from .view import redact, redact_action, view

RULES_VERSION = "1.0.0"

RULESET = register(Ruleset(
    name="cyberiad",
    version=f"{RULES_VERSION}+cards.{CARDS_DIGEST}",
    title="Cyberiad",
    min_seats=2,
    max_seats=4,
    options_schema={"type": "object", "additionalProperties": False, "properties": {},
                    "description": "Cyberiad takes no options; Constructors are picked in play "
                                   f"({', '.join(sorted(CONSTRUCTORS))})."},
    setup=rules.setup,
    legal_actions=rules.legal_actions,
    decide=rules.decide,
    evolve=rules.evolve,
    to_act=rules.to_act,
    outcome=rules.outcome,
    view=view,
    redact=redact,
    redact_action=redact_action,
    bots=BOTS,
    profile=PROFILE,
))
