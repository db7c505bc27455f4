"""Stored events outlive the code (issue 20): the golden store, written by an earlier version
(``make_store.py``), still opens, every table replays, and the real projections make of it the
read models recorded next to it, byte for byte.

A change that breaks this strands tables already stored: keep old rows readable (a topic
alias, an upcaster: docs/design.md §3) rather than editing the fixture.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import msgspec
import pytest
import redis

from infra.settings import Settings
from infra.snapshots import SNAPSHOT_GENERATION, StaleSnapshot, TableSnapshot, shape_of
from infra.store import TableStore
from tests.golden.readmodels import dumps, read_models, table_ids

pytestmark = pytest.mark.integration

HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "store.db"
EXPECTED = HERE / "read_models.json"


@pytest.fixture
def golden(tmp_path: Path) -> Iterator[TableStore]:
    """The golden store, opened with today's code (a copy: opening may write to it)."""
    copy = tmp_path / "golden.db"
    shutil.copyfile(GOLDEN, copy)
    settings = Settings(event_store=f"sqlite:///{copy}", var_dir=tmp_path / "var")
    with TableStore(settings) as store:
        yield store


@pytest.fixture
def client(redis_url: str) -> Iterator[redis.Redis]:
    connection = redis.Redis.from_url(redis_url)
    yield connection
    connection.close()


def first_difference(found: Any, expected: Any, path: str = "") -> str | None:
    """Where two JSON values first differ (a readable failure for a large document)."""
    if type(found) is not type(expected):
        return f"{path or '/'}: {found!r:.200} != {expected!r:.200}"
    if isinstance(found, dict):
        if list(found) != list(expected):
            return f"{path or '/'}: keys {list(found)} != {list(expected)}"
        for key in found:
            where = first_difference(found[key], expected[key], f"{path}/{key}")
            if where:
                return where
        return None
    if isinstance(found, list):
        for index, (a, b) in enumerate(zip(found, expected, strict=False)):
            where = first_difference(a, b, f"{path}/{index}")
            if where:
                return where
        if len(found) != len(expected):
            return f"{path}: {len(found)} items != {len(expected)}"
        return None
    return None if found == expected else f"{path}: {found!r:.200} != {expected!r:.200}"


def test_the_golden_store_projects_to_the_recorded_read_models(
    golden: TableStore, client: redis.Redis, redis_prefix: str
) -> None:
    found = dumps(read_models(golden, client, redis_prefix))
    expected = EXPECTED.read_bytes()
    if found != expected:
        where = first_difference(msgspec.json.decode(found), msgspec.json.decode(expected))
        pytest.fail(f"the golden store's read models changed at {where or 'their bytes'}")


def test_every_golden_table_replays_from_its_events_to_its_cold_load(golden: TableStore) -> None:
    ids = table_ids(golden)
    assert len(ids) == 9
    for table_id in ids:
        events = golden.events(table_id)
        game = golden.get(table_id, 1).game
        state: Any = None
        for recorded in events:
            state = game.evolve(state, recorded.event)
        loaded = golden.get(table_id)  # cold: from its latest snapshot, if one is usable
        assert (loaded.version, loaded.state) == (len(events), state)


def test_each_golden_snapshot_loads_the_folded_state_or_is_ignored_as_stale(
    golden: TableStore,
) -> None:
    """A snapshot is a cache (design §3): one of today's state shape and generation gives the
    state folded from the events at its version; one of another shape is ignored."""
    snapshots = golden.app.snapshots
    assert snapshots is not None
    total = 0
    for table_id in table_ids(golden):
        rows = snapshots.recorder.select_events(table_id)
        for row in rows:
            total += 1
            body = msgspec.json.decode(row.state)
            folded = golden.get(table_id, row.originator_version)
            current = body["generation"] == SNAPSHOT_GENERATION and body["shape"] == shape_of(
                type(folded.state)
            )
            if not current:
                with pytest.raises(StaleSnapshot):
                    snapshots.mapper.to_domain_event(row)
                continue
            snapshot = cast(TableSnapshot, snapshots.mapper.to_domain_event(row))
            assert snapshot.state == folded.state
            assert snapshot.originator_version == row.originator_version
    assert total == 7


def test_the_golden_store_holds_its_rows_under_the_module_path_topics_of_its_day(
    golden: TableStore,
) -> None:
    """What the fixture proves: rows stored with the topics of the day it was made (module
    paths, before stable names) are still read."""
    rows = golden.app.recorder.select_notifications(start=1, limit=10_000)
    topics = {row.topic for row in rows}
    assert len(rows) == golden.max_position() == 655
    assert len(topics) == 29
    assert all(topic.startswith("domain.") and ":" in topic for topic in topics)
