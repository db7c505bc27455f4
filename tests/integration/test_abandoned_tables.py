"""Design §5, the lobby: a table nobody joins within the limit is abandoned — ``TableEnded``
(reason ``abandoned``) in its stream, issued by the sweeper through the write side — and moves
from the lobby's waiting list to its ended list; a table in play stays."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from uuid import UUID

import pytest
import redis

from domain.errors import TableClosed
from domain.table import TableEnded
from infra.store import TableStore
from managers.sweeper import Sweeper
from projections.reader import ReadModels
from projections.runner import Projector
from tests.integration.test_projection_support import catch_up, new_table, seat_everyone

pytestmark = pytest.mark.integration


def ended_reasons(store: TableStore, table_id: UUID) -> list[str]:
    return [r.event.reason for r in store.events(table_id) if isinstance(r.event, TableEnded)]


def test_the_sweeper_abandons_waiting_tables_and_leaves_playing_ones(
    sqlite_store: TableStore, client: redis.Redis, redis_prefix: str
) -> None:
    projector = Projector(sqlite_store, client, redis_prefix)
    reader = ReadModels(client, redis_prefix)
    empty = new_table(sqlite_store, "bourre", 3)
    half = new_table(sqlite_store, "burraco", 2)
    sqlite_store.take_seat(half, "ann", 0)
    playing = new_table(sqlite_store, "bourre", 2)
    seat_everyone(sqlite_store, playing, 2)
    catch_up(projector, sqlite_store)
    assert [line["tableId"] for line in reader.lobby()] == [str(empty), str(half), str(playing)]

    assert Sweeper(sqlite_store, reader, limit_seconds=3600).sweep() == []  # not long enough
    abandoned = Sweeper(sqlite_store, reader, limit_seconds=0).sweep()
    assert abandoned == [empty, half]
    assert ended_reasons(sqlite_store, empty) == ended_reasons(sqlite_store, half) == ["abandoned"]
    assert ended_reasons(sqlite_store, playing) == []

    catch_up(projector, sqlite_store)
    waiting = reader.lobby_page(("waiting",)).lines
    ended = reader.lobby_page(("ended",)).lines
    assert waiting == [] and [line["tableId"] for line in ended] == [str(empty), str(half)]
    assert [line["tableId"] for line in reader.lobby()] == [str(playing)]


def test_two_sweepers_measuring_one_table_end_it_once(sqlite_store: TableStore) -> None:
    table = new_table(sqlite_store, "bourre", 2)
    later = datetime.now(UTC) + timedelta(seconds=61)
    with TableStore(sqlite_store.settings) as other_process:
        other_process.get(table)  # both write sides know the table, waiting
        first = sqlite_store.commands.abandon(table, 60, later)
        with pytest.raises(TableClosed):
            other_process.commands.abandon(table, 60, later)
    assert [r.event for r in first.events] == [TableEnded(reason="abandoned")]
    assert ended_reasons(sqlite_store, table) == ["abandoned"]
