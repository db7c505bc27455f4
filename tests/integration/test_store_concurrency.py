"""Concurrent writers to one table (design §3): one wins, the other retries or conflicts,
nothing is lost and versions stay contiguous — on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from uuid import UUID

import pytest
from eventsourcing.persistence import IntegrityError

from domain.errors import SeatUnavailable
from domain.table import PlayerSeated, TakeSeat, hash_token
from infra.settings import Settings
from infra.store import TableStore, VersionConflict

pytestmark = pytest.mark.integration


@pytest.fixture
def stores(settings: Settings) -> Iterator[Callable[[], TableStore]]:
    """Open independent stores on one database, as separate API processes would."""
    opened: list[TableStore] = []

    def open_store() -> TableStore:
        opened.append(TableStore(settings))
        return opened[-1]

    yield open_store
    for store in opened:
        store.close()


def two_processes(
    stores: Callable[[], TableStore], seats: int = 4
) -> tuple[TableStore, TableStore, UUID]:
    """Two stores on one database (as two API processes) and a new Bourré table of ``seats``
    that both have loaded: each holds version 1 in its cache."""
    alice, bob = stores(), stores()
    table_id = alice.create_table("bourre", {"seats": seats}, seed=1).table_id
    bob.get(table_id)
    return alice, bob, table_id


def sneak_in(store: TableStore, before_save: Callable[[], object], times: int = 1) -> list[int]:
    """Run ``before_save`` between ``store``'s decide and its save, ``times`` times: the
    deterministic shape of a race. Returns the number of saves attempted so far."""
    calls: list[int] = []
    original = store.app.save

    def save(*objs: Any, **kwargs: Any) -> Any:
        calls.append(len(calls) + 1)
        if len(calls) <= times:
            before_save()
        return original(*objs, **kwargs)

    store.app.save = save  # type: ignore[method-assign]
    return calls


def test_a_write_that_lost_the_race_is_retried_after_reloading(
    stores: Callable[[], TableStore],
) -> None:
    alice, bob, table_id = two_processes(stores)
    assert bob.get(table_id).version == 1  # bob's cache now holds version 1
    saves = sneak_in(bob, lambda: alice.execute(table_id, TakeSeat(name="a", token_hash="ha")))
    seat, token, result = bob.take_seat(table_id, "b")
    assert len(saves) == 2  # refused once by the (table, version) key, then saved
    assert (seat, result.version) == (1, 3)  # alice took seat 0 at version 2
    seated = [e.event for e in alice.events(table_id) if isinstance(e.event, PlayerSeated)]
    assert [(s.seat, s.token_hash) for s in seated] == [(0, "ha"), (1, hash_token(token))]


def test_a_keyed_command_that_lost_a_race_keeps_its_own_result(
    stores: Callable[[], TableStore],
) -> None:
    """The key of a refused save must not point at the events of the writer that won."""
    alice, bob, table_id = two_processes(stores)
    sneak_in(bob, lambda: alice.execute(table_id, TakeSeat(name="a", token_hash="ha")))
    mine = bob.execute(table_id, TakeSeat(name="b", token_hash="hb"), idempotency_key="bob-1")
    assert mine.version == 3
    assert [(e.event.name, e.event.token_hash) for e in mine.events] == [("b", "hb")]
    for store in (alice, bob):
        again = store.execute(
            table_id, TakeSeat(name="b", token_hash="hb"), idempotency_key="bob-1"
        )
        assert again == mine
    assert len(alice.events(table_id)) == 3


def test_a_raced_command_that_is_no_longer_legal_is_a_version_conflict(
    stores: Callable[[], TableStore],
) -> None:
    alice, bob, table_id = two_processes(stores)
    sneak_in(bob, lambda: alice.take_seat(table_id, "a", 2))
    with pytest.raises(VersionConflict, match=r"no longer legal: .*seat"):
        bob.take_seat(table_id, "b", 2)
    assert [e.version for e in alice.events(table_id)] == [1, 2]


def test_a_raced_command_with_an_expected_version_is_a_version_conflict(
    stores: Callable[[], TableStore],
) -> None:
    alice, bob, table_id = two_processes(stores)
    sneak_in(bob, lambda: alice.take_seat(table_id, "a"))
    with pytest.raises(VersionConflict, match="expected version 1"):
        bob.execute(table_id, TakeSeat(name="b", token_hash="hb"), expected_version=1)
    assert len(alice.events(table_id)) == 2


def test_a_raced_idempotent_retry_returns_the_winners_result(
    stores: Callable[[], TableStore],
) -> None:
    """Two API processes got the same retried request: the second returns the first's result."""
    alice, bob, table_id = two_processes(stores)
    command = TakeSeat(name="a", token_hash="ha")
    first: list[Any] = []
    sneak_in(bob, lambda: first.append(alice.execute(table_id, command, idempotency_key="k")))
    assert bob.execute(table_id, command, idempotency_key="k") == first[0]
    assert len(alice.events(table_id)) == 2


