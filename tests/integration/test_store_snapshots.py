"""Snapshots bound a cold load: a new process folds only the events after the latest one."""

from __future__ import annotations

from collections.abc import Iterator
from uuid import UUID

import pytest

import infra.snapshots
from domain.table import TakeSeat
from infra.settings import Settings
from infra.store import IdempotencyKeyReused, TableStore
from tests.integration.store_support import bot_moves, decoded_events, states_by_version

pytestmark = pytest.mark.integration

EVERY = 64  # checkpoints and snapshots this often here, to keep the tables short


@pytest.fixture
def store(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[TableStore]:
    monkeypatch.setattr("infra.table_cache.CHECKPOINT_EVERY", EVERY)
    monkeypatch.setattr("infra.store.SNAPSHOT_EVERY", EVERY)
    with TableStore(settings) as opened:
        yield opened


def long_table(store: TableStore, game: str, versions: int) -> UUID:
    """A table with at least ``versions`` events, played by random legal bots; the seat
    commands carry idempotency keys."""
    seats = {"bourre": {"seats": 4}, "burraco": {"players": 4}}[game]
    table_id = store.create_table(game, seats, seed=8).table_id
    for seat in range(4):
        store.execute(
            table_id, TakeSeat(name=f"p{seat}", token_hash=f"h{seat}", seat=seat),
            idempotency_key=f"seat-{seat}",
        )  # fmt: skip
    moves = bot_moves(store, table_id, seed=4)
    while store.get(table_id).version < versions and next(moves, None) is not None:
        pass
    return table_id


def snapshot_versions(store: TableStore, table_id: UUID) -> list[int]:
    assert store.app.snapshots is not None
    rows = store.app.snapshots.recorder.select_events(table_id)
    return [row.originator_version for row in rows]


@pytest.mark.parametrize("game", ["bourre", "burraco"])
def test_a_cold_store_starts_from_the_latest_snapshot(
    store: TableStore, settings: Settings, game: str
) -> None:
    table_id = long_table(store, game, 2 * EVERY + 40)
    # One snapshot per boundary crossed, at the version the crossing command reached.
    versions = snapshot_versions(store, table_id)
    assert [version // EVERY for version in versions] == [1, 2]
    live = store.get(table_id)
    with TableStore(settings) as cold:
        seen = decoded_events(cold)
        loaded = cold.get(table_id)
        assert loaded.state == live.state and loaded.version == live.version
        assert seen and min(seen) == versions[-1] + 1  # nothing before the snapshot was read


def test_idempotency_keys_survive_a_cold_load_from_a_snapshot(
    store: TableStore, settings: Settings
) -> None:
    table_id = long_table(store, "bourre", EVERY + 10)
    first = store.events(table_id, 2, 2)
    with TableStore(settings) as cold:
        seen = decoded_events(cold)
        retried = cold.execute(
            table_id, TakeSeat(name="p0", token_hash="h0", seat=0), idempotency_key="seat-0"
        )
        assert retried.events == first
        # The key's fingerprint came with it: the key sent with another command is refused.
        with pytest.raises(IdempotencyKeyReused, match="seat-0"):
            cold.execute(
                table_id, TakeSeat(name="p9", token_hash="h9", seat=0), idempotency_key="seat-0"
            )
        # The key came from the snapshot: the only early event read is the one returned.
        assert [version for version in seen if version <= EVERY] == [2]
    assert len(store.events(table_id)) == store.get(table_id).version


def test_time_travel_in_a_cold_store_matches_a_plain_fold(
    store: TableStore, settings: Settings
) -> None:
    table_id = long_table(store, "bourre", 2 * EVERY + 40)
    states = states_by_version(store, table_id)
    with TableStore(settings) as cold:
        for version in (3, EVERY - 1, EVERY, EVERY + 5, 2 * EVERY + 1, len(states) - 1):
            assert cold.get(table_id, version=version).state == states[version]


def test_a_snapshot_of_another_generation_is_ignored(
    store: TableStore, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id = long_table(store, "bourre", EVERY + 10)
    live = store.get(table_id)
    generation = infra.snapshots.SNAPSHOT_GENERATION
    monkeypatch.setattr("infra.snapshots.SNAPSHOT_GENERATION", generation + 1)  # new rules
    with TableStore(settings) as cold:
        seen = decoded_events(cold)
        assert cold.get(table_id).state == live.state
        assert min(seen) == 1  # folded from the first event


def test_a_state_that_does_not_round_trip_is_never_snapshotted(
    store: TableStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("infra.snapshots.snapshottable", lambda state: False)
    table_id = long_table(store, "bourre", EVERY + 10)
    assert snapshot_versions(store, table_id) == []
