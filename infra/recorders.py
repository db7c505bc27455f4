"""The event store's recorders: the library's SQL recorders with the three look-ups the house
adds on its table of stored events (design §3, §6).

The eventsourcing library's ``select_events`` does not return log positions, and its
``select_notifications`` builds a dict row and a library ``Notification`` per row; the house
needs a stored event's position (a replayed command's result names it), the log's rows as
plain tuples (:mod:`infra.logread`, the read side's hot path) and one table's rows by version
with their positions (the feed's release of a table's held-back events, docs/analytics.md).
All are SQL on the recorder's own table, so they live here, in subclasses of the library's
recorders, one per driver:

* :class:`SQLiteLogRecorder` — SQLite keeps a row's log position as its ``rowid``;
* :class:`PostgresLogRecorder` — PostgreSQL keeps it in ``notification_id``, and the table id
  is read as text (psycopg's pure-Python UUID loader would build one per row).

The accounts' streams (:mod:`infra.accounts`) keep no log: their aggregate recorders,
:class:`SQLiteAccountRecorder` and :class:`PostgresAccountRecorder` (:func:`account_recorder`),
add one look-up, every row of some topics (the export's ``accounts`` dataset).

The application selects them through the library's environment
(``APPLICATION_RECORDER_TOPIC``, set by :func:`infra.eventstore_env.eventsourcing_env`); any
other recorder answers through the library's public API (:func:`notification_rows`,
:func:`table_rows`, :func:`notification_position`).
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable
from uuid import UUID

from eventsourcing.persistence import AggregateRecorder, ApplicationRecorder, StoredEvent
from eventsourcing.postgres import (
    PostgresAggregateRecorder,
    PostgresApplicationRecorder,
    PostgresDatastore,
)
from eventsourcing.sqlite import SQLiteAggregateRecorder, SQLiteApplicationRecorder, SQLiteDatastore
from psycopg.rows import tuple_row
from psycopg.sql import SQL, Identifier

Row = tuple[int, Any, int, str, bytes]
"""One stored event as read from the log: position, table id as stored (a ``UUID``, or its
text or hex), version, topic, body."""


@runtime_checkable
class LogRecorder(Protocol):
    """A recorder that answers the house's look-ups on its table itself."""

    def notification_rows(self, start: int, limit: int) -> list[Row]:
        """The stored events at positions ``>= start``, at most ``limit``, in log order."""

    def table_rows(self, originator_id: UUID, first: int, last: int) -> list[Row]:
        """One table's stored events of versions ``first``..``last``, in version order."""

    def notification_position(self, originator_id: UUID, version: int) -> int:
        """The log position of one stored event; 0 when there is none."""


class SQLiteLogRecorder(SQLiteApplicationRecorder):
    """The library's SQLite recorder; the log position is the row id."""

    def __init__(self, datastore: SQLiteDatastore, events_table_name: str = "stored_events"):
        super().__init__(datastore, events_table_name)
        table = self.events_table_name
        self.select_rows_statement = (
            f"SELECT rowid, originator_id, originator_version, topic, state FROM {table} "
            "WHERE rowid>=? ORDER BY rowid LIMIT ?"
        )
        self.select_table_rows_statement = (
            f"SELECT rowid, originator_id, originator_version, topic, state FROM {table} "
            "WHERE originator_id=? AND originator_version>=? AND originator_version<=? "
            "ORDER BY originator_version"
        )
        self.select_position_statement = (
            f"SELECT rowid FROM {table} WHERE originator_id=? AND originator_version=?"
        )

    def notification_rows(self, start: int, limit: int) -> list[Row]:
        with self.datastore.transaction(commit=False) as cursor:
            # Plain tuples, not the connection's ``sqlite3.Row``s: cheaper to make and to
            # unpack (the cursor is this read's own, so the connection's other readers keep
            # their rows).
            cursor.sqlite_cursor.row_factory = None
            cursor.execute(self.select_rows_statement, (start, limit))
            rows: list[Row] = cursor.fetchall()
            return rows

    def table_rows(self, originator_id: UUID, first: int, last: int) -> list[Row]:
        with self.datastore.transaction(commit=False) as cursor:
            cursor.sqlite_cursor.row_factory = None
            cursor.execute(self.select_table_rows_statement, (originator_id.hex, first, last))
            rows: list[Row] = cursor.fetchall()
            return rows

    def notification_position(self, originator_id: UUID, version: int) -> int:
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute(self.select_position_statement, (originator_id.hex, version))
            row = cursor.fetchone()
        return int(row[0]) if row else 0


