"""What an attacker tried against a running server (issue 28): imports that take a lobby's or a
rematch's id, streams that are not matches, a boolean or a fraction where an integer is listed,
bodies nested too deep, odd Last-Event-ID headers, and a join lost in a race with a leave."""

import random
import time
import uuid

import orjson
import pytest

from domain.kernel.lobby import lobby_id
from domain.kernel.match import Match, secret_id
from domain.kernel.store import MatchStore
from domain.kernel.rng import new_seed
from domain.kernel import ruleset as rulesets
from service.api import create_app
from service.matches import Arbiter

from ..conftest import Served

from ..sizing import sized
from .helpers import bearer

ADMIN_TOKEN = "open-sesame"


@pytest.fixture
def client(sqlite_env):
    return create_app({**sqlite_env, "ARBITER_ADMIN_TOKEN": ADMIN_TOKEN}).test_client()


def forged_export(match_id: uuid.UUID, game="cyberiad", rematch_of=None) -> bytes:
    """A match made offline with one's own seed, under an id of one's choosing: it audits clean."""
    ruleset, seed = rulesets.latest(game), new_seed()
    lifecycle = {"rematch_of": rematch_of} if rematch_of else {}
    match = Match.start(match_id, ruleset, ["mallory", "trent"], {}, {}, seed, lifecycle)
    rand = random.Random(1)
    while match.status == "running":
        seat = match.to_act()[0]
        match.act(seat, ruleset.bots["random"](match.state, seat, rand), seed, listed=True)
    return b"".join(orjson.dumps({"seq": e.originator_version, "type": type(e).__name__, "data": e.data,
                                  **({"public": e.public} if e.public is not None else {}), "commit": e.commit,
                                  "prev_hash": e.prev_hash, "hash": e.hash}) + b"\n"
                    for e in match.collect_events())


def post_import(client, body, token=ADMIN_TOKEN):
    return client.post("/v1/imports", data=body, content_type="application/x-ndjson",
                       headers=bearer(token) if token else {})


def test_imports_need_the_admin_token_and_change_nothing_otherwise(client):
    body = forged_export(uuid.uuid4())
    assert post_import(client, body, token=None).json["code"] == "token_missing"
    refused = post_import(client, body, token="guess")
    assert refused.status_code == 403 and refused.json["code"] == "admin_only"
    assert client.application.extensions["arbiter"].store.recorder.max_notification_id() is None
    assert post_import(client, body).status_code == 201


def test_an_import_cannot_take_an_open_lobbys_match_id(client):
    opened = client.post("/v1/matches", json={"game": "cyberiad", "seats": ["ann", {"open": True}]}).json
    match_id = uuid.UUID(opened["match_id"])
    refused = post_import(client, forged_export(match_id))
    assert refused.status_code == 409 and refused.json["code"] == "match_exists"
    joined = client.post(f"/v1/matches/{match_id}/join", json={"name": "bob"})
    assert joined.status_code == 201 and joined.json["status"] == "running"
    assert client.get(f"/v1/matches/{match_id}").json["seats"][1]["name"] == "bob"


def test_a_rematch_id_is_secret_so_an_import_cannot_take_it(client):
    """Rematch ids were uuid5(match id, "arbiter-rematch"): anyone could import a match there
    first, and the players' rematch answered with it. Now the id is drawn at creation and kept
    with the match's secrets; the old derivation leads nowhere."""
    created = client.post("/v1/matches", json={"game": "cyberiad", "seats": ["ann", "bob"]}).json
    match_id, tokens = created["match_id"], [s["token"] for s in created["seats"]]
    client.post(f"/v1/matches/{match_id}/resign", headers=bearer(tokens[0]))
    derived = uuid.uuid5(uuid.UUID(match_id), "arbiter-rematch")
    assert post_import(client, forged_export(derived, rematch_of=match_id)).status_code == 201
    rematch = client.post(f"/v1/matches/{match_id}/rematch", headers=bearer(tokens[1]))
    assert rematch.status_code == 201 and rematch.json["match_id"] != str(derived)
    assert rematch.json["rematch_of"] == match_id
    new = rematch.json["match_id"]
    seat_of_bob = next(s["seat"] for s in rematch.json["seats"] if s["name"] == "bob")
    assert client.get(f"/v1/matches/{new}/legal-actions", headers=bearer(tokens[1])).json["seat"] == seat_of_bob
    again = client.post(f"/v1/matches/{match_id}/rematch", headers=bearer(tokens[0]))
    assert again.status_code == 200 and again.json["match_id"] == new


