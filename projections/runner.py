"""The projection runner: follows the notification log and keeps the read models in Redis.

Design §4 (exactly-once): each batch of notifications is evolved in memory with the
games' pure functions, then every read model (:mod:`projections.model`) adds its writes, and
the writes are committed **together with the new tracking position** in one Lua script
(:mod:`projections.tracking`). Hence:

* a crash anywhere (before, during or after the script) and a restart continue from the stored
  position and end with the same Redis contents as an uninterrupted run;
* two projectors at once never apply a batch twice: the script only commits on top of the
  position the batch started from; the loser forgets its memory and reloads from the store;
* read models hold only what the events say (no clock, no run-dependent data), and views are
  full overwrites, so ``rebuild()`` — flush, replay from position 0 — reproduces the same keys
  and values whatever the batch boundaries were.

**Shards** (docs/scaling.md): ``Projector(..., shard=i, shards=n)`` reads the whole log but
projects only the tables :func:`~projections.keys.shard_of` puts in shard ``i``; its position
(``{p}shard:{<i>}:position``) is the last log position it has *examined*, so every shard keeps
up with the log head even when none of its tables moves. The lobby and the counters are per
shard parts, merged on read. ``n`` projectors together write exactly the keys one writes,
except that the cross-table read models are split into ``n`` parts.

The read models, in the order they write: the spectators' view and each seat's view
(:mod:`projections.views`), the ledger (:mod:`projections.ledger`), the lobby
(:mod:`projections.lobby`), the counters (:mod:`projections.analytics`) and the player
statistics and game totals (:mod:`projections.players`). Within a batch each
table's values are written once, for its state at the end of the batch.
"""

from __future__ import annotations

import gc
import logging
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, cast
from uuid import UUID

import redis

from domain.table import TableOpened
from domain.tournament.embargo import releases, shows
from projections.accountstats import AccountStats
from projections.analytics import Analytics
from projections.keys import Keys, shard_of
from projections.ledger import Ledger
from projections.lobby import Lobby
from projections.model import Outcome, ReadModel
from projections.players import GameTotals, PlayerStats
from projections.ratings import Ratings
from projections.table_projection import (
    EventSource,
    NotificationLike,
    ProjectionError,
    ReleaseSource,
    TableProjection,
    event_error,
)
from projections.tournaments import Tournaments
from projections.tracking import Batch, Tracking, parse_position
from projections.views import PublicView, SeatViews
from projections.wakeup import wakeup_for

log = logging.getLogger(__name__)

# Tables kept in memory; the least recently active are dropped (and reloaded when they move).
DEFAULT_TABLE_CACHE = 10_000
# A rebuild's fence expires if the rebuilding process dies; it is renewed while flushing.
_FENCE_TTL_MS = 600_000
_UNLINK_CHUNK = 500
_SCAN_COUNT = 10_000  # keys SCAN examines per round trip while a rebuild flushes
# Rebuild batches are larger: fewer view computations per table and fewer round trips.
_REBUILD_BATCH = 10_000
# The first idle poll after a batch (seconds); doubles up to the caller's poll interval.
_QUICK_POLL = 0.002


