"""The Match aggregate: events, hash chain, commitment, seed reveal, idempotency, version pinning."""

import hashlib
import random
import uuid
from dataclasses import replace

import pytest

from domain.games.cyberiad import RULESET
from domain.kernel import ruleset as rulesets
from domain.kernel.canonical import GENESIS_HASH, chain_hash, commit_key, content_commit
from domain.kernel.errors import IdempotencyKeyReused, IllegalAction, MatchOver, UnknownRuleset
from domain.kernel.match import Match
from domain.kernel.rng import RandomStream, stream_key

SEED = bytes(range(32))


def new_match(seats=("ann", "bob"), entropy=None):
    return Match.start(uuid.uuid4(), RULESET, list(seats), {}, entropy or {}, SEED)


def play_to_end(match, rand=None):
    rand = rand or random.Random(3)
    while match.status == "running":
        seat = match.to_act()[0]
        match.act(seat, rand.choice(RULESET.legal_actions(match.state, seat)), SEED)
    return match


def test_creation_commits_to_the_seed_and_deals_with_the_stream():
    match = new_match(entropy={"bob": "bob's coin flips"})
    created = match.collect_events()[0]
    assert created.data["commitment"] == hashlib.sha256(SEED).hexdigest()
    assert created.prev_hash == GENESIS_HASH
    key = stream_key(SEED, ["", "bob's coin flips"])
    assert created.data["setup"] == RULESET.setup({}, ["ann", "bob"], RandomStream(key, str(match.id), 1))
    assert "seed" not in str(created.data).lower().replace("seeds", "")


def test_every_event_is_chained_to_the_one_before():
    match = play_to_end(new_match())
    events = match.collect_events()
    prev = GENESIS_HASH
    for event in events:
        seq, kind = event.originator_version, type(event).__name__
        assert event.prev_hash == prev
        assert event.commit == content_commit(commit_key(SEED), seq, kind, event.data)
        public = event.public if event.public is not None else event.data
        assert event.hash == chain_hash(prev, seq, kind, public, event.commit)
        prev = event.hash
    assert [type(e).__name__ for e in events][-1] == "MatchEnded"
    assert events[-1].data["seed"] == SEED.hex() and events[-1].data["outcome"] == match.outcome


def test_one_action_one_event_with_its_facts():
    match = new_match()
    match.collect_events()
    seat = match.to_act()[0]
    match.act(seat, {"type": "pick", "constructor": "turl"}, SEED, "key-1", "digest-1")
    (event,) = match.collect_events()
    assert event.data["seat"] == seat and event.data["action"] == {"type": "pick", "constructor": "turl"}
    assert event.data["facts"][0] == {"f": "constructor", "seat": seat, "name": "turl"}
    assert match.recorded_command(seat, "key-1", "digest-1") == 2
    with pytest.raises(IdempotencyKeyReused):
        match.recorded_command(seat, "key-1", "another body")


def test_an_idempotency_key_is_the_seats_own():
    """Another seat posting the same key (and body) is a new command: it neither replays the
    first seat's action nor is refused as a reuse."""
    match = new_match()
    seat = match.to_act()[0]
    match.act(seat, {"type": "pick", "constructor": "turl"}, SEED, "key-1", "digest-1")
    assert match.recorded_command(1 - seat, "key-1", "digest-1") is None
    assert match.recorded_command(1 - seat, "key-1", "another body") is None


def test_acting_out_of_turn_is_refused_and_changes_nothing():
    match = new_match()
    other = 1 - match.to_act()[0]
    version = match.version
    with pytest.raises(IllegalAction) as refusal:
        match.act(other, {"type": "pick", "constructor": "turl"}, SEED)
    assert refusal.value.code == "not_your_turn" and match.version == version


def test_a_field_the_actions_type_does_not_take_is_refused_and_changes_nothing():
    """The log records an action as posted: a stray field would read as part of the move."""
    match = new_match()
    seat, version = match.to_act()[0], match.version
    with pytest.raises(IllegalAction) as refusal:
        match.act(seat, {"type": "pick", "constructor": "turl", "card": "x"}, SEED)
    assert refusal.value.code == "malformed" and "not ['card']" in refusal.value.message
    assert match.version == version
    match.act(seat, {"type": "pick", "constructor": "turl"}, SEED)
    assert match.version == version + 1


def test_a_listing_read_before_a_post_is_the_one_the_post_checks_and_a_new_event_drops_it():
    match = new_match()
    listed = []
    counting = replace(RULESET, legal_actions=lambda state, seat: listed.append(seat) or RULESET.legal_actions(state, seat))
    match.ruleset = counting
    seat = match.to_act()[0]
    actions = match.legal_actions(seat)
    assert match.legal_actions(seat) is actions and listed == [seat], "asked twice at one version: listed once"
    match.act(seat, actions[0], SEED)
    assert listed == [seat], "the post's field check used the listing the client read"
    after = match.legal_actions(match.to_act()[0])
    assert len(listed) == 2 and after == RULESET.legal_actions(match.state, match.to_act()[0]), \
        "the next version lists afresh"
    other = next(s for s in range(2) if s != match.to_act()[0])
    assert match.legal_actions(other) == [] and len(listed) == 3, "another seat's listing is its own"


def test_params_of_a_listed_action_are_advice_not_part_of_the_move():
    match = play_to_end(new_match())
    assert all("params" not in e.data.get("action", {}) for e in match.collect_events())


def test_no_action_after_the_end():
    match = play_to_end(new_match())
    with pytest.raises(MatchOver):
        match.act(0, {"type": "end_turn"}, SEED)


def test_an_abort_reveals_the_seed():
    match = new_match()
    match.abort(1, SEED)
    assert match.status == "abandoned" and match.revealed_seed == SEED.hex()
    assert match.outcome == {"abandoned": "aborted"}
    with pytest.raises(MatchOver):
        match.abort(0, SEED)


def test_a_match_pins_its_ruleset_version():
    other = rulesets.register(replace(RULESET, version="0.9.0-test"), latest=False)
    match = Match.start(uuid.uuid4(), other, ["a", "b"], {}, {}, SEED)
    assert match.ruleset is other and match.ruleset_version == "0.9.0-test"
    with pytest.raises(UnknownRuleset, match="not in this build"):
        rulesets.pinned("cyberiad", "0.0.1-never")