@pytest.mark.parametrize("derive", [secret_id, lobby_id], ids=["secret", "lobby"])
def test_an_import_cannot_take_a_stream_derived_from_a_match(client, derive):
    created = client.post("/v1/matches", json={"game": "cyberiad", "seats": ["ann", {"open": True}]}).json
    taken = derive(uuid.UUID(created["match_id"]))
    if derive is secret_id:  # the lobby's match has no secret until it starts
        client.post(f"/v1/matches/{created['match_id']}/join", json={"name": "bob"})
    refused = post_import(client, forged_export(taken))
    assert refused.status_code == 409 and refused.json["code"] == "match_exists"


@pytest.mark.parametrize("derive", [secret_id, lobby_id], ids=["secret", "lobby"])
def test_the_audit_of_a_stream_that_is_not_a_match_is_not_found(client, derive):
    created = client.post("/v1/matches", json={"game": "cyberiad", "seats": ["ann", {"open": True}]}).json
    client.post(f"/v1/matches/{created['match_id']}/join", json={"name": "bob"})
    stream = derive(uuid.UUID(created["match_id"]))
    for path in ("/audit", "", "/log", "/board", "/export"):
        response = client.get(f"/v1/matches/{stream}{path}")
        assert response.status_code == 404 and response.json["code"] == "match_not_found", (path, response.json)


def leaf_path(value, kind, path=()):
    """The path to the first value of `kind` (int: not a boolean) inside a listed action, or None."""
    if isinstance(value, kind) and not isinstance(value, bool):
        return path
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        if key not in ("params", "type") and (found := leaf_path(item, kind, (*path, key))) is not None:
            return found
    return None


def spoiled(action, path, spoil):
    action = orjson.loads(orjson.dumps({k: v for k, v in action.items() if k != "params"}))
    inner = action
    for key in path[:-1]:
        inner = inner[key]
    inner[path[-1]] = spoil
    return action


def listed_with(client, game, kind, seed=3):
    """Play `game` at random until a seat is offered an action with a value of `kind` in it;
    return the match, the seat's token, the action, the value's path and the version."""
    rand = random.Random(seed)
    match_id = None
    # Algomancy first lists an integer after 59 to 503 actions of this play (12 deals);
    # Cybermancy lists none, and a search of 2000 actions for one took 4 CPU-s of the suite
    # (tests/sizing.py: longer in a long run)
    for _ in range(sized(1000)):
        if match_id is None or client.get(f"/v1/matches/{match_id}").json["status"] != "running":
            created = client.post("/v1/matches", json={"game": game, "seats": ["ann", "bob"]}).json
            match_id, tokens = created["match_id"], [s["token"] for s in created["seats"]]
        seat = client.get(f"/v1/matches/{match_id}").json["to_act"][0]
        listed = client.get(f"/v1/matches/{match_id}/legal-actions", headers=bearer(tokens[seat])).json
        for action in listed["actions"]:
            if (path := leaf_path(action, kind)) is not None:
                return match_id, tokens[seat], action, path, listed["version"]
        client.post(f"/v1/matches/{match_id}/actions", headers=bearer(tokens[seat]),
                    json={"action": rand.choice(listed["actions"])})
    return None


