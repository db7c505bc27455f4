"""Store writes seen as they happen (design §5, "Spectators at scale"): the live feed's wake-up
on SQLite.

SQLite has no notifications, and the projection's position (the feed's other wake-up) moves
only when the projector's next batch finds the new events. But every commit on a SQLite file,
by whichever process, writes the file's write-ahead log (``<db>-wal``), and Linux reports that
write through inotify (:mod:`projections.walwatch`, which wakes the projector too). A
:class:`StoreWatch` turns those reports into a callback on the event loop: no thread, no
polling, nothing while the store is quiet.

A report is a hint, never the source: the feed reads the store when woken, and its other
wake-ups (the projection's position, the fallback poll) still run. Where inotify is missing
(not Linux) or the store is not a SQLite file, :func:`store_watch` gives ``None``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from infra.eventstore_env import SQLITE_SCHEME
from projections.walwatch import LogWatch, log_watch


def wal_of(event_store: str) -> Path | None:
    """The write-ahead log of a SQLite store URL (``None``: not a SQLite file)."""
    if not event_store.startswith(SQLITE_SCHEME):
        return None
    path = event_store[len(SQLITE_SCHEME) :]
    if not path or path == ":memory:" or path.startswith("file:"):
        return None
    return Path(path).expanduser().absolute().with_name(Path(path).name + "-wal")


class StoreWatch:
    """Calls ``written`` on the running loop after the store's log is written, while on."""

    def __init__(self, watch: LogWatch, written: Callable[[], None]) -> None:
        self._watch = watch
        self._written = written
        self._loop: asyncio.AbstractEventLoop | None = None

    def on(self) -> None:
        """Start watching (idempotent); a failure only logs: the feed's other wake-ups stay."""
        if self._watch.fd >= 0:
            return
        fd = self._watch.open()
        if fd >= 0:
            self._loop = asyncio.get_running_loop()
            self._loop.add_reader(fd, self._readable)

    def off(self) -> None:
        """Stop watching (idempotent): nothing wakes the loop while no stream follows."""
        if self._watch.fd < 0:
            return
        if self._loop is not None:
            self._loop.remove_reader(self._watch.fd)
        self._watch.close()

    def _readable(self) -> None:
        if self._watch.written():
            self._written()


def store_watch(event_store: str, written: Callable[[], None]) -> StoreWatch | None:
    """A watch on ``event_store``'s writes, or ``None`` where there is none to be had."""
    watch = log_watch(wal_of(event_store))
    return None if watch is None else StoreWatch(watch, written)
