"""Cybermen at two seats (issue 29): greedy v greedy with the groups swapped between the seats for
half the matches; ties, the first seat's share of the decided matches (95 % Wilson interval),
attacks, sabotage attempts and conversions a match, the safety end (round limit), and how often
greedy chooses each action type.

    .venv/bin/python bench/cybermen_two_seats.py [matches, default 200] [--workers 1] [--seats 2]

With --seats 3 to 6 it prints the same figures for greedy play at that many seats (groups not
swapped there: the first-seat share is then only the first seat's share of sole wins).

The groups are swapped by relabelling: for odd seeds seat 0 plays The Best Man's Lot and seat 1
The Happy Couple (the data's group list is reordered for that match's set-up only).
"""

import argparse
import multiprocessing
import random
from collections import Counter

from domain.games.cybermen import RULESET
from domain.games.cybermen import data as cdata
from domain.kernel.rng import RandomStream
from projections.uncertainty import win_rate


def play(seed, seats=2):
    groups = list(cdata.DATA["groups"])
    swapped = seats == 2 and seed % 2 == 1
    if swapped:  # the groups change seats: seat 0 plays group 1 and seat 1 group 0
        cdata.DATA["groups"][0], cdata.DATA["groups"][1] = groups[1], groups[0]
    try:
        rand = random.Random(seed)
        key = rand.randbytes(32)
        state = RULESET.setup({}, [f"p{i}" for i in range(seats)], RandomStream(key, "bench", 1))
        seq, kinds, facts = 2, Counter(), Counter()
        while RULESET.outcome(state) is None:
            (seat,) = RULESET.to_act(state)
            action = RULESET.bots["greedy"](state, seat, rand)
            kinds[action["type"]] += 1
            for fact in RULESET.decide(state, seat, action, RandomStream(key, "bench", seq)):
                facts[fact["f"]] += 1
                if fact["f"] == "sabotage":
                    facts["sabotage_won" if fact["success"] else "sabotage_lost"] += 1
                state = RULESET.evolve(state, fact)
            seq += 1
    finally:
        cdata.DATA["groups"][0], cdata.DATA["groups"][1] = groups[0], groups[1]
    return RULESET.outcome(state), kinds, facts, swapped


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("matches", type=int, nargs="?", default=200)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seats", type=int, default=2)
    args = parser.parse_args()
    with multiprocessing.Pool(args.workers) as pool:
        results = pool.starmap(play, [(seed, args.seats) for seed in range(args.matches)])
    ties = seat0 = decided = 0
    group_wins = Counter()
    reasons, kinds, facts = Counter(), Counter(), Counter()
    for outcome, k, f, swapped in results:
        reasons[outcome["reason"]] += 1
        kinds.update(k)
        facts.update(f)
        if len(outcome["winners"]) != 1:
            ties += 1
            continue
        decided += 1
        (winner,) = outcome["winners"]
        seat0 += winner == 0
        group_wins[winner ^ swapped] += 1
    n = args.matches
    share = win_rate(seat0, decided) if decided else None
    print(f"{n} greedy matches at {args.seats} seats" + (", groups swapped for half" if args.seats == 2 else ""))
    print(f"  ties {ties} ({ties / n:.0%}); decided {decided}: seat 0 won {seat0}"
          + (f" = {share['rate']:.0%} (95 % {share['ci95'][0]:.0%}-{share['ci95'][1]:.0%})" if share else ""))
    if args.seats == 2:
        print(f"  by group: Happy Couple {group_wins[0]}, Best Man's Lot {group_wins[1]}")
    print(f"  ends: {dict(reasons)}  (round_limit: the host's end after round 12)")
    print(f"  a match: attacks {facts['attack'] / n:.1f}, sabotage attempts {facts['sabotage'] / n:.1f} "
          f"(won {facts['sabotage_won'] / n:.1f}), captures {facts['capture'] / n:.1f}, "
          f"conversions {facts['convert'] / n:.1f}, escapes {facts['escape'] / n:.1f}")
    total = sum(kinds.values())
    print("  greedy's actions by type (share of all its actions, a match):")
    for kind, count in kinds.most_common():
        print(f"    {kind:<13} {count / total:6.1%}  {count / n:7.1f}")


if __name__ == "__main__":
    main()
