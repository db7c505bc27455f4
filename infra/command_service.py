"""The write side's command service: open a table, take a seat, run a command (design §3).

:class:`TableCommands` decides commands with the game's ``decision`` (the events and the state
after them, so each event is evolved once on the write path) and stores the new events through
:class:`infra.store.TableStore` with optimistic concurrency: the store's unique (table,
version) key refuses a write that raced another. Such a conflict is retried after reloading
while the command is still legal (bounded); otherwise it is a :class:`VersionConflict`. Domain
errors propagate unchanged and write nothing. A command's first attempt trusts the cache
without re-reading the table: if another process wrote meanwhile, the save is refused and the
command is re-decided on the fresh table, so a stale cache costs a retry, never a wrong answer.
Commands for different tables are decided in parallel and their saves share a transaction
(group commit, :mod:`infra.groupcommit`); a command is answered once its events are stored.

Idempotency: a command's idempotency key and fingerprint are stored with each event it wrote.
A retried key (same table) returns the first command's result and writes nothing — after a
restart too, and across API processes, since the key index is rebuilt from the events when a
table is loaded; the key sent with a different command is :class:`IdempotencyKeyReused`.

Randomness for deals is drawn here (``secrets``) and handed to the domain as data (the
table's ``secret`` and ``seed``); seat tokens are drawn here and only their SHA-256 is stored.
"""

from __future__ import annotations

import functools
import random
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, Protocol
from uuid import UUID, uuid4

from eventsourcing.persistence import IntegrityError, RecordConflictError

from domain.errors import DomainError, InvalidOption
from domain.games import game_named
from domain.table import AbandonTable, OpenTable, PlayerSeated, TakeSeat, hash_token
from domain.table.deck import SECRET_BITS
from infra.errors import (
    IdempotencyKeyReused,
    InvalidRequest,
    StackedDecksNotAllowed,
    VersionConflict,
)
from infra.results import CommandResult
from infra.settings import Settings
from infra.table_cache import FoldedTable, TableLocks
from infra.transcoder import StoredTableEvent, keyed


class Tables(Protocol):
    """What the command service needs of the store (:class:`infra.store.TableStore`, which
    builds the service over itself as ``store.commands``)."""

    settings: Settings
    locked: TableLocks  # one writer per table: held while a command is decided and saved

    def cached(self, table_id: UUID) -> FoldedTable | None:
        """The table as this process last knew it (maybe stale), without reading the store."""

    def current(self, table_id: UUID) -> FoldedTable:
        """The table now: cached and fast-forwarded, or folded from all its events."""

    def save(
        self, before: FoldedTable, after: FoldedTable, envelopes: list[StoredTableEvent]
    ) -> CommandResult:
        """Store one command's events in one transaction."""

    def save_many(
        self, saves: list[tuple[FoldedTable, FoldedTable, list[StoredTableEvent]]]
    ) -> list[CommandResult | Exception]:
        """Store several commands' events in one transaction."""

    def first_result(self, table: FoldedTable, run: tuple[int, int]) -> CommandResult:
        """The answer the command that wrote versions ``run`` got (an idempotent retry)."""

    def check_id(self, table_id: Any) -> None:
        """Refuse a table id that is no UUID (``TableNotFound``)."""


MAX_ATTEMPTS = 8  # one try plus retries after concurrent writes
MAX_KEY_LENGTH = 200


