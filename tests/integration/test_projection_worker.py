"""The projection worker (``Projector.run_forever``): follows the log, wakes on PostgreSQL
NOTIFY, survives failures, stops when asked; ``wait_for`` gives read-your-writes."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
import redis

from infra.store import StoreUnavailable, TableStore
from projections.keys import Keys
from projections.reader import ReadModels
from projections.runner import Projector
from projections.wakeup import wakeup_for
from tests.integration.test_projection_support import new_table, open_store, play, seat_everyone
from tests.waiting import wait_until

pytestmark = pytest.mark.integration


class Worker:
    """``run_forever`` in a thread, stopped and joined on exit."""

    def __init__(self, projector: Projector, poll_interval: float) -> None:
        self.stop = threading.Event()
        self.thread = threading.Thread(
            target=projector.run_forever, args=(self.stop, poll_interval), daemon=True
        )

    def __enter__(self) -> Worker:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(timeout=5)
        assert not self.thread.is_alive(), "the worker did not stop"


def test_the_worker_follows_commands_and_a_view_can_wait_for_its_write(
    tmp_path: Path, client: redis.Redis, redis_prefix: str
) -> None:
    store = open_store("sqlite", tmp_path)
    reader = ReadModels(client, redis_prefix)
    with Worker(Projector(store, client, redis_prefix), poll_interval=0.01):
        table_id = new_table(store, "bourre", 3)
        seat_everyone(store, table_id, 3)
        for seed in range(5):
            position = play(store, table_id, seed, commands=1)
            assert reader.wait_for(position, timeout=5)  # read-your-writes
            view = reader.view(table_id, 0)
            assert view is not None and view["version"] == store.get(table_id).version
    store.close()


def test_on_postgresql_the_worker_wakes_on_notify_rather_than_polling(
    tmp_path: Path, postgres_url: str, client: redis.Redis, redis_prefix: str
) -> None:
    store = open_store("postgres", tmp_path, postgres_url)
    wakeup = wakeup_for(store)
    stop = threading.Event()
    try:
        wakeup.wait(stop, 30)  # the first wake-up comes once LISTEN is in effect
        woken = threading.Event()

        def idle() -> None:  # a worker between polls ten minutes apart
            wakeup.wait(stop, 600)
            woken.set()

        threading.Thread(target=idle, daemon=True).start()
        table_id = new_table(store, "burraco", 2)
        # Only a NOTIFY can end that wait within the bound.
        wait_until(woken.is_set, 30, "storing an event did not wake the idle worker")
    finally:
        stop.set()
        wakeup.close()
    reader = ReadModels(client, redis_prefix)
    with Worker(Projector(store, client, redis_prefix), poll_interval=600):
        seat_everyone(store, table_id, 2)
        assert reader.wait_for(store.max_position(), timeout=30)
        assert reader.view(table_id, 1) is not None
    store.close()


class FlakyStore:
    """A store whose notification log fails a few times, like a database restarting."""

    def __init__(self, store: TableStore, failures: int) -> None:
        self._store = store
        self.failures = failures

    def notifications(self, start: int, limit: int) -> Any:
        if self.failures:
            self.failures -= 1
            raise StoreUnavailable("the event store did not answer: connection refused")
        return self._store.notifications(start, limit)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


def test_the_worker_retries_after_the_store_fails(
    tmp_path: Path, client: redis.Redis, redis_prefix: str, caplog: pytest.LogCaptureFixture
) -> None:
    store = open_store("sqlite", tmp_path)
    table_id = new_table(store, "bourre", 2)
    seat_everyone(store, table_id, 2)
    flaky = FlakyStore(store, failures=3)
    with Worker(Projector(flaky, client, redis_prefix), poll_interval=0.01):
        assert ReadModels(client, redis_prefix).wait_for(store.max_position(), timeout=5)
    assert flaky.failures == 0
    assert "projection batch failed" in caplog.text
    store.close()


def test_the_worker_waits_while_a_rebuild_fences_the_position(
    tmp_path: Path, client: redis.Redis, redis_prefix: str
) -> None:
    store = open_store("sqlite", tmp_path)
    table_id = new_table(store, "bourre", 2)
    seat_everyone(store, table_id, 2)
    projector = Projector(store, client, redis_prefix)
    client.set(Keys(redis_prefix).position(), b"rebuilding:elsewhere")
    assert projector.run_once() == 0  # nothing is written into a half-flushed read side
    assert client.keys(f"{redis_prefix}table:*") == []
    client.delete(Keys(redis_prefix).position())
    assert projector.run_once() == store.max_position()
    store.close()
