"""Bot matches per second for every hosted game: in memory (rules only) and through the
store (`arbiter simulate`'s path: the Match aggregate, hash chain, one SQLite transaction a
match), and their ratio, measured in the same run.

Each game is played by its own bots from set-up to outcome through the ruleset's plain
functions (setup, to_act, bot, decide, evolve, outcome), for a fixed time per game.
Games register themselves, so a new game is measured here with no change to this file.
"""

import os
import random
import tempfile
import time

import domain.games as games
from domain.kernel.rng import RandomStream

MAX_ACTIONS = 100_000  # a match longer than this is a bug in the game, not a benchmark result


def play_one(ruleset, seats: int, seed: int, kind: str = "random") -> int:
    """One bot match to its outcome, in memory; returns the number of actions taken."""
    rand = random.Random(seed)
    key = rand.randbytes(32)
    state = ruleset.setup({}, [f"bot{i}" for i in range(seats)], RandomStream(key, "bench", 1))
    bot = ruleset.bots[kind]
    for seq in range(2, MAX_ACTIONS):
        if ruleset.outcome(state) is not None:
            return seq - 2
        seat = rand.choice(sorted(ruleset.to_act(state)))
        for fact in ruleset.decide(state, seat, bot(state, seat, rand), RandomStream(key, "bench", seq)):
            state = ruleset.evolve(state, fact)
    raise RuntimeError(f"{ruleset.name}: a random match did not end in {MAX_ACTIONS} actions")


def rate(play, seconds: float) -> tuple[int, int, float]:
    """(matches, actions or events, elapsed) of `play(n)` called for `seconds`."""
    matches = counted = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        counted += play(matches)
        matches += 1
    return matches, counted, time.perf_counter() - started


def bot_rates(seconds: float = 3.0) -> dict:
    """Per game and bot kind, at each game's smallest multiplayer table (2 seats, or the
    minimum when a game needs more): matches/s in memory and through the store, events/s
    stored, and through-store / in-memory (aim: >= 0.5); and the search bot's decisions/s."""
    from domain.kernel.store import MatchStore
    from service.simulate import play_match
    report = {}
    with tempfile.TemporaryDirectory() as data_dir:
        store = MatchStore({"ARBITER_STORE": "sqlite", "ARBITER_DATA_DIR": data_dir})
        for ruleset in games.all_latest():
            seats = max(ruleset.min_seats, 2) if ruleset.max_seats >= 2 else ruleset.min_seats
            report[f"{ruleset.name}/search"] = search_decisions(ruleset, seats, seconds)
            for kind in sorted(set(ruleset.bots) - {"search"}):  # whole search-bot matches take minutes
                memory, actions, memory_s = rate(lambda n: play_one(ruleset, seats, n, kind), seconds)
                stored, events, stored_s = rate(
                    lambda n: play_match(ruleset.name, seats, [kind], {}, n, store), seconds)
                in_memory, through_store = matches_per_s(memory, memory_s), matches_per_s(stored, stored_s)
                report[f"{ruleset.name}/{kind}"] = {
                    "seats": seats, "in_memory_matches_per_s": in_memory, "actions_per_s": round(actions / memory_s),
                    "through_store_matches_per_s": through_store, "events_stored_per_s": round(events / stored_s),
                    "ratio_store_to_memory": round(through_store / in_memory, 3) if in_memory else None}
        store.close()
    return report


def search_decisions(ruleset, seats: int, seconds: float) -> dict:
    """The search bot at its default budget, deciding for the seat to act at states of random
    matches (the states are reached outside the timing): decisions a second on one core, and
    the 95th percentile of a decision's wall time (a served bot seat's reply, aim < 1 s)."""
    rand, times, seed = random.Random(0), [], 0
    while sum(times) < seconds:
        key = rand.randbytes(32)
        state = ruleset.setup({}, [f"bot{i}" for i in range(seats)], RandomStream(key, "bench", 1))
        for seq in range(2, MAX_ACTIONS):
            if ruleset.outcome(state) is not None or sum(times) >= seconds:
                break
            seat = rand.choice(sorted(ruleset.to_act(state)))
            if len(ruleset.legal_actions(state, seat)) > 1 and seq % 5 == 0:
                started = time.perf_counter()
                ruleset.bots["search"](state, seat, rand)
                times.append(time.perf_counter() - started)
            for fact in ruleset.decide(state, seat, ruleset.bots["random"](state, seat, rand),
                                       RandomStream(key, "bench", seq)):
                state = ruleset.evolve(state, fact)
        seed += 1
    times.sort()
    return {"decisions_per_s": round(len(times) / sum(times), 1), "decisions": len(times),
            "p95_reply_ms": round(times[min(len(times) - 1, int(len(times) * 0.95))] * 1000),
            "budget_ms": ruleset.bots["search"].milliseconds}


def matches_per_s(matches: int, seconds: float) -> float:
    return round(matches / seconds, 2)


if __name__ == "__main__":
    import json
    print(json.dumps(bot_rates(float(os.environ.get("BENCH_SECONDS", "3"))), indent=2))
