"""A table as this process knows it: the fold of its events, and a cache of recent tables.

Loading a table is ``functools.reduce(game.evolve, events, None)``. To keep command latency
independent of a table's history (design §3) each process caches the folded state of recent
tables. Reads *fast-forward* a cached table with the events stored after its version (one
indexed query that usually returns nothing), so they see other processes' writes. A command's
first attempt trusts the cache as it is: if another process wrote meanwhile, the store's unique
(table, version) key refuses the save and the store re-decides on a fast-forwarded table. A
stale cache therefore costs a retry, never a wrong answer.

Idempotency keys are indexed as events are folded: each stored event carries the key of the
command that produced it, so a restarted process (or another API replica) rebuilds the index
from the events themselves (or from a snapshot, :mod:`infra.snapshots`). Each key's command
fingerprint is indexed with it, so the key reused for another command is told apart. The
hand index (:mod:`infra.hands`) is kept the same way. About every ``CHECKPOINT_EVERY``
versions the folded state is kept, so time travel folds forward from the nearest checkpoint
instead of from the first event.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from domain.game import Game
from domain.games import game_named
from domain.table import TableOpened
from infra.errors import IdempotencyKeyReused
from infra.hands import HandIndex
from infra.transcoder import StoredTableEvent

DEFAULT_CACHE_SIZE = 4096  # tables kept folded in memory per process
CHECKPOINT_EVERY = 256  # versions between the in-memory states kept for time travel


class CorruptTable(RuntimeError):
    """Stored events that cannot be a table (e.g. the first is not ``TableOpened``)."""


@dataclass(frozen=True)
class FoldedTable:
    """The state of one table at one version, plus its indexes and checkpoints.

    ``commands``, ``fingerprints``, ``hands`` and ``checkpoints`` are shared by the successive
    FoldedTables of one table and only ever grow with facts that are *stored*:
    :meth:`advanced` on events read from the store records them at once; a command's new
    events (:meth:`decided`, or :meth:`advanced` with ``stored=False``) are staged, and
    :meth:`saved` records them once the store has accepted the events. An older FoldedTable
    seeing newer keys, hands or checkpoints is harmless: they describe the same history.
    """

    table_id: UUID
    game: Game
    state: Any
    version: int
    # idempotency key -> (first version, last version) of the events its command wrote.
    commands: dict[str, tuple[int, int]] = field(default_factory=dict, compare=False)
    last_at: datetime | None = None  # when the event at ``version`` was stored
    # version -> state, about every CHECKPOINT_EVERY versions: time travel folds from the
    # nearest at or before the version asked for.
    checkpoints: dict[int, Any] = field(default_factory=dict, compare=False, repr=False)
    staged: tuple[tuple[int, Any], ...] = field(default=(), compare=False, repr=False)
    # idempotency key -> fingerprint of its command (keys stored before fingerprints: none).
    fingerprints: dict[str, str] = field(default_factory=dict, compare=False, repr=False)
    # where each hand started, was dealt and settled (:mod:`infra.hands`).
    hands: HandIndex = field(default_factory=HandIndex, compare=False, repr=False)

    def advanced(
        self, envelopes: Iterable[StoredTableEvent], *, stored: bool = True
    ) -> FoldedTable:
        """This table after further events (which must follow on from ``version``)."""
        state, version, last_at = self.state, self.version, self.last_at
        evolve = self.game.evolve
        staged: list[tuple[int, Any]] = []
        for envelope in envelopes:
            if envelope.originator_version != version + 1:
                raise CorruptTable(
                    f"table {self.table_id}: expected version {version + 1}, "
                    f"got {envelope.originator_version}"
                )
            state = evolve(state, envelope.event)
            version, last_at = envelope.originator_version, envelope.at
            if version % CHECKPOINT_EVERY == 0:
                staged.append((version, state))
            if stored:
                self._index(envelope)
        if version == self.version:
            return self
        if stored:
            self.checkpoints.update(staged)
            staged = []
        return self._at(state, version, last_at, tuple(staged))

    def decided(self, envelopes: list[StoredTableEvent], state: Any) -> FoldedTable:
        """This table after a command's new ``envelopes``, whose state the game's
        ``decision`` has already evolved (each event is evolved once on the write path).

        A command that crosses a ``CHECKPOINT_EVERY`` boundary stages a checkpoint at the
        version it reaches; :meth:`saved` keeps it once the events are stored.
        """
        if not envelopes:
            return self
        last = envelopes[-1]
        version = last.originator_version
        crossed = version // CHECKPOINT_EVERY > self.version // CHECKPOINT_EVERY
        return self._at(state, version, last.at, ((version, state),) if crossed else ())

    def saved(self, envelopes: Iterable[StoredTableEvent]) -> FoldedTable:
        """Record the keys, hands and checkpoints of events the store has just accepted."""
        for envelope in envelopes:
            self._index(envelope)
        self.checkpoints.update(self.staged)
        return self._at(self.state, self.version, self.last_at, ())

    def _at(
        self, state: Any, version: int, last_at: datetime | None, staged: tuple[Any, ...]
    ) -> FoldedTable:
        return FoldedTable(
            self.table_id,
            self.game,
            state,
            version,
            self.commands,
            last_at,
            self.checkpoints,
            staged,
            self.fingerprints,
            self.hands,
        )

    def _index(self, envelope: StoredTableEvent) -> None:
        _index_key(self.commands, self.fingerprints, envelope)
        self.hands.record(self.game, envelope.originator_version, envelope.event)

    def envelopes(self, events: list[Any], key: tuple[str, str] | None) -> list[StoredTableEvent]:
        """New ``events`` wrapped to follow on from this version, stamped now, carrying the
        command's idempotency key and fingerprint (:func:`infra.transcoder.keyed`)."""
        at = datetime.now(UTC)
        name, fingerprint = key if key is not None else (None, None)
        return [
            StoredTableEvent(self.table_id, self.version + i, at, event, name, fingerprint)
            for i, event in enumerate(events, start=1)
        ]

    def run_of(self, key: str, fingerprint: str) -> tuple[int, int] | None:
        """The (first, last) versions the command with idempotency ``key`` wrote, or ``None``
        for a new key. Raises :class:`IdempotencyKeyReused` when the key was stored with
        another command's fingerprint; a key stored before fingerprints existed has none and
        answers as it always did."""
        run = self.commands.get(key)
        if run is not None and self.fingerprints.get(key, fingerprint) != fingerprint:
            raise IdempotencyKeyReused(key)
        return run

    def nearest_checkpoint(self, version: int) -> tuple[int, Any] | None:
        """The latest checkpoint at or before ``version``, if this table has one."""
        at = max((v for v in list(self.checkpoints) if v <= version), default=None)
        return None if at is None else (at, self.checkpoints[at])


