"""The per-process table cache and the fold it holds (no database needed)."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import UUID, uuid4

import pytest

from domain.games import game_named
from domain.table import OpenTable, PlayerSeated
from infra.table_cache import CorruptTable, FoldedTable, TableCache, fold_table
from infra.transcoder import StoredTableEvent

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def envelopes(table_id: UUID, key: str | None = None) -> list[StoredTableEvent]:
    """A Bourré table opened by the rules themselves, then two players seated."""
    opened = game_named("bourre").decide(
        None, OpenTable(game="bourre", options={"seats": 4}, seed=1)
    )
    events = [
        *opened,
        PlayerSeated(seat=0, name="a", token_hash="ha"),
        PlayerSeated(seat=1, name="b", token_hash="hb"),
    ]
    return [StoredTableEvent(table_id, i, NOW, e, key) for i, e in enumerate(events, start=1)]


def test_a_fold_indexes_the_idempotency_key_of_every_event() -> None:
    table_id = uuid4()
    table = fold_table(table_id, envelopes(table_id, key="k"))
    assert table is not None and table.version == 3
    assert table.commands == {"k": (1, 3)}
    assert table.last_at == NOW


def test_events_must_follow_on_from_the_tables_version() -> None:
    table_id = uuid4()
    stored = envelopes(table_id)
    with pytest.raises(CorruptTable, match="expected version 2, got 3"):
        fold_table(table_id, [stored[0], stored[2]])
    with pytest.raises(CorruptTable, match="TableOpened"):
        fold_table(table_id, stored[1:])
    assert fold_table(table_id, []) is None


def test_unsaved_events_index_nothing_until_the_store_accepts_them() -> None:
    table_id = uuid4()
    stored = envelopes(table_id)
    table = fold_table(table_id, stored[:2])
    assert table is not None
    pending = [StoredTableEvent(table_id, 3, NOW, stored[2].event, "mine")]
    after = table.advanced(pending, stored=False)
    assert after.version == 3 and "mine" not in table.commands  # a refused save leaves no key
    saved = after.saved(pending)
    assert saved.commands["mine"] == (3, 3)


def test_the_cache_never_replaces_a_newer_table_and_evicts_the_least_recent() -> None:
    cache = TableCache(maxsize=2)
    first, second, third = uuid4(), uuid4(), uuid4()
    game = game_named("bourre")
    cache.put(FoldedTable(first, game, "v5", 5))
    cache.put(FoldedTable(first, game, "v4", 4))  # a slower thread's older fast-forward
    assert cache.get(first).state == "v5"  # type: ignore[union-attr]
    cache.put(FoldedTable(second, game, None, 1))
    cache.get(first)  # first is now the most recently used
    cache.put(FoldedTable(third, game, None, 1))
    assert cache.get(second) is None
    assert cache.get(first) is not None and cache.get(third) is not None


def test_a_zero_sized_cache_keeps_nothing() -> None:
    cache = TableCache(maxsize=0)
    cache.put(FoldedTable(uuid4(), game_named("bourre"), None, 1))
    assert cache.get(uuid4()) is None
