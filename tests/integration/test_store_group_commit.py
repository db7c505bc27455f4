"""Group commit (design §3): commands for different tables that arrive together are decided
separately and written in one transaction; each gets its own answer once its events are
stored; a lost race or a store failure is answered per command — on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from typing import Any
from uuid import UUID

import pytest
from eventsourcing.persistence import DataError

from domain.table import TakeSeat
from infra.settings import Settings
from infra.store import CommandResult, StoreUnavailable, TableStore
from tests.waiting import wait_until

pytestmark = pytest.mark.integration

TABLES = 6


class HeldWrites:
    """Wraps ``store.app.save``: the first write waits until :meth:`release`, so the commands
    arriving meanwhile queue up and go together in the next transaction. Records which tables
    each transaction held (and whether it committed)."""

    def __init__(self, store: TableStore) -> None:
        self.store = store
        self.gate = threading.Event()
        self.transactions: list[tuple[list[UUID], bool]] = []
        self._save = store.app.save
        store.app.save = self.save  # type: ignore[method-assign]

    def save(self, *events: Any, **kwargs: Any) -> Any:
        if not self.transactions:
            self.gate.wait(timeout=30)
        tables = list(dict.fromkeys(e.originator_id for e in events))
        try:
            recordings = self._save(*events, **kwargs)
        except Exception:
            self.transactions.append((tables, False))
            raise
        self.transactions.append((tables, True))
        return recordings

    def release(self) -> None:
        self.gate.set()


@pytest.fixture
def pool() -> Iterator[ThreadPoolExecutor]:
    with ThreadPoolExecutor(TABLES + 2) as executor:
        yield executor


def open_tables(store: TableStore, count: int, avoid: Sequence[UUID] = ()) -> list[UUID]:
    """``count`` new tables whose per-table locks differ from each other's and ``avoid``'s
    (tables share a lock stripe now and then: such commands queue on the lock, not the write)."""
    locks = {id(store.locked(t)) for t in avoid}
    tables: list[UUID] = []
    while len(tables) < count:
        table_id = store.create_table("bourre", {"seats": 4}, seed=len(tables)).table_id
        if id(store.locked(table_id)) not in locks:
            locks.add(id(store.locked(table_id)))
            tables.append(table_id)
    return tables


def seat(name: str) -> TakeSeat:
    return TakeSeat(name=name, token_hash=f"hash-{name}")


def queue_behind_a_held_write(
    store: TableStore, pool: ThreadPoolExecutor, commands: Sequence[partial[CommandResult]]
) -> tuple[HeldWrites, Future[CommandResult], list[Future[CommandResult]]]:
    """A first command whose write is held, then ``commands`` (on other tables) queued behind
    it."""
    [first] = open_tables(store, 1, avoid=[c.args[0] for c in commands])
    held = HeldWrites(store)
    leader = pool.submit(store.execute, first, seat("first"))
    wait_until(lambda: store.group_commit.queued == 1, 10, "the first write never started")
    followers = [pool.submit(command) for command in commands]
    wait_until(
        lambda: store.group_commit.queued == 1 + len(commands), 10, "the commands never queued"
    )
    return held, leader, followers


def test_commands_for_many_tables_land_together_each_with_its_own_answer(
    store: TableStore, pool: ThreadPoolExecutor
) -> None:
    tables = open_tables(store, TABLES)
    commands = [partial(store.execute, t, seat("ann")) for t in tables]
    held, leader, followers = queue_behind_a_held_write(store, pool, commands)
    held.release()
    assert leader.result(timeout=30).version == 2
    results = [f.result(timeout=30) for f in followers]
    # One transaction held every queued command's events.
    assert (sorted(tables), True) in [(sorted(t), ok) for t, ok in held.transactions]
    assert [(r.table_id, r.version) for r in results] == [(t, 2) for t in tables]
    positions = [r.position for r in results]
    assert len(set(positions)) == TABLES
    for table_id, result in zip(tables, results, strict=True):
        [stored] = store.events(table_id, 2)
        assert stored.event == result.events[0].event
        assert store.app.notification_position(table_id, 2) == result.position


def test_a_lost_race_in_a_batch_is_retried_alone(
    settings: Settings, store: TableStore, pool: ThreadPoolExecutor
) -> None:
    tables = open_tables(store, TABLES)
    for table_id in tables:
        store.get(table_id)  # cached at version 1
    raced = tables[2]
    with TableStore(settings) as other_process:
        other_process.execute(raced, seat("bob"))  # our cache of `raced` is now stale
    commands = [partial(store.execute, t, seat("ann")) for t in tables]
    held, leader, followers = queue_behind_a_held_write(store, pool, commands)
    held.release()
    leader.result(timeout=30)
    results = [f.result(timeout=30) for f in followers]
    assert (sorted(tables), False) in [(sorted(t), ok) for t, ok in held.transactions]
    versions = {r.table_id: r.version for r in results}
    assert versions == {t: 3 if t == raced else 2 for t in tables}
    assert [e.event.name for e in store.events(raced)[1:]] == ["bob", "ann"]


def test_an_idempotent_retry_after_a_group_commit_returns_the_first_answer(
    store: TableStore, pool: ThreadPoolExecutor
) -> None:
    tables = open_tables(store, TABLES)
    commands = [partial(store.execute, t, seat("ann"), idempotency_key="k1") for t in tables]
    held, _, followers = queue_behind_a_held_write(store, pool, commands)
    held.release()
    first = [f.result(timeout=30) for f in followers]
    again = [store.execute(t, seat("ann"), idempotency_key="k1") for t in tables]
    assert [(r.version, r.position) for r in again] == [(r.version, r.position) for r in first]
    assert all(len(store.events(t)) == 2 for t in tables)


def test_a_store_failure_fails_every_command_of_the_batch_and_writes_none(
    store: TableStore, pool: ThreadPoolExecutor
) -> None:
    tables = open_tables(store, TABLES)
    commands = [partial(store.execute, t, seat("ann")) for t in tables]
    held, leader, followers = queue_behind_a_held_write(store, pool, commands)
    fail_after_inserting(store)  # the batch's rows are inserted, then the transaction fails
    held.release()
    leader.result(timeout=30)  # written before the failure
    for follower in followers:
        with pytest.raises(StoreUnavailable):
            follower.result(timeout=30)
    assert all(len(store.events(t)) == 1 for t in tables)


def fail_after_inserting(store: TableStore) -> None:
    """From the second transaction on, fail inside the transaction: on SQLite after its events
    were inserted, on PostgreSQL in the step the library runs before its pipelined inserts."""
    recorder: Any = store.app.recorder
    name = "_insert_events"
    original = getattr(recorder, name)
    calls: list[int] = []

    def failing(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        answer = original(*args, **kwargs)
        if len(calls) > 1:  # the held first write commits; the batch after it fails
            raise DataError("disk on fire")
        return answer

    setattr(recorder, name, failing)
