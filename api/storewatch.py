"""Store writes seen as they happen (design §5, "Spectators at scale"): the live feed's wake-up
on SQLite.

SQLite has no notifications, and the projection's position (the feed's other wake-up) moves
only when the projector's next poll finds the new events. But every commit on a SQLite file,
by whichever process, writes the file's write-ahead log (``<db>-wal``), and Linux reports that
write through inotify. A :class:`StoreWatch` turns those reports into a callback on the event
loop: no thread, no polling, nothing while the store is quiet. It watches the database's
directory (the log is created and removed by SQLite) and keeps only the log's writes.

A report is a hint, never the source: the feed reads the store when woken, and its other
wake-ups (the projection's position, the fallback poll) still run. Where inotify is missing
(not Linux) or the store is not a SQLite file, :func:`store_watch` gives ``None``.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import logging
import os
import struct
from collections.abc import Callable
from pathlib import Path

from infra.eventstore_env import SQLITE_SCHEME

log = logging.getLogger("cardroom.api")

IN_MODIFY = 0x00000002
IN_Q_OVERFLOW = 0x00004000
_EVENT = struct.Struct("iIII")  # struct inotify_event: wd, mask, cookie, len (then the name)


def wal_of(event_store: str) -> Path | None:
    """The write-ahead log of a SQLite store URL (``None``: not a SQLite file)."""
    if not event_store.startswith(SQLITE_SCHEME):
        return None
    path = event_store[len(SQLITE_SCHEME) :]
    if not path or path == ":memory:" or path.startswith("file:"):
        return None
    return Path(path).expanduser().absolute().with_name(Path(path).name + "-wal")


def _libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name, use_errno=True)
    except OSError:
        return None
    return libc if hasattr(libc, "inotify_init1") else None


def _log_written(buffer: bytes, name: bytes) -> bool:
    """Whether inotify's ``buffer`` reports a write of ``name`` (or lost reports)."""
    offset = 0
    while offset + _EVENT.size <= len(buffer):
        _wd, mask, _cookie, length = _EVENT.unpack_from(buffer, offset)
        start = offset + _EVENT.size
        offset = start + length
        if mask & IN_Q_OVERFLOW or buffer[start:offset].rstrip(b"\0") == name:
            return True
    return False


class StoreWatch:
    """Calls ``written`` on the running loop after the store's log is written, while on."""

    def __init__(self, libc: ctypes.CDLL, wal: Path, written: Callable[[], None]) -> None:
        self._libc = libc
        self._directory = os.fsencode(wal.parent)
        self._name = os.fsencode(wal.name)
        self._written = written
        self._fd = -1
        self._loop: asyncio.AbstractEventLoop | None = None

    def on(self) -> None:
        """Start watching (idempotent); a failure only logs: the feed's other wake-ups stay."""
        if self._fd >= 0:
            return
        fd = self._libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        if fd >= 0 and self._libc.inotify_add_watch(fd, self._directory, IN_MODIFY) < 0:
            os.close(fd)
            fd = -1
        if fd < 0:
            log.warning(
                "cannot watch %r (errno %d): streams wait for the projection",
                self._directory,
                ctypes.get_errno(),
            )
            return
        self._fd = fd
        self._loop = asyncio.get_running_loop()
        self._loop.add_reader(fd, self._readable)

    def off(self) -> None:
        """Stop watching (idempotent): nothing wakes the loop while no stream follows."""
        if self._fd < 0:
            return
        fd, self._fd = self._fd, -1
        if self._loop is not None:
            self._loop.remove_reader(fd)
        os.close(fd)  # closing drops the watch and whatever reports were queued

    def _readable(self) -> None:
        written = False
        with contextlib.suppress(BlockingIOError, InterruptedError):
            while True:  # drain: a commit writes the log several times
                buffer = os.read(self._fd, 65536)
                if not buffer:
                    break
                written = written or _log_written(buffer, self._name)
        if written:
            self._written()


def store_watch(event_store: str, written: Callable[[], None]) -> StoreWatch | None:
    """A watch on ``event_store``'s writes, or ``None`` where there is none to be had."""
    wal = wal_of(event_store)
    libc = _libc() if wal is not None else None
    if wal is None or libc is None:
        return None
    return StoreWatch(libc, wal, written)
