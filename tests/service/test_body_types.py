"""A wrongly typed value anywhere in a body (a field, a list element, a map value) gets
400 invalid_body naming that field, and changes nothing."""

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from ..conftest import caught_up
from ..sizing import sized
from .helpers import bearer, create

# JSON has no NaN or infinity (the client's encoder would send them as null, a valid value).
json_scalars = st.one_of(st.none(), st.booleans(), st.integers(-2**63, 2**63 - 1), st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=8))
json_values = st.recursive(json_scalars, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                                 st.dictionaries(st.text(max_size=5), inner, max_size=3)),
                           max_leaves=6)
not_a_string = json_values.filter(lambda v: not isinstance(v, str))
not_a_list = json_values.filter(lambda v: not isinstance(v, list))
not_an_object = json_values.filter(lambda v: not isinstance(v, dict))
not_an_integer = json_values.filter(lambda v: not isinstance(v, int) or isinstance(v, bool))
# `seats` is a list of seats, or a number of open seats (a whole number is no wrong type there)
not_seats = not_a_list.filter(lambda v: not isinstance(v, int) or isinstance(v, bool))

VALID_CREATE = {"game": "cyberiad", "seats": ["ann", "bob"], "options": {}, "entropy": {"ann": "x"}}

# (field path as the problem names it, how to put the bad value there, values of the wrong type)
CREATE_SLOTS = [
    ("game", lambda body, v: body.update(game=v), not_a_string),
    ("seats", lambda body, v: body.update(seats=v), not_seats),
    ("seats.1", lambda body, v: body["seats"].__setitem__(1, v), not_a_string),
    ("options", lambda body, v: body.update(options=v), not_an_object),
    ("entropy", lambda body, v: body.update(entropy=v), not_an_object),
    ("entropy.ann.value", lambda body, v: body["entropy"].__setitem__("ann", v), not_a_string),
]
ACTION_SLOTS = [
    ("action", lambda body, v: body.update(action=v), not_an_object),
    ("expected_version", lambda body, v: body.update(expected_version=v), not_an_integer.filter(lambda v: v is not None)),
]


def slot_and_value(slots):
    return st.sampled_from(slots).flatmap(lambda slot: st.tuples(st.just(slot), slot[2]))


def assert_names_the_field(response, field):
    assert response.status_code == 400, response.json
    assert response.mimetype == "application/problem+json"
    problem = response.json
    assert problem["code"] == "invalid_body"
    assert field in problem["errors"], problem
    assert field in problem["detail"]


@settings(max_examples=sized(150), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=slot_and_value(CREATE_SLOTS))
def test_create_with_a_wrongly_typed_value(client, case):
    (field, place, _), value = case
    before = len(caught_up(client).get("/v1/matches").json["matches"])
    body = {**VALID_CREATE, "seats": list(VALID_CREATE["seats"]), "entropy": dict(VALID_CREATE["entropy"])}
    place(body, value)
    assert_names_the_field(client.post("/v1/matches", json=body), field)
    assert len(caught_up(client).get("/v1/matches").json["matches"]) == before


def test_the_reported_case_seats_false(client):
    response = client.post("/v1/matches", json={"game": "cyberiad", "seats": [False]})
    assert_names_the_field(response, "seats.0")


@pytest.fixture
def waiting_match(client):
    """One match for all examples (hypothesis runs them under one function-scoped fixture)."""
    return create(client, seats=("ann", "bob"))


@settings(max_examples=sized(100), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=slot_and_value(ACTION_SLOTS))
def test_submit_with_a_wrongly_typed_value(client, waiting_match, case):
    match_id = waiting_match["match_id"]
    summary = client.get(f"/v1/matches/{match_id}").json
    (field, place, _), value = case
    body = {"action": {"type": "pick", "constructor": "turl"}, "expected_version": summary["version"]}
    place(body, value)
    response = client.post(f"/v1/matches/{match_id}/actions", json=body,
                           headers=bearer(waiting_match["seats"][summary["to_act"][0]]["token"]))
    assert_names_the_field(response, field)
    assert client.get(f"/v1/matches/{match_id}").json["version"] == summary["version"]