SPOILS = {int: [True, False, 1.0, 0.5, "1"], str: [True, 1, 1.5, None]}


@pytest.mark.parametrize("game", ["algomancy", "herocard", "cyberiad", "cybermancy", "cyberspace", "cybermen"])
def test_a_listed_value_posted_as_another_json_type_is_malformed_and_changes_nothing(client, game):
    """Algomancy recorded `"target": false` (then no seat could act), HeroCard `"uid": true` and
    `"uid": 3.0`; Cyberiad's `"option": 1.0` was a 500. A listed integer (or string) posted as
    another JSON type is refused by the kernel, for every game, before the rules see it."""
    tried = 0
    for kind, spoils in SPOILS.items():
        found = listed_with(client, game, kind)
        if found is None:
            continue
        match_id, token, action, path, version = found
        for spoil in spoils:
            posted = client.post(f"/v1/matches/{match_id}/actions", headers=bearer(token),
                                 json={"action": spoiled(action, path, spoil)})
            assert posted.status_code == 422 and posted.json["code"] == "malformed", (path, spoil, posted.json)
            assert str(path[0]) in posted.json["detail"]
            assert client.get(f"/v1/matches/{match_id}").json["version"] == version
            tried += 1
    assert tried >= len(SPOILS[str]), f"{game} listed no value to spoil"


def test_an_integer_nested_in_a_listed_array_is_held_to_its_type_too():
    from domain.kernel.ruleset import malformed_refusal
    listing = [{"type": "pay", "cards": [3, 4], "params": {"cards": {"type": "array", "items": {"enum": [3, 4, 5]}}}}]
    assert malformed_refusal(listing, {"type": "pay", "cards": [5]}) is None
    assert malformed_refusal(listing, {"type": "pay", "cards": [True]})[0] == "malformed"
    assert malformed_refusal(listing, {"type": "pay", "cards": [5.0]})[0] == "malformed"
    assert malformed_refusal(listing, {"type": "pay", "cards": 5})[0] == "malformed"
    assert malformed_refusal(listing, {"type": "other", "cards": True}) is None  # the rules refuse an unlisted type


def test_a_body_nested_too_deep_is_a_bad_request_not_a_crash(client):
    created = client.post("/v1/matches", json={"game": "cyberiad", "seats": ["ann", "bob"]}).json
    deep = '{"action":' + '{"type":"pick","x":' * 300 + "{}" + "}" * 300 + "}"  # 254 levels crashed the digest
    response = client.post(f"/v1/matches/{created['match_id']}/actions", data=deep, content_type="application/json",
                           headers=bearer(created["seats"][0]["token"]))
    assert response.status_code == 400 and response.json["code"] == "too_deep"
    assert client.get(f"/v1/matches/{created['match_id']}").json["version"] == 1


@pytest.mark.parametrize("header", ["²", "1²", "-1", "1.0", "٣"])
def test_a_last_event_id_that_is_not_ascii_digits_is_a_bad_request(served, header):
    created = served.flask.test_client().post("/v1/matches", json={"game": "cyberiad", "seats": ["ann", "bob"]}).json
    status, problem = served.stream(f"/v1/matches/{created['match_id']}/stream", {"Last-Event-ID": header})
    assert status == 400 and problem["code"] == "bad_last_event_id"


def test_a_join_that_loses_a_race_with_a_leave_is_decided_again(sqlite_env):
    """Two processes: one joins seat 2 (open throughout) while the other lets a player leave seat
    1. The join that finds the lobby changed when it saves is decided again, and succeeds."""
    writer, racer = (Arbiter(MatchStore(sqlite_env)) for _ in range(2))
    opened = writer.create_match("cyberiad", ["ann", {}, {}, "dan"])
    match_id = uuid.UUID(opened["match_id"])
    cat = writer.join(match_id, "cat", seat=1)
    save = writer.store.save_lobby
    raced = []

    def save_after_a_leave_elsewhere(lobby, *others):
        if not raced:  # between this join's read and its write, another process's leave lands
            raced.append(racer.leave(match_id, cat["token"]))
        return save(lobby, *others)

    writer.store.save_lobby = save_after_a_leave_elsewhere
    joined = writer.join(match_id, "bob", seat=2)
    assert raced and joined["seat"] == 2
    lobby = racer.store.lobby(match_id)
    assert [held.get("name") for held in lobby.seats] == ["ann", None, "bob", "dan"]


