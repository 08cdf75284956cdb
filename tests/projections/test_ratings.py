"""Ratings: OpenSkill (Plackett-Luce) per game and player, from ended matches only, the
library's own values for a known sequence of results; rebuilt equal to live."""

from openskill.models import PlackettLuce

from service.api import create_app
from tests.service.helpers import bearer


def resigned_match(client, seats, loser):
    """A Cyberiad match ended by `loser`'s resign (the others win)."""
    created = client.post("/v1/matches", json={"game": "cyberiad", "seats": seats}).json
    token = created["seats"][seats.index(loser)]["token"]
    assert client.post(f"/v1/matches/{created['match_id']}/resign", headers=bearer(token)).status_code == 201
    return created["match_id"]


def test_ratings_follow_the_library_and_rebuild_equal_live(read_env):
    app = create_app(read_env)
    client = app.test_client()
    results = [(["ann", "bob"], "ann"), (["bob", "cat"], "cat"), (["cat", "dan"], "dan"), (["dan", "ann"], "dan"),
               (["ann", "cat"], "cat")]
    for seats, loser in results:
        resigned_match(client, seats, loser)
    aborted = client.post("/v1/matches", json={"game": "cyberiad", "seats": ["ann", "eve"]}).json
    client.post(f"/v1/matches/{aborted['match_id']}/abort", headers=bearer(aborted["seats"][0]["token"]))
    projector = app.extensions["projector"]
    projector.catch_up()

    model = PlackettLuce()
    expected = {}
    for seats, loser in results:
        teams = [[expected.get(name, model.rating(name=name))] for name in seats]
        ranks = [2 if name == loser else 1 for name in seats]
        for name, (rating,) in zip(seats, model.rate(teams, ranks=ranks)):
            expected[name] = rating

    board = client.get("/v1/leaderboards/cyberiad").json
    assert [row["player"] for row in board["players"]] == sorted(expected, key=lambda n: -expected[n].ordinal())
    for row in board["players"]:
        assert abs(row["mu"] - expected[row["player"]].mu) < 1e-9
        assert abs(row["sigma"] - expected[row["player"]].sigma) < 1e-9
    assert "eve" not in {row["player"] for row in board["players"]}, "an aborted match rates nobody"
    assert client.get("/v1/players/ann").json["ratings"]["cyberiad"]["matches"] == 3
    assert len({round(row["mu"], 6) for row in board["players"]}) == 4, "the sequence separates the players"
    live = {row["player"]: row for row in board["players"]}
    projector.rebuild(["ratings"])
    assert {row["player"]: row for row in client.get("/v1/leaderboards/cyberiad").json["players"]} == live


def test_a_one_seat_match_rates_nobody_and_stops_no_projection(read_env):
    """Cyberspace's Engineering Puzzle is played alone: there is nobody to be ranked against."""
    app = create_app(read_env)
    client = app.test_client()
    created = client.post("/v1/matches", json={"game": "cyberspace", "seats": ["solo"]}).json
    token = created["seats"][0]["token"]
    assert client.post(f"/v1/matches/{created['match_id']}/resign", headers=bearer(token)).status_code == 201
    resigned_match(client, ["ann", "bob"], "bob")  # a later match is still rated
    app.extensions["projector"].catch_up()
    assert client.get("/v1/leaderboards/cyberspace").json["players"] == []
    assert [row["player"] for row in client.get("/v1/leaderboards/cyberiad").json["players"]] == ["ann", "bob"]
