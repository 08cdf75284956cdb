"""arbiter simulate: bot matches through the real store, one transaction a match, marked
simulated so statistics can leave them out; each stored match audits."""

import uuid

import pytest
from click.testing import CliRunner

from domain.kernel.audit import audit
from domain.kernel.store import MatchStore
from service.api import create_app
from service.cli import main
from service.simulate import play_match, simulate


@pytest.fixture
def env(store_env, monkeypatch):
    for key, value in store_env.items():
        monkeypatch.setenv(key, value)
    return store_env


def test_simulated_matches_are_stored_whole_audited_and_counted_apart(env):
    result = CliRunner().invoke(main, ["simulate", "--game", "cybermancy", "--matches", "4", "--bots",
                                       "greedy,random", "--workers", "2"])
    assert result.exit_code == 0, result.output
    assert "4 matches" in result.output and "events/s" in result.output
    app = create_app(env)
    client = app.test_client()
    played = app.extensions["projector"].catch_up()
    store = app.extensions["arbiter"].store
    client.post("/v1/matches", json={"game": "cybermancy", "seats": ["ann", "bob"]})
    app.extensions["projector"].catch_up()
    assert client.get("/v1/stats/cybermancy").json["matches_started"] == 1, "simulated matches left out"
    only = client.get("/v1/stats/cybermancy?simulated=only").json
    assert only["matches_started"] == only["matches_ended"] == 4
    assert client.get("/v1/stats/cybermancy?simulated=include").json["matches_started"] == 5
    assert client.get("/v1/stats/cybermancy?simulated=sometimes").status_code == 400
    listed = client.get("/v1/matches?game=cybermancy&status=ended").json["matches"]
    assert len(listed) == 4
    for match in listed:
        records = store.stored_events(uuid.UUID(match["match_id"]))
        assert records[0]["data"]["simulated"] is True and records[-1]["type"] == "MatchEnded"
        assert audit(records).ok
    assert played == sum(len(store.stored_events(uuid.UUID(m["match_id"]))) for m in listed)
    board = client.get("/v1/leaderboards/cybermancy").json["players"]
    assert {row["player"] for row in board} == {"bot:greedy", "bot:random"}, "bots are rated by kind"
    store.close()


def test_a_match_is_stored_in_one_transaction(env, monkeypatch):
    store = MatchStore(env)
    shard, saves = store.shards[""], []
    real_save = shard.save
    monkeypatch.setattr(shard, "save", lambda *aggregates, **kwargs: (saves.append(aggregates),
                                                                       real_save(*aggregates, **kwargs))[1])
    events = play_match("cyberiad", 3, ["random"], {}, seed=1, store=store)
    store.close()
    assert len(saves) == 1 and events > 20
    with pytest.raises(ValueError, match="no bots"):
        simulate("cyberiad", 1, 2, ["oracle"], {}, workers=1)
