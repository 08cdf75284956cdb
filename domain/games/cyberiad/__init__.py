"""Cyberiad: the card game after Stanislaw Lem's book (rules/cyberiad.txt)."""

from domain.kernel.ruleset import Ruleset, register

from . import legal, lifecycle, rules, search, view as views, words
from .render import render
from .bots import BOTS
from .cards import CARDS_DIGEST, CONSTRUCTORS
from .stats import PROFILE

# 1.1: thresholds before every choice; players out together ranked (issue 13).
# 1.2: review fixes that decide other facts: Shields keep the owner's Perfect Advisor discard; Solar
# Schooner's draw follows the Advisor; no Advisor discard after an empty draw; a card put into play by
# Electroknight is the turn's one card and a Machine so put is "played" (README 9, 14, 17, 25).
# 1.3: a search of the deck is asked even with one match: the prompt told everyone whether the
# hidden deck held one Sally or more (README 8).
# 1.4: a payment with a card the cost does not need is refused ("a number of Cards equal to the
# cost"; README 3): a 1.3 match with an overpayment would now be refused.
RULES_VERSION = "1.4.0"

RULESET = register(Ruleset.assemble(
    rules=rules,
    legal_actions=legal.legal_actions,  # its own module, which imports rules.py
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
    render=render,
    resign=lifecycle.resign,
    default_action=lifecycle.default_action,
    determinize=search.determinize,
    evaluate=search.evaluate,
    search_settings=search.SETTINGS,
    words=words.WORDS,
))