class Projector:
    """Projects ``store``'s notification log into Redis under ``prefix``.

    ``run_once`` is safe to call from one thread at a time per instance (a lock guards it);
    run several instances (processes) at once and the tracking position keeps them honest.
    """

    def __init__(
        self,
        store: EventSource,
        redis: redis.Redis,
        prefix: str,
        *,
        table_cache: int = DEFAULT_TABLE_CACHE,
        shard: int = 0,
        shards: int = 1,
        split: bool | None = None,
    ) -> None:
        self._store = store
        self._redis = redis
        self.keys = Keys(prefix, shard, shards)
        self._tracking = Tracking(redis, self.keys, split=split)
        self.models: tuple[ReadModel, ...] = (
            PublicView(redis, self.keys),
            SeatViews(redis, self.keys),
            Ledger(redis, self.keys),
            Lobby(redis, self.keys),
            Analytics(redis, self.keys),
            PlayerStats(redis, self.keys),
            GameTotals(redis, self.keys),
            Ratings(redis, self.keys),
            AccountStats(redis, self.keys),
            Tournaments(redis, self.keys),
        )
        self._tables: OrderedDict[UUID, TableProjection] = OrderedDict()
        self._table_cache = max(1, table_cache)
        self._position: str | None = None  # the stored position this instance last saw
        self._shards_seen: dict[UUID, bool] = {}  # table -> whether it is this shard's
        self._lock = threading.RLock()

    # -- the contract ------------------------------------------------------------------------
    def run_once(self, limit: int = 500) -> int:
        """Project the next batch (at most ``limit`` notifications); returns how many."""
        with self._lock:
            expected = self._expected_position()
            if expected is None:  # a rebuild is flushing the read models: wait for it
                return 0
            notifications, last, examined = self._read(int(expected) + 1, limit)
            if not examined:
                return 0
            try:
                batch, outcome = self._project(notifications)
                result = self._tracking.commit(batch, expected, str(last))
            except BaseException:
                # Memory may now be ahead of Redis: forget it, the store has everything.
                self._forget()
                raise
            if not result.committed:
                log.info(
                    "another projector moved the position to %s; resynchronising", result.position
                )
                self._forget()
                return 0
            self._position = result.position
            self._evict(outcome.tables)
            return examined

    def run_forever(self, stop: threading.Event, poll_interval: float = 0.05) -> None:
        """Project until ``stop`` is set: batches back to back, then wait for a store write
        (LISTEN on PostgreSQL, the write-ahead log's writes on SQLite: :mod:`projections.wakeup`)
        or the next poll. Errors (Redis or the store away) are logged and retried with backoff.

        Polling starts quick after the last batch (or a write) and slows to ``poll_interval``
        while the log stays quiet: low lag under load, cheap when idle.
        """
        wakeup = wakeup_for(self._store)
        backoff = poll_interval
        idle = _QUICK_POLL
        try:
            while not stop.is_set():
                try:
                    processed = self.run_once()
                except Exception:
                    log.exception("projection batch failed; retrying in %.2fs", backoff)
                    stop.wait(backoff)
                    backoff = min(max(backoff, 0.01) * 2, 5.0)
                    continue
                backoff = poll_interval
                if processed:
                    idle = _QUICK_POLL
                    continue
                if wakeup.wait(stop, min(idle, poll_interval)):
                    idle = _QUICK_POLL  # a SQLite write's commit may land a moment later
                else:
                    idle *= 2
        finally:
            wakeup.close()

    def rebuild(self) -> int:
        """Clear the read models and replay from position 0; returns the events projected.

        The position is fenced while the keys are flushed, so no projector writes into a
        half-flushed read side; afterwards the replay is an ordinary run from 0 (a live
        projector may share the work — the tracking position keeps it exactly-once). Readers
        find views missing until the replay reaches their table: a maintenance operation.
        """
        with self._lock:
            fence = self._tracking.fence(uuid.uuid4().hex, ttl_ms=_FENCE_TTL_MS)
            self._forget()
            self._flush(fence)
            if not self._tracking.release(fence):
                raise ProjectionError("another rebuild replaced this rebuild's fence; run it again")
            # Released: the position and every read model are empty now (a projector that
            # commits first makes our first commit fail, and we resynchronise as ever).
            self._position = "0"
            for model in self.models:
                model.flushed()
            target = self._store.max_position()
            processed = 0
            while True:
                with _collection_deferred():
                    count = self.run_once(limit=_REBUILD_BATCH)
                processed += count
                if count and self._position is not None and int(self._position) >= target:
                    return processed  # our own commit reached the target: no look to confirm
                reached = self.position()
                if count == 0 and reached >= target:
                    return processed
                if count == 0 and reached < target and self._expected_position() is None:
                    time.sleep(0.01)  # someone else is rebuilding; let them finish

    def position(self) -> int:
        """The stored position (0 when none or fenced)."""
        return parse_position(self._tracking.stored_position()) or 0

    # -- projecting a batch ------------------------------------------------------------------
    def _read(self, start: int, limit: int) -> tuple[Sequence[NotificationLike], int, int]:
        """The next ``limit`` notifications from ``start`` that are this shard's tables', the
        last position examined and how many were examined. With several shards, a store that
        can (``TableStore.notifications_of``) leaves the other shards' events undecoded."""
        keep = None if self.keys.shards == 1 else self._shard_keeps
        read_of = getattr(self._store, "notifications_of", None)
        if keep is not None and read_of is not None:
            found: tuple[Sequence[NotificationLike], int, int] = read_of(start, limit, keep)
            return found
        notifications = self._store.notifications(start, limit)
        if not notifications:
            return [], 0, 0
        last, examined = notifications[-1].position, len(notifications)
        if keep is not None:
            notifications = [note for note in notifications if keep(note.table_id)]
        return notifications, last, examined

    def _shard_keeps(self, table_id: UUID) -> bool:
        """Whether ``table_id`` is one of this shard's tables (remembered per table)."""
        mine = self._shards_seen.get(table_id)
        if mine is None:
            if len(self._shards_seen) >= self._table_cache:
                self._shards_seen.clear()
            mine = self._shards_seen[table_id] = (
                shard_of(table_id, self.keys.shards) == self.keys.shard
            )
        return mine

    def _project(self, notifications: Sequence[NotificationLike]) -> tuple[Batch, Outcome]:
        """The batch of writes for ``notifications``: evolve their tables (each table's events
        folded in one go), then ask each read model for its writes (each table's once, for its
        state at the end of the batch)."""
        outcome = Outcome()
        runs: dict[UUID, list[NotificationLike]] = {}
        notes: list[NotificationLike] = []
        previous: UUID | None = None
        for note in notifications:
            # A command's events are consecutive: look the table up only when it changes (the
            # log reader hands out one UUID object per table, so ``is`` mostly decides).
            table_id = note.table_id
            if table_id is not previous and table_id != previous:
                found = runs.get(table_id)
                if found is None:
                    found = runs[table_id] = []
                notes, previous = found, table_id
            notes.append(note)
        for table_id, run in runs.items():
            table = self._tables.get(table_id)
            index = 0
            while index < len(run):  # a gap in versions: the table is loaded afresh
                table = self._advance(run[index], table)
                index = table.fold(run, index + 1)
            assert table is not None
            self._tables.move_to_end(table_id)  # most recently active last (eviction)
            outcome.tables.append(table)
            outcome.runs.append((table, run))
        batch = Batch()
        public = withheld_out(outcome, self._released_runs)
        for model in self.models:
            model.write(batch, outcome if model.sees_withheld else public)
        for table in outcome.tables:  # each table's keys: only over an older version
            batch.guard(self.keys.table_version(table.table_id), table.version)
        return batch, outcome

    def _released_runs(self, table: TableProjection, run: list[NotificationLike]) -> list[Any]:
        """A board table's whole log up to its ``BoardReleased`` (in ``run``), read from the
        store: what the read models that must not see it before take in at that event."""
        store = cast(ReleaseSource, self._store)
        return list(store.table_notifications(table.table_id, 1, table.version))

    def _advance(self, note: NotificationLike, table: TableProjection | None) -> TableProjection:
        """The table after ``note``'s event: evolved in memory, or loaded from the store."""
        try:
            if table is not None and table.version == note.version - 1:
                table.fold((note,))
                return table
            if note.version == 1 and isinstance(note.event, TableOpened):
                table = TableProjection.opened(note.table_id, note.event, getattr(note, "at", None))
                table.last_at = getattr(note, "at", None)
            else:
                table = TableProjection.load(self._store, note.table_id, note.version)
        except ProjectionError:
            raise
        except Exception as error:  # name the event an operator must look at
            raise event_error(note, error) from error
        self._tables[note.table_id] = table
        return table

    # -- memory and resynchronisation ------------------------------------------------------------
    def _expected_position(self) -> str | None:
        if self._position is None:
            stored = self._tracking.stored_position()
            parsed = parse_position(stored)
            if parsed is None:
                return None
            self._position = str(parsed)
        return self._position

    def _forget(self) -> None:
        self._tables.clear()
        self._position = None
        for model in self.models:
            model.forget()

    def _evict(self, touched: list[TableProjection]) -> None:
        """Drop ended tables (no event follows ``TableEnded``) and the least recently active
        beyond the cache size; a dropped table that moves again is loaded from the store."""
        for table in touched:
            if table.ended:
                self._tables.pop(table.table_id, None)
        while len(self._tables) > self._table_cache:
            self._tables.popitem(last=False)

    def _flush(self, fence: str) -> None:
        """Delete every read model's keys of this shard (not the fenced position): its parts
        first (a dead rebuild's expired fence then replays onto empty counters), then its
        tables' keys — with one shard every key under the table pattern."""
        fixed = [key for model in self.models for key in model.flush_keys()]
        self._redis.delete(*fixed)
        patterns = dict.fromkeys(
            pattern for model in self.models for pattern in model.flush_patterns()
        )
        for pattern in patterns:  # each distinct pattern once (table keys share one)
            chunk: list[Any] = []
            for key in self._redis.scan_iter(match=pattern, count=_SCAN_COUNT):
                if not self._mine(key):
                    continue
                chunk.append(key)
                if len(chunk) >= _UNLINK_CHUNK:
                    if not self._tracking.renew(fence, ttl_ms=_FENCE_TTL_MS):
                        raise ProjectionError("another rebuild took over; this one stopped")
                    self._redis.unlink(*chunk)
                    chunk.clear()
            if chunk:
                self._redis.unlink(*chunk)

    def _mine(self, key: bytes | str) -> bool:
        """Whether a rebuild of this shard deletes ``key`` (with one shard: every key)."""
        if self.keys.shards == 1:
            return True
        table_id = self.keys.table_of(key)
        return table_id is not None and shard_of(table_id, self.keys.shards) == self.keys.shard


