"""On SQLite the projector wakes on a store write (:mod:`projections.wakeup`): the kernel
reports every write of the database's write-ahead log, whichever process commits, so an idle
projector need not wait for its next poll; polling stays as the fallback."""

from __future__ import annotations

import sys
import threading
from pathlib import Path
from typing import Any

import pytest
import redis

from infra.settings import Settings
from infra.store import TableStore
from projections import runner
from projections.reader import ReadModels
from projections.runner import Projector
from projections.wakeup import SqliteWakeup, Wakeup, sqlite_wal, wakeup_for
from tests.integration.test_projection_support import new_table, open_store, seat_everyone
from tests.integration.test_projection_worker import Worker
from tests.waiting import wait_until

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify"),
]


def test_the_projector_watches_the_sqlite_files_write_ahead_log(tmp_path: Path) -> None:
    store = open_store("sqlite", tmp_path)
    try:
        assert sqlite_wal(store.app.recorder) == tmp_path / "events.db-wal"
        wakeup = wakeup_for(store)
        assert isinstance(wakeup, SqliteWakeup)
        wakeup.close()
    finally:
        store.close()
    memory = TableStore(Settings(event_store="sqlite:///:memory:"))
    try:
        assert type(wakeup_for(memory)) is Wakeup  # no file, no log to watch: polling
    finally:
        memory.close()


def test_a_write_by_another_store_ends_a_ten_minute_wait(tmp_path: Path) -> None:
    store = open_store("sqlite", tmp_path)
    other = open_store("sqlite", tmp_path)  # another writer of the same file
    wakeup = wakeup_for(store)
    stop = threading.Event()
    woken: list[bool] = []
    try:

        def idle() -> None:  # a projector between polls ten minutes apart
            woken.append(wakeup.wait(stop, 600))

        waiter = threading.Thread(target=idle, daemon=True)
        waiter.start()
        new_table(other, "bourre", 2)
        # Only the write can end that wait within the bound.
        wait_until(lambda: woken, 30, "a store write did not wake the idle projector")
        assert woken == [True]
    finally:
        stop.set()
        wakeup.close()
        other.close()
        store.close()


class Watched:
    """The projector's wake-up, noting what ended each wait."""

    def __init__(self, wakeup: Wakeup) -> None:
        self._wakeup = wakeup
        self.waiting = threading.Event()
        self.woken_by_writes = 0

    def wait(self, stop: threading.Event, timeout: float) -> bool:
        self.waiting.set()
        woken = self._wakeup.wait(stop, timeout)
        self.waiting.clear()
        self.woken_by_writes += woken
        return woken

    def close(self) -> None:
        self._wakeup.close()


def test_an_idle_worker_with_a_long_poll_projects_a_write_when_woken_by_it(
    tmp_path: Path, client: redis.Redis, redis_prefix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = open_store("sqlite", tmp_path)
    watched: list[Watched] = []

    def watching(source: Any) -> Watched:
        watched.append(Watched(wakeup_for(source)))
        return watched[-1]

    monkeypatch.setattr(runner, "wakeup_for", watching)
    monkeypatch.setattr(runner, "_QUICK_POLL", 5.0)  # every idle wait: 5 s at least
    reader = ReadModels(client, redis_prefix)
    with Worker(Projector(store, client, redis_prefix), poll_interval=600):
        wait_until(lambda: watched and watched[0].waiting.is_set(), 30, "the worker never idled")
        table_id = new_table(store, "bourre", 3)
        seat_everyone(store, table_id, 3)
        assert reader.wait_for(store.max_position(), timeout=30)
        assert reader.view(table_id, 2) is not None
        assert watched[0].woken_by_writes > 0  # the writes, not the poll, ended its waits
    store.close()
