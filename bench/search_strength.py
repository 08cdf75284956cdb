"""The search bot against the random and greedy bots, per game (issue 18's acceptance): N
two-seat matches a pairing with fixed seeds, the search bot's seat alternating, on all cores.
Prints wins / matches with a 95 % Wilson interval and the search bot's decisions per second.

    .venv/bin/python bench/search_strength.py [--matches 50] [--games cyberiad,herocard]
                                              [--playouts 100] [--depth 12] [--workers 2]
"""

import argparse
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import domain.games as games  # noqa: E402
from domain.kernel.rng import RandomStream  # noqa: E402
from domain.kernel.ruleset import latest  # noqa: E402
from domain.kernel.search import SearchBot  # noqa: E402
from projections.uncertainty import win_rate  # noqa: E402

MAX_ACTIONS = 20_000


def one_match(game: str, opponent: str, seed: int, playouts: int, depth: int, policy: str) -> tuple[bool, int, float]:
    """(the search bot won, its decisions, seconds it spent) for one match with fixed seed."""
    ruleset = latest(game)
    search = SearchBot(ruleset, playouts=playouts, depth=depth, policy=policy)
    rand = random.Random(seed)
    key = rand.randbytes(32)
    state = ruleset.setup({}, ["p0", "p1"], RandomStream(key, "strength", 1))
    me, decisions, spent = seed % 2, 0, 0.0
    for seq in range(2, MAX_ACTIONS):
        if ruleset.outcome(state) is not None:
            break
        seat = rand.choice(sorted(ruleset.to_act(state)))
        if seat == me:
            started = time.perf_counter()
            action = search(state, seat, rand)
            spent += time.perf_counter() - started
            decisions += 1
        else:
            action = ruleset.bots[opponent](state, seat, rand)
        for fact in ruleset.decide(state, seat, action, RandomStream(key, "strength", seq)):
            state = ruleset.evolve(state, fact)
    result = ruleset.outcome(state)
    return me in ((result or {}).get("winners") or []), decisions, spent


def strength(game, opponent, matches, playouts, depth, workers, policy="random") -> dict:
    with ProcessPoolExecutor(workers) as pool:
        results = list(pool.map(one_match, [game] * matches, [opponent] * matches, range(matches),
                                [playouts] * matches, [depth] * matches, [policy] * matches))
    wins = sum(won for won, _, _ in results)
    decisions = sum(d for _, d, _ in results)
    spent = sum(s for _, _, s in results)
    return {"game": game, "opponent": opponent, **win_rate(wins, matches),
            "decisions_per_s": round(decisions / spent, 1) if spent else None}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--games", default=",".join(r.name for r in games.all_latest()))
    parser.add_argument("--opponents", default="random,greedy")
    parser.add_argument("--playouts", type=int, default=SearchBot.DEFAULT_PLAYOUTS)
    parser.add_argument("--depth", type=int, default=SearchBot.DEFAULT_DEPTH)
    parser.add_argument("--workers", type=int, default=os.cpu_count())
    parser.add_argument("--policy", default=SearchBot.DEFAULT_POLICY, help="the playout bot")
    args = parser.parse_args()
    for game in args.games.split(","):
        for opponent in args.opponents.split(","):
            if opponent not in latest(game).bots:
                print(f"{game}: no {opponent} bot")
                continue
            started = time.perf_counter()
            row = strength(game, opponent, args.matches, args.playouts, args.depth, args.workers, args.policy)
            print(f"{game:<11} search v {opponent:<7} {row['wins']:>3}/{row['n']} = {row['rate']:.0%} "
                  f"(95 % {row['ci95'][0]:.0%}-{row['ci95'][1]:.0%}) · {row['decisions_per_s']} decisions/s "
                  f"· {time.perf_counter() - started:.0f} s", flush=True)


if __name__ == "__main__":
    main()
