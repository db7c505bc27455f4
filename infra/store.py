"""The write side: tables as event streams, commands through the game's ``decide`` (design §3).

``TableStore`` loads a table (a per-process cache, :mod:`infra.tables`; cold loads start from
the latest snapshot, :mod:`infra.snapshots`), runs the game's ``decide``, and appends the new
events with optimistic concurrency: the store's unique (table, version) key refuses a write
that raced another. Such a conflict is retried after reloading while the command is still
legal (bounded); otherwise it is a :class:`VersionConflict`. Domain errors propagate unchanged
and write nothing. A command's first attempt trusts the cache without re-reading the table:
if another process wrote meanwhile, the save is refused and the command is re-decided on the
fresh table, so a stale cache costs a retry, never a wrong answer.

Idempotency: a command's idempotency key and fingerprint are stored with each event it wrote.
A retried key (same table) returns the first command's result and writes nothing — after a
restart too, and across API processes, since the key index is rebuilt from the events when a
table is loaded; the key sent with a different command is :class:`IdempotencyKeyReused`.

Randomness for deals is drawn here (``secrets``) and handed to the domain as data (``seed``);
seat tokens are drawn here and only their SHA-256 is stored.
"""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from typing import Any
from uuid import UUID, uuid4

from eventsourcing.persistence import (
    IntegrityError,
    PersistenceError,
    RecordConflictError,
)

from domain.errors import DomainError, InvalidOption
from domain.games import game_named
from domain.table import MAX_SEED, OpenTable, PlayerSeated, TakeSeat, hash_token
from infra.application import CardroomApplication
from infra.eventstore_env import eventsourcing_env, redacted
from infra.records import (
    CommandResult,
    IdempotencyKeyReused,
    InvalidRequest,
    LoadedTable,
    Notification,
    RecordedEvent,
    StackedDecksNotAllowed,
    StoreUnavailable,
    TableNotFound,
    VersionConflict,
)
from infra.settings import Settings
from infra.snapshots import SNAPSHOT_EVERY, load_snapshot, take_snapshot
from infra.tables import FoldedTable, TableCache, TableLocks, fold_table
from infra.transcoder import StoredTableEvent, keyed

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

MAX_ATTEMPTS = 8  # one try plus retries after concurrent writes
MAX_KEY_LENGTH = 200


