"""The words over the API: the log's and the live stream's records carry their words for the
reader (`words`: a headline and one text or null per fact), made from the records as that
reader may read them; `GET .../legal-actions` has a `words` list beside its actions, which
still post back unchanged; `GET /v1/games/{game}/catalog` gives each card's or tile's details."""

import random
import re

import pytest

import domain.games as games
from domain.kernel.words import Context, record_words

from ..conftest import caught_up
from .helpers import bearer

GAMES = ["cyberiad", "cybermancy", "herocard", "cyberspace", "cybermen", "algomancy"]


def play(client, game, seats, actions, seed=1):
    """A match of `game` played over HTTP with random listed actions, each posted back unchanged."""
    created = client.post("/v1/matches", json={"game": game, "seats": seats}).json
    match_id, tokens = created["match_id"], [s["token"] for s in created["seats"]]
    rand = random.Random(seed)
    for _ in range(actions):
        summary = client.get(f"/v1/matches/{match_id}").json
        if summary["status"] != "running":
            break
        seat = rand.choice(summary["to_act"])
        listed = client.get(f"/v1/matches/{match_id}/legal-actions", headers=bearer(tokens[seat])).json
        assert len(listed["words"]) == len(listed["actions"]) and all(isinstance(w, str) and w for w in listed["words"])
        action = rand.choice(listed["actions"])
        assert "words" not in action
        response = client.post(f"/v1/matches/{match_id}/actions", headers=bearer(tokens[seat]), json={"action": action})
        assert response.status_code == 201, response.json
    return match_id, tokens


def log(client, match_id, token=None, **query):
    query = {"limit": 1000, **query}
    return client.get(f"/v1/matches/{match_id}/log", headers=bearer(token) if token else {}, query_string=query).json


def words_of(game, records, seat):
    """The words a client would make itself from the records it read, in order, from the first."""
    ruleset = games.latest(game)
    ctx = Context(records[0]["data"]["seats"], viewer=seat)
    return [record_words(ruleset.words, r["type"], r["data"], ctx, ruleset.title) for r in records]


@pytest.mark.parametrize("game", GAMES)
def test_each_log_record_carries_its_words_for_its_reader(client, game):
    seats = ["ann", "bob"] if game != "cyberspace" else ["ann", "bob", "cat"]
    match_id, tokens = play(client, game, seats, 60)
    for seat, token in [(None, None)] + list(enumerate(tokens)):
        records = log(client, match_id, token)["events"]
        assert [r["words"] for r in records] == words_of(game, records, seat), \
            "the words are those of the records the reader read, and of nothing else"
        for record in records:
            assert len(record["words"]["facts"]) == len(record["data"].get("facts", []))
            assert not re.search(r"[{}\[\]=]", record["words"]["text"])
        if seat is not None:
            assert any(re.match(r"you ", r["words"]["text"]) for r in records[1:]), "the reader's own moves read 'you'"


def test_a_page_that_starts_later_remembers_what_the_earlier_pages_showed(client):
    """Cybermancy names a creature in play by an id; a page starting after its summon still
    names it: from the reading kept at the previous page's end, or, with none kept, from the
    earlier records read the same way. Either way a page reads as the whole log does."""
    match_id, tokens = play(client, "cybermancy", ["ann", "bob"], 150, seed=4)
    arbiter = client.application.extensions["arbiter"]
    whole = log(client, match_id, tokens[1])["events"]
    later = [i for i, r in enumerate(whole) if "was destroyed" in " ".join(filter(None, r["words"]["facts"]))]
    assert later, "no creature was destroyed: the check proves nothing"
    since = whole[later[-1]]["seq"] - 1
    for kept in (True, False):
        if not kept:
            arbiter.readings = type(arbiter.readings)()
        else:
            log(client, match_id, tokens[1], limit=since)  # a page ending where the next starts
        page = log(client, match_id, tokens[1], since=since, limit=20)["events"]
        assert [r["words"] for r in page] == [r["words"] for r in whole[since:since + 20]]
        assert "a creature was destroyed" not in str(page[0]["words"])


def test_the_read_models_log_carries_the_same_words(client):
    match_id, tokens = play(client, "algomancy", ["ann", "bob"], 80)
    stored = log(client, match_id, tokens[0])
    caught_up(client)
    for query in ({}, {"since": 30, "limit": 20}):
        projected = log(client, match_id, tokens[0], min_version=1, **query)
        assert projected["source"] == "read_model"
        expected = stored["events"][query.get("since", 0):query.get("since", 0) + query.get("limit", 1000)]
        assert [r["words"] for r in projected["events"]] == [r["words"] for r in expected]


def test_words_name_no_card_the_reader_was_not_shown(client):
    """Every creature a seat's words name is one its own redacted log shows by id: the words'
    memory learns only from what the reader read (bob never reads ann's draws)."""
    from domain.games.cybermancy.cards import CREATURES

    match_id, tokens = play(client, "cybermancy", ["ann", "bob"], 60, seed=2)
    by_name = {card["name"]: card_id for card_id, card in CREATURES.items()}
    for seat, token in enumerate(tokens):
        records = log(client, match_id, token)["events"]
        shown = str([r["data"] for r in records])
        said = " ".join(r["words"]["text"] + " " + " ".join(filter(None, r["words"]["facts"])) for r in records)
        named = {name for name in by_name if name in said}
        assert named and all(f"'{by_name[name]}'" in shown for name in named)
    ann_hand = client.get(f"/v1/matches/{match_id}/board", headers=bearer(tokens[0])).json["board"]["players"][0]["hand"]
    bob_words = str([r["words"] for r in log(client, match_id, tokens[1])["events"]])
    assert ann_hand and not [c for c in ann_hand if CREATURES[c]["name"] in bob_words]
    ann_words = str([r["words"] for r in log(client, match_id, tokens[0])["events"]])
    assert [c for c in ann_hand if CREATURES[c]["name"] in ann_words], "ann's own words name the cards she drew"