def fold_table(table_id: UUID, envelopes: Iterable[StoredTableEvent]) -> FoldedTable | None:
    """The table from its first event on, or ``None`` when it has no events."""
    iterator = iter(envelopes)
    first = next(iterator, None)
    if first is None:
        return None
    opened = first.event
    if first.originator_version != 1 or not isinstance(opened, TableOpened):
        raise CorruptTable(f"table {table_id} does not start with TableOpened at version 1")
    game = game_named(opened.game)
    table = FoldedTable(table_id, game, game.evolve(None, opened), 1, last_at=first.at)
    table._index(first)
    return table.advanced(iterator)


def _index_key(
    commands: dict[str, tuple[int, int]],
    fingerprints: dict[str, str],
    envelope: StoredTableEvent,
) -> None:
    key = envelope.command_key
    if key is None:
        return
    version = envelope.originator_version
    first = commands.get(key, (version, version))[0]
    commands[key] = (first, version)
    if envelope.command_fingerprint is not None:
        fingerprints[key] = envelope.command_fingerprint


class TableCache:
    """A thread-safe LRU of :class:`FoldedTable` by table id."""

    def __init__(self, maxsize: int = DEFAULT_CACHE_SIZE) -> None:
        self._maxsize = maxsize
        self._tables: OrderedDict[UUID, FoldedTable] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, table_id: UUID) -> FoldedTable | None:
        with self._lock:
            table = self._tables.get(table_id)
            if table is not None:
                self._tables.move_to_end(table_id)
            return table

    def put(self, table: FoldedTable) -> None:
        if self._maxsize <= 0:
            return
        with self._lock:
            current = self._tables.get(table.table_id)
            # Two threads may fast-forward concurrently; never replace a newer state.
            if current is None or current.version <= table.version:
                self._tables[table.table_id] = table
                self._tables.move_to_end(table.table_id)
            while len(self._tables) > self._maxsize:
                self._tables.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._tables.clear()


class TableLocks:
    """Striped locks so one process runs one command at a time per table.

    Not needed for correctness (the store's version key is), but it turns same-process races
    into a queue instead of conflicts and retries.
    """

    def __init__(self, stripes: int = 256) -> None:
        self._locks = [threading.Lock() for _ in range(stripes)]

    def __call__(self, table_id: UUID) -> threading.Lock:
        return self._locks[table_id.int % len(self._locks)]
