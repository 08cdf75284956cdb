"""Hidden information against an attacker holding every byte a seat or a spectator can read.

Each game is played over HTTP with idempotency keys (so request digests are recorded) and,
where a game takes them, constructed deck lists. At every step the spectator and every seat
read what they may: the log, the board, the summary, the lobby (while open) and, for a seat,
its legal actions; every few steps and at the last, also what shows the whole match so far
(the live stream from its start, the audit, the refused export). After the end the full export
is public; the attacker then holds, for every event, the hidden content, and tries every
function of it an Arbiter server has ever shown or could show (event format 1's hash over
the full event, the chain hash with the hidden content as its public form, the request
digest, sha256 of any part): none may equal a hash-like string the viewer read while the
match ran. The attack is shown to have teeth: on event format 1's hashes it recovers the
hidden events, as the security test that filed the issue did.
"""

import random
import re
import uuid

import orjson
import pytest

from domain.games.algomancy.cards import ELEMENT_DECKS
from domain.games.cybermancy.cards import SUGGESTED
from domain.kernel.canonical import canonical_json, chain_hash, digest, format1_hash, json_copy
from domain.kernel.redaction import redact_data
from domain.kernel import ruleset as rulesets
from service.api import create_app

from ..conftest import caught_up
from .helpers import bearer

HEX64 = re.compile(r"^[0-9a-f]{64}$")
MATCHES = {  # game: (seats, options): every game, deck lists where a game takes them
    "cyberiad": (["ann", "bob", "cat"], {}),
    "cybermancy": (["ann", "bob"], {"decks": {"ann": SUGGESTED["human"][:30], "1": SUGGESTED["undead"][:30]}}),
    "cyberspace": (["ann", "bob", "cat"], {}),
    "herocard": (["ann", "bob"], {}),
    "algomancy": (["ann", "bob"], {"decks": {"ann": ELEMENT_DECKS["fire"][:30], "1": ELEMENT_DECKS["water"][:30]}}),
    "cybermen": (["ann", "bob", "cat"], {}),
}
STEPS = 60  # actions per match before the seats resign it to its end
WHOLE_EVERY = 4  # the reads that show the whole match so far: every few steps, and at the last


class Viewer:
    """One seat (or the spectator, seat None) and everything it has read so far."""

    def __init__(self, client, match_id, seat, token):
        self.client, self.match_id, self.seat, self.token = client, match_id, seat, token
        self.headers = bearer(token) if token else {}
        self.read: list = []  # every response body, as parsed JSON
        self.records: dict[int, dict] = {}  # the log as this viewer read it while the match ran

    def get(self, path, **query):
        response = self.client.get(f"/v1/matches/{self.match_id}{path}", headers=self.headers, query_string=query)
        body = response.json if response.is_json else response.data.decode(errors="replace")
        self.read.append(body)
        return response

    def read_everything(self, whole: bool):
        """What the viewer may read now. With `whole`, also what shows the match from its start
        (the audit, the refused export, the stream from the first event): the stream and the
        export hold every earlier read's values, so reading them at every step made the test
        quadratic; a running match's audit shows the head's hash, which the log (read at every
        step) holds too."""
        log = self.get("/log", since=max(self.records, default=0), limit=1000).json
        for record in log["events"]:
            self.records.setdefault(record["seq"], record)
        for path in ("", "/board", *(("/audit", "/export") if whole else ())):
            self.get(path)
        if self.seat is not None:
            self.get("/legal-actions")
        if whole:
            self.read.append(self.stream())

    def stream(self) -> list:
        """The live stream's events from the start, exactly as the stream sends them."""
        arbiter = self.client.application.extensions["arbiter"]
        opened = arbiter.open_stream(self.match_id, self.token, None, None)
        chunks, _ = arbiter.stream_batch(opened, 0)
        return [orjson.loads(chunk.split(b"\ndata: ", 1)[1]) for _, chunk in chunks]

    def hash_like(self) -> set[str]:
        found = set()

        def walk(value):
            if isinstance(value, str) and HEX64.match(value):
                found.add(value)
            elif isinstance(value, dict):
                for item in value.values():
                    walk(item)
            elif isinstance(value, list):
                for item in value:
                    walk(item)

        walk(self.read)
        # A seat's own request digests are functions of its own requests: they can collide with a
        # guess (another seat posting the same action) without telling it anything.
        own = {r["data"].get("request_digest") for r in self.records.values() if r["data"].get("seat") == self.seat}
        return found - own


