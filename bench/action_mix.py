"""What greedy v greedy play looks like in every hosted game: the share of each action type
chosen, matches per second, and how often a match ends at a designed safety end.

    python bench/action_mix.py                  # default matches per game (a few minutes at most)
    python bench/action_mix.py --matches 400 --game cybermen

Each match is played in memory (rules only, as bench/games.py) at the game's smallest
multiplayer table (2 seats, or the minimum when a game needs more), both seats by the
`greedy` bot, from set-up to outcome. A seat to act is drawn at random when several may.
Matches are spread over worker processes (one a core by default); each match's seed is its
number, so a run is repeatable.

A *safety end* is an end a game designs so that play cannot go on for ever, not one of its
rulebook's ends (each game's README says which):
- HeroCard: `turn_limit` (README 23, 400 turns); Algomancy: `turn_limit` (README 23);
- Cybermen: `round_limit` (data.json `round_limit`);
- Cybermancy: `stalemate` (10 rounds without an attack) and `no_creatures_left` (README 13);
- Cyberiad and Cyberspace have none (every end is the rulebook's: README 28 for Cyberspace).
Every outcome reason is reported too, so a new end shows up here.
"""

import argparse
import json
import multiprocessing
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import domain.games as games  # noqa: E402  (registers every ruleset)
from domain.kernel.rng import RandomStream  # noqa: E402

GAMES = ["cyberiad", "cybermancy", "herocard", "cyberspace", "algomancy", "cybermen"]
SAFETY_ENDS = {
    "cyberiad": set(),
    "cybermancy": {"stalemate", "no_creatures_left"},
    "herocard": {"turn_limit"},
    "cyberspace": set(),
    "algomancy": {"turn_limit"},
    "cybermen": {"round_limit"},
}
MAX_ACTIONS = 100_000  # a match longer than this is a bug in the game, not a result
# Default matches per game, fewer where a match is slow (Cyberspace's greedy bot: ~0.2 matches/s
# a core, the rest 2-20/s): the whole run stays within ~3 minutes on two busy cores.
DEFAULT_MATCHES = {"cyberiad": 100, "cybermancy": 200, "herocard": 200, "cyberspace": 20,
                   "algomancy": 50, "cybermen": 100}


def table(ruleset) -> int:
    return max(ruleset.min_seats, 2) if ruleset.max_seats >= 2 else ruleset.min_seats


def play(job: tuple[str, int, str]) -> tuple[str, Counter, str, int, float]:
    """One match of `kind` bots at every seat: (game, action types chosen, outcome reason,
    actions, seconds)."""
    game, seed, kind = job
    ruleset = games.latest(game)
    seats = table(ruleset)
    started = time.perf_counter()
    rand = random.Random(seed)
    key = rand.randbytes(32)
    state = ruleset.setup({}, [f"bot{i}" for i in range(seats)], RandomStream(key, "mix", 1))
    bot = ruleset.bots[kind]
    chosen = Counter()
    for seq in range(2, MAX_ACTIONS):
        outcome = ruleset.outcome(state)
        if outcome is not None:
            return game, chosen, outcome.get("reason", "?"), seq - 2, time.perf_counter() - started
        seat = rand.choice(sorted(ruleset.to_act(state)))
        action = bot(state, seat, rand)
        chosen[action.get("type", "?")] += 1
        for fact in ruleset.decide(state, seat, action, RandomStream(key, "mix", seq)):
            state = ruleset.evolve(state, fact)
    raise RuntimeError(f"{game}: a {kind} match (seed {seed}) did not end in {MAX_ACTIONS} actions")


def wilson(hits: int, n: int, z: float = 1.96) -> list[float]:
    if n == 0:
        return [0.0, 1.0]
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return [round(max(0.0, centre - half), 3), round(min(1.0, centre + half), 3)]


def measure(names: list[str], matches: dict[str, int], kind: str, workers: int, seed: int) -> dict:
    # the slowest games (the fewest default matches) first, so the workers finish together
    slow_first = sorted(names, key=lambda game: DEFAULT_MATCHES[game])
    jobs = [(game, seed * 1_000_003 + n, kind) for game in slow_first for n in range(matches[game])]
    per_game = {game: {"actions": Counter(), "reasons": Counter(), "match_seconds": 0.0, "count": 0}
                for game in names}
    started = time.perf_counter()
    pool = multiprocessing.get_context("fork").Pool(workers) if workers > 1 else None
    try:
        for game, chosen, reason, _, seconds in (pool.imap_unordered(play, jobs, chunksize=1) if pool
                                                 else map(play, jobs)):
            tally = per_game[game]
            tally["actions"].update(chosen)
            tally["reasons"][reason] += 1
            tally["match_seconds"] += seconds
            tally["count"] += 1
    finally:
        if pool:
            pool.close()
            pool.join()
    report = {}
    for game, tally in per_game.items():
        total = sum(tally["actions"].values())
        safety = sum(n for reason, n in tally["reasons"].items() if reason in SAFETY_ENDS[game])
        report[game] = {
            "seats": table(games.latest(game)), "bots": kind, "matches": tally["count"],
            # one core's rate: matches over the summed wall time of this game's matches
            "matches_per_s_one_core": round(tally["count"] / tally["match_seconds"], 2),
            "actions_per_match": round(total / max(tally["count"], 1), 1),
            "action_share": {t: round(n / total, 4) for t, n in tally["actions"].most_common()},
            "outcome_reasons": dict(tally["reasons"].most_common()),
            "safety_end_reasons": sorted(SAFETY_ENDS[game]),
            "safety_ends": safety,
            "safety_end_rate": round(safety / max(tally["count"], 1), 4),
            "safety_end_rate_95": wilson(safety, tally["count"]),
        }
    report["_run"] = {"workers": workers, "seed": seed, "seconds": round(time.perf_counter() - started, 1)}
    return report


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, help="matches per game (default: a small number per game)")
    parser.add_argument("--game", action="append", choices=GAMES, help="only this game (repeatable)")
    parser.add_argument("--bot", default="greedy", help="bot kind at every seat (default greedy)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    names = args.game or GAMES
    matches = {game: args.matches or DEFAULT_MATCHES[game] for game in names}
    print(json.dumps(measure(names, matches, args.bot, args.workers, args.seed), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
