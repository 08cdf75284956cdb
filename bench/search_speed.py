"""The search bot's speed at a fixed budget, per game, and the moves it chose (issue 32).

Measured as bench/games.py `search_decisions` measures `search_decisions_per_s` (the seat to
act every fifth action of a match, when it has a choice; the states reached outside the
timing; decisions a second and the 95th percentile of a decision's wall time), except that
the clock is lifted (milliseconds=None): each decision plays the game's whole playout budget,
so a faster search shows as more decisions a second, not as more playouts in the same time,
and the moves chosen depend on nothing but (state, seat, rand). The matches are played by the
random bot and, where the game has one, the greedy bot, a fixed number of decisions each.

    nice -n 10 .venv/bin/python bench/search_speed.py [--games herocard,cyberiad] [--decisions 24]
        [--out after.json] [--against before.json]

--out writes the figures and every decision's chosen move (its canonical JSON's sha256);
--against compares them with an earlier run's: the ratio of decisions a second, and whether
every move is the same (exit status 1 when one is not).
"""

import argparse
import hashlib
import json
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import domain.games as games  # noqa: E402
from domain.kernel.canonical import canonical_json  # noqa: E402
from domain.kernel.rng import RandomStream  # noqa: E402
from domain.kernel.search import SearchBot  # noqa: E402

MAX_ACTIONS = 100_000


def decisions_of(ruleset, seats: int, policy: str, count: int):
    """(label, state, seat) for `count` decisions of `policy` matches: the seat to act every
    fifth action when it has more than one legal move, as bench/games.py chooses them."""
    found, match = 0, 0
    while True:
        rand = random.Random(f"{ruleset.name}-{policy}-{match}")
        key = rand.randbytes(32)
        state = ruleset.setup({}, [f"bot{i}" for i in range(seats)], RandomStream(key, "bench", 1))
        for seq in range(2, MAX_ACTIONS):
            if ruleset.outcome(state) is not None:
                break
            seat = rand.choice(sorted(ruleset.to_act(state)))
            if seq % 5 == 0 and len(ruleset.legal_actions(state, seat)) > 1:
                yield f"{policy}-{match}-{seq}", state, seat
                found += 1
                if found == count:
                    return
            for fact in ruleset.decide(state, seat, ruleset.bots[policy](state, seat, rand),
                                       RandomStream(key, "bench", seq)):
                state = ruleset.evolve(state, fact)
        match += 1


def measure(ruleset, decisions: int) -> dict:
    """The search bot at the game's budget, the clock lifted, over `decisions` decisions split
    between random and greedy matches."""
    seats = max(ruleset.min_seats, 2) if ruleset.max_seats >= 2 else ruleset.min_seats
    bot = SearchBot(ruleset, **{**ruleset.search_settings, "milliseconds": None})
    policies = ["random", "greedy"] if "greedy" in ruleset.bots else ["random"]
    times, moves, cpu = [], {}, 0.0
    for policy in policies:
        for label, state, seat in decisions_of(ruleset, seats, policy, decisions // len(policies)):
            rand = random.Random(f"search-{label}")
            started, started_cpu = time.perf_counter(), time.process_time()
            action = bot(state, seat, rand)
            times.append(time.perf_counter() - started)
            cpu += time.process_time() - started_cpu
            moves[label] = hashlib.sha256(canonical_json(action)).hexdigest()[:16]
    ordered = sorted(times)
    return {"decisions_per_s": round(len(times) / sum(times), 2), "cpu_decisions_per_s": round(len(times) / cpu, 2),
            "decisions": len(times), "p95_reply_ms": round(ordered[min(len(times) - 1, int(len(times) * 0.95))] * 1000),
            "settings": {k: v for k, v in ruleset.search_settings.items() if k != "challengers"}, "moves": moves}


def compare(now: dict, before: dict) -> bool:
    """Print before/after/ratio per game; whether every move matched."""
    same_everywhere = True
    for game, row in now.items():
        old = before.get(game)
        if old is None:
            continue
        differing = [label for label in row["moves"] if old["moves"].get(label) != row["moves"][label]]
        same_everywhere &= not differing
        print(f"{game:12} before {old['decisions_per_s']:7.2f}/s  after {row['decisions_per_s']:7.2f}/s  "
              f"ratio {row['decisions_per_s'] / old['decisions_per_s']:.2f}  (cpu ratio "
              f"{row['cpu_decisions_per_s'] / old['cpu_decisions_per_s']:.2f}; p95 {old['p95_reply_ms']} -> "
              f"{row['p95_reply_ms']} ms)  moves: {len(row['moves']) - len(differing)} of {len(row['moves'])} the same")
    return same_everywhere


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default=None)
    parser.add_argument("--decisions", type=int, default=24)
    parser.add_argument("--out", default=None)
    parser.add_argument("--against", default=None)
    args = parser.parse_args()
    wanted = args.games.split(",") if args.games else None
    report = {}
    for ruleset in games.all_latest():
        if wanted is None or ruleset.name in wanted:
            report[ruleset.name] = row = measure(ruleset, args.decisions)
            print(ruleset.name, json.dumps({k: v for k, v in row.items() if k != "moves"}), flush=True)
    if args.out:
        with open(args.out, "w") as out:
            json.dump(report, out, indent=1, sort_keys=True)
    if args.against:
        with open(args.against) as before:
            if not compare(report, json.load(before)):
                sys.exit(1)


if __name__ == "__main__":
    main()
