"""Group commit: the events of commands that arrive together are written in one transaction
(design §3, "Group commit").

Commands are decided separately, each under its own table's lock (:mod:`infra.command_service`);
only the write is shared. A thread with events to store queues them; if no write is under way it
becomes the *leader*: it takes everything queued (its own events and whatever other threads
queued meanwhile) and stores it with one ``Application.save`` — one transaction for all of them.
Threads that queued while a write was under way wait for it, and the first of them leads the
next write. Nobody waits for company: a command alone is written at once, and the batch is
simply whatever queued during the previous commit.

A commit wakes only the threads whose events it held, and the first thread queued meanwhile,
which leads the next write (the others sleep on). Each thread gets its own outcome, and only
after the transaction holding its events has committed: its recordings (so its own
notification positions), or the error. A lost race (the store's unique (table, version) key)
refuses the whole transaction, so the batch is then written again one command per
transaction, and only the command that raced gets the conflict. Any other store failure fails
every command of the batch, and nothing of it was written.

Several processes on one SQLite file take turns through :class:`FileWriteLock` (a lock file
beside the database): a process waiting for the file's write lock is woken the moment it is
free, where SQLite's own busy handler would sleep and retry (up to 100 ms a time).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, ClassVar

from eventsourcing.persistence import IntegrityError, RecordConflictError

Write = Callable[[Sequence[Any]], Sequence[Any]]  # events -> one recording per event


class _Queued:
    """One command's events, and then its outcome; its thread sleeps on ``wait`` until it is
    woken, once: because its outcome is in, or to lead the next write."""

    __slots__ = ("_asleep", "error", "events", "recordings")

    def __init__(self, events: Sequence[Any]) -> None:
        self.events = events
        self.recordings: Sequence[Any] | None = None
        self.error: BaseException | None = None
        self._asleep = threading.Lock()
        self._asleep.acquire()

    def wait(self) -> None:
        self._asleep.acquire()

    def wake(self) -> None:
        self._asleep.release()

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

    def __init__(
        self,
        write: Write,
        interlock: Callable[[], contextlib.AbstractContextManager[Any]] | None = None,
    ) -> None:
        self._write = write
        self._interlock = interlock or contextlib.nullcontext
        self._lock = threading.Lock()
        self._queue: list[_Queued] = []
        # The batch being written; [] while the pen passes to the next leader; None: idle.
        self._writing: list[_Queued] | None = None

    @property
    def queued(self) -> int:
        """Commands queued or being written now."""
        with self._lock:
            return len(self._queue) + len(self._writing or ())

    def save(self, events: Sequence[Any]) -> Sequence[Any]:
        """Store ``events`` (one command's, all of one table) with whatever else is queued;
        their recordings once committed. Raises what the store raised for them.

        A commit wakes only the threads it concerns: those whose events it held, and the
        first of those queued meanwhile, which leads the next write."""
        queued = _Queued(events)
        with self._lock:
            self._queue.append(queued)
            leading = self._writing is None
            if leading:
                batch = self._writing = self._queue
                self._queue = []
        if not leading:
            queued.wait()
            if queued.done:
                return queued.outcome()
            with self._lock:  # woken to lead: everything queued so far, this thread first
                batch = self._writing = self._queue
                self._queue = []
        self._lead(batch, queued)
        return queued.outcome()

    def save_many(self, commands: Sequence[Sequence[Any]]) -> list[Sequence[Any] | BaseException]:
        """:meth:`save` for several commands' events at once (one thread's batch, e.g. the
        command lane's): each command's recordings, or what the store raised for it, in
        order. They are queued together, so they are written in one transaction, with
        whatever else is queued; a lost race still fails only the command that raced."""
        mine = [_Queued(events) for events in commands]
        if not mine:
            return []
        first = mine[0]
        with self._lock:
            self._queue.extend(mine)
            leading = self._writing is None
            if leading:
                batch = self._writing = self._queue
                self._queue = []
        if not leading:
            first.wait()  # queued together, they are written together: first done, all done
            if not first.done:
                with self._lock:  # woken to lead
                    batch = self._writing = self._queue
                    self._queue = []
                leading = True
        if leading:
            with contextlib.suppress(Exception):  # the write lock failed: each one's error
                self._lead(batch, first)
        return [queued.error if queued.error is not None else queued.outcome() for queued in mine]

    def _lead(self, batch: list[_Queued], leader: _Queued) -> None:
        """Write ``batch``, then wake its threads and pass the pen to the next leader."""
        try:
            with self._interlock():
                self._commit(batch)
        except BaseException as error:  # the write lock failed: nothing was written
            for queued in batch:
                if not queued.done:
                    queued.error = error
            raise
        finally:
            with self._lock:
                following = self._queue[0] if self._queue else None
                self._writing = [] if following is not None else None
            for queued in batch:
                if queued is not leader:
                    queued.wake()
            if following is not None:
                following.wake()

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


class FileWriteLock:
    """An exclusive ``flock`` on ``path`` while a transaction is written: one process at a
    time. Within a process every store on the same file shares one lock, re-entrant for the
    thread holding it (a write that runs another store's write inside it, as tests simulate a
    race, must not wait for itself)."""

    _shared: ClassVar[dict[str, _SharedFileLock]] = {}
    _registry = threading.Lock()

    def __init__(self, path: Path) -> None:
        self._key = str(path.resolve())
        with self._registry:
            shared = self._shared.get(self._key)
            if shared is None:
                shared = self._shared[self._key] = _SharedFileLock(path)
            shared.users += 1
        self._lock: _SharedFileLock | None = shared

    @contextlib.contextmanager
    def __call__(self) -> Iterator[None]:
        lock = self._lock
        assert lock is not None, "the store is closed"
        with lock.held():
            yield

    def wait_free(self) -> None:
        """Return once no other process or thread holds the lock (it is not kept)."""
        lock = self._lock
        assert lock is not None, "the store is closed"
        with lock.held():
            pass

    def close(self) -> None:
        with self._registry:
            lock, self._lock = self._lock, None
            if lock is None:
                return
            lock.users -= 1
            if lock.users == 0:
                del self._shared[self._key]
                os.close(lock.fd)


class _SharedFileLock:
    def __init__(self, path: Path) -> None:
        self.fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        self.users = 0
        self._threads = threading.RLock()
        self._depth = 0

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        with self._threads:
            if self._depth == 0:
                fcntl.flock(self.fd, fcntl.LOCK_EX)
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
                if self._depth == 0:
                    fcntl.flock(self.fd, fcntl.LOCK_UN)
