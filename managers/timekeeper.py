"""The timekeeper: the turn clocks' process manager (design §9).

It follows the notification log as the bots' worker does (a tracking position in Redis). For
every table a batch touched it works out the turn's deadline — the stored time of the table's
last event (the one that prompted the turn) plus the table's ``turn_seconds`` — and keeps it
in a Redis sorted set, written before the position moves, so a restart finds every pending
clock. When a deadline passes, it sends ``time_out`` for the seat to act through the write
side, with ``expected_version`` = that version and the idempotency key
``timeout:{version}:{seat}``: a clock fires once per prompt, whoever fires it and however
often. The command carries the seat's timeouts since it last sat in (counted from the table's
events) and whether it now sits out (``timeouts_to_sit_out``); a sat-out seat is played by a
bot (:mod:`managers.bot_worker`) until the player sends ``sit_in``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any
from uuid import UUID

from domain.errors import DomainError
from domain.table import PLAYING
from domain.table.clock import (
    SatIn,
    TimeOut,
    TurnTimedOut,
    result_pause,
    timeouts_to_sit_out,
    turn_seconds,
    turn_starts,
)
from infra.errors import VersionConflict
from managers.following import follow

log = logging.getLogger(__name__)

_TABLES_REMEMBERED = 10_000
_ADVANCE = """
local stored = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) > stored then redis.call('SET', KEYS[1], ARGV[1]) end
return redis.call('GET', KEYS[1])
"""


def options_of(state: Any) -> dict[str, Any]:
    """A table's recorded options (every game keeps them as ``raw_options``)."""
    return dict(getattr(state, "raw_options", None) or {})


SETTLE_WINDOW = 16  # events looked back for a settled hand (the result pause, option result_pause)


def last_settled(game: Any, events: list[Any]) -> float | None:
    """When the last hand among ``events`` (stored events, oldest first) settled, in POSIX
    seconds; ``None`` if none of them settles a hand. The managers read the last
    :data:`SETTLE_WINDOW` events: a pause further back than that has long passed."""
    for recorded in reversed(events):
        if game.settles_hand(recorded.event):
            at: datetime = recorded.at
            return at.timestamp()
    return None


def timeouts_since_sitting_in(events: list[Any], seat: int) -> tuple[int, bool]:
    """The seat's timeouts since it last sat in, and whether it sits out now."""
    count, out = 0, False
    for recorded in events:
        event = recorded.event
        if isinstance(event, TurnTimedOut) and event.seat == seat:
            count, out = event.timeouts, event.sat_out
        elif isinstance(event, SatIn) and event.seat == seat:
            count, out = 0, False
    return count, out


def sat_out_seats(events: list[Any]) -> set[int]:
    """Seats sitting out now (a bot plays them), from a table's events."""
    out: set[int] = set()
    for recorded in events:
        event = recorded.event
        if isinstance(event, TurnTimedOut) and event.sat_out:
            out.add(event.seat)
        elif isinstance(event, SatIn):
            out.discard(event.seat)
    return out


class Timekeeper:
    """Fires the turn clocks of ``store``'s tables (see the module docstring)."""

    def __init__(
        self,
        store: Any,
        redis_client: Any,
        prefix: str,
        *,
        now: Callable[[], float] = time.time,
    ) -> None:
        self._store = store
        self._redis = redis_client
        self._position_key = f"{prefix}clock:position"
        self._due_key = f"{prefix}clock:due"
        self._now = now
        self._advance = redis_client.register_script(_ADVANCE)
        self._unclocked: set[UUID] = set()

    def position(self) -> int:
        return int(self._redis.get(self._position_key) or 0)

    def pending(self) -> dict[str, float]:
        """Tables with a running clock and their deadlines (epoch seconds)."""
        found = self._redis.zrange(self._due_key, 0, -1, withscores=True)
        return {member.decode() if isinstance(member, bytes) else member: score
                for member, score in found}  # fmt: skip

    def run_once(self, limit: int = 500) -> int:
        """Schedule the clocks of the next notifications, then fire the due ones; returns
        how many notifications and timeouts were handled."""
        notes = self._store.notifications(self.position() + 1, limit)
        for table_id in dict.fromkeys(note.table_id for note in notes):
            self.schedule(table_id)
        if notes:
            self._advance(keys=[self._position_key], args=[notes[-1].position])
        fired = 0
        for member in self._redis.zrangebyscore(self._due_key, "-inf", self._now()):
            fired += self.fire(UUID(member.decode() if isinstance(member, bytes) else member))
        return len(notes) + fired

    def run_forever(self, stop: threading.Event, poll_interval: float = 0.05) -> None:
        """Keep time until ``stop`` is set; errors are logged and retried with backoff."""
        follow(self.run_once, stop, poll_interval, "timekeeper")

    def deadline(self, table_id: UUID) -> tuple[float, int, int] | None:
        """``(deadline, version, seat)`` of the table's running clock, or ``None``."""
        table = self._store.get(table_id)
        game, state = table.game, table.state
        seconds = turn_seconds(options_of(state))
        if seconds is None:
            if len(self._unclocked) >= _TABLES_REMEMBERED:
                self._unclocked.clear()
            self._unclocked.add(table_id)
        waiting = sorted(game.to_act(state))
        if seconds is None or not waiting or game.seating(state).status != PLAYING:
            return None
        recent = self._store.events(table_id, max(1, table.version - SETTLE_WINDOW), table.version)
        at: datetime = recent[-1].at
        # after a settled hand the clock starts once the result pause has passed
        start = turn_starts(
            at.timestamp(), last_settled(game, recent), result_pause(options_of(state))
        )
        return start + seconds, table.version, waiting[0]

    def schedule(self, table_id: UUID) -> None:
        if table_id in self._unclocked:
            return  # no turn clock: options never change after the table opens
        found = self.deadline(table_id)
        if found is None:
            self._redis.zrem(self._due_key, str(table_id))
        else:
            self._redis.zadd(self._due_key, {str(table_id): found[0]})

    def fire(self, table_id: UUID) -> int:
        """Time out the seat to act if its deadline has passed; returns 1 if it did."""
        found = self.deadline(table_id)
        if found is None:
            self._redis.zrem(self._due_key, str(table_id))
            return 0
        deadline, version, seat = found
        if deadline > self._now():
            self._redis.zadd(self._due_key, {str(table_id): deadline})
            return 0
        table = self._store.get(table_id)
        events = self._store.events(table_id, 1, version)
        count, out = timeouts_since_sitting_in(events, seat)
        limit = timeouts_to_sit_out(options_of(table.state))
        command = TimeOut(seat=seat, timeouts=count + 1, sat_out=out or count + 1 >= limit)
        try:
            self._store.execute(table_id, command, expected_version=version,
                                idempotency_key=f"timeout:{version}:{seat}")  # fmt: skip
        except (VersionConflict, DomainError) as error:
            log.info("clock of %s seat %s: %s", table_id, seat, error)
        self.schedule(table_id)  # the next turn's clock, from the table as it is now
        return 1
