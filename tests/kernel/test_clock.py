"""Clocks are derived from recorded event times only: Fischer banks and per-move deadlines."""

import pytest

from domain.kernel.clock import Clocks, clock_config
from domain.kernel.errors import InvalidSetup


def test_fischer_takes_elapsed_time_from_every_seat_to_act_and_adds_the_increment_to_the_actor():
    clocks = Clocks(clock_config({"base_seconds": 60, "increment_seconds": 5}), 2, 1000.0, {0})
    assert clocks.first_due() == (1060.0, 0)
    clocks.advance(1010.0, {1}, actor=0)  # seat 0 used 10 s and gains 5
    assert clocks.bank == {0: 55.0, 1: 60.0} and clocks.first_due() == (1070.0, 1)
    clocks.advance(1040.0, {0, 1}, actor=1)  # both to act: both clocks run
    clocks.advance(1050.0, {1}, actor=0)
    assert clocks.bank == {0: 50.0, 1: 30.0 + 5 - 10}
    assert clocks.deadline(0) is None and clocks.deadline(1) == 1050.0 + 25.0


def test_per_move_time_restarts_when_a_seat_becomes_to_act_or_acts_and_stays():
    clocks = Clocks(clock_config({"move_seconds": 30}), 3, 0.0, {0})
    clocks.advance(20.0, {0}, actor=0)  # acted and still to act: a new move
    assert clocks.deadline(0) == 50.0
    clocks.advance(25.0, {0, 1})  # seat 1 joins; seat 0 keeps its start
    assert clocks.deadline(0) == 50.0 and clocks.deadline(1) == 55.0 and clocks.first_due() == (50.0, 0)
    days = clock_config({"move_days": 2, "on_timeout": "elimination"})
    assert days == {"kind": "per_move", "move_seconds": 172_800, "on_timeout": "elimination", "bots_untimed": True}


def test_describe_reports_time_left_at_a_moment():
    clocks = Clocks(clock_config({"base_seconds": 10}), 2, 0.0, {1})
    seats = clocks.describe(4.0)["seats"]
    assert [(s["running"], s["remaining_ms"]) for s in seats] == [(False, 10_000), (True, 6_000)]
    assert clocks.describe(12.0)["seats"][1]["remaining_ms"] == 0


@pytest.mark.parametrize("bad", [{"base_seconds": 0}, {"base_seconds": True}, {"move_seconds": 1.5},
                                 {"increment_seconds": 3}, {"move_days": 1, "move_seconds": 5},
                                 {"base_seconds": 60, "on_timeout": "draw"}, {"base_seconds": 60, "increment_seconds": -1}])
def test_bad_time_controls_are_refused(bad):
    with pytest.raises(InvalidSetup):
        clock_config(bad)


def test_a_served_bots_clock_does_not_run_its_pace_is_the_servers():
    """A served bot answers at the server's pace (service/bot_pace.py), 200 ms to 900 ms a
    move whatever it thought: were its clock to run, a person could beat any bot on a short
    clock by time alone. The flag is recorded in the clock config, so a match created before
    it replays, and audits, with every seat timed."""
    config = clock_config({"base_seconds": 5, "increment_seconds": 2})
    clocks = Clocks(config, 2, 0.0, {1}, bots={1})
    assert clocks.first_due() is None and clocks.deadline(1) is None
    clocks.advance(4.0, {0}, actor=1)
    clocks.advance(10.0, {1}, actor=0)
    clocks.advance(30.0, {0}, actor=1)  # the bot "took" 20 s: its bank is untouched
    assert clocks.bank[1] == 5.0, "the bot's bank neither runs nor gains the increment"
    assert clocks.bank[0] == 5.0 - 6.0 + 2
    assert [seat["seat"] for seat in clocks.describe(30.0)["seats"] if seat.get("untimed")] == [1]
    old = {key: value for key, value in config.items() if key != "bots_untimed"}
    before = Clocks(old, 2, 0.0, {1}, bots={1})
    assert before.first_due() == (5.0, 1), "a config without the flag times the bot, as recorded then"
    assert Clocks({**old, "bots_untimed": "false"}, 2, 0.0, {1}, bots={1}).first_due() == (5.0, 1)
