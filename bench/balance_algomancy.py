"""Algomancy balance by element: greedy bot against greedy bot, 1v1 constructed, each
element's designed 32-card deck against every other.

    .venv/bin/python bench/balance_algomancy.py [matches per pair]      (default 10)

Within each pair the elements swap seats every other match, so seat and element effects are
told apart. Prints each element's win rate with its sample size (draws count half), the
initiative player's win rate, how matches ended and the mean number of turns.
"""

import json
import random
import sys
from collections import Counter
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.games.algomancy import RULESET  # noqa: E402
from domain.games.algomancy.cards import ELEMENTS  # noqa: E402
from domain.kernel.rng import RandomStream  # noqa: E402


def play(seed: int, elements: list[str]) -> dict:
    rand = random.Random(seed)
    key = rand.randbytes(32)
    state = RULESET.setup({"decks": {"0": elements[0], "1": elements[1]}}, ["a", "b"], RandomStream(key, "bal", 1))
    seq = 1
    while RULESET.outcome(state) is None:
        seq += 1
        seat = rand.choice(sorted(RULESET.to_act(state)))
        action = RULESET.bots["greedy"](state, seat, rand)
        for fact in RULESET.decide(state, seat, action, RandomStream(key, "bal", seq)):
            state = RULESET.evolve(state, fact)
    return RULESET.outcome(state) | {"first": state["first"], "turns": state["turn"], "actions": seq}


def main(per_pair: int) -> dict:
    wins, games, reasons, turns, first_wins, matches = Counter(), Counter(), Counter(), [], 0.0, 0
    for a, b in combinations(ELEMENTS, 2):
        for i in range(per_pair):
            elements = [a, b] if i % 2 == 0 else [b, a]
            result = play(ELEMENTS.index(a) * 10_000 + ELEMENTS.index(b) * 1_000 + i, elements)
            matches += 1
            for element in elements:
                games[element] += 1
            if result["winners"]:
                wins[elements[result["winners"][0]]] += 1
                first_wins += result["first"] in result["winners"]
            else:
                wins[a] += 0.5
                wins[b] += 0.5
                first_wins += 0.5
            reasons[result["reason"]] += 1
            turns.append(result["turns"])
    return {"matches": matches,
            "win_rate_by_element": {e: {"win_rate": round(wins[e] / games[e], 3), "games": games[e]} for e in ELEMENTS},
            "initiative_player_win_rate": round(first_wins / matches, 3), "endings": dict(reasons),
            "mean_turns": round(sum(turns) / len(turns), 1)}


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]) if len(sys.argv) > 1 else 10), indent=1))
