"""The SQLite side of the event store (domain/kernel/store.py): the connections a save and a
replay's read use."""

import contextlib
import fcntl
import sqlite3
import threading

from eventsourcing.persistence import (ConnectionPoolClosedError, ConnectionUnavailableError, DatabaseError,
                                       DataError, IntegrityError, InterfaceError, InternalError, NotSupportedError,
                                       OperationalError, PersistenceError, ProgrammingError)
from eventsourcing.sqlite import SQLITE3_DEFAULT_LOCK_TIMEOUT, SQLiteApplicationRecorder

# sqlite3's errors as the library's transaction raises them (eventsourcing 9.5.6,
# SQLiteTransaction.__exit__): the store turns IntegrityError into a version conflict
LIBRARY_ERRORS = ((sqlite3.InterfaceError, InterfaceError), (sqlite3.DataError, DataError),
                  (sqlite3.OperationalError, OperationalError), (sqlite3.IntegrityError, IntegrityError),
                  (sqlite3.InternalError, InternalError), (sqlite3.ProgrammingError, ProgrammingError),
                  (sqlite3.NotSupportedError, NotSupportedError), (sqlite3.DatabaseError, DatabaseError),
                  (sqlite3.Error, PersistenceError))


def use_wal(path, timeout: float = 10.0) -> None:
    """Put the SQLite database file at `path` (made if missing) in WAL mode, which the file
    keeps, safely against other processes opening it at the same moment.

    Switching the journal mode takes SQLite's exclusive lock without waiting for it (the busy
    timeout does not apply), so two processes opening a new file together (`arbiter serve`'s
    workers at first boot, the library's first connection switching it in each) had one fail
    with "database is locked": its worker died. The switch is made under an exclusive lock on
    a file beside the database (`<file>.lock`: not the database file itself, whose descriptor
    closed by this process would drop SQLite's own locks)."""
    with contextlib.closing(sqlite3.connect(path, timeout=timeout, isolation_level=None)) as connection:
        if connection.execute("PRAGMA journal_mode").fetchone()[0].lower() == "wal":
            return
        with open(f"{path}.lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                connection.execute("PRAGMA journal_mode=WAL")  # a no-op when another process just did it
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)


class KeptConnectionsRecorder(SQLiteApplicationRecorder):
    """The library's SQLite application recorder (eventsourcing 9.5.6), with its saves written
    on one connection of its own, one save at a time, and a replay's rows read on reader
    connections of its own.

    The library takes each save's or read's connection from its pool (a semaphore, the pool's
    writer lock and a condition, each with a timeout), and opens its connections with
    `cached_statements=True`, a statement cache of one: every BEGIN pushes the INSERT out, so
    the INSERT is compiled again on every save. Between them that was over a quarter of a
    save's CPU (242 against 173 µs on a slow 2-core host) and 8 % of a served move's.

    The kept connections hold their statements compiled (sqlite3's default cache). The
    recorder's lock stands in for the pool's writer lock: SQLite takes one writer at a time
    anyway, and the lock queues this store's writers here rather than in SQLite's busy wait,
    for at most the pool's timeout (ConnectionUnavailableError, as the pool raises), so saves
    queued behind another process's write lock fail in turn rather than each wait a lock
    timeout more. The save's transaction is the library's: BEGIN, an INSERT per event giving
    its notification id (rowid), COMMIT, or ROLLBACK and the library's error for sqlite3's.
    Readers never wait on the writer (WAL mode, which the pool's first connection sets for
    the file before either is opened); there are as many as reads ran at once. After close()
    both raise ConnectionPoolClosedError, as the pool does. The library's own reads (the
    notification log) keep its pool. The store's file is never an in-memory database
    (`store_environment`), which one connection alone could see."""

    def __init__(self, datastore, **kwargs):
        super().__init__(datastore, **kwargs)
        self._writing = threading.Lock()
        self._writer: sqlite3.Connection | None = None  # opened on the first save
        self._keeping = threading.Lock()  # the idle readers and whether the recorder is closed
        self._readers: list[sqlite3.Connection] = []
        self._closed = False

    def _lock_timeout(self) -> float:
        """How long a connection waits for SQLite's write lock (SQLITE_LOCK_TIMEOUT)."""
        return self.datastore.pool.lock_timeout or SQLITE3_DEFAULT_LOCK_TIMEOUT

    def _connect(self) -> sqlite3.Connection:
        if self._closed:
            raise ConnectionPoolClosedError("the store is closed")
        return sqlite3.connect(self.datastore.pool.db_name, uri=True, isolation_level=None, check_same_thread=False,
                               timeout=self._lock_timeout())

    def insert_events(self, stored_events, **kwargs):
        statement = self.insert_events_statement
        acquired = False
        try:
            acquired = self._writing.acquire(timeout=self.datastore.pool.pool_timeout)
            if not acquired:
                raise ConnectionUnavailableError("timed out waiting for this process's other saves")
            if self._closed:  # close() began while this save waited for the lock
                raise ConnectionPoolClosedError("the store is closed")
            if self._writer is None:
                self._writer = self._connect()
            connection = self._writer
            try:
                connection.execute("BEGIN")
                ids = [connection.execute(statement, (event.originator_id.hex, event.originator_version,
                                                      event.topic, event.state)).lastrowid
                       for event in stored_events]
                connection.commit()
            except sqlite3.Error as error:
                connection.rollback()
                raise next(ours for theirs, ours in LIBRARY_ERRORS if isinstance(error, theirs))(error) from error
            except BaseException:
                connection.rollback()
                raise
        finally:
            if acquired:
                if self._closed:  # close() gave up waiting for this save: the writer is closed here
                    self._close_writer()
                self._writing.release()
        return ids

    def select_rows(self, statement: str, params) -> list:
        """All rows of one SELECT, on an idle reader connection (one more is opened when every
        one is busy). One statement is a snapshot of its own: no BEGIN and ROLLBACK around it."""
        with self._keeping:
            connection = self._readers.pop() if self._readers else None
        if connection is None:
            connection = self._connect()
        try:
            return connection.execute(statement, params).fetchall()
        finally:
            with self._keeping:
                if self._closed:
                    connection.close()
                else:
                    self._readers.append(connection)

    def close(self) -> None:
        """Close the kept connections. A reader still reading is closed when it is done; the
        writer is closed once the save holding it is done, waited for here for at most the
        longest a save may wait (the pool's timeout and the lock timeout), after which that
        save closes it as it ends."""
        with self._keeping:
            self._closed = True
            while self._readers:
                self._readers.pop().close()
        if self._writing.acquire(timeout=self.datastore.pool.pool_timeout + self._lock_timeout()):
            try:
                self._close_writer()
            finally:
                self._writing.release()

    def _close_writer(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None