@pytest.mark.parametrize("game", GAMES)
def test_listed_actions_have_words_beside_them_and_post_back_unchanged(client, game):
    seats = ["ann", "bob", "cat"] if game == "cybermen" else ["ann", "bob"]
    for seed in (3, 4, 5):  # the deal is the server's: a match that ended early is played again
        match_id, tokens = play(client, game, seats, 30, seed=seed)
        summary = client.get(f"/v1/matches/{match_id}").json
        if summary["status"] == "running":
            break
    assert summary["status"] == "running", "three matches ended within 30 actions: nothing listed to check"
    seat = summary["to_act"][0]
    listed = client.get(f"/v1/matches/{match_id}/legal-actions", headers=bearer(tokens[seat])).json
    assert len(listed["words"]) == len(listed["actions"])
    for action, said in zip(listed["actions"], listed["words"]):
        assert isinstance(said, str) and not re.search(r"[{}\[\]=]|\b[a-z]+_[a-z_]+\b", said), said
    other = (seat + 1) % len(seats)
    assert client.get(f"/v1/matches/{match_id}/legal-actions", headers=bearer(tokens[other])).json["words"] == [] \
        or other in summary["to_act"]
    response = client.post(f"/v1/matches/{match_id}/actions", headers=bearer(tokens[seat]),
                           json={"action": listed["actions"][-1], "expected_version": listed["version"]})
    assert response.status_code == 201, response.json


def test_the_catalog_gives_each_card_and_tile_its_details(client):
    for game in GAMES:
        answer = client.get(f"/v1/games/{game}/catalog")
        assert answer.status_code == 200
        entries = answer.json["entries"]
        assert entries and len({(e["kind"], e["id"]) for e in entries}) == len(entries)
        assert all(e["name"] and e["text"] and e["kind"] for e in entries)
    cyberiad = {e["id"]: e for e in client.get("/v1/games/cyberiad/catalog").json["entries"]}
    assert cyberiad["nothing-machine"].items() >= {"name": "Nothing Machine", "kind": "machine", "cost": 5,
                                                   "fame": 5}.items()
    assert cyberiad["nothing-machine"]["text"].startswith("Once on your turn (may): Gain 5TP")
    tiles = {e["id"]: e for e in client.get("/v1/games/cyberspace/catalog").json["entries"] if e["kind"] == "tile"}
    assert tiles["t10"]["name"] == "client corner" and tiles["t10"]["rotations"]["1"] == ["east", "south"]
    assert client.get("/v1/games/chess/catalog").status_code == 422


def test_the_live_stream_carries_the_words_of_the_log_and_resumes_with_them(served):
    client = served.flask.test_client()
    match_id, tokens = play(client, "cybermancy", ["ann", "bob"], 60, seed=4)
    whole = log(client, match_id, tokens[1])["events"]
    served.flask.extensions["arbiter"].readings = type(served.flask.extensions["arbiter"].readings)()
    last = whole[-1]["seq"]
    for start in (0, last // 2):  # from the start, and resumed half-way with Last-Event-ID
        headers = {"Authorization": f"Bearer {tokens[1]}", **({"Last-Event-ID": str(start)} if start else {})}
        status, events = served.stream(f"/v1/matches/{match_id}/stream", headers,
                                       until=lambda events: events and events[-1]["id"] >= last)
        assert status == 200
        assert [e["data"]["words"] for e in events] == [r["words"] for r in whole[start:]]


@pytest.mark.parametrize("projected", [False, True])
def test_a_later_page_learns_only_from_the_earlier_records_as_the_reader_reads_them(client, monkeypatch, projected):
    """Words remember what earlier records showed (learn); for a page that starts later those
    records are read again, and they must be the reader's redacted ones, never the stored."""
    import service.matches

    for _ in range(10):  # the deal is the server's: a match that ended early shows everything
        match_id, tokens = play(client, "herocard", ["ann", "bob"], 60, seed=5)
        if client.get(f"/v1/matches/{match_id}").json["status"] == "running":
            break
    if projected:
        caught_up(client)
    readable = {r["seq"]: r["data"] for r in log(client, match_id, tokens[1])["events"]}
    client.application.extensions["arbiter"].readings = service.matches.Readings()
    learned = []
    real = service.matches.remember
    monkeypatch.setattr(service.matches, "remember", lambda words, kind, data, ctx: (learned.append(data),
                                                                                       real(words, kind, data, ctx)))
    page = log(client, match_id, tokens[1], since=40, limit=10, **({"min_version": 1} if projected else {}))
    assert page["source"] == ("read_model" if projected else "event_store")
    assert learned == [readable[seq] for seq in range(1, 41)]
    assert any(readable[seq] != d for seq, d in enumerate(
        (r["data"] for r in client.application.extensions["arbiter"].store.stored_events(
            __import__("uuid").UUID(match_id), after=0, limit=40)), start=1)), "nothing was hidden: proves nothing"
    if not projected:  # a stream resumed at 40 learns the same way
        learned.clear()
        client.application.extensions["arbiter"].readings = service.matches.Readings()
        client.application.extensions["arbiter"].open_stream(match_id, tokens[1], "40", None)
        assert learned == [readable[seq] for seq in range(1, 41)]
