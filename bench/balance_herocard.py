"""HeroCard balance: each Hero against each other Hero, greedy bot against greedy bot.

    .venv/bin/python bench/balance_herocard.py [matches per pairing] [hero hero]     (default 1000, all six)

Each of the six pairings (or the one named) plays `matches` duels, the two Heroes swapping
seats every other match (the first player is drawn at random as the rulebook says). Prints
each Hero's overall win rate with its 95 % Wilson interval, every pairing's figures, the
first player's win rate, how the duels ended (`turn_limit`: the designed safety end) and
their mean length in turns, and how often the greedy bot chose each action type (a discard
or a clear of no card counted apart), as JSON.
"""

import itertools
import json
import math
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.games.herocard import RULESET  # noqa: E402
from domain.games.herocard.cards import HEROES  # noqa: E402
from domain.kernel.rng import RandomStream  # noqa: E402


def kind_of(action):
    """The action type, a discard or clear of nothing told apart (they are the usual pass)."""
    if action["type"] in ("discard", "clear") and not action.get("cards", action.get("stacks", [None])) \
            and "card" not in action:
        return action["type"] + " (none)"
    return action["type"]


def play(seed, heroes, chosen=None):
    rand = random.Random(seed)
    key = rand.randbytes(32)
    state = RULESET.setup({"heroes": heroes}, ["a", "b"], RandomStream(key, "bal", 1))
    seq = 1
    while RULESET.outcome(state) is None:
        seq += 1
        (seat,) = RULESET.to_act(state)
        action = RULESET.bots["greedy"](state, seat, rand)
        if chosen is not None:
            chosen[kind_of(action)] += 1
        for fact in RULESET.decide(state, seat, action, RandomStream(key, "bal", seq)):
            state = RULESET.evolve(state, fact)
    return RULESET.outcome(state) | {"first": state["duel"]["first"]}


def wilson(wins, n, z=1.96):
    if n == 0:
        return [0.0, 0.0]
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return [round(centre - half, 3), round(centre + half, 3)]


def main(matches, only=None):
    started = time.time()
    wins, games, first_wins, reasons, turns, chosen = Counter(), Counter(), 0, Counter(), [], Counter()
    pairings = {}
    for a, b in itertools.combinations(sorted(HEROES), 2):
        if only and {a, b} != set(only):
            pairings[f"{a} v {b}"] = None  # keeps the seeds of the pairings that do run
            continue
        won = Counter()
        for i in range(matches):
            heroes = [a, b] if i % 2 == 0 else [b, a]
            result = play(i * 7919 + len(pairings) * 104729, heroes, chosen)
            reasons[result["reason"]] += 1
            turns.append(result["turns"])
            first_wins += result["first"] in result["winners"]
            for seat, hero in enumerate(heroes):
                games[hero] += 1
                wins[hero] += seat in result["winners"]
                won[hero] += seat in result["winners"]
        pairings[f"{a} v {b}"] = {a: won[a], b: won[b], "matches": matches, f"{a}_rate": round(won[a] / matches, 3),
                                  "interval": wilson(won[a], matches)}
    total = sum(reasons.values())
    pairings = {k: v for k, v in pairings.items() if v is not None}
    actions = sum(chosen.values())
    return {
        "matches": total, "matches_per_pairing": matches,
        "heroes": {h: {"wins": wins[h], "games": games[h], "rate": round(wins[h] / games[h], 3),
                       "interval95": wilson(wins[h], games[h])} for h in sorted(HEROES) if games[h]},
        "pairings": pairings,
        "first_player_rate": round(first_wins / total, 3), "first_player_interval95": wilson(first_wins, total),
        "end_reasons": dict(reasons), "mean_turns": round(sum(turns) / total, 1),
        "greedy_actions": {k: {"count": n, "share": round(n / actions, 4), "per_duel": round(n / total, 2)}
                           for k, n in chosen.most_common()},
        "seconds": round(time.time() - started, 1),
    }


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000, sys.argv[2:4] or None), indent=2))
