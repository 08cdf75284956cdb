"""ARBITER_RETAIN_ENDED_LOGS_SECONDS: the read models keep a finished match's log for that long,
then leave it to the event store (projections/retention.py). The API's answers are the same
before and after; only where the log comes from changes."""

import random
import threading
import time

import pytest

from projections.projector import Projector
from projections.retention import RETENTION_VARIABLE, retention_seconds, trim_ended_logs
from service.api import create_app

from ..conftest import caught_up
from ..service.helpers import bearer, create, play_to_end, step

HOUR = 3600


def three_matches(client):
    """Two finished (one ended, one its seats abandoned by an abort), one still running."""
    ended, aborted, running = create(client), create(client, seats=["dan", "eve"]), create(client)
    play_to_end(client, ended, seed=1)
    assert client.post(f"/v1/matches/{aborted['match_id']}/abort",
                       headers=bearer(aborted["seats"][0]["token"])).status_code == 201
    tokens, rand = [s["token"] for s in running["seats"]], random.Random(2)
    for _ in range(5):
        step(client, running["match_id"], tokens, rand)
    return [m["match_id"] for m in (ended, aborted, running)]


def log_of(client, match_id):
    answer = client.get(f"/v1/matches/{match_id}/log?limit=1000").json
    return answer.get("source"), [(e["seq"], e["type"], e["hash"], e["words"]) for e in answer["events"]]


def test_a_finished_matchs_log_leaves_the_read_models_after_the_retention_and_reads_the_same(read_env):
    client = caught_up(create_app({**read_env, "ARBITER_PROJECTOR": "off", "ARBITER_CLOCK": "off"}).test_client())
    models = client.application.extensions["projector"].models
    ended, aborted, running = three_matches(client)
    caught_up(client)
    before = {mid: log_of(client, mid) for mid in (ended, aborted, running)}
    boards = {mid: client.get(f"/v1/matches/{mid}/board").json for mid in (ended, aborted, running)}
    listed = client.get("/v1/matches?limit=50").json["matches"]
    stats = client.get("/v1/stats/cyberiad").json
    assert all(source == "read_model" for source, _ in before.values()), "the logs come from the read models"
    assert all(models.list_length(f"log:{mid}") for mid in (ended, aborted, running))

    assert trim_ended_logs(models, HOUR) == 0, "finished a moment ago: kept"
    assert trim_ended_logs(models, HOUR, now=time.time() + 2 * HOUR) == 2, "the two finished matches"
    assert trim_ended_logs(models, HOUR, now=time.time() + 2 * HOUR) == 0, "each is trimmed once"

    assert models.list_length(f"log:{ended}") == models.list_length(f"log:{aborted}") == 0
    assert models.list_length(f"log:{running}") == len(before[running][1]), "a running match keeps its log"
    for mid in (ended, aborted):
        source, events = log_of(client, mid)
        assert (source, events) == ("event_store", before[mid][1]), "the same log, from the event store"
    assert log_of(client, running) == before[running]
    assert {mid: client.get(f"/v1/matches/{mid}/board").json for mid in boards} == boards, "boards stay in the models"
    assert client.get("/v1/matches?limit=50").json["matches"] == listed
    assert client.get("/v1/stats/cyberiad").json == stats


def test_a_following_projector_trims_when_caught_up_and_keeps_every_log_when_unset(read_env):
    client = caught_up(create_app({**read_env, "ARBITER_PROJECTOR": "off", "ARBITER_CLOCK": "off"}).test_client())
    store, models = client.application.extensions["arbiter"].store, client.application.extensions["projector"].models
    ended, _, running = three_matches(client)
    for retention, kept in ((None, True), (0.0, False)):
        projector, stop = Projector(store, models, retain_ended_seconds=retention), threading.Event()
        thread = threading.Thread(target=projector.run_forever, args=(stop,))
        thread.start()
        try:
            deadline = time.monotonic() + 10
            while (models.positions().get("matches", 0) < store.shards[""].recorder.max_notification_id()
                   or (not kept and models.list_length(f"log:{ended}"))) and time.monotonic() < deadline:
                time.sleep(0.02)
            time.sleep(0.1)  # a trim that should not happen would have happened by now
        finally:
            stop.set()
            thread.join(5)
        assert bool(models.list_length(f"log:{ended}")) == kept, retention
        assert models.list_length(f"log:{running}"), "a running match's log is never trimmed"


@pytest.mark.parametrize("value, seconds", [(None, None), ("", None), ("0", 0.0), ("86400", 86400.0)])
def test_the_retention_setting(value, seconds):
    assert retention_seconds({} if value is None else {RETENTION_VARIABLE: value}) == seconds


def test_a_negative_retention_is_refused():
    with pytest.raises(ValueError, match=RETENTION_VARIABLE):
        retention_seconds({RETENTION_VARIABLE: "-1"})


def test_the_trim_goes_on_batch_after_batch_until_none_is_due(sqlite_env, monkeypatch):
    import projections.retention as retention

    client = caught_up(create_app({**sqlite_env, "ARBITER_PROJECTOR": "off", "ARBITER_CLOCK": "off"}).test_client())
    ended, aborted, _ = three_matches(client)
    caught_up(client)
    monkeypatch.setattr(retention, "TRIM_BATCH", 1)
    models = client.application.extensions["projector"].models
    assert trim_ended_logs(models, 0, now=time.time() + 1) == 2
    assert models.list_length(f"log:{ended}") == models.list_length(f"log:{aborted}") == 0
