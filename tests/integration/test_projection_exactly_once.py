"""Exactly-once: crash and resume, rebuild, and concurrent projectors all end with the
same Redis contents (compared as a digest of every key under the prefix) as one clean run."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from itertools import islice
from typing import Any

import pytest
import redis

from infra.store import TableStore
from projections.digest import digest, snapshot
from projections.keys import Keys
from projections.reader import ReadModels
from projections.runner import Projector
from projections.table_projection import ProjectionError, TableProjection
from projections.tracking import Tracking
from tests.integration.store_support import bot_moves
from tests.integration.test_projection_support import (
    catch_up,
    clear_prefix,
    new_table,
    play,
    seat_everyone,
)

pytestmark = pytest.mark.integration


class Crash(Exception):
    """An injected failure: the projector process 'dies' here."""


@pytest.fixture
def reference(client: redis.Redis, redis_prefix: str) -> Iterator[str]:
    """A second prefix for the uninterrupted run to compare with."""
    prefix = f"{redis_prefix}reference:"
    yield prefix
    clear_prefix(client, prefix)


def fill(store: TableStore) -> None:
    """Three tables with history: Bourré (one with spectator delay, one ended) and Burraco."""
    bourre = new_table(store, "bourre", 5, spectator_delay=3)
    seat_everyone(store, bourre, 5)
    play(store, bourre, seed=1, commands=60)
    short = new_table(store, "bourre", 3, hands=1)
    seat_everyone(store, short, 3)
    burraco = new_table(store, "burraco", 4)
    seat_everyone(store, burraco, 4)
    # Interleave the tables in the notification log, as concurrent play would.
    moves = [bot_moves(store, short, 2), bot_moves(store, burraco, 3), bot_moves(store, bourre, 4)]
    for _ in range(40):
        for move in moves:
            next(move, None)
    assert store.max_position() > 200  # enough for many batches


def clean_run(store: TableStore, client: redis.Redis, prefix: str) -> str:
    catch_up(Projector(store, client, prefix), store)
    return digest(client, prefix)


def differences(client: redis.Redis, prefix: str, reference: str) -> list[str]:
    ours, theirs = snapshot(client, prefix), snapshot(client, reference)
    # The reference prefix lives under ours; leave its keys out of our side.
    ours = {key: value for key, value in ours.items() if not key.startswith("reference:")}
    return sorted(key for key in ours.keys() | theirs.keys() if ours.get(key) != theirs.get(key))


def crash_commit(monkeypatch: pytest.MonkeyPatch, when: str, on_call: int) -> None:
    """Make the ``on_call``-th commit fail before it reaches Redis, or after Redis ran it."""
    real = Tracking.commit
    calls = {"n": 0}

    def commit(self: Tracking, *args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == on_call and when == "before":
            raise Crash("before EXEC")
        result = real(self, *args, **kwargs)
        if calls["n"] == on_call and when == "after":
            raise Crash("after EXEC")
        return result

    monkeypatch.setattr(Tracking, "commit", commit)


@pytest.mark.parametrize("when", ["before", "after"])
@pytest.mark.parametrize("on_call", [1, 4, 9])
def test_a_crash_around_the_commit_and_a_restart_give_the_clean_run(
    sqlite_store: TableStore,
    client: redis.Redis,
    redis_prefix: str,
    reference: str,
    monkeypatch: pytest.MonkeyPatch,
    when: str,
    on_call: int,
) -> None:
    fill(sqlite_store)
    expected = clean_run(sqlite_store, client, reference)
    crash_commit(monkeypatch, when, on_call)
    with pytest.raises(Crash):
        catch_up(Projector(sqlite_store, client, redis_prefix), sqlite_store, limit=15)
    monkeypatch.undo()
    catch_up(Projector(sqlite_store, client, redis_prefix), sqlite_store, limit=15)  # restart
    assert differences(client, redis_prefix, reference) == []
    assert digest(client, reference) == expected


def test_the_same_projector_recovers_after_a_failed_batch(
    sqlite_store: TableStore,
    client: redis.Redis,
    redis_prefix: str,
    reference: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fill(sqlite_store)
    clean_run(sqlite_store, client, reference)
    projector = Projector(sqlite_store, client, redis_prefix)
    for when, on_call in (("after", 3), ("before", 2)):
        crash_commit(monkeypatch, when, on_call)
        for _ in range(on_call - 1):
            assert projector.run_once(limit=25) > 0
        with pytest.raises(Crash):
            projector.run_once(limit=25)
        monkeypatch.undo()
    catch_up(projector, sqlite_store, limit=25)
    assert differences(client, redis_prefix, reference) == []


@pytest.mark.parametrize("stop_after", [1, 5, 13])
def test_a_projector_killed_between_batches_is_resumed_by_a_new_one(
    store: TableStore,
    client: redis.Redis,
    redis_prefix: str,
    reference: str,
    stop_after: int,
) -> None:
    fill(store)
    clean_run(store, client, reference)
    first = Projector(store, client, redis_prefix)
    for _ in range(stop_after):
        first.run_once(limit=30)
    del first  # killed: its memory is gone, Redis keeps what it committed
    catch_up(Projector(store, client, redis_prefix), store, limit=30)
    assert differences(client, redis_prefix, reference) == []


def test_rebuild_reproduces_the_incremental_read_models_exactly(
    store: TableStore, client: redis.Redis, redis_prefix: str
) -> None:
    projector = Projector(store, client, redis_prefix)
    table = new_table(store, "bourre", 4, spectator_delay=2)
    seat_everyone(store, table, 4)
    other = new_table(store, "burraco", 2)
    seat_everyone(store, other, 2)
    # Incremental: the projector follows the tables as they are played, a few events at a time.
    moves = zip(bot_moves(store, table, 5), bot_moves(store, other, 6), strict=False)
    for _ in islice(moves, 80):
        projector.run_once(limit=3)
    catch_up(projector, store, limit=3)
    incremental = snapshot(client, redis_prefix)
    assert incremental, "nothing was projected"
    # The player statistics and game totals are among the keys rebuilt (projections.players).
    part = Keys("").named  # a read model's key spanning tables, without the prefix
    assert {part("players"), part("stats")} <= incremental.keys()
    assert any(key.startswith(part("player:")) for key in incremental)

    replayed = Projector(store, client, redis_prefix).rebuild()
    assert replayed == len(store.notifications(1, 100_000))
    assert snapshot(client, redis_prefix) == incremental
    assert ReadModels(client, redis_prefix).position() == store.max_position()


def test_rebuild_removes_keys_the_events_do_not_explain(
    sqlite_store: TableStore, client: redis.Redis, redis_prefix: str
) -> None:
    fill(sqlite_store)
    expected = clean_run(sqlite_store, client, redis_prefix)
    client.set(f"{redis_prefix}table:00000000-0000-0000-0000-000000000000:view", b"{}")
    client.hset(Keys(redis_prefix).named("analytics"), "all:hands", 999)
    client.hset(Keys(redis_prefix).named("stats"), "bourre:hands", 999)
    client.hset(Keys(redis_prefix).named("player:player-0"), "bourre:chips", 999)
    Projector(sqlite_store, client, redis_prefix).rebuild()
    assert digest(client, redis_prefix) == expected


def test_two_projectors_at_once_never_apply_a_batch_twice(
    store: TableStore, client: redis.Redis, redis_prefix: str, reference: str
) -> None:
    tables = []
    for game, seats in (("bourre", 4), ("burraco", 4), ("bourre", 6)):
        table = new_table(store, game, seats)
        seat_everyone(store, table, seats)
        tables.append(table)
    stop = threading.Event()
    errors: list[BaseException] = []

    def project(projector: Projector) -> None:
        try:
            while not stop.is_set():
                projector.run_once(limit=7)
        except BaseException as error:  # surfaced by the assertion below
            errors.append(error)

    workers = [
        threading.Thread(target=project, args=(Projector(store, client, redis_prefix),))
        for _ in range(2)
    ]
    for worker in workers:
        worker.start()
    moves = [bot_moves(store, table, index) for index, table in enumerate(tables)]
    for _ in range(60):
        for move in moves:
            next(move, None)
    reader = ReadModels(client, redis_prefix)
    assert reader.wait_for(store.max_position(), timeout=30)
    stop.set()
    for worker in workers:
        worker.join()
    assert errors == []
    clean_run(store, client, reference)
    assert differences(client, redis_prefix, reference) == []


def test_a_rebuild_while_another_projector_runs_ends_equal(
    sqlite_store: TableStore, client: redis.Redis, redis_prefix: str, reference: str
) -> None:
    fill(sqlite_store)
    clean_run(sqlite_store, client, reference)
    live = Projector(sqlite_store, client, redis_prefix)
    catch_up(live, sqlite_store)
    stop = threading.Event()
    worker = threading.Thread(target=live.run_forever, args=(stop, 0.001))
    worker.start()
    try:
        for _ in range(3):
            Projector(sqlite_store, client, redis_prefix).rebuild()
            assert differences(client, redis_prefix, reference) == []
    finally:
        stop.set()
        worker.join()
    assert differences(client, redis_prefix, reference) == []


def test_a_projector_behind_another_writes_nothing_and_resynchronises(
    sqlite_store: TableStore, client: redis.Redis, redis_prefix: str, reference: str
) -> None:
    fill(sqlite_store)
    first = Projector(sqlite_store, client, redis_prefix)
    second = Projector(sqlite_store, client, redis_prefix)
    assert first.run_once(limit=20) == 20
    assert second.run_once(limit=20) == 20  # starts from the stored position: 21..40
    before = snapshot(client, redis_prefix)
    assert first.run_once(limit=20) == 0  # it believed 20: the script refuses, nothing written
    assert snapshot(client, redis_prefix) == before
    assert first.run_once(limit=20) == 20  # resynchronised from Redis and the store: 41..60
    assert ReadModels(client, redis_prefix).analytics()["all"]["events"] == 60
    catch_up(second, sqlite_store, limit=20)
    clean_run(sqlite_store, client, reference)
    assert differences(client, redis_prefix, reference) == []


def test_an_event_the_read_side_cannot_project_is_named_and_nothing_is_written(
    sqlite_store: TableStore,
    client: redis.Redis,
    redis_prefix: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fill(sqlite_store)
    projector = Projector(sqlite_store, client, redis_prefix)
    projector.run_once(limit=10)
    before = snapshot(client, redis_prefix)

    def broken(self: TableProjection, event: Any, version: int) -> None:
        raise ValueError("evolve failed")  # as a bug in a game's evolve would

    monkeypatch.setattr(TableProjection, "apply", broken)
    with pytest.raises(ProjectionError, match=r"position 11 \(table .* version \d+, \w+\)"):
        projector.run_once(limit=10)
    assert snapshot(client, redis_prefix) == before


def test_a_rebuild_that_loses_its_fence_stops_flushing(
    sqlite_store: TableStore,
    client: redis.Redis,
    redis_prefix: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fill(sqlite_store)
    catch_up(Projector(sqlite_store, client, redis_prefix), sqlite_store)
    for index in range(1_200):  # enough keys for several flush chunks
        client.set(f"{redis_prefix}table:filler-{index}:view", b"{}")
    real_renew = Tracking.renew

    def renew(self: Tracking, fence: str, ttl_ms: int) -> bool:
        client.set(Keys(redis_prefix).position(), b"rebuilding:another")  # a second rebuild
        return real_renew(self, fence, ttl_ms)

    monkeypatch.setattr(Tracking, "renew", renew)
    with pytest.raises(ProjectionError, match="another rebuild took over"):
        Projector(sqlite_store, client, redis_prefix).rebuild()
    assert client.get(Keys(redis_prefix).position()) == b"rebuilding:another"
    left = sum(1 for _ in client.scan_iter(match=f"{redis_prefix}table:filler-*"))
    assert left > 0  # it stopped deleting as soon as it noticed
