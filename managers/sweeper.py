"""Abandoning tables nobody joins (design §5, lobby): the sweeper.

A table waiting for players whose last event is ``CARDROOM_ABANDON_WAITING_SECONDS`` old is
abandoned: the sweeper finds the candidates in the lobby's waiting list (tables opened before
the limit, a range read) and issues ``abandon_table`` through the write side
(:meth:`infra.command_service.TableCommands.abandon`), which measures the wait from the stored event
times and lets the table kernel decide; ``TableEnded`` (reason ``abandoned``) is recorded in
the table's stream and the projection moves the table to the lobby's ended list. The command's
idempotency key and expected version make it safe for several sweepers to run at once: the
table ends once. It runs where a projector runs (``cardroom serve`` on embedded defaults,
``cardroom project``).
"""

from __future__ import annotations

import logging
import threading
import time
from datetime import UTC, datetime
from uuid import UUID

from domain.errors import DomainError
from infra.errors import TableNotFound, VersionConflict
from infra.store import TableStore
from projections.reader import ReadModels

log = logging.getLogger("cardroom.sweeper")
LONGEST_PAUSE = 60.0  # seconds between sweeps at most


class Sweeper:
    """Abandons the tables of ``store`` that waited ``limit_seconds`` for players."""

    def __init__(self, store: TableStore, read_models: ReadModels, limit_seconds: float) -> None:
        self.store = store
        self.read_models = read_models
        self.limit_seconds = limit_seconds
        self.pause = min(LONGEST_PAUSE, max(0.05, limit_seconds / 10))

    def sweep(self) -> list[UUID]:
        """One pass: the tables this pass abandoned."""
        now = datetime.now(UTC)
        abandoned: list[UUID] = []
        for candidate in self.read_models.waiting_opened_before(time.time() - self.limit_seconds):
            table_id = UUID(candidate)
            try:
                self.store.commands.abandon(table_id, self.limit_seconds, now)
            except (DomainError, VersionConflict, TableNotFound):
                continue  # joined, already ended or measured by another sweeper: nothing to do
            abandoned.append(table_id)
        if abandoned:
            log.info("abandoned %d table(s) nobody joined", len(abandoned))
        return abandoned

    def run_forever(self, stop: threading.Event) -> None:
        """Sweep every ``pause`` seconds until ``stop`` is set; a failed pass is logged."""
        while not stop.wait(self.pause):
            try:
                self.sweep()
            except Exception:  # the store or Redis is away: try again next time
                log.warning("abandoning waiting tables failed; will retry", exc_info=True)


def start_sweeper(
    store: TableStore, read_models: ReadModels, limit_seconds: float | None, stop: threading.Event
) -> threading.Thread | None:
    """A daemon thread sweeping until ``stop`` (None when abandoning is off)."""
    if limit_seconds is None:
        return None
    sweeper = Sweeper(store, read_models, limit_seconds)
    thread = threading.Thread(
        target=sweeper.run_forever, args=(stop,), name="cardroom-sweeper", daemon=True
    )
    thread.start()
    return thread