@pytest.fixture
def limited(sqlite_env):
    server = Served({**sqlite_env, "ARBITER_STREAMS_PER_CLIENT": "2", "ARBITER_MAX_STREAMS": "3"})
    yield server
    server.close()


def test_idle_streams_past_a_limit_are_refused_with_429_and_requests_go_on(limited):
    """Idle followers hold no thread (they wait on the event loop); past the per-client or the
    per-process limit a new stream gets 429 problem+json, and other requests are served."""
    import http.client
    import urllib.request

    created = limited.flask.test_client().post("/v1/matches", json={"game": "cyberiad", "seats": ["ann", "bob"]}).json
    path = f"/v1/matches/{created['match_id']}/stream"
    host = limited.url.removeprefix("http://")
    held = []
    for _ in range(2):  # two idle followers: the per-client limit
        connection = http.client.HTTPConnection(host, timeout=10)
        connection.request("GET", path)
        response = connection.getresponse()
        assert response.status == 200 and response.readline() == b": stream open\n"
        held.append(connection)
    status, problem = limited.stream(path)
    assert status == 429 and problem["code"] == "too_many_streams" and "address" in problem["detail"]
    with urllib.request.urlopen(f"{limited.url}/healthz", timeout=5) as health:
        assert health.status == 200
    held.pop().close()  # a follower leaves: its slot is free again
    for _ in range(600):  # up to 30 s
        if sum(limited.app.streams.open.values()) < 2:
            break
        time.sleep(0.05)
    status, events = limited.stream(path, until=lambda events: len(events) >= 1)
    assert status == 200 and events[0]["event"] == "MatchCreated"
    for connection in held:
        connection.close()


def test_an_overlong_request_line_or_header_block_is_a_problem_not_html(served):
    """gunicorn answered these with HTML; the server's own limits answer with problem+json."""
    import http.client

    def ask(path, headers):
        connection = http.client.HTTPConnection(served.url.removeprefix("http://"), timeout=10)
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        body = response.read()
        connection.close()
        return response.status, response.getheader("content-type"), orjson.loads(body)

    status, kind, problem = ask("/v1/matches?player=" + "x" * 9000, {})
    assert (status, kind, problem["code"]) == (414, "application/problem+json", "uri_too_long")
    status, kind, problem = ask("/healthz", {f"x-filler-{i}": "y" * 1000 for i in range(40)})
    assert (status, kind, problem["code"]) == (431, "application/problem+json", "headers_too_large")
    status, _, _ = ask("/healthz", {"x-filler": "y" * 1000})
    assert status == 200


def wait_for(condition, seconds=60.0):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "not within the time allowed"
        time.sleep(0.05)


def test_no_request_plays_a_bots_only_match_the_background_bot_runner_does(client, monkeypatch):
    """A create whose every seat is a server bot answered only when the whole match was played
    (two HeroCard search bots held a server thread 225 s; two such requests starved /healthz).
    Now no bot acts within that request: the process's bot runner plays the match, a slice at
    a time, and it ends all the same."""
    from service import lifecycle

    in_request = []
    original = lifecycle.LifecycleCommands._play_bots

    def watched(self, match_id, background=False):
        in_request.append(background)
        return original(self, match_id, background)

    monkeypatch.setattr(lifecycle.LifecycleCommands, "_play_bots", watched)
    created = client.post("/v1/matches", json={"game": "herocard", "seats": [{"bot": "greedy"}, {"bot": "greedy"}]})
    assert created.status_code == 201 and created.json["status"] == "running" and created.json["version"] == 1
    match_id = created.json["match_id"]
    wait_for(lambda: client.get(f"/v1/matches/{match_id}").json["status"] == "ended")
    assert in_request[0] is False and True in in_request[1:], "the runner, not the request, played the bots"
    assert client.get(f"/v1/matches/{match_id}/audit").json["ok"]


