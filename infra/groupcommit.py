"""Group commit: the events of commands that arrive together are written in one transaction
(design §3, "Group commit").

Commands are decided separately, each under its own table's lock (:mod:`infra.commands`); only
the write is shared. A thread with events to store queues them; if no write is under way it
becomes the *leader*: it takes everything queued (its own events and whatever other threads
queued meanwhile) and stores it with one ``Application.save`` — one transaction for all of
them. Threads that queued while a write was under way wait for it, and the first of them leads
the next write. Nobody waits for company: a command alone is written at once, and the batch
is simply whatever queued during the previous commit.

Each thread gets its own outcome, and only after the transaction holding its events has
committed: its recordings (so its own notification positions), or the error. A lost race (the
store's unique (table, version) key) refuses the whole transaction, so the batch is then
written again one command per transaction, and only the command that raced gets the conflict.
Any other store failure fails every command of the batch, and nothing of it was written.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from eventsourcing.persistence import IntegrityError, RecordConflictError

Write = Callable[[Sequence[Any]], Sequence[Any]]  # events -> one recording per event


class _Queued:
    """One command's events, and then its outcome."""

    __slots__ = ("error", "events", "recordings")

    def __init__(self, events: Sequence[Any]) -> None:
        self.events = events
        self.recordings: Sequence[Any] | None = None
        self.error: BaseException | None = None

    @property
    def done(self) -> bool:
        return self.recordings is not None or self.error is not None

    def outcome(self) -> Sequence[Any]:
        if self.error is not None:
            raise self.error
        assert self.recordings is not None
        return self.recordings


class GroupCommit:
    """Writes queued commands' events together; ``write`` stores events in one transaction
    and returns one recording per event, in order (``Application.save``)."""

    def __init__(self, write: Write) -> None:
        self._write = write
        self._lock = threading.Lock()
        self._written = threading.Condition(self._lock)
        self._queue: list[_Queued] = []
        self._writing: list[_Queued] = []

    @property
    def queued(self) -> int:
        """Commands queued or being written now."""
        with self._lock:
            return len(self._queue) + len(self._writing)

    def save(self, events: Sequence[Any]) -> Sequence[Any]:
        """Store ``events`` (one command's, all of one table) with whatever else is queued;
        their recordings once committed. Raises what the store raised for them."""
        queued = _Queued(events)
        with self._lock:
            self._queue.append(queued)
            while self._writing and not queued.done:
                self._written.wait()
            if queued.done:
                return queued.outcome()
            batch = self._writing = self._queue
            self._queue = []
        try:
            self._commit(batch)
        finally:
            with self._lock:
                self._writing = []
                self._written.notify_all()
        return queued.outcome()

    def _commit(self, batch: list[_Queued]) -> None:
        try:
            recordings = self._write([event for queued in batch for event in queued.events])
        except (IntegrityError, RecordConflictError) as error:
            if len(batch) == 1:
                batch[0].error = error
                return
            # Someone in the batch lost a race: find out who, one transaction each.
            for queued in batch:
                self._commit_alone(queued)
            return
        except BaseException as error:  # nothing of the batch was written
            for queued in batch:
                queued.error = error
            return
        start = 0
        for queued in batch:
            queued.recordings = recordings[start : start + len(queued.events)]
            start += len(queued.events)

    def _commit_alone(self, queued: _Queued) -> None:
        try:
            queued.recordings = self._write(queued.events)
        except BaseException as error:
            queued.error = error
