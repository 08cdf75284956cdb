"""Cybermen bot figures: how matches end, escapes, conversions, Cyberleaders, win shares.

    .venv/bin/python bench/balance_cybermen.py [matches per line, default 20]
"""

import random
import sys
from collections import Counter

from domain.games.cybermen import RULESET
from domain.kernel.rng import RandomStream


def play(seats, seed, bots):
    rand = random.Random(seed)
    key = rand.randbytes(32)
    state = RULESET.setup({}, [f"p{i}" for i in range(seats)], RandomStream(key, "bench", 1))
    seq = 2
    while RULESET.outcome(state) is None:
        (seat,) = RULESET.to_act(state)
        action = RULESET.bots[bots[seat % len(bots)]](state, seat, rand)
        for fact in RULESET.decide(state, seat, action, RandomStream(key, "bench", seq)):
            state = RULESET.evolve(state, fact)
        seq += 1
    return state


def main(matches):
    for bots in (("greedy",), ("random",), ("greedy", "random")):
        for seats in (2, 4, 6):
            tally = Counter()
            for seed in range(matches):
                state = play(seats, seed, bots)
                result = RULESET.outcome(state)
                tally[result["reason"]] += 1
                tally["escaped"] += sum(result["escaped"])
                tally["converted"] += sum(result["converted"])
                tally["cyberleader"] += result["cyberleader"] is not None
                for winner in result["winners"]:
                    tally[f"wins_{bots[winner % len(bots)]}_seat"] += 1
            print("/".join(bots), seats, "players:", dict(sorted(tally.items())))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
