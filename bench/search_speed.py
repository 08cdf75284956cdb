"""The search bot's speed at a fixed budget, per game, and the moves it chose (issue 32).

Measured as bench/games.py `search_decisions` measures `search_decisions_per_s` (the seat to
act every fifth action of a match, when it has a choice; the states reached outside the
timing; decisions a second and the 95th percentile of a decision's wall time), except that
the clock is lifted (milliseconds=None): each decision plays the game's whole playout budget,
so a faster search shows as more decisions a second, not as more playouts in the same time,
and the moves chosen depend on nothing but (state, seat, rand). The matches are played by the
random bot and, where the game has one, the greedy bot, a fixed number of decisions each.

    nice -n 10 .venv/bin/python bench/search_speed.py [--games herocard,cyberiad] [--decisions 24]
        [--out after.json] [--against before.json] [--versus /path/to/other/checkout]

--out writes the figures and every decision's chosen move (its canonical JSON's sha256);
--against compares them with an earlier run's: the ratio of decisions a second, and whether
every move is the same (exit status 1 when one is not).

--versus measures this checkout against another one (say, `git worktree add /tmp/before
main`) decision by decision: one worker process each, asked in turn for the same decision
(which goes first alternates), so that a busy machine slows both alike; their figures are
the sums of each side's CPU seconds (process time) and wall time over the same decisions.
Two runs of whole games one after the other on a shared machine differed by more than the
change measured.
"""

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
import time

ROOT = os.environ.get("SEARCH_SPEED_ROOT") or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import domain.games as games  # noqa: E402
from domain.kernel.canonical import canonical_json, json_copy  # noqa: E402
from domain.kernel.rng import RandomStream  # noqa: E402
from domain.kernel.ruleset import latest  # noqa: E402
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


def decisions(ruleset, count: int):
    """`count` decisions split between random and greedy matches, and the search bot at the
    game's budget with the clock lifted."""
    seats = max(ruleset.min_seats, 2) if ruleset.max_seats >= 2 else ruleset.min_seats
    policies = ["random", "greedy"] if "greedy" in ruleset.bots else ["random"]
    found = [(label, json_copy(state), seat) for policy in policies  # a copy: the match goes on in place
             for label, state, seat in decisions_of(ruleset, seats, policy, count // len(policies))]
    return found, SearchBot(ruleset, **{**ruleset.search_settings, "milliseconds": None})


def decide(bot, label, state, seat) -> dict:
    """One timed decision: its wall and CPU seconds and its move's digest."""
    rand = random.Random(f"search-{label}")
    started, started_cpu = time.perf_counter(), time.process_time()
    action = bot(state, seat, rand)
    return {"wall": time.perf_counter() - started, "cpu": time.process_time() - started_cpu,
            "move": hashlib.sha256(canonical_json(action)).hexdigest()[:16]}


def figures(timed: dict) -> dict:
    """Decisions a second (wall and CPU), p95 reply and the moves of {label: decide(...)}."""
    walls = sorted(t["wall"] for t in timed.values())
    return {"decisions_per_s": round(len(walls) / sum(walls), 2),
            "cpu_decisions_per_s": round(len(walls) / sum(t["cpu"] for t in timed.values()), 2),
            "decisions": len(walls), "p95_reply_ms": round(walls[min(len(walls) - 1, int(len(walls) * 0.95))] * 1000),
            "moves": {label: t["move"] for label, t in timed.items()}}


def measure(ruleset, count: int) -> dict:
    found, bot = decisions(ruleset, count)
    row = figures({label: decide(bot, label, state, seat) for label, state, seat in found})
    row["settings"] = {k: v for k, v in ruleset.search_settings.items() if k != "challengers"}
    return row


def serve(game: str, count: int) -> None:
    """A --versus worker: the decisions of `game`, then one timed decision per index read from
    stdin, answered as a JSON line."""
    found, bot = decisions(latest(game), count)
    print(json.dumps([label for label, _, _ in found]), flush=True)
    for line in sys.stdin:
        label, state, seat = found[int(line)]
        print(json.dumps(decide(bot, label, state, seat)), flush=True)


def versus(game: str, count: int, other_root: str) -> tuple[dict, dict]:
    """(the other checkout's figures, this one's), decision by decision in turn."""
    def worker(root):
        return subprocess.Popen([sys.executable, os.path.abspath(__file__), "--serve", game, "--decisions", str(count)],
                                env={**os.environ, "SEARCH_SPEED_ROOT": root, "PYTHONPATH": root}, cwd=root,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    sides = {"before": worker(other_root), "after": worker(ROOT)}
    labels = {name: json.loads(process.stdout.readline()) for name, process in sides.items()}
    if labels["before"] != labels["after"]:
        raise SystemExit(f"{game}: the two checkouts reach different decisions (their rules differ)")
    timed = {"before": {}, "after": {}}
    for index, label in enumerate(labels["after"]):
        for name in (("before", "after") if index % 2 == 0 else ("after", "before")):
            sides[name].stdin.write(f"{index}\n")
            sides[name].stdin.flush()
            timed[name][label] = json.loads(sides[name].stdout.readline())
    for process in sides.values():
        process.stdin.close()
        process.wait()
    return figures(timed["before"]), figures(timed["after"])


def compare(now: dict, before: dict) -> bool:
    """Print before/after/ratio per game; whether every move matched."""
    same_everywhere = True
    for game, row in now.items():
        old = before.get(game)
        if old is None:
            continue
        differing = [label for label in row["moves"] if old["moves"].get(label) != row["moves"][label]]
        same_everywhere &= not differing
        print(f"{game:12} CPU: before {old['cpu_decisions_per_s']:5.2f}/s after {row['cpu_decisions_per_s']:5.2f}/s "
              f"ratio {row['cpu_decisions_per_s'] / old['cpu_decisions_per_s']:.2f} | wall: {old['decisions_per_s']:5.2f} -> "
              f"{row['decisions_per_s']:5.2f}/s, ratio {row['decisions_per_s'] / old['decisions_per_s']:.2f}, "
              f"p95 {old['p95_reply_ms']} -> {row['p95_reply_ms']} ms | moves: {len(row['moves']) - len(differing)} "
              f"of {len(row['moves'])} the same", flush=True)
    return same_everywhere


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default=None)
    parser.add_argument("--decisions", type=int, default=24)
    parser.add_argument("--out", default=None)
    parser.add_argument("--against", default=None)
    parser.add_argument("--versus", default=None, help="another checkout's root, measured in turn with this one")
    parser.add_argument("--serve", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        return serve(args.serve, args.decisions)
    wanted = args.games.split(",") if args.games else [r.name for r in games.all_latest()]
    if args.versus:
        same = True
        for game in wanted:
            before, after = versus(game, args.decisions, os.path.abspath(args.versus))
            same &= compare({game: after}, {game: before})
        sys.exit(0 if same else 1)
    report = {}
    for game in wanted:
        report[game] = row = measure(latest(game), args.decisions)
        print(game, json.dumps({k: v for k, v in row.items() if k != "moves"}), flush=True)
    if args.out:
        with open(args.out, "w") as out:
            json.dump(report, out, indent=1, sort_keys=True)
    if args.against:
        with open(args.against) as before:
            if not compare(report, json.load(before)):
                sys.exit(1)


if __name__ == "__main__":
    main()
