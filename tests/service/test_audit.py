"""Audit, import and the standalone verifier against every kind of tampering, on exported
files and on rows changed directly in SQLite and PostgreSQL."""

import copy
import random
import re
import subprocess
import sys
import uuid
from pathlib import Path

import orjson
import psycopg
import pytest
from click.testing import CliRunner

from domain.kernel.audit import audit
from domain.kernel.errors import UnknownRuleset
from domain.kernel.store import MatchStore
from service.api import create_app
from service.cli import main
from service.matches import Arbiter, ImportRefused

from ..conftest import caught_up
from .helpers import bearer, create, rechain

VERIFIER = Path(__file__).resolve().parents[2] / "docs" / "verify.py"
ADMIN = bearer("open-sesame")


def admin_client(env):
    """Imports are the admin's: the app knows the admin token."""
    return create_app({**env, "ARBITER_ADMIN_TOKEN": "open-sesame"}).test_client()


def finished_match(arbiter, seats=("ann", "bob", "cat"), seed=4):
    rand = random.Random(seed)
    match_id = uuid.UUID(arbiter.create_match("cyberiad", list(seats), entropy={seats[0]: "ann's dice"})["match_id"])
    while (summary := arbiter.summary(match_id))["status"] == "running":
        seat = summary["to_act"][0]
        arbiter.submit_action(match_id, seat, rand.choice(arbiter.legal_actions(match_id, seat)["actions"]))
    return match_id


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    store = MatchStore({"ARBITER_DATA_DIR": str(tmp_path_factory.mktemp("audit"))})
    arbiter = Arbiter(store)
    records = store.stored_events(finished_match(arbiter))
    store.close()
    return records


def action_seq_with_facts(records, kind="tokens"):
    """An action whose event hides nothing: what is changed in it is in the chained public form."""
    return next(r["seq"] for r in records[5:] if r["type"] == "ActionTaken" and "public" not in r and
                any(f["f"] == kind for f in r["data"]["facts"]))


def change_fact(records):
    seq = action_seq_with_facts(records)
    fact = next(f for f in records[seq - 1]["data"]["facts"] if f["f"] == "tokens")
    fact["delta"] += 1
    return seq


def change_action(records):
    seq = next(r["seq"] for r in records[5:] if r["type"] == "ActionTaken" and "public" not in r)
    action = records[seq - 1]["data"]["action"]
    records[seq - 1]["data"]["action"] = {"type": "power" if action["type"] != "power" else "end_turn"}
    return seq


def drop_event(records):
    del records[9]
    return 10


def reorder_pair(records):
    records[11], records[12] = records[12], records[11]
    return 12


def forge_fact_and_rechain(records):
    seq = change_fact(records)
    rechain(records, seq - 1)
    return seq


def forge_action_and_rechain(records):
    seq = change_action(records)
    rechain(records, seq - 1)
    return seq


def swap_seed(records):
    records[-1]["data"]["seed"] = "11" * 32
    rechain(records, len(records) - 1)
    return records[-1]["seq"]


def forge_outcome(records):
    outcome = records[-1]["data"]["outcome"]
    outcome["winners"] = [s for s in range(3) if s not in outcome["winners"]][:1]
    rechain(records, len(records) - 1)
    return records[-1]["seq"]


def hidden_draws(records):
    """(seq, fact) of every drawn card the public form hides."""
    return [(r["seq"], fact) for r in records[5:] if r["type"] == "ActionTaken" and "public" in r
            for fact, shown in zip(r["data"]["facts"], r["public"]["facts"])
            if fact.get("card") and shown.get("card") is None]


def change_hidden_card(records):
    """Swap a drawn card for another in the full data only: the chain, over the public form,
    still holds; the commitment made while the match ran does not."""
    seq, fact = hidden_draws(records)[0]
    fact["card"] = next(other for _, drawn in hidden_draws(records) if (other := drawn["card"]) != fact["card"])
    return seq


def show_a_hidden_card(records):
    """The server put the full event in the public form (a spectator saw a hidden card) and
    made the chain agree: the rules' redaction says otherwise."""
    seq = hidden_draws(records)[0][0]
    records[seq - 1].pop("public")
    prev = records[seq - 2]["hash"]
    from domain.kernel.canonical import chain_hash
    for later in records[seq - 1:]:
        later["prev_hash"] = prev
        later["hash"] = prev = chain_hash(prev, later["seq"], later["type"], later.get("public", later["data"]),
                                          later["commit"])
    return seq


