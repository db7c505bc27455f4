"""The write side's persistence: tables as event streams in an eventsourcing store (design §3).

``TableStore`` opens the event store (an eventsourcing ``Application``, ``.app``), loads
tables (a per-process cache, :mod:`infra.table_cache`; cold loads start from the latest snapshot,
:mod:`infra.snapshots`), saves a command's events and takes snapshots, and reads events,
notifications and past states (time travel). Commands are decided by the command service,
:mod:`infra.command_service` (``store.commands``; ``create_table``, ``take_seat`` and ``execute``
here hand over to it); what a caller may see of a table is :mod:`infra.queries`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any
from uuid import UUID

from eventsourcing.persistence import (
    IntegrityError,
    PersistenceError,
    ProgrammingError,
    RecordConflictError,
)

from domain.table import hash_token
from infra.application import CardroomApplication
from infra.command_service import TableCommands
from infra.errors import (
    IdempotencyKeyReused,
    InvalidRequest,
    StackedDecksNotAllowed,
    StoreUnavailable,
    TableNotFound,
    VersionConflict,
)
from infra.eventstore_env import eventsourcing_env, redacted
from infra.groupcommit import FileWriteLock, GroupCommit
from infra.hands import HandIndex
from infra.logread import LogReader
from infra.results import CommandResult, LoadedTable, Notification, RecordedEvent
from infra.settings import Settings
from infra.snapshots import SNAPSHOT_EVERY, load_snapshot, take_snapshot
from infra.table_cache import FoldedTable, TableCache, TableLocks, fold_table
from infra.transcoder import StoredTableEvent

__all__ = [
    "CommandResult",
    "IdempotencyKeyReused",
    "InvalidRequest",
    "LoadedTable",
    "Notification",
    "RecordedEvent",
    "StackedDecksNotAllowed",
    "StoreUnavailable",
    "TableNotFound",
    "TableStore",
    "VersionConflict",
]


CREATE_ATTEMPTS = 5  # tries to open a store whose tables another process is creating


class TableStore:
    """Tables on an eventsourcing ``Application`` (``.app``). Thread-safe; all calls block."""

    def __init__(self, settings: Settings, *, cache_size: int | None = None) -> None:
        self.settings = settings
        for attempt in range(CREATE_ATTEMPTS):
            try:
                env = eventsourcing_env(
                    settings.event_store,
                    pool_size=settings.db_pool_size,
                    max_overflow=settings.db_max_overflow,
                )
                self.app = CardroomApplication(env={**env, "IS_SNAPSHOTTING_ENABLED": "y"})
                break
            except (IntegrityError, ProgrammingError) as error:
                # Processes starting together race to create the tables (PostgreSQL's
                # CREATE TABLE IF NOT EXISTS is not atomic): the loser finds them made.
                if attempt == CREATE_ATTEMPTS - 1:
                    raise StoreUnavailable(
                        f"cannot open the event store {redacted(settings.event_store)}: {error}"
                    ) from error
                time.sleep(0.05 * (attempt + 1))
            except (PersistenceError, OSError) as error:
                raise StoreUnavailable(
                    f"cannot open the event store {redacted(settings.event_store)}: {error}"
                ) from error
        self._cache = TableCache() if cache_size is None else TableCache(cache_size)
        self.locked = TableLocks()  # ``with store.locked(table_id):`` one writer per table
        # Commands saved together share one transaction (infra.groupcommit); processes on
        # one SQLite file take turns through a lock file beside it.
        database = env.get("SQLITE_DBNAME", "")
        on_file = bool(database) and not database.startswith("file:")
        self._write_lock = FileWriteLock(Path(f"{database}.write-lock")) if on_file else None
        self.group_commit = GroupCommit(lambda events: self.app.save(*events), self._write_lock)
        self.commands = TableCommands(self)
        self._log = LogReader(self.app)

    # -- commands (infra.command_service) ----------------------------------------------------------

    def create_table(
        self,
        game: str,
        options: Mapping[str, Any],
        *,
        seed: int | None = None,
        decks: list[list[str]] | None = None,
    ) -> CommandResult:
        """:meth:`infra.command_service.TableCommands.create_table`."""
        return self.commands.create_table(game, options, seed=seed, decks=decks)

    def take_seat(
        self, table_id: UUID, name: str, seat: int | None = None
    ) -> tuple[int, str, CommandResult]:
        """:meth:`infra.command_service.TableCommands.take_seat`."""
        return self.commands.take_seat(table_id, name, seat)

    def execute(
        self,
        table_id: UUID,
        command: Any,
        *,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
    ) -> CommandResult:
        """:meth:`infra.command_service.TableCommands.execute`."""
        return self.commands.execute(
            table_id, command, expected_version=expected_version, idempotency_key=idempotency_key
        )

    # -- reading (what a caller may see of it: infra.queries) --------------------------------

    def get(self, table_id: UUID, version: int | None = None) -> LoadedTable:
        """The table now, or as of ``version`` (time travel). Raises :class:`TableNotFound`."""
        self.check_id(table_id)
        if version is None:
            with self.locked(table_id):
                table = self.current(table_id)
            return LoadedTable(table.table_id, table.game, table.state, table.version)
        if isinstance(version, bool) or not isinstance(version, int) or version < 1:
            raise InvalidRequest(f"version must be a positive integer, not {version!r}")
        with self.locked(table_id):
            current = self.current(table_id)
        if version > current.version:
            raise InvalidRequest(
                f"version {version} is beyond table {table_id}'s version {current.version}"
            )
        if version == current.version:
            past = current
        else:
            # Fold forward from the nearest in-memory checkpoint, not from the first event.
            checkpoint = current.nearest_checkpoint(version)
            base: FoldedTable | None
            if checkpoint is not None:
                base = FoldedTable(table_id, current.game, checkpoint[1], checkpoint[0])
            else:
                base = self._guarded(load_snapshot, self.app, table_id, lte=version)
            if base is None:
                found = fold_table(table_id, self._stored(table_id, lte=version))
                assert found is not None  # the table exists: it has a first event
                past = found
            else:
                events = self._stored(table_id, gt=base.version, lte=version)
                past = FoldedTable(table_id, base.game, base.state, base.version).advanced(
                    events, stored=False
                )
        return LoadedTable(past.table_id, past.game, past.state, past.version)

    def hands(self, table_id: UUID) -> tuple[int, HandIndex]:
        """The table's version now and its hand index (:mod:`infra.hands`), read from the
        folded table: no history is scanned. Raises :class:`TableNotFound`."""
        self.check_id(table_id)
        with self.locked(table_id):
            table = self.current(table_id)
        return table.version, table.hands

    def seat_for_token(self, table_id: UUID, token: str) -> int | None:
        """The seat a bearer token belongs to, or ``None``.

        A seat keeps its token until its person leaves (``SeatLeft``), so a seat found in the
        cached table is right as of that table: this process's cache follows its own writes,
        while another process's cached table answers for the leaver until it is read again
        (design §2, leaving). Only a miss needs the fresh table.
        """
        token_hash = hash_token(token)
        cached = self._cache.get(table_id)
        if cached is not None:
            seat = cached.game.seat_for_token(cached.state, token_hash)
            if seat is not None:
                return seat
        table = self.get(table_id)
        return table.game.seat_for_token(table.state, token_hash)

    def events(
        self, table_id: UUID, from_version: int = 1, to_version: int | None = None
    ) -> list[RecordedEvent]:
        """Stored events with ``from_version <= version <= to_version``."""
        recorded = [
            RecordedEvent(e.originator_version, e.at, e.event)
            for e in self._stored(table_id, gt=max(from_version, 1) - 1, lte=to_version)
        ]
        if not recorded and not self._exists(table_id):
            raise TableNotFound(f"no table {table_id}")
        return recorded

    def notifications(self, start: int, limit: int) -> list[Notification]:
        """Notifications with positions ``>= start``, ascending, at most ``limit``."""
        return self.notifications_of(start, limit)[0]

    def notifications_of(
        self, start: int, limit: int, keep: Callable[[UUID], bool] | None = None
    ) -> tuple[list[Notification], int, int]:
        """Of the next ``limit`` notifications from ``start``: those of the tables ``keep``
        admits (every one without it; the others are not decoded), the last position
        examined (0 when there is none) and how many were examined — :mod:`infra.logread`."""
        if limit <= 0:
            return [], 0, 0  # SQLite reads a negative LIMIT as "no limit"
        found: tuple[list[Notification], int, int] = self._guarded(
            self._log.notifications, start, limit, keep
        )
        return found

    def table_notifications(self, table_id: UUID, first: int, last: int) -> list[Notification]:
        """``table_id``'s notifications with versions ``first`` to ``last`` (by version, with
        their log positions: the feed's events released by a later one, :mod:`infra.feed`)."""
        found: list[Notification] = self._guarded(
            self._log.table_notifications, table_id, first, last
        )
        return found

    def decode_notification(self, row: Any) -> Notification:
        """A library ``Notification`` row (e.g. from ``app.recorder.subscribe``) decoded."""
        envelope: StoredTableEvent = self.app.mapper.to_domain_event(row)  # type: ignore[assignment]
        return Notification(
            row.id, envelope.originator_id, envelope.originator_version, envelope.at, envelope.event
        )

    def max_position(self) -> int:
        return int(self._guarded(self.app.recorder.max_notification_id) or 0)

    def close(self) -> None:
        self._cache.clear()
        self.app.close()
        if self._write_lock is not None:
            self._write_lock.close()

    def __enter__(self) -> TableStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- internals --------------------------------------------------------------------------

    def cached(self, table_id: UUID) -> FoldedTable | None:
        """The table as this process last knew it (maybe stale), without reading the store."""
        return self._cache.get(table_id)

    def current(self, table_id: UUID) -> FoldedTable:
        """The table now: cached and fast-forwarded, or folded from all its events."""
        cached = self._cache.get(table_id)
        if cached is None:
            snapshot = self._guarded(load_snapshot, self.app, table_id)
            if snapshot is not None:
                table = snapshot.advanced(self._stored(table_id, gt=snapshot.version))
            else:
                found = fold_table(table_id, self._stored(table_id))
                if found is None:
                    raise TableNotFound(f"no table {table_id}")
                table = found
        else:
            table = cached.advanced(self._stored(table_id, gt=cached.version))
        self._cache.put(table)
        return table

    def save(
        self, before: FoldedTable, after: FoldedTable, envelopes: list[StoredTableEvent]
    ) -> CommandResult:
        """Store a command's ``envelopes`` (``before`` -> ``after``), in one transaction with
        other commands' being saved at the same time (:mod:`infra.groupcommit`); returns once
        they are committed. A lost race raises the library's ``IntegrityError`` /
        ``RecordConflictError`` and changes nothing."""
        try:
            recordings = self.group_commit.save(envelopes)
        except (IntegrityError, RecordConflictError):
            raise
        except PersistenceError as error:
            raise StoreUnavailable(f"the event store did not answer: {error}") from error
        return self._saved(before, after, envelopes, recordings)

    def save_many(
        self, saves: list[tuple[FoldedTable, FoldedTable, list[StoredTableEvent]]]
    ) -> list[CommandResult | Exception]:
        """:meth:`save` for several commands (of different tables) at once, in one
        transaction: each one's result, or what :meth:`save` would have raised for it."""
        written = self.group_commit.save_many([envelopes for _, _, envelopes in saves])
        results: list[CommandResult | Exception] = []
        for (before, after, envelopes), outcome in zip(saves, written, strict=True):
            if isinstance(outcome, (IntegrityError, RecordConflictError)):
                results.append(outcome)
            elif isinstance(outcome, PersistenceError):
                unavailable = StoreUnavailable(f"the event store did not answer: {outcome}")
                unavailable.__cause__ = outcome
                results.append(unavailable)
            elif isinstance(outcome, BaseException):
                raise outcome
            else:
                try:
                    results.append(self._saved(before, after, envelopes, outcome))
                except Exception as error:
                    results.append(error)
        return results

    def _saved(
        self,
        before: FoldedTable,
        after: FoldedTable,
        envelopes: list[StoredTableEvent],
        recordings: Any,
    ) -> CommandResult:
        """What follows a command's committed write: the cache, a snapshot, the result."""
        saved = after.saved(envelopes)
        self._cache.put(saved)
        # A command crossing a SNAPSHOT_EVERY boundary snapshots the version it reached.
        if after.version // SNAPSHOT_EVERY > before.version // SNAPSHOT_EVERY:
            take_snapshot(self.app, saved, after.version, after.state, envelopes[-1].at)
        return CommandResult(
            table_id=before.table_id,
            version=after.version,
            position=recordings[-1].notification.id if recordings else 0,
            events=[RecordedEvent(e.originator_version, e.at, e.event) for e in envelopes],
        )

    def wait_for_writes(self) -> None:
        """Return once no other writer holds the store's write lock (processes on one SQLite
        file take turns: :mod:`infra.groupcommit`); at once on other stores. A batch taken
        after this holds the commands that arrived while the other process wrote, which its
        write would have waited for anyway."""
        if self._write_lock is not None:
            self._write_lock.wait_free()

    def first_result(self, table: FoldedTable, run: tuple[int, int]) -> CommandResult:
        """The answer the command that wrote versions ``run`` got (an idempotent retry)."""
        first, last = run
        events = self.events(table.table_id, first, last)
        position = self._guarded(self.app.notification_position, table.table_id, last)
        return CommandResult(table.table_id, last, position, events)

    def _stored(
        self, table_id: UUID, *, gt: int | None = None, lte: int | None = None
    ) -> Iterator[StoredTableEvent]:
        self.check_id(table_id)
        rows: Iterator[StoredTableEvent] = self._guarded(
            self.app.events.get, table_id, gt=gt, lte=lte
        )
        return rows

    def _exists(self, table_id: UUID) -> bool:
        return any(True for _ in self._stored(table_id, lte=1))

    @staticmethod
    def _guarded(call: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return call(*args, **kwargs)
        except PersistenceError as error:
            raise StoreUnavailable(f"the event store did not answer: {error}") from error

    @staticmethod
    def check_id(table_id: Any) -> None:
        """Table ids are UUIDs; anything else (a string from a sloppy caller) names no table."""
        if not isinstance(table_id, UUID):
            raise TableNotFound(f"no table {table_id!r}")
