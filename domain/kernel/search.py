"""A search bot for every game: information-set Monte Carlo search over a Ruleset's plain
functions, its root searched by sequential halving with common random numbers.

The bot is called like every bot, `bot(state, seat, rand) -> action`, and reads the state
only through what its seat may know:

- its own legal actions (`legal_actions(state, seat)`), which the seat is shown anyway;
- `ruleset.determinize(state, seat, rand)`: a full state that agrees with everything the
  seat sees, its hidden zones refilled at random from the cards the seat cannot see.
  A game's determinize reads of the hidden zones only their sizes and the multiset of the
  unseen cards (which the public deck lists imply), never which hidden card is where; the
  kernel's property test holds every game to that (tests/kernel/test_search.py).

How a decision is searched (each step is there because a measurement asked for it, see
bench/search_strength.py and the README):

1. **Samples.** Determinizations 0, 1, 2... of the seat's information set, each drawn once
   from a private stream (never the match's seed: the bot cannot foresee the match's draws)
   and each with its own private dice for the playouts.
2. **Candidates.** The incumbent, the playout policy's own move where the policy is a
   strategy (the greedy bot's, decided on sample 0, so it too sees only what the seat
   sees), and challengers: legal moves drawn at random, `width` candidates in all.
   Cyberspace offers 70-90 legal moves a decision; a budget spread over all of them learns
   nothing about any. A game may rank the challengers instead (the `challengers` setting:
   `(sample 0, seat, legal moves) -> the moves to try first, best first`); moves it leaves
   out follow in the random order.
3. **Playouts.** A candidate is scored on a sample by playing it, then the policy for every
   seat (the greedy bot where the game has one, else the random bot) to the end, or for
   `depth` actions and then the game's `evaluate(state) -> [0..1 per seat]` (1/2 where it
   has none). A win scores 1 shared among the winners, a loss 0.
4. **Sequential halving** (Karnin, Koren and Somekh, ICML 2013; the root rule of Gumbel
   MuZero) among the challengers: the budget is split into rounds; in each, the incumbent
   and every surviving challenger play the same new samples with the same dice (common
   random numbers: two candidates differ by their own consequences, not by luck of the
   deal), and the better half of the challengers survives. Without the common samples, 100
   playouts over a dozen candidates chose by noise and lost to the greedy bot they started
   from (Cybermancy 4 of 10, Algomancy 0 of 6).
5. **Departure.** The last challenger replaces the incumbent only if it beat it on the same
   samples by `DEPART_Z` standard errors of the paired differences; the best of several
   candidates leads by luck alone on a dozen samples. With no incumbent (a random policy)
   the last challenger is played.

This is determinized Monte Carlo search over one information set, the root of the
single-observer ISMCTS tree (Cowling, Powley and Whitehouse, IEEE TCIAIG 2012), with the
policy, not a tree, below it: with budgets of a few dozen playouts a decision, the deeper
nodes of a tree were visited too seldom to rank anything and cost the root its samples.

Budget: `playouts` in all, or `milliseconds` of wall time (700 unless a game sets its own),
whichever ends first. The clock is read at every simulated action: at the deadline the
playout in progress is dropped and the candidates still in the race are compared on the
samples all of them played; when not one sample was played by all, the policy's own move is
played (the greedy bot's: what the search would fall back on anyway).
"""

import math
import random
import time

from .canonical import canonical_json
from .decision import advance
from .memo import Memo
from .rng import RandomStream


class SearchBot:
    """`SearchBot(ruleset)(state, seat, rand)`: the move that scored best in the search."""

    DEFAULT_PLAYOUTS = 48
    DEFAULT_WIDTH = 6
    DEFAULT_DEPTH = None  # to the end of the match
    DEFAULT_POLICY = "greedy"  # the game's greedy bot where it has one, else random
    # The best challenger replaces the policy's move only when its paired lead is at least this
    # many standard errors (one-sided 84 %): the best of several candidates leads by luck
    # alone on a handful of samples, and a search that followed such leads lost to its policy.
    DEPART_Z = 1.0
    PLAYOUT_LIMIT = 2_000  # actions: a playout that long is cut off and evaluated
    # A served bot seat answers a person within about a second: at this much wall time the
    # search stops, even mid-playout, and decides on the samples every candidate has played.
    DEFAULT_MILLISECONDS = 700

    def __init__(self, ruleset, playouts: int = DEFAULT_PLAYOUTS, milliseconds: float | None = DEFAULT_MILLISECONDS,
                 depth: int | None = DEFAULT_DEPTH, policy: str = DEFAULT_POLICY, width: int = DEFAULT_WIDTH,
                 challengers=None):
        self.ruleset, self.playouts, self.milliseconds = ruleset, playouts, milliseconds
        self.depth, self.policy, self.width, self.challengers = depth, policy, width, challengers

    def __call__(self, state, seat, rand):
        choices = self.ruleset.legal_actions(state, seat)
        if len(choices) == 1:
            return choices[0]
        return RootSearch(self, state, seat, rand.randbytes(32)).best(choices)