@contextmanager
def _collection_deferred() -> Iterator[None]:
    """The cyclic garbage collector paused for one rebuild batch: the batch allocates states
    by the ten thousand and frees them without cycles, so the collector's passes over them
    are wasted work; it runs (if it was on) once the batch is committed."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def drop_other_shards(client: redis.Redis, prefix: str, shards: int) -> int:
    """Delete the positions and parts of shards numbered ``shards`` or more (left by a
    deployment that ran more shards before: docs/scaling.md); returns how many keys."""
    keys = Keys(prefix, 0, shards)
    stale = [
        key
        for key in client.scan_iter(match=keys.shard_pattern(), count=1000)
        if (keys.shard_of_key(key) or 0) >= shards
    ]
    if stale:
        client.delete(*stale)
    return len(stale)


def withheld_out(
    outcome: Outcome,
    history: Callable[[TableProjection, list[NotificationLike]], list[Any]],
) -> Outcome:
    """``outcome`` as the read models that must not see a tournament's board tables before
    they open (``ReadModel.sees_withheld``; design §10) see it: a board table is left out,
    unless its run holds its ``BoardReleased`` (:func:`domain.tournament.embargo.shows`); then
    its run is its whole log up to that event (``history``), as if the table had played all
    of it in this batch — live and in a rebuild alike, so the read models come out the same."""
    if not any(table.withheld for table in outcome.tables):
        return outcome
    public = Outcome()
    for table, run in outcome.runs:
        if not table.withheld:
            public.tables.append(table)
            public.runs.append((table, run))
        elif shows(table.withheld, any(releases(note.event) for note in run)):
            public.tables.append(table)
            public.runs.append((table, history(table, run)))
    return public
