"""The CLI finds the same store as the server (ARBITER_STORE, ARBITER_DATA_DIR) from any
folder, says where it looked, never creates a store for a command that only reads, and names
a missing file as a missing file and a missing match as a missing match."""

import json
import os
import re
import uuid

import pytest
from click.testing import CliRunner

from service.cli import main


@pytest.fixture(autouse=True)
def sessions_file(tmp_path, monkeypatch):
    monkeypatch.setenv("ARBITER_SESSIONS", str(tmp_path / "sessions.json"))


@pytest.fixture
def elsewhere(tmp_path, monkeypatch):
    """A folder with no store in it, as the current directory."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


def invoke(env, *args):
    return CliRunner().invoke(main, list(args), env=env)


def finished_match(sqlite_env) -> str:
    result = invoke(sqlite_env, "play", "cyberiad", "--bot", "0", "--bot", "1")
    assert result.exit_code == 0, result.output
    return re.search(r"match (\S+) created", result.output).group(1)


def test_export_from_another_folder_finds_the_match_through_arbiter_data_dir(sqlite_env, elsewhere):
    match_id = finished_match(sqlite_env)
    result = invoke(sqlite_env, "export", match_id)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout_bytes.splitlines()[0])["type"] == "MatchCreated"
    assert not (elsewhere / "var").exists()


def test_without_arbiter_data_dir_a_clear_error_and_no_store_created(sqlite_env, elsewhere):
    match_id = finished_match(sqlite_env)
    unset = {**sqlite_env, "ARBITER_DATA_DIR": None}
    for command in (["export", match_id], ["export", match_id, "-o", "out.ndjson"], ["show", match_id],
                    ["audit", match_id], ["replay", match_id]):
        result = invoke(unset, *command)
        assert result.exit_code != 0, (command, result.output)
        looked = str(elsewhere / "var" / "arbiter.sqlite")
        assert f"no store at {looked}" in result.output and "ARBITER_DATA_DIR is not set" in result.output, command
        assert not (elsewhere / "var").exists() and not (elsewhere / "out.ndjson").exists(), command


def test_matches_reads_no_store_that_is_not_there(sqlite_env, elsewhere):
    finished_match(sqlite_env)  # remembered, in the store ARBITER_DATA_DIR names
    result = invoke({**sqlite_env, "ARBITER_DATA_DIR": None}, "matches", "--all")
    assert result.exit_code == 0 and str(elsewhere / "var" / "arbiter.sqlite") in result.output
    assert not (elsewhere / "var").exists()
    listed = invoke(sqlite_env, "matches", "--all")
    assert listed.exit_code == 0 and "cyberiad" in listed.output and "ended" in listed.output


def test_a_missing_match_is_named_with_the_store_looked_in(sqlite_env, elsewhere):
    finished_match(sqlite_env)
    missing = str(uuid.uuid4())
    result = invoke(sqlite_env, "export", missing)
    store = os.path.join(sqlite_env["ARBITER_DATA_DIR"], "arbiter.sqlite")
    assert result.exit_code != 0 and "no match" in result.output and missing in result.output
    assert f"in the store at {store} (ARBITER_DATA_DIR)" in result.output


def test_a_missing_file_is_a_missing_file(sqlite_env, elsewhere):
    for command in ("audit", "replay"):
        result = invoke(sqlite_env, command, "match.ndjson")
        assert result.exit_code != 0 and "file not found: match.ndjson" in result.output, result.output
        assert "no match" not in result.output
    assert not (elsewhere / "var").exists() and not os.path.exists(sqlite_env["ARBITER_DATA_DIR"] + "/arbiter.sqlite")


def test_show_prints_json_and_a_table_with_pretty(sqlite_env):
    match_id = finished_match(sqlite_env)
    shown = json.loads(invoke(sqlite_env, "show", match_id).output)
    assert shown["summary"]["game"] == "cyberiad" and shown["summary"]["status"] == "ended"
    assert "'" not in invoke(sqlite_env, "show", match_id).output.replace("\\'", ""), "no Python reprs"
    pretty = invoke(sqlite_env, "show", match_id, "--pretty").output
    assert "match " + match_id in pretty and re.search(r"game\s+│?\s*cyberiad", pretty)