def play(client, game, rand, through_lobby):
    names, options = MATCHES[game]
    if through_lobby:  # the last seat joins later: the lobby is read while it is open
        opened = client.post("/v1/matches", json={"game": game, "seats": names[:-1] + [{"open": True}],
                                                  "options": options}).json
        lobby_reads = [client.get("/v1/lobbies").json, client.get(f"/v1/matches/{opened['match_id']}").json]
        joined = client.post(f"/v1/matches/{opened['match_id']}/join", json={"name": names[-1]}).json
        tokens = [s.get("token") for s in opened["seats"]][:-1] + [joined["token"]]
        match_id = opened["match_id"]
    else:
        created = client.post("/v1/matches", json={"game": game, "seats": names, "options": options}).json
        match_id, tokens, lobby_reads = created["match_id"], [s["token"] for s in created["seats"]], []
    viewers = [Viewer(client, match_id, None, None)] + [Viewer(client, match_id, s, t) for s, t in enumerate(tokens)]
    viewers[0].read.extend(lobby_reads)
    for step in range(STEPS):
        summary = client.get(f"/v1/matches/{match_id}").json
        if summary["status"] != "running":  # what is read after the end is public anyway (the
            break  # deal is the server's: a match may end before its last step, its last few
            # actions then read whole only in the log and the board, which are read every step)
        caught_up(client)
        for viewer in viewers:
            viewer.read_everything(whole=step % WHOLE_EVERY == 0 or step == STEPS - 1)
        seat = rand.choice(summary["to_act"])
        listed = client.get(f"/v1/matches/{match_id}/legal-actions", headers=bearer(tokens[seat])).json
        response = client.post(f"/v1/matches/{match_id}/actions", headers={**bearer(tokens[seat]),
                               "Idempotency-Key": f"key-{step}"},
                               json={"action": rand.choice(listed["actions"]), "expected_version": listed["version"]})
        assert response.status_code == 201, response.json
    for seat, token in enumerate(tokens):  # end it: each seat resigns while the match runs
        if client.get(f"/v1/matches/{match_id}").json["status"] == "running":
            client.post(f"/v1/matches/{match_id}/resign", headers=bearer(token))
    assert client.get(f"/v1/matches/{match_id}").json["status"] != "running"
    export = [orjson.loads(line) for line in client.get(f"/v1/matches/{match_id}/export").data.splitlines()]
    return viewers, export


def hidden_from(viewer, full) -> bool:
    """Whether the viewer read this event with less than its full content."""
    shown = viewer.records.get(full["seq"])
    return shown is not None and shown["data"] != full["data"]


def guesses(full: dict, shown: dict, versions: range) -> set[str]:
    """Every function of what the viewer was not shown of an event that an attacker could
    recompute and compare: event format 1's chain, the chain with the full content as the
    public form, sha256 of the whole and of each hidden part, and the request digest of a
    hidden action at any version."""
    data, seq, kind = full["data"], full["seq"], full["type"]
    found = {format1_hash(full["prev_hash"], seq, kind, data),
             chain_hash(full["prev_hash"], seq, kind, data, full.get("commit", "")),
             digest(data)}
    hidden_parts = [part for key in ("action", "setup", "options") if (part := data.get(key)) != shown.get(key)]
    hidden_parts += [fact for fact, seen in zip(data.get("facts", []), shown.get("facts", [])) if fact != seen]
    for part in hidden_parts:
        if part is not None:
            found.add(digest(part))
    if "action" in data and data["action"] != shown.get("action"):
        found |= {digest({"action": data["action"], "expected_version": v}) for v in (None, *versions)}
    return found


@pytest.mark.parametrize("through_lobby", [False, True], ids=["created", "lobby"])
@pytest.mark.parametrize("game", sorted(MATCHES))
def test_no_seat_and_no_spectator_can_test_a_guess_at_a_hidden_value(sqlite_env, game, through_lobby):
    client = create_app(sqlite_env).test_client()
    viewers, export = play(client, game, random.Random(f"{game}{through_lobby}"), through_lobby)
    versions = range(len(export) + 1)
    hidden_events = 0
    for viewer in viewers:
        readable = viewer.hash_like()
        for full in export:
            if not hidden_from(viewer, full):
                continue
            hidden_events += 1
            recovered = guesses(full, viewer.records[full["seq"]]["data"], versions) & readable
            assert not recovered, (f"seat {viewer.seat} can test its guess at seq {full['seq']}: "
                                   f"{sorted(recovered)}")
    assert hidden_events, f"{game}: the match hid nothing from anyone, so it tested nothing"