def test_bots_play_on_in_the_background_once_the_last_person_resigns(client):
    created = client.post("/v1/matches", json={"game": "cyberiad", "seats": [
        "ann", {"bot": "random"}, {"bot": "random"}]}).json
    match_id, token = created["match_id"], created["seats"][0]["token"]
    resigned = client.post(f"/v1/matches/{match_id}/resign", headers=bearer(token))
    assert resigned.status_code == 201 and resigned.json["status"] == "running"  # answered at once
    wait_for(lambda: client.get(f"/v1/matches/{match_id}").json["status"] == "ended")
    summary = client.get(f"/v1/matches/{match_id}").json
    assert summary["left"] == {"0": "resigned"} and summary["outcome"]["winners"]


def test_a_bot_whose_runner_was_lost_is_played_on_by_the_clock_pass(sqlite_env):
    """A process that stops while its runner plays a bots' match leaves a bot to act; the next
    clock pass anywhere (any process) finds it and plays on."""
    from domain.kernel.clock import iso_time
    from service import lifecycle

    app = create_app(sqlite_env)
    arbiter = app.extensions["arbiter"]
    submitted = []
    lost = lifecycle.BotRunner(lambda match_id: submitted.append(match_id))  # a runner that never plays
    arbiter.__dict__["bots_only_runner"] = lost
    created = arbiter.create_match("cyberiad", [{"bot": "random"}, {"bot": "random"}])
    match_id = uuid.UUID(created["match_id"])
    wait_for(lambda: submitted == [match_id])
    assert arbiter.summary(match_id)["version"] == 1
    del arbiter.__dict__["bots_only_runner"]  # the next process's own runner
    app.extensions["projector"].catch_up()
    arbiter.enforce_clocks(now=iso_time(time.time() + lifecycle.BOT_STALLED_SECONDS + 1))
    wait_for(lambda: arbiter.summary(match_id)["status"] == "ended")


def test_no_reader_sees_a_move_before_the_store_has_it(client, monkeypatch):
    """A command changes a private copy of the match: while its events are being stored, any
    other request reads the match as it was (the bot runner's ended match was read as ended
    while its MatchEnded was still on its way, and an audit that instant found no end)."""
    created = client.post("/v1/matches", json={"game": "cyberiad", "seats": ["ann", "bob"]}).json
    match_id, tokens = created["match_id"], [s["token"] for s in created["seats"]]
    store = client.application.extensions["arbiter"].store
    shard = store.shards[""]
    seen_while_saving = []
    real_save = type(shard).save

    def save_and_look(self, *aggregates, **kwargs):
        seen_while_saving.append(client.get(f"/v1/matches/{match_id}").json["version"])
        return real_save(self, *aggregates, **kwargs)

    monkeypatch.setattr(type(shard), "save", save_and_look)
    summary = client.get(f"/v1/matches/{match_id}").json
    seat = summary["to_act"][0]
    action = client.get(f"/v1/matches/{match_id}/legal-actions", headers=bearer(tokens[seat])).json["actions"][0]
    posted = client.post(f"/v1/matches/{match_id}/actions", headers=bearer(tokens[seat]),
                         json={"action": action, "expected_version": summary["version"]})
    assert posted.status_code == 201
    assert seen_while_saving == [summary["version"]], "a reader saw the move before the store had it"
    assert client.get(f"/v1/matches/{match_id}").json["version"] == summary["version"] + 1
