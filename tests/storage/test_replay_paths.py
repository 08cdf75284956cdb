"""ShardStore.match replays a match from its stored rows without the library's event objects
(store.py `_replayed`). Whatever a match holds, that replay must give exactly the Match the
eventsourcing library's own Repository.get gives (its default projector, every check on), at
every version, through the cache and its fast-forward, and leave optimistic concurrency as it was."""

import random
import uuid

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import domain.games as games
from domain.kernel import ruleset as rulesets
from domain.kernel.canonical import json_copy
from domain.kernel.clock import Clocks, clock_config
from domain.kernel.errors import MatchNotFound, VersionConflict
from domain.kernel.lobby import lobby_id
from domain.kernel.match import Match, MatchSecret, secret_id
from domain.kernel.store import MatchStore

from ..sizing import sized

GAMES = [ruleset.name for ruleset in games.all_latest()]
FAR_FUTURE = "2100-01-01T00:00:00.000+00:00"  # every clock has run out, every match is idle
CLOCKS = [None, {"base_seconds": 60, "increment_seconds": 2, "on_timeout": "loss"},
          {"base_seconds": 30, "on_timeout": "elimination"}, {"move_seconds": 20, "on_timeout": "default_move"}]
ENDINGS = ["play", "resign", "time_out", "abort", "abandon"]


def comparable(match: Match) -> dict:
    """A match's whole state (Clocks compare by their fields), its identity, version,
    head hash and timestamps included."""
    return {key: vars(value) if isinstance(value, Clocks) else value for key, value in vars(match).items()}


def record_match(store: MatchStore, game: str, seats: int, clock: dict | None, actions: int, ending: str,
                 seed: int) -> Match:
    """A random match of `game`: random bots' moves, then perhaps a lifecycle event, stored
    in a few saves (so the rows come from more than one transaction)."""
    ruleset, rand = rulesets.latest(game), random.Random(seed)
    match_seed = rand.randbytes(32)
    # a served bot's clock does not run: a match to end by a timeout has people only
    lifecycle = {"bots": {"0": "random"}} if seats > 1 and ending != "time_out" else {}
    if clock and clock["on_timeout"] == "default_move" and not ruleset.default_action:
        clock = CLOCKS[1]  # as the service refuses it: the game has no default move
    if clock:
        lifecycle["clock"] = clock_config(clock)
    match = Match.start(uuid.uuid4(), ruleset, [f"p{seat}" for seat in range(seats)], {}, {}, match_seed, lifecycle)
    store.save_match(match, MatchSecret(match_id=str(match.id), seed_hex=match_seed.hex(), token_hashes=[]))
    for n in range(actions):
        to_act = match.to_act()
        if not to_act:
            break
        seat = rand.choice(to_act)
        match.act(seat, ruleset.bots["random"](match.state, seat, rand), match_seed, listed=True)
        if n % 7 == 6:
            store.save_match(match)
    if match.status == "running":
        people = match.players_in()
        if ending == "resign" and people:
            match.resign(rand.choice(people), match_seed)
        elif ending == "time_out" and match.clocks:
            match.time_out(FAR_FUTURE, match_seed)
        elif ending == "abort" and not match.actions_taken:
            match.abort(0, match_seed)
        elif ending == "abandon":
            match.abandon_idle(60, FAR_FUTURE, match_seed)
    store.save_match(match)
    return match


@pytest.fixture
def two_stores(store_env):
    stores = MatchStore(store_env), MatchStore(store_env)  # two processes' worth of caches
    yield stores
    for store in stores:
        store.close()


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("ending", ENDINGS)
def test_every_game_and_every_kind_of_event_replays_as_the_library_does(two_stores, game, ending):
    writer, reader = two_stores
    ruleset = rulesets.latest(game)
    clock = CLOCKS[1 + GAMES.index(game) % 3]  # each timeout effect in two games
    live = record_match(writer, game, max(ruleset.min_seats, 2), clock, 0 if ending == "abort" else 25, ending, 7)
    kinds = {event["type"] for event in reader.stored_events(live.id)}
    expected = {"play": "ActionTaken", "resign": "SeatResigned", "time_out": "SeatTimedOut",
                "abort": "MatchAbandoned", "abandon": "MatchAbandoned"}[ending]
    assert expected in kinds or live.status != "running" and ending != "abort"
    shard = reader.shards[""] if "" in reader.shards else reader.home(live.id)
    for version in range(1, live.version + 1):
        assert comparable(shard.match(live.id, version)) == comparable(shard.repository.get(live.id, version=version))
    assert comparable(reader.match(live.id)) == comparable(shard.repository.get(live.id, version=live.version))