def test_the_attack_recovers_hidden_events_from_format_1_hashes(sqlite_env):
    """The same attacker against the hashes event format 1 showed (over the full event) recovers
    every hidden event: the test above would catch a return to them."""
    client = create_app(sqlite_env).test_client()
    viewers, export = play(client, "herocard", random.Random(5), False)
    spectator = viewers[0]
    shown_by_format_1 = {format1_hash(full["prev_hash"], full["seq"], full["type"], full["data"]) for full in export}
    hidden = [full for full in export if hidden_from(spectator, full)]
    recovered = [full for full in hidden
                 if guesses(full, spectator.records[full["seq"]]["data"], range(len(export) + 1)) & shown_by_format_1]
    assert hidden and len(recovered) == len(hidden)


@pytest.mark.parametrize("game", ["algomancy", "cybermancy"])
def test_deck_lists_are_each_seats_own_in_the_log_lobby_and_summary(sqlite_env, game):
    """A constructed deck list is its owner's: the creation event, the lobby listing and the
    lobby's summary show the other seats' entries as "hidden" while the match runs."""
    names, options = MATCHES[game]
    client = create_app(sqlite_env).test_client()
    opened = client.post("/v1/matches", json={"game": game, "seats": [names[0], {"open": True}],
                                              "options": options}).json
    caught_up(client)
    (listed,) = [lobby for lobby in client.get("/v1/lobbies").json["lobbies"] if lobby["match_id"] == opened["match_id"]]
    summary = client.get(f"/v1/matches/{opened['match_id']}").json
    for shown in (listed["options"], summary["options"]):
        assert shown["decks"] == {"ann": "hidden", "1": "hidden"}
    joined = client.post(f"/v1/matches/{opened['match_id']}/join", json={"name": names[1]}).json
    tokens = [opened["seats"][0]["token"], joined["token"]]
    created = {seat: client.get(f"/v1/matches/{opened['match_id']}/log", headers=bearer(token) if token else {}
                                ).json["events"][0]["data"]["options"]["decks"]
               for seat, token in ((None, None), (0, tokens[0]), (1, tokens[1]))}
    assert created[None] == {"ann": "hidden", "1": "hidden"}
    assert created[0] == {"ann": options["decks"]["ann"], "1": "hidden"}
    assert created[1] == {"ann": "hidden", "1": options["decks"]["1"]}


def test_idempotency_keys_and_digests_are_the_acting_seats_alone(sqlite_env):
    client = create_app(sqlite_env).test_client()
    created = client.post("/v1/matches", json={"game": "herocard", "seats": ["ann", "bob"]}).json
    match_id, tokens = created["match_id"], [s["token"] for s in created["seats"]]
    seat = client.get(f"/v1/matches/{match_id}").json["to_act"][0]
    action = client.get(f"/v1/matches/{match_id}/legal-actions", headers=bearer(tokens[seat])).json["actions"][0]
    posted = client.post(f"/v1/matches/{match_id}/actions", json={"action": action},
                         headers={**bearer(tokens[seat]), "Idempotency-Key": "secret-key"})
    assert posted.status_code == 201

    def last_record(token):
        return client.get(f"/v1/matches/{match_id}/log", headers=bearer(token) if token else {}).json["events"][-1]

    assert {"command_id", "request_digest"} <= set(last_record(tokens[seat])["data"])
    for other in (None, tokens[1 - seat]):
        assert not {"command_id", "request_digest"} & set(last_record(other)["data"])


