"""The event store's recorders (design §3): the house's look-ups on the library's table live in
recorder subclasses per driver, chosen through the library's environment; any other recorder
answers through the library's public API alike."""

from __future__ import annotations

from typing import Any, cast
from uuid import UUID

import pytest
from eventsourcing.persistence import ApplicationRecorder
from eventsourcing.popo import POPOApplicationRecorder

from infra.recorders import (
    LogRecorder,
    PostgresLogRecorder,
    SQLiteLogRecorder,
    notification_position,
    notification_rows,
    table_rows,
)
from infra.store import TableStore
from tests.integration.test_store_group_commit import open_tables, seat

pytestmark = pytest.mark.integration


def test_the_store_opens_the_house_recorder_of_its_driver(store: TableStore) -> None:
    recorder = store.app.recorder
    driver = type(recorder).__module__
    assert isinstance(recorder, LogRecorder)
    if store.settings.event_store.startswith("sqlite"):
        assert type(recorder) is SQLiteLogRecorder
    else:
        assert type(recorder) is PostgresLogRecorder
    assert driver == "infra.recorders"


def test_the_recorder_reads_the_rows_and_positions_the_library_reads(store: TableStore) -> None:
    tables = open_tables(store, 2)
    for table_id in tables:
        store.execute(table_id, seat("ann"))
    recorder = store.app.recorder
    assert isinstance(recorder, LogRecorder)
    library = recorder.select_notifications(start=1, limit=100)
    rows = recorder.notification_rows(1, 100)
    assert [(r[0], UUID(str(r[1])), r[2], r[3], bytes(r[4])) for r in rows] == [
        (n.id, n.originator_id, n.originator_version, n.topic, n.state) for n in library
    ]
    assert recorder.notification_rows(rows[1][0], 2) == rows[1:3]
    for n in library:
        assert (
            recorder.notification_position(UUID(str(n.originator_id)), n.originator_version) == n.id
        )
    assert recorder.notification_position(tables[0], 99) == 0
    # one table's rows by version, with their positions (the feed's release), as the log has them
    first = tables[0]
    of_first = [row for row in rows if UUID(str(row[1])) == first]
    assert recorder.table_rows(first, 1, 99) == of_first
    assert recorder.table_rows(first, 2, 2) == [row for row in of_first if row[2] == 2]


def test_a_table_s_rows_through_the_library_match_the_recorder_s_own(store: TableStore) -> None:
    tables = open_tables(store, 2)
    store.execute(tables[1], seat("bob"))
    recorder = store.app.recorder
    assert isinstance(recorder, LogRecorder)
    own = recorder.table_rows(tables[1], 1, 99)
    scanned = table_rows(cast(ApplicationRecorder, POPOFacade(recorder)), tables[1], 1, 99)
    assert [(r[0], UUID(str(r[1])), r[2], r[3], bytes(r[4])) for r in scanned] == [
        (r[0], UUID(str(r[1])), r[2], r[3], bytes(r[4])) for r in own
    ]


class POPOFacade:
    """A recorder that is not a :class:`LogRecorder`: only the library's public reads."""

    def __init__(self, recorder: LogRecorder) -> None:
        self._recorder = recorder

    def select_notifications(self, start: int, limit: int) -> Any:
        return self._recorder.select_notifications(start=start, limit=limit)  # type: ignore[attr-defined]


def test_any_other_recorder_answers_through_the_library() -> None:
    recorder = POPOApplicationRecorder()
    assert not isinstance(recorder, LogRecorder)
    assert notification_rows(recorder, 1, 10) == []
    assert notification_position(recorder, UUID(int=1), 1) == 0
