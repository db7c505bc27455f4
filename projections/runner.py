"""The projection runner: follows the notification log and keeps the read models in Redis.

Design §4 (exactly-once): each batch of notifications is evolved in memory with the
games' pure functions, and the resulting read-model writes are committed **together with the
new tracking position** in one Lua script (:mod:`projections.tracking`). Hence:

* a crash anywhere (before, during or after the script) and a restart continue from the stored
  position and end with the same Redis contents as an uninterrupted run;
* two projectors at once never apply a batch twice: the script only commits on top of the
  position the batch started from; the loser forgets its memory and reloads from the store;
* read models hold only what the events say (no clock, no run-dependent data), and views are
  full overwrites, so ``rebuild()`` — flush, replay from position 0 — reproduces the same keys
  and values whatever the batch boundaries were.

Within a batch each table's views are written once, for its state at the end of the batch.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any
from uuid import UUID

import msgspec
import redis

from domain.game import Viewer
from domain.table import TableEnded, TableOpened
from projections.keys import ALL_GAMES, Keys
from projections.tables import EventSource, NotificationLike, ProjectionError, TableProjection
from projections.tracking import Batch, Tracking, parse_position
from projections.wakeup import wakeup_for

log = logging.getLogger(__name__)

_encode = msgspec.json.Encoder(order="deterministic").encode

# Tables kept in memory; the least recently active are dropped (and reloaded when they move).
DEFAULT_TABLE_CACHE = 10_000
# A rebuild's fence expires if the rebuilding process dies; it is renewed while flushing.
_FENCE_TTL_MS = 600_000
_UNLINK_CHUNK = 500
# Rebuild batches are larger: fewer view computations per table and fewer round trips.
_REBUILD_BATCH = 2_000
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
    ) -> None:
        self._store = store
        self._redis = redis
        self.keys = Keys(prefix)
        self._tracking = Tracking(redis, self.keys)
        self._tables: OrderedDict[UUID, TableProjection] = OrderedDict()
        self._table_cache = max(1, table_cache)
        self._position: str | None = None  # the stored position this instance last saw
        self._lock = threading.RLock()

    # -- the contract ------------------------------------------------------------------------
    def run_once(self, limit: int = 500) -> int:
        """Project the next batch (at most ``limit`` notifications); returns how many."""
        with self._lock:
            expected = self._expected_position()
            if expected is None:  # a rebuild is flushing the read models: wait for it
                return 0
            notifications = self._store.notifications(int(expected) + 1, limit)
            if not notifications:
                return 0
            try:
                batch, touched = self._project(notifications)
                result = self._tracking.commit(batch, expected, str(notifications[-1].position))
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
            self._evict(touched)
            return len(notifications)

    def run_forever(self, stop: threading.Event, poll_interval: float = 0.05) -> None:
        """Project until ``stop`` is set: batches back to back, then poll (or LISTEN on
        PostgreSQL). Errors (Redis or the store away) are logged and retried with backoff.

        Polling starts quick after the last batch and slows to ``poll_interval`` while the log
        stays quiet: low lag under load, cheap when idle.
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
                wakeup.wait(stop, min(idle, poll_interval))
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
            target = self._store.max_position()
            processed = 0
            while True:
                count = self.run_once(limit=_REBUILD_BATCH)
                processed += count
                reached = self.position()
                if count == 0 and reached >= target:
                    return processed
                if count == 0 and reached < target and self._expected_position() is None:
                    time.sleep(0.01)  # someone else is rebuilding; let them finish

    def position(self) -> int:
        """The stored position (0 when none or fenced)."""
        return parse_position(self._tracking.stored_position()) or 0

    # -- projecting a batch ------------------------------------------------------------------
    def _project(
        self, notifications: Sequence[NotificationLike]
    ) -> tuple[Batch, list[TableProjection]]:
        """The batch of writes for ``notifications``, and the tables they moved."""
        touched: dict[UUID, TableProjection] = {}
        opened_at: dict[UUID, int] = {}
        counts: dict[str, dict[str, int]] = {}  # game -> counter -> increment
        previous: TableProjection | None = None
        for note in notifications:
            # Consecutive events of one table are common (a command writes several): skip the
            # dictionary work (UUID hashing and comparing is slow) when the table repeats.
            try:
                if previous is not None and note.table_id == previous.table_id:
                    table = self._advance(note, previous)
                else:
                    table = self._advance(note, self._tables.get(note.table_id))
                counters = table.game.counters(note.event)
            except ProjectionError:
                raise
            except Exception as error:  # name the event an operator must look at
                raise ProjectionError(
                    f"position {note.position} (table {note.table_id} version {note.version}, "
                    f"{type(note.event).__name__}): {error!r}"
                ) from error
            if table is not previous:
                touched[note.table_id] = table
            previous = table
            if isinstance(note.event, TableOpened):
                opened_at[note.table_id] = note.position
            _count(counts.setdefault(table.game.name, {}), note.event, counters)
        batch = Batch()
        for table in touched.values():
            self._tables.move_to_end(table.table_id)  # most recently active last (eviction)
            try:
                self._write_table(batch, table, opened_at.get(table.table_id))
            except Exception as error:
                raise ProjectionError(
                    f"table {table.table_id} version {table.version}: cannot compute its read "
                    f"models: {error!r}"
                ) from error
        self._write_analytics(batch, counts)
        return batch, list(touched.values())

    def _write_analytics(self, batch: Batch, counts: dict[str, dict[str, int]]) -> None:
        """Add the batch's counter increments, per game and for all games.

        The new totals are computed here and written whole, not with HINCRBY: chip counters
        outgrow Redis's 64-bit integers (Bourré pots double with every bourré), and Python's
        integers do not. Reading before the commit is safe because the commit script refuses
        the batch if another projector moved the position in between.
        """
        increments: dict[str, int] = {}
        for game, counters in counts.items():
            for counter, amount in counters.items():
                for scope in (game, ALL_GAMES):
                    field = Keys.counter_field(scope, counter)
                    increments[field] = increments.get(field, 0) + amount
        if not increments:
            return
        fields = sorted(increments)
        current = self._redis.hmget(self.keys.analytics(), fields)
        for field, value in zip(fields, current, strict=True):
            total = int(value or 0) + increments[field]
            batch.hset(self.keys.analytics(), field, str(total))

    def _advance(self, note: NotificationLike, table: TableProjection | None) -> TableProjection:
        """The table after ``note``'s event: evolved in memory, or loaded from the store."""
        if table is not None and table.version == note.version - 1:
            table.apply(note.event, note.version)
            return table
        if note.version == 1 and isinstance(note.event, TableOpened):
            table = TableProjection.opened(note.table_id, note.event)
        else:
            table = TableProjection.load(self._store, note.table_id, note.version)
        self._tables[note.table_id] = table
        return table

    def _write_table(self, batch: Batch, table: TableProjection, opened_at: int | None) -> None:
        """Overwrite the table's views, ledger and lobby line with its current state."""
        keys, game, table_id = self.keys, table.game, str(table.table_id)
        public_state, public_version = table.public()
        public_view = self._view(table, public_state, public_version, None)
        batch.set(keys.view(table.table_id, None), public_view)
        for seat in sorted(table.seats):
            seat_view = self._view(table, table.state, table.version, seat)
            batch.set(keys.view(table.table_id, seat), seat_view)
        # The ledger is public: it follows the spectators' view so it reveals nothing early.
        batch.set(keys.ledger(table.table_id), _encode(game.ledger(public_state)))
        if table.ended:
            batch.hdel(keys.lobby(), table_id)
            batch.zrem(keys.lobby_order(), table_id)
            return
        line = {"tableId": table_id, "game": game.name, "version": table.version}
        line.update(game.lobby(table.state))
        batch.hset(keys.lobby(), table_id, _encode(line))
        if opened_at is not None:
            batch.zadd(keys.lobby_order(), table_id, opened_at)

    @staticmethod
    def _view(table: TableProjection, state: Any, version: int, viewer: Viewer) -> bytes:
        view = {"tableId": str(table.table_id), "game": table.game.name, "version": version}
        view.update(table.game.view(state, viewer))
        return _encode(view)

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

    def _evict(self, touched: list[TableProjection]) -> None:
        """Drop ended tables (no event follows ``TableEnded``) and the least recently active
        beyond the cache size; a dropped table that moves again is loaded from the store."""
        for table in touched:
            if table.ended:
                self._tables.pop(table.table_id, None)
        while len(self._tables) > self._table_cache:
            self._tables.popitem(last=False)

    def _flush(self, fence: str) -> None:
        """Delete every read-model key under the prefix (not the fenced position)."""
        self._redis.delete(*self.keys.fixed_read_model_keys())
        for pattern in self.keys.read_model_patterns():
            chunk: list[Any] = []
            for key in self._redis.scan_iter(match=pattern, count=1000):
                chunk.append(key)
                if len(chunk) >= _UNLINK_CHUNK:
                    if not self._tracking.renew(fence, ttl_ms=_FENCE_TTL_MS):
                        raise ProjectionError("another rebuild took over; this one stopped")
                    self._redis.unlink(*chunk)
                    chunk.clear()
            if chunk:
                self._redis.unlink(*chunk)


def _count(counts: dict[str, int], event: Any, increments: dict[str, int]) -> None:
    """Analytics: the game's counters for ``event`` plus generic ones.

    The generic counters (events, tables opened and ended) yield to a game's own counter of
    the same name. Zero increments are kept, so a counter's field exists as soon as it was
    ever counted, however the events were batched (rebuild must equal the incremental run).
    """
    counts["events"] = counts.get("events", 0) + 1
    if isinstance(event, TableOpened) and "tables_opened" not in increments:
        counts["tables_opened"] = counts.get("tables_opened", 0) + 1
    elif isinstance(event, TableEnded) and "tables_ended" not in increments:
        counts["tables_ended"] = counts.get("tables_ended", 0) + 1
    for counter, amount in increments.items():
        counts[counter] = counts.get(counter, 0) + int(amount)