def test_a_stale_cache_is_not_a_race_the_rules_answer(
    stores: Callable[[], TableStore],
) -> None:
    """Another process wrote *before* this command arrived: the answer is the rules' own."""
    alice, bob, table_id = two_processes(stores)  # bob's cache: version 1
    alice.take_seat(table_id, "a", 2)
    with pytest.raises(SeatUnavailable):
        bob.take_seat(table_id, "b", 2)
    # Bob's stale cache does not make a right expected version look wrong.
    result = bob.execute(table_id, TakeSeat(name="b", token_hash="hb"), expected_version=2)
    assert result.version == 3
    with pytest.raises(VersionConflict, match="expected version 2, but the table is at version 3"):
        alice.execute(table_id, TakeSeat(name="c", token_hash="hc"), expected_version=2)
    assert [e.version for e in alice.events(table_id)] == [1, 2, 3]


def test_a_seat_token_is_found_by_a_process_that_did_not_seat_it(
    stores: Callable[[], TableStore],
) -> None:
    alice, bob = stores(), stores()
    table_id = alice.create_table("bourre", {"seats": 4}, seed=1).table_id
    assert bob.seat_for_token(table_id, "nobody") is None  # bob caches version 1
    _, token, _ = alice.take_seat(table_id, "a", 3)
    assert bob.seat_for_token(table_id, token) == 3


def test_a_table_that_keeps_changing_gives_up_with_a_version_conflict(
    stores: Callable[[], TableStore], monkeypatch: pytest.MonkeyPatch
) -> None:
    # the table has 8 seats to race for
    monkeypatch.setattr("infra.command_service.MAX_ATTEMPTS", 4)
    alice, bob, table_id = two_processes(stores, seats=8)
    names = iter(range(100))
    sneak_in(bob, lambda: alice.take_seat(table_id, f"a{next(names)}"), times=100)
    with pytest.raises(VersionConflict, match="kept changing"):
        bob.execute(table_id, TakeSeat(name="b", token_hash="hb"))


def test_concurrent_writers_from_many_processes_lose_nothing(
    stores: Callable[[], TableStore],
) -> None:
    """Seven 'processes' (independent stores, no shared cache or lock) seat a player each at
    the same moment: every seat is taken exactly once, versions are contiguous."""
    writers = [stores() for _ in range(7)]
    table_id = writers[0].create_table("bourre", {"seats": 8}, seed=1).table_id
    for writer in writers:
        writer.get(table_id)  # every cache at version 1, so they really race
    barrier = threading.Barrier(len(writers))

    def seat(index: int) -> tuple[str, Any]:
        barrier.wait()
        try:
            return "ok", writers[index].take_seat(table_id, f"w{index}")
        except VersionConflict as conflict:
            return "conflict", conflict

    with ThreadPoolExecutor(len(writers)) as pool:
        outcomes = list(pool.map(seat, range(len(writers))))
    taken = [value for kind, value in outcomes if kind == "ok"]
    assert len(taken) >= 1
    events = writers[0].events(table_id)
    assert [e.version for e in events] == list(range(1, len(events) + 1))
    seated = [e.event for e in events if isinstance(e.event, PlayerSeated)]
    # Nothing lost, nothing doubled: exactly the successful writers are seated, once each.
    assert sorted(s.token_hash for s in seated) == sorted(hash_token(t) for _, t, _ in taken)
    assert len({s.seat for s in seated}) == len(seated)
    for _, _, result in taken:
        assert writers[0].events(table_id, result.version, result.version) == result.events


def test_threads_sharing_one_store_queue_up_per_table(stores: Callable[[], TableStore]) -> None:
    """The API calls one store from many worker threads (SQLite included)."""
    store = stores()
    tables = [store.create_table("bourre", {"seats": 8}, seed=i).table_id for i in range(3)]

    def seat(index: int) -> int:
        return store.take_seat(tables[index % 3], f"t{index}")[0]

    with ThreadPoolExecutor(8) as pool:
        seats = list(pool.map(seat, range(21)))
    assert len(seats) == 21
    for table_id in tables:
        events = store.events(table_id)
        assert [e.version for e in events] == list(range(1, len(events) + 1))
        seated = [e.event.seat for e in events if isinstance(e.event, PlayerSeated)]
        assert sorted(seated) == list(range(7))


def test_an_integrity_error_never_escapes(stores: Callable[[], TableStore]) -> None:
    store = stores()
    table_id = store.create_table("bourre", {"seats": 4}, seed=1).table_id
    original = store.app.save
    failures = iter([True, False])

    def flaky(*objs: Any, **kwargs: Any) -> Any:
        if next(failures, False):
            raise IntegrityError("duplicate key value violates unique constraint")
        return original(*objs, **kwargs)

    store.app.save = flaky  # type: ignore[method-assign]
    assert store.take_seat(table_id, "a")[2].version == 2
