"""The SQLite write lock's ``wait_free`` (infra/groupcommit.py): the command lane waits for
another writer's transaction before taking its batch, without keeping the lock."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from infra.groupcommit import FileWriteLock

pytestmark = pytest.mark.integration


def test_wait_free_returns_at_once_when_nobody_writes_and_keeps_nothing(tmp_path: Path) -> None:
    lock = FileWriteLock(tmp_path / "db.write-lock")
    try:
        lock.wait_free()
        with lock():  # not kept: taken again at once
            pass
    finally:
        lock.close()


def test_wait_free_waits_for_the_writer_holding_the_lock(tmp_path: Path) -> None:
    lock = FileWriteLock(tmp_path / "db.write-lock")
    holding = threading.Event()
    released_at: list[float] = []

    def writer() -> None:
        with lock():
            holding.set()
            time.sleep(0.2)
            released_at.append(time.monotonic())

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        assert holding.wait(10)
        lock.wait_free()
        assert released_at and time.monotonic() >= released_at[0]
    finally:
        thread.join()
        lock.close()
