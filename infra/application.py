"""The eventsourcing ``Application`` that stores tables, and store-specific look-ups.

One aggregate sequence per table (``originator_id`` = table id); every game event is one
stored event, mapped by :class:`infra.transcoder.MsgspecMapper`; table snapshots live in
the library's snapshot store, mapped by :class:`infra.snapshots.SnapshotMapper`. We use the
application's event store, recorder and notification log directly: a table's state is a fold
of the game's ``evolve`` over its events (see :mod:`infra.tables`), not a library aggregate.
"""

from __future__ import annotations

from typing import Any, ClassVar
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.persistence import EventStore, Mapper, Recording

from infra.snapshots import SnapshotMapper
from infra.transcoder import MsgspecMapper, StoredTableEvent

SQLITE = "sqlite"
POSTGRES = "postgres"


def log_table(recorder: Any) -> tuple[str | None, str]:
    """Which of the library's SQL recorders ``recorder`` is (:data:`SQLITE`, :data:`POSTGRES`,
    or ``None`` for any other) and the table its events and their log positions are in: SQLite
    keeps the position as the row id, PostgreSQL in ``notification_id``."""
    table = getattr(recorder, "events_table_name", None)
    module = type(recorder).__module__
    if table and module == "eventsourcing.sqlite":
        return SQLITE, table
    if table and module == "eventsourcing.postgres":
        return POSTGRES, table
    return None, ""


class CardroomApplication(Application[UUID]):
    """The tables' event store. Its name fixes the PostgreSQL table: ``cardroom_events``."""

    name = "Cardroom"
    # The snapshot store exists (``app.snapshots``); the store decides when to write one.
    env: ClassVar[dict[str, str]] = {"IS_SNAPSHOTTING_ENABLED": "y"}

    def save(self, *objs: Any, **kwargs: Any) -> list[Recording[UUID]]:
        """Store table events in one transaction (the command path's write, many commands'
        events at once: :mod:`infra.groupcommit`). Table events are put in the event store
        as they are, which is all the library's ``save`` does with them, without its check of
        every event against the library's runtime protocols (some 20 µs an event); anything
        else goes to the library's ``save``."""
        if all(type(obj) is StoredTableEvent for obj in objs):
            recordings = self.events.put(objs, **kwargs)
            self._notify(recordings)
            return recordings
        return super().save(*objs, **kwargs)

    def construct_mapper(self) -> Mapper[UUID]:
        return MsgspecMapper(compressor=self.factory.compressor(), cipher=self.factory.cipher())

    def construct_snapshot_store(self) -> EventStore[UUID]:
        return EventStore(
            mapper=SnapshotMapper(
                transcoder=self.mapper.transcoder,
                compressor=self.factory.compressor(),
                cipher=self.factory.cipher(),
            ),
            recorder=self.factory.aggregate_recorder(purpose="snapshots"),
        )

    def notification_position(self, table_id: UUID, version: int) -> int:
        """The notification-log position of one stored event (for a replayed command result).

        The library's ``select_events`` does not return positions, so we ask the table the
        recorder writes: SQLite keeps the position as the row id, PostgreSQL in
        ``notification_id``. Any other recorder answers with the log's end, which is still a
        safe (later) position to wait for.
        """
        recorder: Any = self.recorder
        dialect, table = log_table(recorder)
        row: Any = None
        if dialect == SQLITE:
            with recorder.datastore.transaction(commit=False) as cursor:
                cursor.execute(
                    f"SELECT rowid FROM {table} WHERE originator_id=? AND originator_version=?",
                    (table_id.hex, version),
                )
                row = cursor.fetchone()
            return int(row[0]) if row else 0
        if dialect == POSTGRES:
            from psycopg.sql import SQL, Identifier

            statement = SQL(
                "SELECT notification_id FROM {schema}.{table} "
                "WHERE originator_id=%s AND originator_version=%s"
            ).format(schema=Identifier(recorder.datastore.schema), table=Identifier(table))
            with recorder.datastore.transaction(commit=False) as cursor:
                cursor.execute(statement, (table_id, version))
                row = cursor.fetchone()
            return int(row["notification_id"]) if row else 0
        return int(self.recorder.max_notification_id() or 0)
