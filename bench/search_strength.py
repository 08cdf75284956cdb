"""The search bot against the random and greedy bots, per game (issue 18's acceptance): N
two-seat matches a pairing with fixed seeds, the search bot's seat alternating, on all cores.
Prints wins / matches with a 95 % Wilson interval and the search bot's decisions per second.

    .venv/bin/python bench/search_strength.py [--matches 50] [--games cyberiad,herocard]
        [--opponents random,greedy] [--playouts 48] [--width 6] [--depth 40] [--workers 2]
        [--first-seed 0] [--verbose] [--bar 0.6] [--milliseconds 0] [--paired 2000]

Without --playouts, --width or --depth each game plays with its own search settings. The search
stops at the served bot's wall time a decision (SearchBot.DEFAULT_MILLISECONDS) unless
--milliseconds says otherwise; --milliseconds 0 lifts the clock, so that the playouts alone
bound a decision and a result does not depend on the machine's load. Each match
is printed as it ends with --verbose, so a run that stops part-way still tells what it saw.
With --bar a pairing stops as soon as its result against that win rate is decided: the wins
already reach ceil(bar x matches), or the matches left cannot bring them there (the row then
counts the matches played, and says it stopped).

With --paired N each match is also played with the opponent's bot in the search bot's seat
(the *base* match: same seed, so the same dice at the same action numbers), and the
opponent's bot against itself over N further seeds (from 1,000,000 on, apart from the
paired ones). A match's dice decide much of it: the greedy bot in the search bot's seat
wins 19 of Cybermen's seeds 700-759 and 19 of seeds 500-539 against greedy, but 44.4 % of
2,000 seeds from 1,000,000 on. So a rate over a few dozen seeds says as much about the seeds
as about the search. The paired estimate is the base rate over the N seeds plus the search's
mean gain over its base match on the same seeds (common random numbers with a control
variate): the same expectation as the plain rate, with an interval that holds the seeds'
luck out of it.
"""

import argparse
import math
import multiprocessing
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import domain.games as games  # noqa: E402
from domain.kernel.rng import RandomStream  # noqa: E402
from domain.kernel.ruleset import latest  # noqa: E402
from domain.kernel.search import SearchBot  # noqa: E402
from projections.uncertainty import Z95, win_rate  # noqa: E402

MAX_ACTIONS = 20_000


def one_match(game: str, opponent: str, seed: int, base: bool = False, **settings) -> tuple[str, int, float]:
    """("win", "tie" or "loss" for the search bot, its decisions, seconds it spent) for one
    match with a fixed seed. A tie is a shared win, as the rules of several games have it.
    `settings` override the game's own search settings (playouts, width, depth, policy).
    With `base` the search bot's seat is played by the opponent's bot: the same match's dice
    without the search (the paired estimate's control)."""
    ruleset = latest(game)
    search = None if base else SearchBot(ruleset, **{**ruleset.search_settings, **settings})
    rand = random.Random(seed)
    key = rand.randbytes(32)
    state = ruleset.setup({}, ["p0", "p1"], RandomStream(key, "strength", 1))
    me, decisions, spent = seed % 2, 0, 0.0
    for seq in range(2, MAX_ACTIONS):
        if ruleset.outcome(state) is not None:
            break
        seat = rand.choice(sorted(ruleset.to_act(state)))
        if seat == me and search is not None:
            started = time.perf_counter()
            action = search(state, seat, rand)
            spent += time.perf_counter() - started
            decisions += 1
        else:
            action = ruleset.bots[opponent](state, seat, rand)
        for fact in ruleset.decide(state, seat, action, RandomStream(key, "strength", seq)):
            state = ruleset.evolve(state, fact)
    winners = (ruleset.outcome(state) or {}).get("winners") or []
    return ("win" if winners == [me] else "tie" if me in winners else "loss"), decisions, spent


BASE_SEEDS = 1_000_000  # the base rate's seeds start here, apart from any paired seed


def paired_estimate(results: list[str], bases: list[str], base_wins: int, base_n: int) -> dict:
    """The search bot's win rate as the base rate (its opponent's bot against itself:
    `base_wins` of `base_n`, on seeds apart) plus the mean gain of each match over its base
    match (`results[i]` and `bases[i]` share a seed), with a 95 % normal interval from both
    parts' variances. Only sole wins count, as in the plain rate."""
    gains = [(r == "win") - (b == "win") for r, b in zip(results, bases, strict=True)]
    n = len(gains)
    gain = sum(gains) / n
    gain_var = sum((g - gain) ** 2 for g in gains) / (n - 1) / n if n > 1 else 0.25
    base = base_wins / base_n
    spread = Z95 * math.sqrt(gain_var + base * (1 - base) / base_n)
    return {"rate": round(base + gain, 4),
            "ci95": [round(max(0.0, base + gain - spread), 4), round(min(1.0, base + gain + spread), 4)],
            "gain": round(gain, 4), "base_rate": round(base, 4), "base_n": base_n,
            "changed": sum(1 for g in gains if g), "n": n}