class PostgresLogRecorder(PostgresApplicationRecorder):
    """The library's PostgreSQL recorder; the log position is ``notification_id``."""

    def __init__(self, datastore: PostgresDatastore, *, events_table_name: str = "stored_events"):
        super().__init__(datastore, events_table_name=events_table_name)
        names = {
            "schema": Identifier(self.datastore.schema),
            "table": Identifier(self.events_table_name),
        }
        # The id as text: psycopg's pure-Python UUID loader would build one per row.
        self.select_rows_statement = SQL(
            "SELECT notification_id, originator_id::text, originator_version, topic, state "
            "FROM {schema}.{table} WHERE notification_id>=%s ORDER BY notification_id LIMIT %s"
        ).format(**names)
        self.select_table_rows_statement = SQL(
            "SELECT notification_id, originator_id::text, originator_version, topic, state "
            "FROM {schema}.{table} WHERE originator_id=%s AND originator_version>=%s "
            "AND originator_version<=%s ORDER BY originator_version"
        ).format(**names)
        self.select_position_statement = SQL(
            "SELECT notification_id FROM {schema}.{table} "
            "WHERE originator_id=%s AND originator_version=%s"
        ).format(**names)

    def notification_rows(self, start: int, limit: int) -> list[Row]:
        with (
            self.datastore.get_connection() as connection,
            connection.cursor(row_factory=tuple_row) as cursor,
        ):
            cursor.execute(self.select_rows_statement, (start, limit), prepare=True)
            rows: list[Row] = cursor.fetchall()
            return rows

    def table_rows(self, originator_id: UUID, first: int, last: int) -> list[Row]:
        with (
            self.datastore.get_connection() as connection,
            connection.cursor(row_factory=tuple_row) as cursor,
        ):
            cursor.execute(
                self.select_table_rows_statement, (originator_id, first, last), prepare=True
            )
            rows: list[Row] = cursor.fetchall()
            return rows

    def notification_position(self, originator_id: UUID, version: int) -> int:
        with (
            self.datastore.get_connection() as connection,
            connection.cursor(row_factory=tuple_row) as cursor,
        ):
            cursor.execute(self.select_position_statement, (originator_id, version))
            row = cursor.fetchone()
        return int(row[0]) if row else 0


def notification_rows(recorder: ApplicationRecorder, start: int, limit: int) -> list[Row]:
    """:meth:`LogRecorder.notification_rows` of any recorder (the library's
    ``select_notifications`` for one that is not a :class:`LogRecorder`)."""
    if isinstance(recorder, LogRecorder):
        return recorder.notification_rows(start, limit)
    return [
        (row.id, row.originator_id, row.originator_version, row.topic, row.state)
        for row in recorder.select_notifications(start=start, limit=limit)
    ]


def table_rows(
    recorder: ApplicationRecorder, originator_id: UUID, first: int, last: int
) -> list[Row]:
    """:meth:`LogRecorder.table_rows` of any recorder (for one that is not a
    :class:`LogRecorder`, the log scanned through the library's ``select_notifications``)."""
    if isinstance(recorder, LogRecorder):
        return recorder.table_rows(originator_id, first, last)
    found: list[Row] = []
    start = 1
    while rows := notification_rows(recorder, start, 1000):
        found += [
            row
            for row in rows
            if str(row[1]) in (str(originator_id), originator_id.hex) and first <= row[2] <= last
        ]
        start = rows[-1][0] + 1
    return sorted(found, key=lambda row: row[2])


def notification_position(recorder: ApplicationRecorder, originator_id: UUID, version: int) -> int:
    """:meth:`LogRecorder.notification_position` of any recorder; one that is not a
    :class:`LogRecorder` answers with the log's end, still a safe (later) position to wait
    for."""
    # Not ``isinstance`` of the runtime-checkable protocol: that looks up every member, on
    # each replayed command.
    own = getattr(recorder, "notification_position", None)
    if own is not None:
        position: int = own(originator_id, version)
        return position
    return int(recorder.max_notification_id() or 0)


class SQLiteAccountRecorder(SQLiteAggregateRecorder):
    """The library's SQLite aggregate recorder of the accounts' streams (no log), with the
    accounts' one look-up across streams: every row of some topics (the export's accounts)."""

    def rows_of_topics(self, topics: tuple[str, ...]) -> list[StoredEvent]:
        marks = ",".join("?" * len(topics))
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute(
                "SELECT originator_id, originator_version, topic, state "
                f"FROM {self.events_table_name} WHERE topic IN ({marks}) "
                "ORDER BY originator_id, originator_version",
                topics,
            )
            rows = cursor.fetchall()
        return [
            StoredEvent(UUID(str(row["originator_id"])), row["originator_version"],
                        row["topic"], row["state"])
            for row in rows
        ]  # fmt: skip


class PostgresAccountRecorder(PostgresAggregateRecorder):
    """The library's PostgreSQL aggregate recorder of the accounts' streams, with the same
    look-up as :class:`SQLiteAccountRecorder`."""

    def rows_of_topics(self, topics: tuple[str, ...]) -> list[StoredEvent]:
        statement = SQL(
            "SELECT originator_id, originator_version, topic, state FROM {schema}.{table} "
            "WHERE topic = ANY(%s) ORDER BY originator_id, originator_version"
        ).format(schema=Identifier(self.datastore.schema), table=Identifier(self.events_table_name))
        with self.datastore.get_connection() as connection, connection.cursor() as cursor:
            cursor.execute(statement, [list(topics)])
            rows = cursor.fetchall()
        return [
            StoredEvent(row["originator_id"], row["originator_version"], row["topic"],
                        bytes(row["state"]))
            for row in rows
        ]  # fmt: skip


def account_recorder(library: AggregateRecorder) -> AggregateRecorder:
    """The house's subclass of the library's aggregate recorder ``library`` (made by the
    library's factory, which created its table), on the same datastore and table."""
    if isinstance(library, SQLiteAggregateRecorder):
        return SQLiteAccountRecorder(library.datastore, library.events_table_name)
    if isinstance(library, PostgresAggregateRecorder):
        return PostgresAccountRecorder(
            library.datastore, events_table_name=library.events_table_name
        )
    return library


def rows_of_topics(recorder: AggregateRecorder, topics: tuple[str, ...]) -> list[StoredEvent]:
    """Every stored row of ``topics``, each stream's in version order; only the house's
    account recorders answer it (an aggregate recorder keeps no log to scan)."""
    if isinstance(recorder, SQLiteAccountRecorder | PostgresAccountRecorder):
        return recorder.rows_of_topics(topics)
    raise TypeError(f"{type(recorder).__name__} cannot list the rows of a topic")
