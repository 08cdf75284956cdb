"""Bot matches at scale through the real event store, marked as simulated.

Each match is played by the game's bots on the Match aggregate in memory (the same
kernel path as a served match: decide, facts, hash chain, the MatchEnded seed reveal)
and then stored in ONE transaction: the library saves every pending event of the
aggregate, and its secret, together. So simulation is bound by the rules, not by one
commit per event. Matches carry `"simulated": true` in MatchCreated, so statistics can
include or exclude them, and the projector reads them like any other match.

Worker processes (one per core by default) each open their own store connection.
"""

import os
import random
import time
import uuid

from domain.kernel import ruleset as rulesets
from domain.kernel.match import Match, MatchSecret
from domain.kernel.rng import new_seed
from domain.kernel.store import MatchStore

MAX_ACTIONS = 100_000
NO_TOKEN = ""  # nobody holds a simulated seat

_store: MatchStore | None = None  # each worker process's own store, opened by _open_worker_store


def _open_worker_store() -> None:
    """Pool initializer: a store of the child's own (never a connection inherited by fork)."""
    global _store
    _store = MatchStore(os.environ)


def play_match(game: str, seats: int, bots: list[str], options: dict, seed: int,
               store: MatchStore | None = None, rotation: int = 0) -> int:
    """One simulated match, stored in one transaction; returns how many events it has.
    Bot kinds go round the table starting `rotation` seats on, so a run of matches swaps
    seats between kinds (no kind always sits first)."""
    store = store or _store
    ruleset = rulesets.latest(game)
    kinds = [bots[(seat + rotation) % len(bots)] for seat in range(seats)]
    names = [f"bot-{kind}-{seat}" for seat, kind in enumerate(kinds)]
    choose = random.Random(seed)
    match_id, match_seed = uuid.uuid4(), new_seed()
    match = Match.start(match_id, ruleset, names, options, {}, match_seed,
                        {"bots": {str(seat): kind for seat, kind in enumerate(kinds)}, "simulated": True})
    for _ in range(MAX_ACTIONS):
        to_act = match.to_act()
        if not to_act:
            break
        seat = choose.choice(to_act)
        match.act(seat, ruleset.bots[kinds[seat]](match.state, seat, choose), match_seed, listed=True)
    else:
        raise RuntimeError(f"{game} match {match_id} did not end in {MAX_ACTIONS} actions")
    events = len(match.pending_events)
    store.save_match(match, MatchSecret(match_id=str(match_id), seed_hex=match_seed.hex(),
                                        token_hashes=[NO_TOKEN] * seats))
    return events


def _play(args) -> int:
    return play_match(*args)


def simulate(game: str, matches: int, seats: int, bots: list[str], options: dict, workers: int,
             seed: int = 0, progress=None) -> dict:
    """Play `matches` matches on `workers` processes; returns counts and rates."""
    ruleset = rulesets.latest(game)
    unknown = sorted(set(bots) - set(ruleset.bots))
    if unknown:
        raise ValueError(f"{game} has no bots {unknown}; it has {sorted(ruleset.bots)}")
    if not ruleset.min_seats <= seats <= ruleset.max_seats:
        raise ValueError(f"{game} is for {ruleset.min_seats}-{ruleset.max_seats} seats, not {seats}")
    jobs = [(game, seats, bots, options, seed * 1_000_003 + n, None, n) for n in range(matches)]
    started = time.perf_counter()
    events = 0
    if workers <= 1:
        store = MatchStore(os.environ)
        results = (play_match(*job[:5], store=store, rotation=job[6]) for job in jobs)
    else:
        import multiprocessing
        pool = multiprocessing.get_context("fork").Pool(workers, initializer=_open_worker_store)
        results = pool.imap_unordered(_play, jobs, chunksize=max(1, matches // (workers * 8)))
    try:
        for stored in results:
            events += stored
            if progress:
                progress()
    finally:
        if workers > 1:
            pool.close()
            pool.join()
        else:
            store.close()
    seconds = time.perf_counter() - started
    return {"game": game, "matches": matches, "events": events, "seconds": round(seconds, 3),
            "matches_per_s": round(matches / seconds, 2), "events_per_s": round(events / seconds)}