def test_another_seats_idempotency_key_replays_nothing(sqlite_env):
    """Seat 1 posting seat 0's key and body is seat 1's own new request: it is recorded as seat
    1's own action, never answered with seat 0's (which left seat 1's move unrecorded)."""
    client = create_app(sqlite_env).test_client()
    created = client.post("/v1/matches", json={"game": "cyberiad", "seats": ["ann", "bob"]}).json
    match_id, tokens = created["match_id"], [s["token"] for s in created["seats"]]
    seat = client.get(f"/v1/matches/{match_id}").json["to_act"][0]
    body = {"action": {"type": "pick", "constructor": "turl"}}
    first = client.post(f"/v1/matches/{match_id}/actions", json=body,
                        headers={**bearer(tokens[seat]), "Idempotency-Key": "k1"})
    assert first.status_code == 201
    other = client.post(f"/v1/matches/{match_id}/actions", json=body,
                        headers={**bearer(tokens[1 - seat]), "Idempotency-Key": "k1"})
    assert other.status_code == 201 and not other.json["replayed"] and other.json["seq"] == first.json["seq"] + 1
    log = client.get(f"/v1/matches/{match_id}/log").json["events"]
    assert [e["data"]["seat"] for e in log[1:3]] == [seat, 1 - seat]
    again = client.post(f"/v1/matches/{match_id}/actions", json=body,
                        headers={**bearer(tokens[seat]), "Idempotency-Key": "k1"})
    assert again.status_code == 200 and again.json["replayed"] and again.json["seq"] == first.json["seq"]


def test_the_public_form_is_the_spectators_redaction_of_each_event(sqlite_env):
    """What the chain covers is what a spectator reads, event by event, byte for byte."""
    client = create_app(sqlite_env).test_client()
    viewers, export = play(client, "cyberiad", random.Random(2), False)
    ruleset = rulesets.latest("cyberiad")
    for full in export:
        public = full.get("public", full["data"])
        assert public == redact_data(ruleset, full["type"], full["data"], None)
        if full["seq"] in viewers[0].records and export[-1]["seq"] != full["seq"]:
            assert viewers[0].records[full["seq"]]["data"] == public
    assert uuid.UUID(export[0]["data"]["match_id"])


def test_a_served_bots_draws_cannot_be_rerun_by_a_seat_only_by_an_auditor_after_the_end(sqlite_env):
    """A served bot chooses with a generator of its own. Were it seeded from what a seat reads
    (the match id and version), a seat could rerun the bot on a guessed hand and test the guess
    against the move. Here the attacker's guess is the true state itself, the strongest there
    is: its reruns must miss while the match runs, and the same reruns keyed by the seed
    revealed at the end (rng.bot_seed) must give every move the bot made."""
    from domain.kernel.rng import bot_seed

    client = create_app(sqlite_env).test_client()
    store = client.application.extensions["arbiter"].store
    rand = random.Random(7)
    public_reruns, audited, choices = 0, 0, 0
    # matches until the bot has chosen among several actions 12 times: a rerun with the wrong
    # generator then agrees with all of them by chance at most once in 2**12
    for _ in range(10):
        if choices >= 12:
            break
        created = client.post("/v1/matches", json={"game": "cyberiad", "seats": ["ann", {"bot": "random"}]}).json
        match_id, token = created["match_id"], created["seats"][0]["token"]
        while (summary := client.get(f"/v1/matches/{match_id}").json)["status"] == "running":
            assert summary["to_act"] == [0], "the server's bot answers within the person's request"
            listed = client.get(f"/v1/matches/{match_id}/legal-actions", headers=bearer(token)).json["actions"]
            assert client.post(f"/v1/matches/{match_id}/actions", json={"action": rand.choice(listed)},
                               headers=bearer(token)).status_code == 201
        mid = uuid.UUID(match_id)
        ruleset = store.match(mid).ruleset
        seed = bytes.fromhex(store.match(mid).revealed_seed)
        for record in store.stored_events(mid):
            if record["type"] != "ActionTaken" or record["data"]["seat"] != 1:
                continue
            before = store.match(mid, version=record["seq"] - 1)
            if len(ruleset.legal_actions(before.state, 1)) < 2:
                continue  # one action listed: any generator makes it
            choices += 1

            def rerun(generator):  # the move as recorded: a listed action's params are advice, not kept
                action = ruleset.bots["random"](json_copy(before.state), 1, generator)
                return canonical_json({k: v for k, v in action.items() if k != "params"})

            made = canonical_json(record["data"]["action"])
            public_reruns += rerun(random.Random(f"{match_id}:{before.version}")) == made
            audited += rerun(random.Random(bot_seed(seed, match_id, before.version))) == made
    assert choices >= 12, "the bot chose among several actions often enough to tell"
    assert audited == choices, "after the end, the revealed seed redoes every choice the bot made"
    assert public_reruns < choices, "a generator a seat can seed reruns the bot's every choice"
