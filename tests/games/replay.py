"""The kernel property every game shares: a match played through the Match aggregate into
a real SQLite store replays, at every version, to exactly the state it had live."""

import random
import uuid

from domain.kernel.canonical import json_copy
from domain.kernel.match import Match
from domain.kernel.store import MatchStore

MAX_ACTIONS = 20_000


def play_and_replay(ruleset, data_dir, options: dict, seats: int, seed: int, choose=None) -> Match:
    """Play to the end (`choose(state, seat, rand)`, default: a random listed action), storing
    every event; then check each version's replayed state against the live one. Returns the
    finished match."""
    store = MatchStore({"ARBITER_DATA_DIR": str(data_dir)})
    rand = random.Random(seed)
    seed_bytes = rand.randbytes(32)
    choose = choose or (lambda state, seat, r: r.choice(ruleset.legal_actions(state, seat)))
    match_id = uuid.UUID(int=rand.getrandbits(128))  # from the seed, so a failure reproduces
    match = Match.start(match_id, ruleset, [f"p{i}" for i in range(seats)], options, {}, seed_bytes)
    store.save_match(match)
    live = {1: json_copy(match.state)}
    while match.status == "running" and match.version < MAX_ACTIONS:
        seat = rand.choice(match.to_act())
        match.act(seat, choose(match.state, seat, rand), seed_bytes)
        store.save_match(match)
        live[match.version] = json_copy(match.state)
    assert match.status == "ended", f"{ruleset.name}: the match did not end in {MAX_ACTIONS} actions"
    store.forget(match.id)
    for version, state in live.items():
        assert store.match(match.id, version=version).state == state, f"version {version} replays differently"
    store.close()
    return match
