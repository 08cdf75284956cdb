"""A new SQLite file opened by several processes at once (`arbiter serve`'s workers at first
boot, each opening the event store and the read models): every one of them opens it.

Switching a new file to WAL mode takes SQLite's exclusive lock without waiting (its busy
timeout does not apply), and `make bench` saw a worker die of "database is locked" at start.
Threads with connections of their own race the same way as processes, and cost less to start:
a round is three of them opening a fresh file together; without the guard (domain/kernel/
sqlite.py, use_wal) 9 to 16 of 450 opens failed in 150 rounds."""

import contextlib
import sqlite3
import tempfile
import threading
from pathlib import Path

import pytest

from domain.kernel.store import MatchStore
from projections.readstore import SQLiteReadStore

from ..sizing import sized

ROUNDS = sized(150)


def open_event_store(data_dir: Path) -> None:
    MatchStore({"ARBITER_STORE": "sqlite", "ARBITER_DATA_DIR": str(data_dir)}).close()


def open_read_store(data_dir: Path) -> None:
    SQLiteReadStore(data_dir / "readmodels.sqlite").ping()


@pytest.mark.parametrize("open_store", [open_event_store, open_read_store])
def test_openers_of_a_new_file_at_the_same_moment_all_open_it(open_store, tmp_path):
    failures, wal = [], []
    for _ in range(ROUNDS):
        data_dir = Path(tempfile.mkdtemp(dir=tmp_path))
        together = threading.Barrier(3)

        def open_it():
            together.wait()
            try:
                open_store(data_dir)
            except Exception as error:  # noqa: BLE001 - every failure is the finding
                failures.append(repr(error))

        openers = [threading.Thread(target=open_it) for _ in range(3)]
        for opener in openers:
            opener.start()
        for opener in openers:
            opener.join(30)
        for database in data_dir.glob("*.sqlite"):
            with contextlib.closing(sqlite3.connect(database)) as connection:
                wal.append(connection.execute("PRAGMA journal_mode").fetchone()[0])
    assert not failures, f"{len(failures)} of {3 * ROUNDS} opens failed: {sorted(set(failures))}"
    assert wal and set(wal) == {"wal"}, "every file is in WAL mode (readers never wait on the writer)"
