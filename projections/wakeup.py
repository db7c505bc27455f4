"""How an idle projector learns that new events were stored.

On PostgreSQL eventsourcing's recorder sends ``NOTIFY <channel>`` with every insert; a listening
thread wakes the projector at once. SQLite has no notifications, but every commit writes the
file's write-ahead log, and on Linux inotify reports that write (:mod:`projections.walwatch`):
the projector's wait ends on it, whichever process committed. Either way polling stays on as a
fallback (a lost connection or a missing watch only makes it slower, never wrong: the position
in Redis, not the wake-up, decides what is projected). ``wait`` says whether it was woken by a
write: the projector then looks again soon, as a SQLite write may commit a moment after it
wrote the log.
"""

from __future__ import annotations

import logging
import select
import threading
from pathlib import Path
from typing import Any

from projections.walwatch import LogWatch, log_watch

log = logging.getLogger(__name__)
# After a write of a SQLite store's log, the projector reads this much later (seconds): the
# quick poll's pace, so a busy store is read no more often than when polling.
SETTLE = 0.002


class Wakeup:
    """Polling only: wait ``timeout`` seconds (or until stopped)."""

    def wait(self, stop: threading.Event, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds; whether a store write ended the wait."""
        stop.wait(timeout)
        return False

    def close(self) -> None:
        return None


class PostgresWakeup(Wakeup):
    """LISTEN on the application recorder's channel; ``wait`` returns as soon as it fires."""

    def __init__(self, recorder: Any) -> None:
        self._recorder = recorder
        self._notified = threading.Event()
        self._closed = threading.Event()
        self._thread = threading.Thread(
            target=self._listen, name="cardroom-projector-listen", daemon=True
        )
        self._thread.start()

    def _listen(self) -> None:
        from psycopg.sql import SQL, Identifier

        while not self._closed.is_set():
            try:
                with self._recorder.datastore.get_connection() as conn:
                    conn.execute(SQL("LISTEN {0}").format(Identifier(self._recorder.channel_name)))
                    # Catch up on anything stored before LISTEN took effect.
                    self._notified.set()
                    while not self._closed.is_set():
                        for _ in conn.notifies(timeout=0.2, stop_after=1):
                            self._notified.set()
            except Exception:  # the database went away: keep polling, try again shortly
                log.warning("projector LISTEN connection failed; polling", exc_info=True)
                self._closed.wait(1.0)

    def wait(self, stop: threading.Event, timeout: float) -> bool:
        # Woken by a NOTIFY, by stop (whose setter may call close), or by the poll timeout.
        deadline_step = min(timeout, 0.05)
        waited = 0.0
        notified = False
        while waited < timeout and not stop.is_set():
            if self._notified.wait(deadline_step):
                notified = True
                break
            waited += deadline_step
        self._notified.clear()
        return notified

    def close(self) -> None:
        self._closed.set()
        self._thread.join(timeout=2.0)


class SqliteWakeup(Wakeup):
    """inotify on the SQLite file's write-ahead log; ``wait`` returns once the log is written
    (by any process) — reports queued since the last wait end the next one at once."""

    def __init__(self, watch: LogWatch) -> None:
        self._watch = watch

    def wait(self, stop: threading.Event, timeout: float) -> bool:
        # Steps of at most 50 ms: ``stop`` is noticed within one step.
        fd = self._watch.fd
        remaining = timeout
        while remaining > 0 and not stop.is_set():
            step = min(remaining, 0.05)
            readable, _, _ = select.select([fd], [], [], step)
            if readable and self._watch.written():
                # The commit lands a moment after the log is written: let it, and let the
                # writes of that moment make one wake-up (one batch) rather than several.
                stop.wait(SETTLE)
                self._watch.written()
                return True
            remaining -= step
        return False

    def close(self) -> None:
        self._watch.close()


def sqlite_wal(recorder: Any) -> Path | None:
    """The write-ahead log of eventsourcing's SQLite ``recorder`` (``None``: an in-memory
    database, or not SQLite)."""
    pool = getattr(getattr(recorder, "datastore", None), "pool", None)
    name = getattr(pool, "db_name", None)
    if not isinstance(name, str) or getattr(pool, "is_sqlite_memory_mode", True):
        return None
    from eventsourcing.sqlite import SQLiteApplicationRecorder

    if not isinstance(recorder, SQLiteApplicationRecorder) or name.startswith("file:"):
        return None
    path = Path(name).expanduser().absolute()
    return path.with_name(path.name + "-wal")


def wakeup_for(store: Any) -> Wakeup:
    """LISTEN/NOTIFY when ``store`` runs on eventsourcing's PostgreSQL recorder, the log's
    writes on a SQLite file (where inotify is had), else polling."""
    recorder = getattr(getattr(store, "app", None), "recorder", None)
    if recorder is None:
        return Wakeup()
    watch = log_watch(sqlite_wal(recorder))
    if watch is not None and watch.open() >= 0:
        return SqliteWakeup(watch)
    try:
        from eventsourcing.postgres import PostgresApplicationRecorder
    except ImportError:  # the postgres extra is not installed
        return Wakeup()
    if isinstance(recorder, PostgresApplicationRecorder):
        return PostgresWakeup(recorder)
    return Wakeup()