class TableCommands:
    """Commands on the tables of ``store``. Thread-safe; all calls block."""

    def __init__(self, store: Tables) -> None:
        self.store = store

    def create_table(
        self,
        game: str,
        options: Mapping[str, Any],
        *,
        seed: int | None = None,
        decks: list[list[str]] | None = None,
        tournament: bool = False,
        table_id: UUID | None = None,
    ) -> CommandResult:
        """Open a table. Its secret (the key of every shuffle and salt, design §2 "Fair
        deals") is drawn here with ``secrets``; a given ``seed`` or ``decks`` fix the deals
        (the API accepts them only where the server allows fixed deals), otherwise the seed
        is drawn too. ``tournament``: a tournament's process manager opens it, with the
        ``tournament`` option and the boards the server drew (design §10); nobody else may."""
        rules = game_named(game)
        if not isinstance(options, Mapping):
            raise InvalidOption("options", "must be an object")
        if "tournament" in options and not tournament:
            raise InvalidOption("tournament", "is set only by a tournament's own tables")
        if decks is not None and not isinstance(decks, list):
            raise InvalidOption("decks", "must be a list of decks")
        if decks and not tournament and not self.store.settings.allow_stacked_decks:
            raise StackedDecksNotAllowed(
                "stacked decks are disabled on this server (CARDROOM_ALLOW_STACKED_DECKS)"
            )
        fixed = seed is not None or bool(decks)
        if seed is None:
            seed = secrets.randbits(63)  # the kernel checks a given seed (domain.table.deck)
        command = OpenTable(
            game=game,
            options=dict(options),
            seed=seed,
            decks=list(decks or []),
            secret=secrets.token_hex(SECRET_BITS // 8),
            fixed_deals=fixed,
        )
        events, state = rules.decision(None, command)
        table = FoldedTable(table_id or uuid4(), rules, None, 0)
        envelopes = table.envelopes(events, None)
        with self.store.locked(table.table_id):
            return self.store.save(table, table.decided(envelopes, state), envelopes)

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

    def abandon(self, table_id: UUID, limit_seconds: float, now: datetime) -> CommandResult:
        """Issue ``abandon_table`` for a table waiting for players: how long it has waited is
        ``now`` less the stored time of its last event; the kernel decides. The command holds
        at the version it was measured at (a seat taken meanwhile is a conflict), and its
        idempotency key is the table's, so two sweepers never end a table twice."""
        with self.store.locked(table_id):
            table = self.store.current(table_id)
        last_at = table.last_at or now
        idle = max(0.0, (now - last_at).total_seconds())
        command = AbandonTable(idle_seconds=idle, limit_seconds=limit_seconds)
        key = f"abandon:{table_id}:{table.version}"
        return self.execute(table_id, command, expected_version=table.version, idempotency_key=key)

    def execute(
        self,
        table_id: UUID,
        command: Any,
        *,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
    ) -> CommandResult:
        """Decide ``command`` on the table and store its events (see the module docstring)."""
        self._check_key(idempotency_key)
        self.store.check_id(table_id)
        started = datetime.now(UTC)
        key = keyed(idempotency_key, command, expected_version)
        with self.store.locked(table_id):
            cached = self.store.cached(table_id)
            if cached is not None:
                result = self._attempt(cached, command, expected_version, key, True)
                if result is not None:
                    return result
        return self._execute_fresh(table_id, command, expected_version, key, started)

    @staticmethod
    def _check_key(idempotency_key: str | None) -> None:
        if idempotency_key is not None and not (
            isinstance(idempotency_key, str) and 0 < len(idempotency_key) <= MAX_KEY_LENGTH
        ):
            raise InvalidRequest(
                f"idempotency key must be 1 to {MAX_KEY_LENGTH} characters",
                field="Idempotency-Key",
            )

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
            with self.store.locked(table_id):
                table = self.store.current(table_id)
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

    def execute_many(
        self, requests: Sequence[tuple[UUID, Any, int | None, str | None]]
    ) -> list[CommandResult | Exception | Callable[[], CommandResult]]:
        """:meth:`execute` for several commands (``(table_id, command, expected_version,
        idempotency_key)``), their saves in one transaction: one thread decides them all on
        their cached tables, then waits once for the write (the command lane,
        :mod:`api.commandlane`). Each command's outcome, in order: its result, the error
        :meth:`execute` would raise, or — where the cached table cannot answer (not cached,
        stale, a lost race) or another thread holds the table's lock — the rest of
        :meth:`execute`'s work as a call to run elsewhere, so the batch never waits for it.
        """
        outcomes: list[CommandResult | Exception | Callable[[], CommandResult] | None]
        outcomes = [None] * len(requests)
        held: list[Any] = []
        saving: list[tuple[int, Callable[[], CommandResult]]] = []
        saves: list[tuple[FoldedTable, FoldedTable, list[StoredTableEvent]]] = []
        try:
            for i, (table_id, command, expected_version, idempotency_key) in enumerate(requests):
                lock = self.store.locked(table_id) if isinstance(table_id, UUID) else None
                if lock is None or not lock.acquire(blocking=False):  # busy, or not an id
                    outcomes[i] = functools.partial(
                        self.execute,
                        table_id,
                        command,
                        expected_version=expected_version,
                        idempotency_key=idempotency_key,
                    )
                    continue
                held.append(lock)
                try:
                    self._check_key(idempotency_key)
                    started = datetime.now(UTC)
                    key = keyed(idempotency_key, command, expected_version)
                    rest = functools.partial(
                        self._execute_fresh, table_id, command, expected_version, key, started
                    )
                    cached = self.store.cached(table_id)
                    decided = (
                        None
                        if cached is None
                        else self._decide(cached, command, expected_version, key, True)
                    )
                except Exception as error:
                    outcomes[i] = error
                    continue
                if isinstance(decided, tuple):
                    saving.append((i, rest))
                    saves.append(decided)
                else:
                    outcomes[i] = rest if decided is None else decided
            if saves:
                for (i, later), saved in zip(saving, self.store.save_many(saves), strict=True):
                    lost = isinstance(saved, (IntegrityError, RecordConflictError))
                    outcomes[i] = later if lost else saved
        finally:
            for lock in held:
                lock.release()
        assert all(outcome is not None for outcome in outcomes)
        return outcomes  # type: ignore[return-value]

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
        decided = self._decide(table, command, expected_version, key, from_cache)
        if not isinstance(decided, tuple):
            return decided
        try:
            return self.store.save(*decided)
        except (IntegrityError, RecordConflictError):
            return None  # another writer took this version: reload and decide again

    def _decide(
        self,
        table: FoldedTable,
        command: Any,
        expected_version: int | None,
        key: tuple[str, str] | None,
        from_cache: bool,
    ) -> CommandResult | tuple[FoldedTable, FoldedTable, list[StoredTableEvent]] | None:
        """:meth:`_attempt` up to the save: its answer when no write is needed, ``None``
        when it needs a fresher table, else what to save (before, after, envelopes)."""
        if key is not None and (run := table.run_of(*key)) is not None:
            return self.store.first_result(table, run)
        if expected_version is not None and expected_version != table.version:
            if from_cache:
                return None
            raise VersionConflict(
                f"expected version {expected_version}, but the table is at version {table.version}"
            )
        try:
            # The state after the events comes with them: events the game cannot apply are
            # never stored, and none is evolved a second time.
            events, state = table.game.decision(table.state, command)
        except DomainError:
            if from_cache:
                return None
            raise
        if not events:
            return CommandResult(table.table_id, table.version, 0, [])
        envelopes = table.envelopes(events, key)
        return table, table.decided(envelopes, state), envelopes
