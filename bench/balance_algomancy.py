"""Algomancy balance by element: greedy bot against greedy bot, 1v1 constructed, each
element's designed 32-card deck against every other.

    .venv/bin/python bench/balance_algomancy.py [matches per pair] [--bots random]   (default 10, greedy)

Within each pair the elements swap seats every other match, so seat and element effects are
told apart. Prints each element's win rate with its sample size (draws count half), the
initiative player's win rate, how matches ended (`turn_limit` is the designed safety end)
and the mean number of turns; and what the bots did: the share of each action type chosen,
and activated abilities, ambushes and mods per game by element (REVIEW.md 7: a mechanic no
bot uses leaves its cards untested in play).
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

MECHANICS = ("activate", "ambush", "mod")


def play(seed: int, elements: list[str], bot: str = "greedy") -> dict:
    rand = random.Random(seed)
    key = rand.randbytes(32)
    state = RULESET.setup({"decks": {"0": elements[0], "1": elements[1]}}, ["a", "b"], RandomStream(key, "bal", 1))
    seq, chosen = 1, [Counter(), Counter()]
    while RULESET.outcome(state) is None:
        seq += 1
        seat = rand.choice(sorted(RULESET.to_act(state)))
        action = RULESET.bots[bot](state, seat, rand)
        chosen[seat][action["type"]] += 1
        for fact in RULESET.decide(state, seat, action, RandomStream(key, "bal", seq)):
            state = RULESET.evolve(state, fact)
    return RULESET.outcome(state) | {"first": state["first"], "turns": state["turn"], "actions": seq,
                                     "chosen": chosen}


def main(per_pair: int, bot: str = "greedy") -> dict:
    wins, games, reasons, turns, first_wins, matches = Counter(), Counter(), Counter(), [], 0.0, 0
    mix, used = Counter(), {e: Counter() for e in ELEMENTS}
    for a, b in combinations(ELEMENTS, 2):
        for i in range(per_pair):
            elements = [a, b] if i % 2 == 0 else [b, a]
            result = play(ELEMENTS.index(a) * 10_000 + ELEMENTS.index(b) * 1_000 + i, elements, bot)
            matches += 1
            for seat, element in enumerate(elements):
                games[element] += 1
                mix.update(result["chosen"][seat])
                used[element].update({k: result["chosen"][seat][k] for k in MECHANICS})
            if result["winners"]:
                wins[elements[result["winners"][0]]] += 1
                first_wins += result["first"] in result["winners"]
            else:
                wins[a] += 0.5
                wins[b] += 0.5
                first_wins += 0.5
            reasons[result["reason"]] += 1
            turns.append(result["turns"])
    total = sum(mix.values())
    return {"bots": bot, "matches": matches,
            "win_rate_by_element": {e: {"win_rate": round(wins[e] / games[e], 3), "games": games[e]} for e in ELEMENTS},
            "initiative_player_win_rate": round(first_wins / matches, 3), "endings": dict(reasons),
            "safety_end_rate": round(reasons["turn_limit"] / matches, 3),
            "mean_turns": round(sum(turns) / len(turns), 1),
            "action_share": {k: round(v / total, 4) for k, v in mix.most_common()},
            "per_game_by_element": {e: {k: round(used[e][k] / games[e], 2) for k in MECHANICS} for e in ELEMENTS}}


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    chosen_bot = sys.argv[sys.argv.index("--bots") + 1] if "--bots" in sys.argv else "greedy"
    args = [a for a in args if a != chosen_bot]
    print(json.dumps(main(int(args[0]) if args else 10, chosen_bot), indent=1))