TAMPERING = {  # kind: (how, the check that must catch it)
    "changed fact": (change_fact, "chain"),
    "changed hidden card": (change_hidden_card, "contents"),
    "public form shows a hidden card": (show_a_hidden_card, "disclosure"),
    "changed action": (change_action, "chain"),
    "dropped event": (drop_event, "chain"),
    "reordered pair": (reorder_pair, "chain"),
    "rewritten chain, changed fact": (forge_fact_and_rechain, "decisions"),
    "rewritten chain, changed action": (forge_action_and_rechain, "decisions"),
    "swapped seed": (swap_seed, "commitment"),
    "forged outcome": (forge_outcome, "outcome"),
}


def test_a_clean_match_is_signed_off(exported):
    report = audit(exported)
    assert report.ok and report.checks == dict.fromkeys(
        ("chain", "commitment", "contents", "disclosure", "decisions", "outcome"), "ok")
    assert report.summary.startswith("verified cyberiad") and exported[-1]["hash"] in report.summary


@pytest.mark.parametrize("kind", sorted(TAMPERING))
def test_each_tampering_is_reported_at_its_exact_seq(exported, kind, tmp_path):
    tamper, check = TAMPERING[kind]
    records = copy.deepcopy(exported)
    seq = tamper(records)
    report = audit(records)
    assert not report.ok
    assert (report.first_divergence.seq, report.first_divergence.check) == (seq, check), report.summary
    # The CLI audits the file offline and exits non-zero, naming the seq.
    path = tmp_path / "tampered.ndjson"
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in records))
    result = CliRunner().invoke(main, ["audit", str(path)], env={"ARBITER_DATA_DIR": str(tmp_path / "none")})
    assert result.exit_code == 1 and f"seq {seq}" in result.output
    assert not (tmp_path / "none").exists()  # offline: no store was opened
    # The standalone verifier agrees on the checks it makes (chain, commitment, contents).
    verdict = run_verifier(path)
    if check in ("chain", "commitment", "contents"):
        assert verdict.returncode == 1 and f"first divergence at seq {seq} ({check})" in verdict.stdout
    else:
        assert verdict.returncode == 0 and "chain: ok" in verdict.stdout and "contents: ok" in verdict.stdout


def run_verifier(path):
    return subprocess.run([sys.executable, "-I", str(VERIFIER), str(path)], capture_output=True, text=True)


def test_the_verifier_signs_off_what_audit_signs_off(exported, tmp_path):
    path = tmp_path / "clean.ndjson"
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in exported))
    assert run_verifier(path).returncode == 0
    selftest = subprocess.run([sys.executable, "-I", str(VERIFIER), "--selftest"], capture_output=True, text=True)
    assert selftest.returncode == 0


def test_an_unknown_ruleset_version_is_refused_not_guessed(exported, sqlite_env):
    records = copy.deepcopy(exported)
    records[0]["data"]["ruleset_version"] = "0.0.1"
    rechain(records)
    with pytest.raises(UnknownRuleset, match="not in this build"):
        audit(records)
    response = admin_client(sqlite_env).post(
        "/v1/imports", data=b"".join(orjson.dumps(r) + b"\n" for r in records), content_type="application/x-ndjson",
        headers=ADMIN)
    assert response.status_code == 422 and response.json["code"] == "unknown_ruleset"


# -- rows changed directly in the databases -------------------------------------------

def rows_sql(store_env):
    """Read and write stored event rows the way an intruder with database access would."""
    if store_env["ARBITER_STORE"] == "sqlite":
        import sqlite3
        conn = sqlite3.connect(Path(store_env["ARBITER_DATA_DIR"]) / "arbiter.sqlite", isolation_level=None)
        table, mark, key = "stored_events", "?", lambda mid: mid.hex
    else:
        conn = psycopg.connect(store_env["ARBITER_DATABASE_URL"], autocommit=True)
        table, mark, key = f'"{store_env["ARBITER_DB_SCHEMA"]}".arbiter_events', "%s", lambda mid: mid

    def read(mid, version):
        row = conn.execute(f"SELECT state FROM {table} WHERE originator_id={mark} AND originator_version={mark}",
                           (key(mid), version)).fetchone()
        return orjson.loads(row[0])

    def write(mid, version, state):
        conn.execute(f"UPDATE {table} SET state={mark} WHERE originator_id={mark} AND originator_version={mark}",
                     (orjson.dumps(state), key(mid), version))

    def delete(mid, version):
        conn.execute(f"DELETE FROM {table} WHERE originator_id={mark} AND originator_version={mark}",
                     (key(mid), version))

    return read, write, delete, conn