class RootSearch:
    """One decision's search: its samples, candidates and scores."""

    def __init__(self, bot: SearchBot, state, seat: int, key: bytes):
        self.bot, self.ruleset, self.state, self.seat, self.key = bot, bot.ruleset, state, seat, key
        self.policy = self.ruleset.bots.get(bot.policy) or self.ruleset.bots["random"]
        self.deadline = None if bot.milliseconds is None else time.perf_counter() + bot.milliseconds / 1000

    def sample(self, index: int):
        """Determinization `index`, the same each time it is asked for: drawn again for each
        candidate (`evolve` may change a state in place). A copy of a kept sample would cost a
        quarter to a fifth of a deal, but a deal is 30-80 us against a playout's 20-250 ms
        (bench/search_speed.py's decisions, issue 32): not worth a sample that must stay a
        plain tree."""
        rng = random.Random(self.key + b"deal" + str(index).encode())
        return self.ruleset.determinize(self.state, self.seat, rng)

    def candidates(self, choices: list) -> tuple:
        """(the incumbent, the challengers): the policy's own move, when the policy is a
        strategy (the greedy bot; a random bot's move is no better than any other, so then
        there is none), and legal moves drawn at random, `width` in all; those the game's
        `challengers` ranking names come first, in its order (decided on sample 0, like the
        incumbent, so it too sees only what the seat sees)."""
        by_key = {canonical_json(action): action for action in choices}
        incumbent = None
        if self.policy is not self.ruleset.bots["random"]:
            move = canonical_json(self.policy(self.sample(0), self.seat, random.Random(self.key + b"policy")))
            incumbent = (move, by_key[move]) if move in by_key else None
        others = sorted(k for k in by_key if incumbent is None or k != incumbent[0])
        random.Random(self.key + b"width").shuffle(others)
        if self.bot.challengers is not None:
            ranked = [canonical_json(action) for action in self.bot.challengers(self.sample(0), self.seat, choices)]
            rank = {k: place for place, k in reversed(list(enumerate(ranked)))}
            others.sort(key=lambda k: rank.get(k, len(rank)))  # stable: the unranked keep the drawn order
        return incumbent, [(k, by_key[k]) for k in others[:self.bot.width - (incumbent is not None)]]

    def best(self, choices: list):
        """Sequential halving among the challengers, the incumbent playing every sample beside
        them; the best challenger left replaces the incumbent only if it scored better on the
        same samples by at least DEPART_Z standard errors of the paired differences."""
        incumbent, challengers = self.candidates(choices)
        if not challengers:
            return incumbent[1]
        contenders = [incumbent] if incumbent is not None else []
        scores = {k: [] for k, _ in contenders + challengers}
        rounds = max(1, math.ceil(math.log2(len(challengers))))
        played = 0  # samples every candidate still in the race has played
        try:
            for round_number in range(rounds):
                per_candidate = max(1, self.bot.playouts // (rounds * (len(challengers) + len(contenders))))
                for index in range(played, played + per_candidate):
                    for k, action in contenders + challengers:
                        scores[k].append(self.playout(action, index))
                    played = index + 1
                # Stable sort: among equal totals the drawn order stays ahead.
                challengers = sorted(challengers, key=lambda c: -sum(scores[c[0]]))[
                    :max(1, math.ceil(len(challengers) / 2))]
        except _OutOfTime:
            if not played:  # no sample played by all: the policy's own move (or the first drawn)
                return (incumbent or challengers[0])[1]
            for k in scores:  # compare on the samples all played, never a half-played one
                del scores[k][played:]
            challengers = sorted(challengers, key=lambda c: -sum(scores[c[0]]))
        best, best_action = challengers[0]
        if incumbent is None or _clearly_better(scores[best], scores[incumbent[0]]):
            return best_action
        return incumbent[1]

    def playout(self, action, index: int) -> float:
        """The seat's score for `action` on sample `index`, then the policy for everyone."""
        ruleset, state = self.ruleset, self.sample(index)
        dice = _Dice(self.key, index)
        moves = random.Random(self.key + b"moves" + str(index).encode())
        state = dice.apply(ruleset, state, self.seat, action)
        limit = self.bot.depth if self.bot.depth is not None else SearchBot.PLAYOUT_LIMIT
        for _ in range(limit):
            if ruleset.outcome(state) is not None:
                break
            if self.deadline is not None and time.perf_counter() > self.deadline:
                raise _OutOfTime
            seat = min(ruleset.to_act(state))
            state = dice.apply(ruleset, state, seat, self.policy(state, seat, moves))
        result = ruleset.outcome(state)
        if result is not None:
            winners = result.get("winners") or []
            return 1 / len(winners) if self.seat in winners else 0.0
        return ruleset.evaluate(state)[self.seat] if ruleset.evaluate is not None else 0.5



class _OutOfTime(Exception):
    """The decision's milliseconds ran out in the middle of a playout."""


class _Dice:
    """A sample's private randomness: the n-th simulated action of playout `index` draws from
    the same stream whichever candidate led to it (common random numbers)."""

    def __init__(self, key: bytes, index: int):
        self.key, self.name, self.seq = key, f"search-{index}", 0

    def apply(self, ruleset, state, seat, action):
        self.seq += 1
        state, _ = advance(ruleset, state, seat, action, RandomStream(self.key, self.name, self.seq), facts=False)
        return state  # the sample is the playout's own: advanced in place


def _clearly_better(challenger: list[float], incumbent: list[float]) -> bool:
    """Whether the challenger's scores beat the incumbent's on the same samples (paired: each
    pair shares a deal and dice) by DEPART_Z standard errors of the mean difference."""
    differences = [c - i for c, i in zip(challenger, incumbent)]
    mean = sum(differences) / len(differences)
    if mean <= 0:
        return False
    if len(differences) == 1:
        return True
    variance = sum((d - mean) ** 2 for d in differences) / (len(differences) - 1)
    return mean >= SearchBot.DEPART_Z * math.sqrt(variance / len(differences))


def lead_scores(points: list, scale: float, same_side=lambda seat, other: seat == other) -> list[float]:
    """An `evaluate` from each seat's points: 1/2 plus half its lead over the best rival side
    (a negative lead below 1/2) as a share of `scale`, within 0..1. Level seats score 1/2
    each, never what a leader scores: an evaluation that gave the tied the leader's score led
    the search into ties it could have broken."""
    scores = []
    for seat, mine in enumerate(points):
        rival = max((p for other, p in enumerate(points) if not same_side(seat, other)), default=0)
        scores.append(min(1.0, max(0.0, 0.5 + 0.5 * (mine - rival) / max(scale, 1))))
    return scores


def refill_unseen(zones: list[list], rand, known=()) -> None:
    """Deal the cards of `zones` (lists in a copied state, each hidden from the searching seat)
    back into them at random, each zone keeping its size: what a determinization does to the
    cards a seat cannot see. Cards in `known` (say, the options of the seat's own prompt) stay
    where they are. The pool is sorted first, so the result depends on the multiset of unseen
    cards and the zones' sizes only, never on which hidden card was where."""
    known = {_card_key(card) for card in known}
    cards = [card for zone in zones for card in zone]
    try:  # names met before, the usual deal: each key a dict lookup, not a call of _card_key
        key = _CARD_KEYS.__getitem__
        pool = sorted(cards, key=key)
    except (KeyError, TypeError):  # a name never met (or forgotten), or a card that is not a name
        key = _card_key
        pool = sorted(cards, key=key)
    if known:
        pool = [card for card in pool if key(card) not in known]
    rand.shuffle(pool)
    if not known:
        for zone in zones:
            zone[:] = [pool.pop() for _ in zone]
        return
    for zone in zones:
        zone[:] = [card if key(card) in known else pool.pop() for card in zone]


# a card's canonical JSON: every determinization sorts the same names (bounded: generated names,
# an instance number, keep coming)
_CARD_KEYS: Memo = Memo(100_000)


def _card_key(card) -> bytes:
    """canonical_json(card), remembered for cards named by a string (a search sorts the same
    few hundred names thousands of times a decision; the JSON text costs ten times a lookup)."""
    if type(card) is not str:
        return canonical_json(card)
    key = _CARD_KEYS.get(card)
    if key is None:
        key = _CARD_KEYS.keep(card, canonical_json(card))
    return key
