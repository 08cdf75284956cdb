"""Cybermen bot figures: how matches end, escapes, conversions, Cyberleaders, win shares, and
each group's win rate (won or shared) with its 95 % Wilson interval, by player count.

    .venv/bin/python bench/balance_cybermen.py [matches per line, default 20]

A group is a seat's (seat 0 is always The Happy Couple, seat 1 The Best Man's Lot, ...), so a
group's rate is also that seat's: this is the table an analyst's balance report shows.
"""

import random
import sys
from collections import Counter

from domain.games.cybermen import RULESET
from domain.games.cybermen.data import DATA
from domain.kernel.rng import RandomStream
from projections.uncertainty import difference, win_rate


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
        for seats in (2, 3, 4, 6):
            tally, group_wins = Counter(), Counter()
            for seed in range(matches):
                result = RULESET.outcome(play(seats, seed, bots))
                tally[result["reason"]] += 1
                tally["escaped"] += sum(result["escaped"])
                tally["converted"] += sum(result["converted"])
                tally["cyberleader"] += result["cyberleader"] is not None
                tally["all_tied"] += len(result["winners"]) == seats
                for winner in result["winners"]:
                    tally[f"wins_{bots[winner % len(bots)]}_seat"] += 1
                    group_wins[winner] += 1
            print("/".join(bots), seats, "players:", dict(sorted(tally.items())))
            if bots == ("greedy",):
                rates = {DATA["groups"][s]["name"]: win_rate(group_wins[s], matches) for s in range(seats)}
                for name, rate in rates.items():
                    print(f"    {name:<20} won or shared {rate['wins']:>4} of {matches}"
                          f"  {rate['rate']:.0%}  (95 % {rate['ci95'][0]:.0%}-{rate['ci95'][1]:.0%})")
                print("    " + difference(rates)["verdict"])


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
