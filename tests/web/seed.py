"""Matches for the viewer's browser tests, played by each game's own bots (fast, no HTTP)."""

import random
import uuid

from domain.kernel import ruleset as rulesets

NAMES = ("ann", "bob", "cat", "dan", "eve", "fay")


def bot_of(ruleset, kind="random"):
    return ruleset.bots.get(kind) or ruleset.bots.get("random") or ruleset.bots[sorted(ruleset.bots)[0]]


def play(arbiter, game, seats=2, seed=1, options=None, upto=None, max_actions=4000, on_created=None, bot="random"):
    """A match of `game` played by its random bot until it ends (or has `upto` events).
    `on_created` runs once the match exists (the tests let the projector see it there: a
    match created and ended within one projector batch is left in the running index)."""
    ruleset = rulesets.latest(game)
    seats = max(ruleset.min_seats, seats)
    created = arbiter.create_match(game, list(NAMES[:seats]), options or {})
    mid = uuid.UUID(created["match_id"])
    if on_created:
        on_created()
    rand = random.Random(seed)
    bot = bot_of(ruleset, bot)
    for _ in range(max_actions):
        match = arbiter.store.match(mid)
        if match.status != "running" or upto and match.version >= upto:
            break
        seat = sorted(match.to_act())[0]
        arbiter.submit_action(mid, seat, bot(match.state, seat, rand))
    return created


def long_match(arbiter, events=500, tries=6, on_created=None):
    """A finished Cybermancy match of at least `events` events (four random bots). A match's
    length depends on its secret seed, so a short one is set aside and another played."""
    for attempt in range(tries):
        created = play(arbiter, "cybermancy", seats=4, seed=attempt, on_created=on_created)
        if arbiter.store.match(uuid.UUID(created["match_id"])).version >= events:
            return created
    raise AssertionError(f"no Cybermancy match of {events} events in {tries} tries")
