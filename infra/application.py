"""The eventsourcing ``Application`` that stores tables, and store-specific look-ups.

One aggregate sequence per table (``originator_id`` = table id); every game event is one
stored event, mapped by :class:`infra.transcoder.MsgspecMapper`; table snapshots live in
the library's snapshot store, mapped by :class:`infra.snapshots.SnapshotMapper`. We use the
application's event store, recorder and notification log directly: a table's state is a fold
of the game's ``evolve`` over its events (see :mod:`infra.table_cache`), not a library aggregate.
The recorder is the library's, subclassed per driver for the house's look-ups on its table
(:mod:`infra.recorders`).
"""

from __future__ import annotations

from typing import Any, ClassVar
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.persistence import EventStore, Mapper, Recording

from infra.recorders import notification_position
from infra.snapshots import SnapshotMapper
from infra.transcoder import MsgspecMapper, StoredTableEvent


class CardroomApplication(Application[UUID]):
    """The tables' event store. Its name fixes the PostgreSQL table: ``cardroom_events``."""

    name = "Cardroom"
    # The snapshot store exists (``app.snapshots``); the store decides when to write one.
    env: ClassVar[dict[str, str]] = {"IS_SNAPSHOTTING_ENABLED": "y"}

    def save(self, *objs: Any, **kwargs: Any) -> list[Recording[UUID]]:
        """Store table events in one transaction (the command path's write, many commands'
        events at once: :mod:`infra.groupcommit`). Table events are put in the event store
        as they are, which is all the library's ``save`` does with them, without its check of
        every event against the library's runtime protocols; anything else goes to the
        library's ``save``. (The library's ``save`` then calls a hook for subclasses that act
        on saved events; this application has none.)"""
        if all(type(obj) is StoredTableEvent for obj in objs):
            return self.events.put(objs, **kwargs)
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
        """The notification-log position of one stored event (for a replayed command result):
        the recorder's own look-up (:mod:`infra.recorders`)."""
        return notification_position(self.recorder, table_id, version)
