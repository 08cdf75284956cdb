"""A search bot for every game: information-set Monte Carlo tree search over a Ruleset's
plain functions (single-observer ISMCTS: Cowling, Powley and Whitehouse, "Information Set
Monte Carlo Tree Search", IEEE TCIAIG 2012).

The bot is called like every bot, `bot(state, seat, rand) -> action`, and reads the state
only through what its seat may know:

- its own legal actions (`legal_actions(state, seat)`), which the seat is shown anyway;
- `ruleset.determinize(state, seat, rand)`: a full state that agrees with everything the
  seat sees, its hidden zones refilled at random from the cards the seat cannot see.
  A game's determinize reads of the hidden zones only their sizes and the multiset of the
  unseen cards (which the public deck lists imply), never which hidden card is where; the
  kernel's property test holds every game to that (tests/kernel/test_search.py).

Each iteration samples one determinization, descends the tree choosing among the actions
legal in that sample by UCB1 with availability counts (an action seen in fewer samples is
not penalised for it), expands one new action, plays out with a policy (the game's random
bot by default) for at most `depth` actions, and backs up one reward per seat: 1 for a
winner, 0 otherwise; a playout cut off by `depth` scores each seat by the game's optional
`evaluate(state) -> [0..1 per seat]`, or 1/2 each when the game has none. The most visited
root action is played. Randomness inside the search comes from a private stream keyed by
`rand`, never from the match's seed: the bot cannot foresee the match's draws.

Budget: `playouts` iterations, or `milliseconds` of wall time, whichever ends first.
"""

import math
import time

from .canonical import canonical_json
from .rng import RandomStream

EXPLORATION = 0.7  # UCB1's c for rewards in [0, 1]; the usual sqrt(2)/2


class _Node:
    __slots__ = ("seat", "action", "parent", "children", "visits", "available", "reward")

    def __init__(self, seat, action, parent):
        self.seat, self.action, self.parent = seat, action, parent
        self.children: dict[bytes, _Node] = {}
        self.visits = 0
        self.available = 0
        self.reward = 0.0  # summed reward of the seat that took `action`


class SearchBot:
    """`SearchBot(ruleset)(state, seat, rand)`: the action ISMCTS prefers."""

    # Measured (bench/search_strength.py): deeper random playouts scored worse than short ones cut
    # off by the game's evaluation, and 100 playouts keep a decision near a tenth of a second.
    DEFAULT_PLAYOUTS = 100
    DEFAULT_DEPTH = 12
    DEFAULT_POLICY = "greedy"  # the game's greedy bot where it has one, else random

    def __init__(self, ruleset, playouts: int = DEFAULT_PLAYOUTS, milliseconds: float | None = None,
                 depth: int = DEFAULT_DEPTH, policy: str = DEFAULT_POLICY):
        self.ruleset, self.playouts, self.milliseconds, self.depth = ruleset, playouts, milliseconds, depth
        self.policy = policy

    def __call__(self, state, seat, rand):
        ruleset = self.ruleset
        choices = ruleset.legal_actions(state, seat)
        if len(choices) == 1:
            return choices[0]
        key = rand.randbytes(32)
        deadline = None if self.milliseconds is None else time.perf_counter() + self.milliseconds / 1000
        root = _Node(None, None, None)
        for iteration in range(self.playouts):
            if deadline is not None and time.perf_counter() > deadline:
                break
            sample = ruleset.determinize(state, seat, rand)
            stream = _Streams(key, iteration)
            self._iterate(root, sample, seat, rand, stream)
        allowed = {canonical_json(action) for action in choices}
        best = max((child for k, child in root.children.items() if k in allowed),
                   key=lambda child: (child.visits, child.reward), default=None)
        return best.action if best is not None else rand.choice(choices)

    def _iterate(self, root, state, me, rand, stream):
        ruleset, node, path = self.ruleset, root, [root]
        # Selection and expansion: the acting seat is `me` at the root, then the lowest seat to act.
        while ruleset.outcome(state) is None:
            seat = me if node is root else min(ruleset.to_act(state))
            legal = {canonical_json(a): a for a in ruleset.legal_actions(state, seat)}
            for k in legal:
                if k in node.children:
                    node.children[k].available += 1
            untried = [k for k in legal if k not in node.children]
            if untried:
                k = untried[rand.randrange(len(untried))]
                child = node.children[k] = _Node(seat, legal[k], node)
                child.available = 1
                state = self._apply(state, seat, legal[k], stream)
                path.append(child)
                break
            node = max((node.children[k] for k in legal), key=_ucb)
            state = self._apply(state, seat, node.action, stream)
            path.append(node)
        rewards = self._playout(state, rand, stream)
        for visited in path:
            visited.visits += 1
            if visited.seat is not None:
                visited.reward += rewards(visited.seat)

    def _playout(self, state, rand, stream):
        ruleset = self.ruleset
        bot = ruleset.bots.get(self.policy) or ruleset.bots["random"]
        for _ in range(self.depth):
            result = ruleset.outcome(state)
            if result is not None:
                return _rewards(result)
            seat = min(ruleset.to_act(state))
            state = self._apply(state, seat, bot(state, seat, rand), stream)
        result = ruleset.outcome(state)
        if result is not None:
            return _rewards(result)
        if ruleset.evaluate is not None:
            scores = ruleset.evaluate(state)
            return scores.__getitem__
        return lambda seat: 0.5  # no evidence either way

    def _apply(self, state, seat, action, stream):
        for fact in self.ruleset.decide(state, seat, action, stream.next()):
            state = self.ruleset.evolve(state, fact)
        return state


class _Streams:
    """A fresh RandomStream for each simulated action, keyed privately to this search."""

    def __init__(self, key: bytes, iteration: int):
        self.key, self.name, self.seq = key, f"search-{iteration}", 0

    def next(self) -> RandomStream:
        self.seq += 1
        return RandomStream(self.key, self.name, self.seq)


def _ucb(node: _Node) -> float:
    if node.visits == 0:
        return math.inf
    return node.reward / node.visits + EXPLORATION * math.sqrt(math.log(max(node.available, 1)) / node.visits)


def _rewards(result: dict):
    winners = set(result.get("winners") or [])
    return lambda seat: 1.0 if seat in winners else 0.0


def refill_unseen(zones: list[list], rand, known=()) -> None:
    """Deal the cards of `zones` (lists in a copied state, each hidden from the searching seat)
    back into them at random, each zone keeping its size: what a determinization does to the
    cards a seat cannot see. Cards in `known` (say, the options of the seat's own prompt) stay
    where they are. The pool is sorted first, so the result depends on the multiset of unseen
    cards and the zones' sizes only, never on which hidden card was where."""
    known = set(map(canonical_json, known))
    pool = sorted((card for zone in zones for card in zone if canonical_json(card) not in known), key=canonical_json)
    rand.shuffle(pool)
    for zone in zones:
        zone[:] = [card if canonical_json(card) in known else pool.pop() for card in zone]