def tamper_rows(store_env, mid, kind, records):
    """Apply `kind` to the stored rows; returns the seq and check expected to catch it."""
    read, write, delete, conn = rows_sql(store_env)
    tampered = copy.deepcopy(records)
    if kind == "dropped event":
        delete(mid, 10)
        expected = 10
        conn.close()
        return expected, "chain"
    tamper, check = TAMPERING[kind]
    seq = tamper(tampered)
    if kind == "reordered pair":  # swap the two rows' contents
        first, second = read(mid, 12), read(mid, 13)
        write(mid, 12, second)
        write(mid, 13, first)
    else:
        for record in tampered:
            original = next(r for r in records if r["seq"] == record["seq"])
            if record != original:
                state = read(mid, record["seq"])
                state.update(data=record["data"], public=record.get("public"), commit=record["commit"],
                             prev_hash=record["prev_hash"], hash=record["hash"])
                write(mid, record["seq"], state)
    conn.close()
    return seq, check


@pytest.mark.parametrize("kind", sorted(TAMPERING))
def test_rows_changed_in_the_database_are_caught_at_the_exact_seq(store_env, kind):
    store = MatchStore(store_env)
    mid = finished_match(Arbiter(store), seed=9)
    records = store.stored_events(mid)
    store.close()
    seq, check = tamper_rows(store_env, mid, kind, records)
    fresh = MatchStore(store_env)
    report = Arbiter(fresh).audit(mid)
    fresh.close()
    assert not report["ok"]
    assert (report["first_divergence"]["seq"], report["first_divergence"]["check"]) == (seq, check)


# -- export, import, replay ---------------------------------------------------------------

def test_round_trip_export_import_audit_identical_boards(store_env, tmp_path):
    source = MatchStore({"ARBITER_DATA_DIR": str(tmp_path / "source")})
    mid = finished_match(Arbiter(source), seats=("ann", "bob"), seed=21)
    lines = Arbiter(source).export_lines(mid)
    target_app = create_app({**store_env, "ARBITER_ADMIN_TOKEN": "open-sesame"})
    client = target_app.test_client()
    imported = client.post("/v1/imports", data=b"".join(lines), content_type="application/x-ndjson", headers=ADMIN)
    assert imported.status_code == 201 and imported.json["audit"].startswith("verified")
    assert client.get(f"/v1/matches/{mid}/audit").json["ok"]
    assert client.get(f"/v1/matches/{mid}/export").data == b"".join(lines)
    source_client = create_app({"ARBITER_DATA_DIR": str(tmp_path / "source"), "ARBITER_PROJECTOR": "off"}).test_client()
    version = client.get(f"/v1/matches/{mid}").json["version"]
    for n in range(1, version + 1):
        assert client.get(f"/v1/matches/{mid}/state", query_string={"version": n}).json == \
            source_client.get(f"/v1/matches/{mid}/state", query_string={"version": n}).json
    caught_up(client)
    caught_up(source_client)
    imported_arbiter, source_arbiter = (c.application.extensions["arbiter"] for c in (client, source_client))
    replayed = source.match(mid)
    for seat in (None, 0, 1):  # the read models agree too, for each reader (positions differ: other stores)
        imported_board, source_board = (a.board(mid, seat) for a in (imported_arbiter, source_arbiter))
        assert imported_board["source"] == source_board["source"] == "read_model"
        assert imported_board["board"] == source_board["board"] == replayed.ruleset.view(replayed.state, seat)
        assert imported_board["version"] == source_board["version"] == version
    assert client.get(f"/v1/matches/{mid}/board").json["board"] == imported_arbiter.board(mid, None)["board"]
    again = client.post("/v1/imports", data=b"".join(lines), content_type="application/x-ndjson", headers=ADMIN)
    assert again.status_code == 409 and again.json["code"] == "match_exists"
    source.close()
    target_app.extensions["arbiter"].store.close()


