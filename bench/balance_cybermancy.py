"""Cybermancy balance: greedy bot against greedy bot with the suggested decks.

    .venv/bin/python bench/balance_cybermancy.py [matches]      (default 2000)

Factions swap seats every other match, so seat and faction effects are told apart.
Prints the win rate of each faction and of the first player, how matches ended (draws by the
designed guards included), how many had 5+ rounds in a row without an attack, the power left
unspent on the table at the end, and the mean number of rounds.
"""

import json
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.games.cybermancy import RULESET  # noqa: E402
from domain.games.cybermancy.cards import POWER_VALUE, SUGGESTED  # noqa: E402
from domain.kernel.rng import RandomStream  # noqa: E402


def play(seed: int, decks: list[list[str]]) -> dict:
    rand = random.Random(seed)
    key = rand.randbytes(32)
    state = RULESET.setup({"decks": {"0": decks[0], "1": decks[1]}}, ["a", "b"], RandomStream(key, "bal", 1))
    seq, longest_quiet = 1, 0
    while RULESET.outcome(state) is None:
        seq += 1
        (seat,) = RULESET.to_act(state)
        action = RULESET.bots["greedy"](state, seat, rand)
        for fact in RULESET.decide(state, seat, action, RandomStream(key, "bal", seq)):
            state = RULESET.evolve(state, fact)
        longest_quiet = max(longest_quiet, state["quiet_rounds"])
    unspent = [sum(POWER_VALUE[c] for c in p["cpu"] + p["ram"]) for p in state["players"]]
    return RULESET.outcome(state) | {"first": state["first"], "longest_quiet": longest_quiet, "unspent": unspent}


def main(matches: int) -> dict:
    wins, first_wins, reasons, rounds, quiet5, unspent = Counter(), 0, Counter(), [], 0, []
    for seed in range(matches):
        factions = ["human", "undead"] if seed % 2 == 0 else ["undead", "human"]
        result = play(seed, [SUGGESTED[f] for f in factions])
        for winner in result["winners"]:  # a draw (no winners) counts for nobody
            wins[factions[winner]] += 1 / len(result["winners"])
            first_wins += (result["first"] == winner) / len(result["winners"])
        reasons[result["reason"]] += 1
        rounds.append(result["rounds"])
        quiet5 += result["longest_quiet"] >= 5
        unspent += result["unspent"]
    return {"matches": matches, "human_win_rate": round(wins["human"] / matches, 3),
            "undead_win_rate": round(wins["undead"] / matches, 3),
            "first_player_win_rate": round(first_wins / matches, 3), "endings": dict(reasons),
            "draw_rate": round((matches - sum(reasons[r] for r in reasons if r == "cybermancer_defeated")) / matches, 4),
            "matches_with_5_quiet_rounds": quiet5,
            "mean_unspent_power_at_end": round(sum(unspent) / len(unspent), 1),
            "mean_rounds": round(sum(rounds) / len(rounds), 1)}


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000), indent=2))
