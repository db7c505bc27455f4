"""Store writes seen as they happen (design §5, "Spectators at scale"): inotify on a SQLite
file's write-ahead log, the wake-up of the live feed (:mod:`api.storewatch`) and of the
projector (:mod:`projections.wakeup`) on SQLite.

SQLite has no notifications. But every commit on a SQLite file, by whichever process, writes
the file's write-ahead log (``<db>-wal``), and Linux reports that write through inotify. A
:class:`LogWatch` watches the database's directory (the log is created and removed by
SQLite) and keeps only the log's writes: no thread, no polling, nothing while the store is
quiet. Its descriptor becomes readable on a write; :meth:`LogWatch.written` drains it.

A report is a hint, never the source: whoever is woken reads the store, and its other
wake-ups (a fallback poll) still run. Where inotify is missing (not Linux) there is no watch
(:func:`log_watch` gives ``None``).
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import struct
from pathlib import Path

log = logging.getLogger(__name__)

IN_MODIFY = 0x00000002
IN_Q_OVERFLOW = 0x00004000
_EVENT = struct.Struct("iIII")  # struct inotify_event: wd, mask, cookie, len (then the name)


def _libc() -> ctypes.CDLL | None:
    """The C library's functions as this process has them loaded (no ``find_library``: it
    runs ``ldconfig`` in a child process)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
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


class LogWatch:
    """inotify on ``wal``'s writes: :meth:`open` gives a descriptor that is readable after
    the log was written, :meth:`written` drains it and says whether the log was written."""

    def __init__(self, libc: ctypes.CDLL, wal: Path) -> None:
        self._libc = libc
        self.directory = os.fsencode(wal.parent)
        self._name = os.fsencode(wal.name)
        self.fd = -1

    def open(self) -> int:
        """Start watching (idempotent); the descriptor, or -1 when the watch failed (logged:
        the caller's other wake-ups stay)."""
        if self.fd >= 0:
            return self.fd
        fd = self._libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        if fd >= 0 and self._libc.inotify_add_watch(fd, self.directory, IN_MODIFY) < 0:
            os.close(fd)
            fd = -1
        if fd < 0:
            log.warning(
                "cannot watch %r (errno %d): waiting on the store by polling",
                self.directory,
                ctypes.get_errno(),
            )
        self.fd = fd
        return fd

    def close(self) -> None:
        """Stop watching (idempotent): closing drops the watch and whatever was queued."""
        fd, self.fd = self.fd, -1
        if fd >= 0:
            os.close(fd)

    def written(self) -> bool:
        """Drain the reports queued so far (a commit writes the log several times); whether
        one was a write of the log."""
        written = False
        with contextlib.suppress(BlockingIOError, InterruptedError):
            while self.fd >= 0:
                buffer = os.read(self.fd, 65536)
                if not buffer:
                    break
                written = written or _log_written(buffer, self._name)
        return written


def log_watch(wal: Path | None) -> LogWatch | None:
    """A watch on the write-ahead log ``wal``, or ``None`` where there is none to be had."""
    libc = _libc() if wal is not None else None
    if wal is None or libc is None:
        return None
    return LogWatch(libc, wal)
