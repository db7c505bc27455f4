"""How an idle projector learns that new events were stored.

SQLite has no notifications, so the projector polls the notification log (design §4). On
PostgreSQL eventsourcing's recorder sends ``NOTIFY <channel>`` with every insert; a listening
thread wakes the projector at once, and polling stays on as a fallback (a lost connection only
makes it slower, never wrong: the position in Redis, not the wake-up, decides what is projected).
"""

from __future__ import annotations

import logging
import threading
from typing import Any

log = logging.getLogger(__name__)


class Wakeup:
    """Polling only: wait ``timeout`` seconds (or until stopped)."""

    def wait(self, stop: threading.Event, timeout: float) -> None:
        stop.wait(timeout)

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

    def wait(self, stop: threading.Event, timeout: float) -> None:
        # Woken by a NOTIFY, by stop (whose setter may call close), or by the poll timeout.
        deadline_step = min(timeout, 0.05)
        waited = 0.0
        while waited < timeout and not stop.is_set():
            if self._notified.wait(deadline_step):
                break
            waited += deadline_step
        self._notified.clear()

    def close(self) -> None:
        self._closed.set()
        self._thread.join(timeout=2.0)


def wakeup_for(store: Any) -> Wakeup:
    """LISTEN/NOTIFY when ``store`` runs on eventsourcing's PostgreSQL recorder, else polling."""
    recorder = getattr(getattr(store, "app", None), "recorder", None)
    if recorder is None:
        return Wakeup()
    try:
        from eventsourcing.postgres import PostgresApplicationRecorder
    except ImportError:  # the postgres extra is not installed
        return Wakeup()
    if isinstance(recorder, PostgresApplicationRecorder):
        return PostgresWakeup(recorder)
    return Wakeup()
