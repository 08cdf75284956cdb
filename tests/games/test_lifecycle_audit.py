"""A clock runs out in a three-seat match of each game with a resign hook: the late seat is
eliminated (the hook takes it out and play goes on) or makes the game's default move. The
match then plays to its end and the stored events pass the audit, which recomputes the clock
from the recorded times alone."""

import random
import time
import uuid

import pytest

import domain.games  # noqa: F401  (registers every game)
from domain.kernel.audit import audit
from domain.kernel.clock import clock_config, iso_time
from domain.kernel.match import Match
from domain.kernel.ruleset import latest
from domain.kernel.store import MatchStore

GAMES_WITH_ELIMINATION = ["cyberiad", "cybermancy"]


@pytest.mark.parametrize("effect", ["elimination", "default_move"])
@pytest.mark.parametrize("game", GAMES_WITH_ELIMINATION)
def test_a_timeout_recorded_by_the_match_passes_the_audit(tmp_path, game, effect):
    ruleset = latest(game)
    store = MatchStore({"ARBITER_DATA_DIR": str(tmp_path)})
    rand, seed = random.Random(1), bytes(range(32))
    bot = ruleset.bots.get("greedy", ruleset.bots["random"])
    match = Match.start(uuid.UUID(int=1), ruleset, ["ann", "bob", "cat"], {}, {}, seed,
                        lifecycle={"clock": clock_config({"move_seconds": 1, "on_timeout": effect})})
    for _ in range(20):
        seat = match.to_act()[0]
        match.act(seat, bot(match.state, seat, rand), seed)
    late = match.to_act()[0]
    assert match.time_out(iso_time(time.time() + 5), seed) == late
    assert match.status == "running" and (late not in match.to_act() or effect == "default_move")
    while match.status == "running":
        seat = match.to_act()[0]
        assert seat != late or effect == "default_move"
        match.act(seat, bot(match.state, seat, rand), seed)
    assert match.outcome.get("timed_out") == ([late] if effect == "elimination" else None)
    store.save_match(match)
    report = audit(store.stored_events(match.id))
    assert report.ok, report.summary
    store.close()