def test_a_tampered_import_is_refused_whole(exported, sqlite_env):
    records = copy.deepcopy(exported)
    forge_fact_and_rechain(records)
    store = MatchStore(sqlite_env)
    with pytest.raises(ImportRefused) as refusal:
        Arbiter(store).import_match([orjson.dumps(r) for r in records])
    assert refusal.value.report["first_divergence"]["check"] == "decisions"
    assert store.recorder.max_notification_id() is None  # nothing was stored


def test_running_matches_export_only_to_the_admin_and_audit_the_chain_only(sqlite_env):
    client = create_app({**sqlite_env, "ARBITER_ADMIN_TOKEN": "open-sesame"}).test_client()
    created = create(client, seats=("ann", "bob"))
    mid = created["match_id"]
    assert client.get(f"/v1/matches/{mid}/export").status_code == 409
    assert client.get(f"/v1/matches/{mid}/export", headers=bearer(created["seats"][0]["token"])).status_code == 409
    assert client.get(f"/v1/matches/{mid}/export", headers=bearer("open-sesame")).status_code == 200
    report = client.get(f"/v1/matches/{mid}/audit").json
    assert report["checks"]["chain"] == "ok" and report["checks"]["decisions"].startswith("pending")
    assert "setup" not in str(report) and "seed" not in {k for k in report}


def test_replay_steps_through_as_a_seat_saw_it(exported, tmp_path):
    path = tmp_path / "match.ndjson"
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in exported))
    # The first version from 6 on where seat 1 holds a card (the deal is the server's: about one
    # match in forty, seat 1 has paid with its whole hand by then)
    for to in range(6, 30):
        result = CliRunner().invoke(main, ["replay", str(path), "--to", str(to), "--seat", "1"])
        assert result.exit_code == 0, result.output
        seat_1 = result.output[result.output.index("seat 1 ·"):result.output.index("seat 2 ·")]
        if not re.search(r"hand 0/", seat_1):
            break
    assert f"#{to}" in result.output and f"#{to + 1}" not in result.output
    # drawn as seat 1 saw it: its own hand by name, the others' as counts
    # (a name, then its cost: "A Good Shellacking (4)"; a capital and a small letter missed that one;
    # two cards cost X (Altruizine, Negotiations), which a digits-only cost missed when it was seat 1's one card)
    assert re.search(r"hand \d+/\d+ +[^▒\s][^\n]*\((?:\d+|X)\)", seat_1), "seat 1's own hand by name"
    # backs and a count ("▒▒▒ 3 cards", "▒ 1 card", "0 cards" for an emptied hand)
    assert len(re.findall(r"hand \d+/\d+ +(?:▒+…? )?\d+ cards?\b", result.output)) == 2, "two hands as a count"


MALFORMED_BUT_RECHAINED = {  # where nonsense content sits: (seq it is reported at, how)
    "seats not a list": (1, lambda records: records[0]["data"].__setitem__("seats", 5)),
    "no commitment": (None, lambda records: records[0]["data"].pop("commitment")),
    "facts not a list": (3, lambda records: records[2]["data"].__setitem__("facts", {"x": 1})),
    "action seat a string": (3, lambda records: records[2]["data"].__setitem__("seat", "0")),
    "a record that is a list": (2, lambda records: records.__setitem__(1, [1, 2])),
}


@pytest.mark.parametrize("kind", sorted(MALFORMED_BUT_RECHAINED))
def test_nonsense_content_under_an_intact_chain_is_a_divergence_not_a_crash(exported, sqlite_env, kind):
    seq, damage = MALFORMED_BUT_RECHAINED[kind]
    records = copy.deepcopy(exported)
    damage(records)
    if all(isinstance(record, dict) for record in records):
        rechain(records)
    report = audit(records)
    assert not report.ok and report.first_divergence is not None, report.summary
    if seq is not None:
        assert report.first_divergence.seq == seq, report.summary
    response = admin_client(sqlite_env).post(
        "/v1/imports", data=b"\n".join(orjson.dumps(r) for r in records), content_type="application/x-ndjson",
        headers=ADMIN)
    assert response.status_code == 422 and response.json["code"] == "import_refused", response.json
