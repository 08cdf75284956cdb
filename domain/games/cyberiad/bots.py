"""Bots that can fill a Cyberiad seat: they choose among that seat's legal actions, so they only
ever play legal moves.

The greedy bot looks one action ahead. It never reads what its seat cannot see: the trial moves
run on one determinization of the state (search.determinize: the deck and the other hands
re-dealt from the cards the seat cannot see), with private dice, so a trial that draws a card
draws a guessed one, never the real top of the deck.
"""

import random

from domain.kernel.decision import advance
from domain.kernel.errors import IllegalAction
from domain.kernel.rng import RandomStream

from .board import hand_limit
from . import rules
from .legal import legal_actions
from .rules import FAME_TO_WIN, outcome
from .search import copy_state, determinize, progress

# The trials' own dice: never the match's stream, so the bot cannot foresee the match's draws.
# A fresh stream per trial gives every candidate the same dice (they differ by their own effects).
SIMULATED_KEY, SIMULATED_ID = b"cyberiad greedy bot", "lookahead"
MAX_TRIALS = 24  # candidates tried a decision; longer lists (X-cost variants, choices) are sampled

# Weights in units of progress (1.0 = the 50 FP that win): a Fame point is 1/50 = 0.02; Trouble
# is counted as its share of 20 squared (search.progress). The small terms below keep what a play
# spends from looking free: a card in hand pays for later plays, about half a Fame point (so a
# 5-card Sally giving 5 FP is still worth playing, and discarding 4 cards for nothing is not);
# a GP a little under the fifth of a Fame point that 5 GP convert into (so converting is a
# gain, hoarding is not).
HAND_CARD = 0.01
GP = 0.15 / FAME_TO_WIN
RIVAL_SPREAD = 0.25  # how much the rivals other than the best one count (3-4 seats)
ENDED = 10.0  # a won (lost) game is worth more than any lead
BETTER = 1e-6  # ties go to ending the turn: a move that changes nothing is neither played nor repeated


def random_bot(state, seat, rand):
    """Any legal action, uniformly."""
    return rand.choice(legal_actions(state, seat))


def greedy_bot(state, seat, rand):
    """The legal action whose result scores best for the seat (`_score`): plays, abilities and
    conversions that raise its Fame or cut its Trouble (or set the leading rival back), choices
    answered to its own benefit; `end_turn` only when nothing does better than the position as
    it stands."""
    actions = legal_actions(state, seat)
    if len(actions) == 1:
        return actions[0]
    if actions[0]["type"] == "pick":
        # One action ahead the Constructors look alike (their powers come later). Turl, the
        # rulebook's own, measured as well as the designed ones against the random bot.
        return next((a for a in actions if a["constructor"] == "turl"), actions[0])
    private = random.Random(rand.getrandbits(64))
    sample = determinize(state, seat, private)
    candidates = [a for a in actions if a["type"] != "end_turn"]
    if len(candidates) > MAX_TRIALS:
        candidates = private.sample(candidates, MAX_TRIALS)
    best, best_score = None, None
    if any(a["type"] == "end_turn" for a in actions):
        # Ending the turn is scored on the position as it stands: the rivals' coming turns
        # happen whatever this seat does now, so trying them would only add their luck. The
        # hand limit's discards (Terminal Phase) are charged here.
        excess = max(0, len(sample["hands"][seat]) - hand_limit(sample, seat))
        best, best_score = {"type": "end_turn"}, _score(sample, seat) - HAND_CARD * excess + BETTER
    last = len(candidates) - 1
    for index, action in enumerate(candidates):
        # Each trial steps its own copy of the sample in place; the last may step the sample
        # itself, which nothing reads after it (a copy is a tenth of the bot's time).
        trial = sample if index == last else copy_state(sample)
        try:
            after, _ = advance(rules, trial, seat, action, RandomStream(SIMULATED_KEY, SIMULATED_ID, 0))
        except IllegalAction:  # legal on the real state, not on this sample (a guessed deck)
            continue
        score = _score(after, seat)
        if best_score is None or score > best_score:
            best, best_score = action, score
    return best if best is not None else private.choice(actions)  # every trial refused: rare


def _score(state, seat):
    """The seat's progress (search.progress: Trouble counted squared) less the best rival's
    (and a little of the other rivals'), plus the small terms for cards in hand and GP. A
    finished game scores its result."""
    if state["over"]:
        winners = outcome(state)["winners"]
        return ENDED / len(winners) if seat in winners else -ENDED
    if state["out"][seat]:
        return -ENDED
    scores = [progress(state, s) for s in range(state["seats"])]
    rivals = scores[:seat] + scores[seat + 1:]  # a slice and an in-place sort: no generator each trial
    rivals.sort(reverse=True)
    lead = scores[seat] - rivals[0] - RIVAL_SPREAD * sum(rivals[1:])
    return lead + HAND_CARD * len(state["hands"][seat]) + GP * state["genius"][seat]


BOTS = {"random": random_bot, "greedy": greedy_bot}
