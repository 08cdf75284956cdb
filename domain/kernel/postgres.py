"""The PostgreSQL side of the event store (domain/kernel/store.py), imported only when
ARBITER_STORE=postgres: psycopg is a third of a process's start-up, which SQLite users,
the terminal and the CLI need not pay."""

from psycopg import sql
from psycopg.rows import tuple_row
from eventsourcing.persistence import InterfaceError, OperationalError
from eventsourcing.postgres import ConnectionPool, PostgresApplicationRecorder
from eventsourcing.utils import retry


class LastReturnedFirstPool(ConnectionPool):
    """The library's connection pool (eventsourcing 9.5.6 over psycopg_pool 3.3.3) handing out
    the connection returned last instead of the one idle longest.

    psycopg_pool keeps its idle connections in a queue, so consecutive requests of a process
    run on each of its open connections in turn, each served by a PostgreSQL backend process
    of its own whose caches have gone cold since its last turn. Taken last-in first-out (the
    `pool_use_lifo` of SQLAlchemy's pools), a process with a few requests at a time keeps using
    the same few backends. Served moves alternating between the two pools in one process (a
    PostgreSQL on the same 2-core machine): the server's CPU per move fell from 450 to 367 µs
    and the whole CPU per move by a tenth (median of 16 rounds). (psycopg_pool's max_idle still
    closes connections above the pool's minimum that went unused that long, the idle ones at
    the queue's far end.) Only `_get_ready_connection` differs: it takes from the other end
    of psycopg_pool's queue, turning the connection returned last to the end psycopg_pool's
    own takes from, which does the rest (its timeout, an empty pool, the waiting queue, the
    count its shrinking reads). psycopg-pool is pinned for it in pyproject.toml.

    What it costs: the connections under the few in use sit idle until a burst reaches them,
    so a firewall, a NAT or PgBouncer that closes idle connections (or the server's
    idle_session_timeout) may have closed them by then, and psycopg_pool's max_lifetime
    (POSTGRES_CONN_MAX_AGE) replaces a connection only as it is returned. A read or a save
    handed a closed connection fails and is tried again on another (the library's retry, and
    `event_rows`'s below), a fifth of a second later; POSTGRES_PRE_PING=y checks each
    connection as it is handed out instead, at a round trip a request."""

    def _get_ready_connection(self, timeout):
        self._pool.rotate(1)  # called under the pool's lock; an empty deque rotates to itself
        return super()._get_ready_connection(timeout)


class OneCallRecorder(PostgresApplicationRecorder):
    """The library's PostgreSQL application recorder (eventsourcing 9.5.6), a save written by
    one prepared call of a database function instead of five pipelined statements.

    The library writes a save as `SET LOCAL lock_timeout`, `LOCK TABLE … IN EXCLUSIVE MODE`,
    NOTIFY and the INSERT in one transaction, psycopg converting the unprepared statements
    again on every write: half of a PostgreSQL move's CPU in the web process. Its optional
    database function (POSTGRES_ENABLE_DB_FUNCTIONS) is one prepared call but leaves the table
    lock out, and the lock is what makes notification ids commit in the order they are issued:
    without it a projector reading the log could pass an id whose transaction commits later,
    and never project that event. This function is the library's with the lock put back: the
    same statements in the same order, in the one transaction of the call. It has a name of
    its own, so a process of the library's own recorder (which replaces its function at start)
    never swaps the lockless one in under this one.

    The events go to the call as one binary parameter (`%b`): psycopg builds the text form of
    an array of composites in Python, escaping each event's JSON written out in hex, where the
    binary form is the bytes as they are. Served moves alternating between the two in one
    process: the web process's CPU per move fell from 847 to 745 µs and the server's from 250
    to 233 (medians of 16 rounds); the stored rows are the same bytes."""

    FUNCTION = "arbiter_insert_events"

    def __init__(self, datastore, **kwargs):
        super().__init__(datastore, **kwargs)
        # The library builds its pool inside its datastore; the one method that differs is
        # swapped in on that very pool (LastReturnedFirstPool adds no state of its own).
        if type(datastore.pool) is ConnectionPool:
            datastore.pool.__class__ = LastReturnedFirstPool
        names = {"schema": sql.Identifier(datastore.schema), "function": sql.Identifier(self.FUNCTION),
                 "event": sql.Identifier(self.stored_event_type_name),
                 "table": sql.Identifier(self.events_table_name), "channel": sql.Identifier(self.channel_name)}
        self.pg_function_name_insert_events = self.FUNCTION
        self.sql_invoke_pg_function_insert_events = sql.SQL("SELECT * FROM {schema}.{function}((%b))").format(**names)
        self.sql_create_statements[self.create_insert_function_statement_index] = sql.SQL(
            "CREATE OR REPLACE FUNCTION {schema}.{function}(events {schema}.{event}[]) "
            "RETURNS SETOF bigint LANGUAGE plpgsql AS $BODY$ BEGIN"
            "    SET LOCAL lock_timeout = '{lock_timeout}s';"
            "    LOCK TABLE {schema}.{table} IN EXCLUSIVE MODE;"
            "    NOTIFY {channel};"
            "    RETURN QUERY"
            "    INSERT INTO {schema}.{table} AS t (originator_id, originator_version, topic, state)"
            "    SELECT originator_id, originator_version, topic, state FROM unnest(events)"
            "    RETURNING notification_id;"
            " END; $BODY$").format(lock_timeout=datastore.lock_timeout, **names)


def create_tables_once(recorder: PostgresApplicationRecorder, lock_key: int) -> None:
    """Create the schema and tables if missing, under the advisory lock `lock_key`, so
    processes starting together on an empty database take turns (store.py's module doc)."""
    datastore = recorder.datastore
    with datastore.get_connection() as conn:  # autocommit (the library's pool sets it)
        conn.execute("SELECT pg_advisory_lock(%s)", (lock_key,))
        try:
            conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(datastore.schema)))
            recorder.create_table()
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (lock_key,))


@retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)  # as the library's own reads
def event_rows(recorder: PostgresApplicationRecorder, where: str, params: list) -> list:
    """(version, topic, stored JSON) rows of the events table matching `where` (with %s
    placeholders), in version order: ShardStore._event_rows on PostgreSQL. A connection the
    server or the network closed while it sat in the pool fails the read, which is then
    tried again on another, as the library's own reads are. The rows come in binary, the
    stored JSON as its bytes rather than hex text to decode (a replay's CPU in the process
    went from 10.1 to 7.4 µs an event, alternating the two in one process)."""
    statement = sql.SQL("SELECT originator_version, topic, state FROM {}.{} WHERE " + where +
                        " ORDER BY originator_version").format(
        sql.Identifier(recorder.datastore.schema), sql.Identifier(recorder.events_table_name))
    with recorder.datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as cursor:
        cursor.execute(statement, params, prepare=True, binary=True)
        return cursor.fetchall()