class TableStore:
    """Tables on an eventsourcing ``Application`` (``.app``). Thread-safe; all calls block."""

    def __init__(self, settings: Settings, *, cache_size: int | None = None) -> None:
        self.settings = settings
        try:
            env = {**eventsourcing_env(settings.event_store), "IS_SNAPSHOTTING_ENABLED": "y"}
            self.app = CardroomApplication(env=env)
        except (PersistenceError, OSError) as error:
            raise StoreUnavailable(
                f"cannot open the event store {redacted(settings.event_store)}: {error}"
            ) from error
        self._cache = TableCache() if cache_size is None else TableCache(cache_size)
        self._locks = TableLocks()

    # -- commands ---------------------------------------------------------------------------

    def create_table(
        self,
        game: str,
        options: Mapping[str, Any],
        *,
        seed: int | None = None,
        decks: list[list[str]] | None = None,
    ) -> CommandResult:
        """Open a table; the seed is drawn with ``secrets`` when not given."""
        rules = game_named(game)
        if not isinstance(options, Mapping):
            raise InvalidOption("options", "must be an object")
        if decks is not None and not isinstance(decks, list):
            raise InvalidOption("decks", "must be a list of decks")
        if decks and not self.settings.allow_stacked_decks:
            raise StackedDecksNotAllowed(
                "stacked decks are disabled on this server (CARDROOM_ALLOW_STACKED_DECKS)"
            )
        if seed is None:
            seed = secrets.randbits(63)
        elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise InvalidRequest(f"seed must be an integer from 0 to {MAX_SEED}")
        command = OpenTable(game=game, options=dict(options), seed=seed, decks=list(decks or []))
        events = rules.decide(None, command)
        table = FoldedTable(uuid4(), rules, None, 0)
        envelopes = table.envelopes(events, None)
        folded = table.advanced(envelopes, stored=False)
        with self._locks(table.table_id):
            return self._save(table, folded, envelopes)

    def take_seat(
        self, table_id: UUID, name: str, seat: int | None = None
    ) -> tuple[int, str, CommandResult]:
        """Seat a player: ``(seat, bearer token, result)``. Only SHA-256(token) is stored."""
        token = secrets.token_urlsafe(24)
        token_hash = hash_token(token)
        result = self.execute(table_id, TakeSeat(name=name, token_hash=token_hash, seat=seat))
        for recorded in result.events:
            event = recorded.event
            if isinstance(event, PlayerSeated) and event.token_hash == token_hash:
                return event.seat, token, result
        raise RuntimeError(f"table {table_id}: TakeSeat wrote no PlayerSeated for this token")

    def execute(
        self,
        table_id: UUID,
        command: Any,
        *,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
    ) -> CommandResult:
        """Decide ``command`` on the table and store its events (see the module docstring)."""
        if idempotency_key is not None and not (
            isinstance(idempotency_key, str) and 0 < len(idempotency_key) <= MAX_KEY_LENGTH
        ):
            raise InvalidRequest(f"idempotency key must be 1 to {MAX_KEY_LENGTH} characters")
        _check_id(table_id)
        started = datetime.now(UTC)
        key = keyed(idempotency_key, command, expected_version)
        with self._locks(table_id):
            cached = self._cache.get(table_id)
            if cached is not None:
                result = self._attempt(cached, command, expected_version, key, True)
                if result is not None:
                    return result
        return self._execute_fresh(table_id, command, expected_version, key, started)

    def _execute_fresh(
        self,
        table_id: UUID,
        command: Any,
        expected_version: int | None,
        key: tuple[str, str] | None,
        started: datetime,
    ) -> CommandResult:
        """The careful path: reload (fast-forward) before every attempt, retry lost races."""
        for attempt in range(MAX_ATTEMPTS):
            with self._locks(table_id):
                table = self._current(table_id)
                # A race is lost to a write stored after this command arrived; writes from
                # before it merely made our cache stale, and their outcome is not a conflict.
                raced = attempt > 0 or (table.last_at is not None and table.last_at >= started)
                try:
                    result = self._attempt(table, command, expected_version, key, False)
                except DomainError as error:
                    if not raced or isinstance(error, (InvalidRequest, IdempotencyKeyReused)):
                        raise
                    raise VersionConflict(
                        "the table changed while your command was being saved, and it is no "
                        f"longer legal: {error.message}"
                    ) from error
                if result is not None:
                    return result
            # Outside the lock: let the other writer's process finish, then retry.
            time.sleep(random.uniform(0, 0.002 * (attempt + 1)))
        raise VersionConflict(
            f"table {table_id} kept changing: gave up after {MAX_ATTEMPTS} attempts"
        )

    def _attempt(
        self,
        table: FoldedTable,
        command: Any,
        expected_version: int | None,
        key: tuple[str, str] | None,
        from_cache: bool,
    ) -> CommandResult | None:
        """Decide on ``table`` and save; ``None`` when the answer needs a fresher table.

        ``from_cache``: ``table`` was not fast-forwarded, so it may be stale (another process
        wrote). Only answers that stay right on a stale table are given then: a recorded
        idempotency key, or a save the store accepted at the next version — which proves the
        table was current. Anything else (a rejection, a version mismatch, a lost race) is
        re-decided on a fresh table.
        """
        if key is not None and (run := table.run_of(*key)) is not None:
            return self._first_result(table, run)
        if expected_version is not None and expected_version != table.version:
            if from_cache:
                return None
            raise VersionConflict(
                f"expected version {expected_version}, but the table is at version {table.version}"
            )
        try:
            events = table.game.decide(table.state, command)
        except DomainError:
            if from_cache:
                return None
            raise
        if not events:
            return CommandResult(table.table_id, table.version, 0, [])
        # Evolve before saving, so events the game cannot apply are never stored.
        envelopes = table.envelopes(events, key)
        folded = table.advanced(envelopes, stored=False)
        try:
            return self._save(table, folded, envelopes)
        except (IntegrityError, RecordConflictError):
            return None  # another writer took this version: reload and decide again

    # -- queries ----------------------------------------------------------------------------

    def get(self, table_id: UUID, version: int | None = None) -> LoadedTable:
        """The table now, or as of ``version`` (time travel). Raises :class:`TableNotFound`."""
        _check_id(table_id)
        if version is None:
            with self._locks(table_id):
                table = self._current(table_id)
            return LoadedTable(table.table_id, table.game, table.state, table.version)
        if isinstance(version, bool) or not isinstance(version, int) or version < 1:
            raise InvalidRequest(f"version must be a positive integer, not {version!r}")
        with self._locks(table_id):
            current = self._current(table_id)
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

    def seat_for_token(self, table_id: UUID, token: str) -> int | None:
        """The seat a bearer token belongs to, or ``None``.

        A seat, once taken, keeps its token for the table's life, so a seat found in the
        cached table is still right; only a miss needs the fresh table.
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
        if limit <= 0:
            return []  # SQLite reads a negative LIMIT as "no limit"
        rows = self._guarded(
            self.app.recorder.select_notifications, start=max(start, 1), limit=limit
        )
        return [self.decode_notification(row) for row in rows]

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

    def __enter__(self) -> TableStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- internals --------------------------------------------------------------------------

    def _current(self, table_id: UUID) -> FoldedTable:
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

    def _save(
        self, before: FoldedTable, after: FoldedTable, envelopes: list[StoredTableEvent]
    ) -> CommandResult:
        try:
            recordings = self.app.save(*envelopes)
        except (IntegrityError, RecordConflictError):
            raise
        except PersistenceError as error:
            raise StoreUnavailable(f"the event store did not answer: {error}") from error
        self._cache.put(after.saved(envelopes))
        for version, state in after.staged:
            if version % SNAPSHOT_EVERY == 0:
                take_snapshot(self.app, after, version, state, envelopes[-1].at)
        return CommandResult(
            table_id=before.table_id,
            version=after.version,
            position=recordings[-1].notification.id if recordings else 0,
            events=[RecordedEvent(e.originator_version, e.at, e.event) for e in envelopes],
        )

    def _first_result(self, table: FoldedTable, run: tuple[int, int]) -> CommandResult:
        first, last = run
        events = self.events(table.table_id, first, last)
        position = self._guarded(self.app.notification_position, table.table_id, last)
        return CommandResult(table.table_id, last, position, events)

    def _stored(
        self, table_id: UUID, *, gt: int | None = None, lte: int | None = None
    ) -> Iterator[StoredTableEvent]:
        _check_id(table_id)
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


def _check_id(table_id: Any) -> None:
    # Table ids are UUIDs; anything else (a string from a sloppy caller) names no table.
    if not isinstance(table_id, UUID):
        raise TableNotFound(f"no table {table_id!r}")
