"""The kernel property every game shares: a match played through the Match aggregate into
a real SQLite store replays, at every version, to exactly the state it had live."""

import random
import uuid

from domain.kernel.canonical import json_copy
from domain.kernel.match import Match
from domain.kernel.rng import RandomStream
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


class Step:
    """One action of `random_play`: the state before and after it, who acted, what, and the
    facts; `rand`, `key` and `seq` for a check that needs the match's randomness."""

    __slots__ = ("before", "state", "seat", "action", "facts", "rand", "key", "seq")

    def __init__(self, **fields):
        for name, value in fields.items():
            setattr(self, name, value)


def random_play(ruleset, options: dict, seats: int, seed: int, bots=("random",), checks=None,
                known_bots=None) -> dict:
    """Play a match in memory from set-up to its outcome, seat s played by the bot
    `bots[s % len(bots)]` (of the ruleset's, or `known_bots` for a test's own), and return
    the final state. `checks(set-up state)` gives the game's
    own invariants as a function run after every action on its `Step`. The kernel's own
    properties are checked here for every game:
    a seat not to act has no legal action, and `decide` never changes the state it is given.
    When several seats may act, one of them is drawn at random."""
    rand = random.Random(seed)
    key = rand.randbytes(32)
    state = ruleset.setup(options, [f"p{i}" for i in range(seats)], RandomStream(key, "m", 1))
    after = checks(state) if checks is not None else None
    for seq in range(2, MAX_ACTIONS):
        if ruleset.outcome(state) is not None:
            return state
        acting = sorted(ruleset.to_act(state))
        seat = acting[0] if len(acting) == 1 else rand.choice(acting)
        for other in set(range(seats)) - set(acting):
            assert ruleset.legal_actions(state, other) == [], f"seat {other} is not to act but has actions"
        action = (known_bots or ruleset.bots)[bots[seat % len(bots)]](state, seat, rand)
        before = json_copy(state)
        facts = ruleset.decide(state, seat, action, RandomStream(key, "m", seq))
        assert state == before, "decide mutated the state"
        for fact in facts:
            state = ruleset.evolve(state, fact)
        if after is not None:
            after(Step(before=before, state=state, seat=seat, action=action, facts=facts, rand=rand, key=key, seq=seq))
    raise AssertionError(f"{ruleset.name}: the game did not end in {MAX_ACTIONS} actions")