@settings(max_examples=sized(30), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=st.sampled_from(GAMES), seats=st.integers(1, 4), clock=st.sampled_from(CLOCKS),
       actions=st.integers(0, 40), ending=st.sampled_from(ENDINGS), seed=st.integers(0, 2**32))
def test_replay_from_rows_equals_the_library_at_every_version(two_stores, game, seats, clock, actions, ending, seed):
    writer, reader = two_stores
    ruleset = rulesets.latest(game)
    seats = min(max(seats, ruleset.min_seats), ruleset.max_seats)
    live = record_match(writer, game, seats, clock, actions, ending, seed)
    shard = reader.shards[""] if "" in reader.shards else reader.home(live.id)
    for version in range(1, live.version + 2):  # one past the last: the library gives the last
        assert comparable(shard.match(live.id, version)) == comparable(shard.repository.get(live.id, version=version))
    reader.forget(live.id)
    replayed = reader.match(live.id)
    assert comparable(replayed) == comparable(shard.repository.get(live.id, version=live.version))
    assert replayed.version == live.version and replayed.head_hash == live.head_hash
    assert replayed.state == live.state and replayed.status == live.status and replayed.outcome == live.outcome
    assert replayed.created_on == live.created_on and replayed.modified_on == live.modified_on


def test_a_cached_match_is_fast_forwarded_by_the_rows_another_process_stored(two_stores):
    writer, reader = two_stores
    live = record_match(writer, "cyberiad", 3, CLOCKS[1], 5, "play", 1)
    cached = reader.match(live.id)
    assert cached.version == live.version
    rand, seed = random.Random(9), random.Random(1).randbytes(32)  # record_match's seed for 1
    for _ in range(12):  # the writer goes on; the reader's cached copy is now behind
        seat = rand.choice(live.to_act())
        live.act(seat, live.ruleset.bots["random"](live.state, seat, rand), seed, listed=True)
    writer.save_match(live)
    held = (cached.version, cached.head_hash, json_copy(cached.state), cached.to_act())
    forwarded = reader.match(live.id)
    shard = reader.shards[""] if "" in reader.shards else reader.home(live.id)
    assert comparable(forwarded) == comparable(shard.repository.get(live.id, version=live.version))
    assert forwarded.version == live.version and forwarded.head_hash == live.head_hash
    # a copy is brought forward, in the cache's place: whoever read the match before (another
    # request's thread, between its listing and the listing's version) keeps it whole
    assert (cached.version, cached.head_hash, cached.state, cached.to_act()) == held
    assert reader.match(live.id) is forwarded


def test_a_save_at_a_taken_version_still_fails_after_a_replay_from_rows(two_stores):
    writer, reader = two_stores
    live = record_match(writer, "cyberiad", 2, None, 3, "play", 4)
    stale = reader.match(live.id)
    seed = random.Random(4).randbytes(32)
    rand = random.Random(5)
    for match in (live, stale):
        seat = match.to_act()[0]
        match.act(seat, match.ruleset.bots["random"](match.state, seat, rand), seed, listed=True)
    writer.save_match(live)
    with pytest.raises(VersionConflict):
        reader.save_match(stale)
    assert reader.match(live.id).head_hash == live.head_hash  # the conflict dropped the stale copy


def test_streams_that_are_not_a_match_are_not_found(two_stores):
    writer, reader = two_stores
    live = record_match(writer, "cyberiad", 2, None, 0, "play", 6)
    for stream in (secret_id(live.id), uuid.uuid4()):
        with pytest.raises(MatchNotFound):
            reader.match(stream)
        with pytest.raises(MatchNotFound):
            reader.match(stream, version=1)
    with pytest.raises(MatchNotFound):
        reader.match(live.id, version=0)
    assert not reader.stream_exists(lobby_id(live.id))