def base_matches(game: str, opponent: str, seeds, workers: int) -> dict[int, str]:
    """{seed: "win", "tie" or "loss"} of the opponent's bot in the search bot's seat against
    itself, on all cores (a greedy bot is not always cheap: Cyberspace's looks 60 moves ahead)."""
    jobs = [(game, opponent, seed, {"base": True}) for seed in seeds]
    with multiprocessing.Pool(workers) as pool:
        return {seed: result for seed, (result, _, _) in pool.imap_unordered(_one_match_of, jobs, chunksize=20)}


def decided(wins: int, played: int, matches: int, bar: float) -> bool:
    """Whether `matches` matches' result against the win rate `bar` is already known after
    `played`: the wins reach ceil(bar x matches), or the matches left cannot bring them there."""
    needed = math.ceil(bar * matches)
    return wins >= needed or wins + (matches - played) < needed


def _one_match_of(job):
    game, opponent, seed, search = job
    return seed, one_match(game, opponent, seed, **search)


def strength(game, opponent, matches, workers, first_seed=0, verbose=False, bar=None, paired=None, **search) -> dict:
    """The search bot's wins, ties and losses in `matches` matches (seeds first_seed onwards),
    or in as many as it took to decide the result against the win rate `bar`; with `paired`
    (the base rate's matches) also the paired estimate (`paired_estimate`)."""
    results = {}
    jobs = [(game, opponent, seed, search) for seed in range(first_seed, first_seed + matches)]
    with multiprocessing.Pool(workers) as pool:  # terminate() on leaving stops unfinished matches
        for seed, result in pool.imap_unordered(_one_match_of, jobs):
            results[seed] = result
            if verbose:
                outcome, decisions, spent = result
                print(f"  {game} v {opponent} seed {seed}: {outcome} "
                      f"({decisions} decisions, {spent:.0f} s searching)", flush=True)
            if bar is not None and decided(sum(r == "win" for r, _, _ in results.values()), len(results), matches, bar):
                break
    outcomes = [result for result, _, _ in results.values()]
    counts = {kind: outcomes.count(kind) for kind in ("win", "tie", "loss")}
    decisions = sum(d for _, d, _ in results.values())
    spent = sum(s for _, _, s in results.values())
    row = {"game": game, "opponent": opponent, "ties": counts["tie"], "losses": counts["loss"],
           "stopped": len(results) < matches,
           **win_rate(counts["win"], len(results)), "decisions_per_s": round(decisions / spent, 1) if spent else None}
    if paired:
        bases = base_matches(game, opponent, results, workers)
        base_wins = list(base_matches(game, opponent, range(BASE_SEEDS, BASE_SEEDS + paired), workers).values()).count("win")
        row["paired"] = paired_estimate(outcomes, [bases[seed] for seed in results], base_wins, paired)
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--games", default=",".join(r.name for r in games.all_latest()))
    parser.add_argument("--opponents", default="random,greedy")
    parser.add_argument("--playouts", type=int, help="playouts a decision (default: the game's setting)")
    parser.add_argument("--width", type=int, help="candidates at the root")
    parser.add_argument("--depth", type=int, help="playout cut-off in actions (0: to the end)")
    parser.add_argument("--policy", help="the playout bot")
    parser.add_argument("--milliseconds", type=float, help="wall time a decision (0: no clock, playouts only)")
    parser.add_argument("--workers", type=int, default=os.cpu_count())
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--verbose", action="store_true", help="print each match as it ends")
    parser.add_argument("--bar", type=float, help="stop once the result against this win rate is decided")
    parser.add_argument("--paired", type=int, metavar="N",
                        help="also the paired estimate, the base rate over N matches (the module's docstring)")
    args = parser.parse_args()
    search = {name: getattr(args, name) for name in ("playouts", "width", "depth", "policy", "milliseconds")
              if getattr(args, name) is not None}
    for name in ("depth", "milliseconds"):
        if search.get(name) == 0:
            search[name] = None
    for game in args.games.split(","):
        for opponent in args.opponents.split(","):
            if opponent not in latest(game).bots:
                print(f"{game}: no {opponent} bot")
                continue
            started = time.perf_counter()
            row = strength(game, opponent, args.matches, args.workers, args.first_seed, args.verbose,
                           args.bar, args.paired, **search)
            print(f"{game:<11} search v {opponent:<7} won {row['wins']:>3}/{row['n']} = {row['rate']:.0%} "
                  f"(95 % {row['ci95'][0]:.0%}-{row['ci95'][1]:.0%}), tied {row['ties']}, lost {row['losses']}"
                  f"{f' (decided against {args.bar:.0%} of {args.matches}, stopped)' if row['stopped'] else ''} "
                  f"· {row['decisions_per_s']} decisions/s · {time.perf_counter() - started:.0f} s", flush=True)
            if "paired" in row:
                est = row["paired"]
                print(f"{'':<11} paired: {est['rate']:.1%} (95 % {est['ci95'][0]:.1%}-{est['ci95'][1]:.1%}) = "
                      f"{opponent} v itself {est['base_rate']:.1%} of {est['base_n']} + the search's gain over its "
                      f"base match {est['gain']:+.1%} ({est['changed']} of {est['n']} results changed)", flush=True)


if __name__ == "__main__":
    main()
