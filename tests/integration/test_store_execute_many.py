"""Several commands run by one thread (the command lane's ``execute_many``, design §6): decided
on their cached tables and saved in one transaction, each with the answer ``execute`` gives;
what the cached table cannot answer comes back as the rest of ``execute``'s work — on SQLite
and PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import DomainError
from infra.errors import InvalidRequest
from infra.settings import Settings
from infra.store import CommandResult, TableStore
from tests.integration.test_store_group_commit import HeldWrites, open_tables, seat

pytestmark = pytest.mark.integration


def cached_tables(store: TableStore, count: int) -> list[Any]:
    tables = open_tables(store, count)
    for table_id in tables:
        store.get(table_id)  # cached at version 1
    return tables


def test_commands_for_cached_tables_are_saved_in_one_transaction(store: TableStore) -> None:
    tables = cached_tables(store, 4)
    writes = HeldWrites(store)
    writes.release()
    outcomes = store.commands.execute_many([(t, seat("ann"), None, None) for t in tables])
    assert all(isinstance(o, CommandResult) for o in outcomes)
    assert [(o.table_id, o.version) for o in outcomes] == [(t, 2) for t in tables]  # type: ignore[union-attr]
    assert writes.transactions == [(tables, True)]
    for table_id, outcome in zip(tables, outcomes, strict=True):
        assert isinstance(outcome, CommandResult)
        [stored] = store.events(table_id, 2)
        assert stored.event == outcome.events[0].event
        assert store.app.notification_position(table_id, 2) == outcome.position
        assert store.cached(table_id).version == 2  # type: ignore[union-attr]


def test_a_table_not_cached_is_left_as_the_rest_of_execute(store: TableStore) -> None:
    fresh, uncached = open_tables(store, 2)
    store.get(fresh)
    store._cache.clear()
    store.get(fresh)
    outcomes = store.commands.execute_many(
        [(t, seat("ann"), None, None) for t in (fresh, uncached)]
    )
    assert isinstance(outcomes[0], CommandResult) and outcomes[0].version == 2
    rest = outcomes[1]
    assert callable(rest) and not isinstance(rest, CommandResult)
    result = rest()
    assert (result.table_id, result.version) == (uncached, 2)


def test_a_lost_race_is_retried_on_the_fresh_table(settings: Settings, store: TableStore) -> None:
    tables = cached_tables(store, 3)
    raced = tables[1]
    with TableStore(settings) as other_process:
        other_process.execute(raced, seat("bob"))
    outcomes = store.commands.execute_many([(t, seat("ann"), None, None) for t in tables])
    assert [o.version for o in outcomes if isinstance(o, CommandResult)] == [2, 2]
    rest = outcomes[1]
    assert callable(rest) and not isinstance(rest, CommandResult)
    assert rest().version == 3
    assert [e.event.name for e in store.events(raced)[1:]] == ["bob", "ann"]


def test_errors_answer_as_execute_raises_them(store: TableStore) -> None:
    [table_id] = cached_tables(store, 1)
    outcomes = store.commands.execute_many([(table_id, seat("ann"), None, "")])
    assert isinstance(outcomes[0], InvalidRequest)
    store.execute(table_id, seat("ann"))
    # A rejection on the cached table is checked on a fresh one, as execute does.
    [rest] = store.commands.execute_many([(table_id, seat("ann"), None, None)])
    assert callable(rest) and not isinstance(rest, CommandResult)
    with pytest.raises(DomainError):
        rest()


def test_two_commands_on_one_lock_take_turns(store: TableStore) -> None:
    [table_id] = cached_tables(store, 1)
    outcomes = store.commands.execute_many(
        [(table_id, seat("ann"), None, None), (table_id, seat("bob"), None, None)]
    )
    first, second = outcomes
    assert isinstance(first, CommandResult) and first.version == 2
    assert callable(second) and not isinstance(second, CommandResult)
    assert second().version == 3


def test_an_idempotent_retry_returns_the_first_answer(store: TableStore) -> None:
    tables = cached_tables(store, 2)
    first = store.commands.execute_many([(t, seat("ann"), None, "k1") for t in tables])
    again = store.commands.execute_many([(t, seat("ann"), None, "k1") for t in tables])
    assert [(r.version, r.position) for r in again] == [(r.version, r.position) for r in first]  # type: ignore[union-attr]
    assert all(len(store.events(t)) == 2 for t in tables)
