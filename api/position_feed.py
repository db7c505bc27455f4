"""One subscription per API process (design §5, "Waiting holds no thread"): the position feed.

Every projector commit announces its new log position on the channel ``{p}positions``
(:mod:`projections.tracking`). A :class:`PositionFeed` is the process's single subscriber, on
the event loop (redis-py's asyncio client), and it serves two kinds of waiters without a
thread or a Redis connection each:

* **position waits** (``?after=``): :meth:`PositionFeed.wait_for` sleeps on an asyncio event
  that every announcement sets, so a hundred waiting readers cost nothing while they wait;
* **live streams** (:mod:`api.live`): while any stream follows a table, the feed reads the
  store's notification log once per move — from the last position it read on — and hands
  each table's new events to the inboxes of that table's streams, as one shared
  :class:`Delivery`. One store read per move serves every stream of the process, however many
  follow one table.

The store, not Redis, is the stream's source, and the feed reads it as soon as it learns of a
write: on SQLite from the kernel, the moment any process writes the store's log
(:mod:`api.storewatch`), without waiting for the projector's next poll; otherwise (and as a
second chance) at the projection's announcement. When neither comes, the feed looks at the
store every ``FALLBACK_POLL`` seconds while streams follow, so streams still move, only later.
A stream that finds a gap before an inbox's first event (it joined between two reads) reads
the gap itself from the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

import redis.asyncio as aioredis

from api.services import Services, blocking
from api.storewatch import store_watch
from infra.results import RecordedEvent
from projections.tracking import parse_position

log = logging.getLogger("cardroom.api")
FALLBACK_POLL = 1.0  # seconds between looks at the store's head while streams follow tables
RECONNECT = 1.0  # seconds before subscribing again after the connection to Redis failed
READ_LIMIT = 1000  # notifications read from the store at once
# After the store's log is written, the write commits a moment later (SQLite syncs the log,
# then publishes the commit): the first look waits this long, and a look that finds nothing
# yet looks again twice as late, up to LOOKS times (then the projection's announcement and
# the fallback poll remain).
SETTLE = 0.001
LOOKS = 6
EARLY = 0.001  # timers may fire this early (uvloop counts in milliseconds): close enough


@dataclass
class Delivery:
    """New events of one table, shared by all its streams, with what the streams worked out
    from them: ``rendered``, each event as each kind of viewer sees it, and ``steps``, each
    stream position's next message (:func:`api.live.step`) — a thousand spectators who stand
    at the same place redact, encode and join the delivery's events once."""

    records: list[RecordedEvent]
    rendered: dict[Any, Any] = field(default_factory=dict)
    steps: dict[Any, Any] = field(default_factory=dict)


class Inbox:
    """One stream's deliveries, in order (``None``: the server stops).

    :meth:`get` raises ``TimeoutError`` when ``quiet`` seconds pass without a delivery (the
    stream then sends a keep-alive). One timer per inbox, re-armed only when it fires early,
    rather than a timeout per wait: the wait is on every stream's path at every delivery."""

    __slots__ = ("_items", "_loop", "_quiet", "_since", "_timer", "_waiter")

    def __init__(self, quiet: float) -> None:
        self._loop = asyncio.get_running_loop()
        self._items: deque[Delivery | None] = deque()
        self._quiet = quiet
        self._since = 0.0  # when the current wait began
        self._waiter: asyncio.Future[None] | None = None
        self._timer: asyncio.TimerHandle | None = None

    def put(self, item: Delivery | None) -> None:
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def get(self) -> Delivery | None:
        """The next delivery; ``TimeoutError`` after ``quiet`` seconds of waiting for one."""
        if not self._items:
            loop = self._loop
            self._since = loop.time()
            if self._timer is None:
                self._timer = loop.call_at(self._since + self._quiet, self._due)
            waiter = self._waiter = loop.create_future()
            try:
                await waiter
            finally:
                self._waiter = None
            if not self._items:
                raise TimeoutError
        return self._items.popleft()

    def _due(self) -> None:
        self._timer = None
        waiter = self._waiter
        if waiter is None or waiter.done():
            return  # not waiting: the next wait arms the timer again
        due = self._since + self._quiet
        if self._loop.time() >= due - EARLY:
            waiter.set_result(None)
        else:
            self._timer = self._loop.call_at(due, self._due)

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


class PositionFeed:
    """The process's one subscription to ``{p}positions``, on the running event loop."""

    def __init__(self, services: Services) -> None:
        self._services = services
        self.positions = [0] * services.read_models.keys.shards  # each shard's, as announced
        self._moved = asyncio.Event()  # set (and replaced) at every announcement
        self._inboxes: dict[UUID, set[Inbox]] = {}
        self._read_to = 0  # the store's notifications read for the streams, up to here
        self._wanted = asyncio.Event()  # set: the store may hold events the streams lack
        self._tasks: list[asyncio.Task[None]] = []
        self._client: aioredis.Redis | None = None
        self._watch = store_watch(services.settings.event_store, self._written)
        self._look: asyncio.TimerHandle | None = None  # the next look after a store write
        self._hinted = False  # the coming read is such a look
        self._empty_looks = 0  # looks since the write that found nothing
        self._found = False  # a look since the write found events

    async def start(self) -> None:
        """Subscribe and start listening (returns once subscribed)."""
        # A plain connection to the configured node: a PUBLISH reaches every node of a cluster.
        self._client = self._services.redis.async_subscriber()
        self._read_to = await blocking(self._services.store.max_position)
        ready = asyncio.Event()
        self._tasks = [
            asyncio.create_task(self._listen(ready), name="cardroom-position-feed"),
            asyncio.create_task(self._deliveries(), name="cardroom-stream-deliveries"),
        ]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(ready.wait(), 5.0)

    async def close(self) -> None:
        """Stop listening and end every live stream of the process (graceful stop)."""
        for inboxes in self._inboxes.values():
            for inbox in inboxes:
                inbox.put(None)
        if self._watch is not None:
            self._watch.off()
        if self._look is not None:
            self._look.cancel()
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self._client is not None:
            await self._client.aclose()

    # -- position waits -----------------------------------------------------------------------
    @property
    def position(self) -> int:
        """The position every shard has announced (the read side's)."""
        return min(self.positions)

    def position_of(self, shard: int | None) -> int:
        """``shard``'s announced position; every shard's when None."""
        return self.position if shard is None else self.positions[shard]

    async def wait_for(self, position: int, timeout: float, shard: int | None = None) -> bool:
        """Wait (on the event loop) until the announced position (of ``shard``, else of every
        shard) reaches ``position``; False when ``timeout`` runs out first. The caller has read
        the stored position already."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.position_of(shard) < position:
            remaining = deadline - loop.time()
            if remaining <= 0:
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._moved.wait(), remaining)
        return True

    # -- live streams ---------------------------------------------------------------------------
    @contextlib.contextmanager
    def follow(self, table_id: UUID, quiet: float) -> Iterator[Inbox]:
        """An inbox of ``table_id``'s new events for one stream (``None``: the server stops;
        ``TimeoutError`` after ``quiet`` seconds without events). The store is watched while
        any stream of the process follows a table."""
        inbox = Inbox(quiet)
        if not self._inboxes and self._watch is not None:
            self._watch.on()
        self._inboxes.setdefault(table_id, set()).add(inbox)
        try:
            yield inbox
        finally:
            inbox.close()
            inboxes = self._inboxes.get(table_id)
            if inboxes is not None:
                inboxes.discard(inbox)
                if not inboxes:
                    del self._inboxes[table_id]
            if not self._inboxes and self._watch is not None:
                self._watch.off()

    async def _listen(self, ready: asyncio.Event) -> None:
        assert self._client is not None
        channel = self._services.read_models.keys.position_channel()
        while True:
            try:
                async with self._client.pubsub() as pubsub:
                    await pubsub.subscribe(channel)
                    # Subscribed: later commits reach us; the earlier ones are stored.
                    self._announce(await blocking(self._services.read_models.positions))
                    ready.set()
                    await self._receive(pubsub)
            except asyncio.CancelledError:
                raise
            except Exception:  # Redis went away: waits time out meanwhile; subscribe again
                log.warning("position feed lost its subscription; retrying", exc_info=True)
                await asyncio.sleep(RECONNECT)

    async def _receive(self, pubsub: Any) -> None:
        while True:
            message = await pubsub.get_message(
                ignore_subscribe_messages=True, timeout=FALLBACK_POLL
            )
            if message is not None and message.get("type") == "message":
                announced = parse_position(message["data"]) or 0
                if len(self.positions) > 1:
                    # One shard announced its own position (which one, the message does not
                    # say): read them all; the read side is at the lowest.
                    self._announce(await blocking(self._services.read_models.positions))
                    announced = self.position
                else:
                    self._announce([announced])
                if not self._inboxes:  # nobody follows: nothing to read up to here
                    self._read_to = max(self._read_to, announced)
                elif announced > self._read_to:
                    self._wanted.set()
            elif self._inboxes:  # quiet: streams still follow the store itself
                self._wanted.set()

    def _announce(self, positions: list[int]) -> None:
        self.positions = positions
        moved, self._moved = self._moved, asyncio.Event()
        moved.set()

    # -- reading the store for the streams ---------------------------------------------------
    def _written(self) -> None:
        """The store's log was written (:mod:`api.storewatch`): look shortly."""
        self._empty_looks, self._found = 0, False
        if self._look is None:
            self._look = asyncio.get_running_loop().call_later(SETTLE, self._look_now)

    def _look_now(self) -> None:
        self._look = None
        self._hinted = True
        self._wanted.set()

    async def _deliveries(self) -> None:
        """Read the store whenever it may hold new events, one read at a time (wake-ups that
        come during a read make one more read after it). After a write, look until a look
        finds nothing once something was found (a write may commit just after another's
        look), or until ``LOOKS`` looks found nothing."""
        while True:
            await self._wanted.wait()
            self._wanted.clear()
            hinted, self._hinted = self._hinted, False
            try:
                found = await self._deliver()
            except asyncio.CancelledError:
                raise
            except Exception:  # the store is away: the fallback poll tries again
                log.warning("reading the store for live streams failed", exc_info=True)
                continue
            if not hinted or self._look is not None:
                continue
            if found:
                self._found, self._empty_looks = True, 0
            elif self._found or self._empty_looks >= LOOKS:
                continue
            else:
                self._empty_looks += 1
            delay = SETTLE * 2**self._empty_looks
            self._look = asyncio.get_running_loop().call_later(delay, self._look_now)

    async def _deliver(self) -> bool:
        """Read the notifications after the last read once, and give each followed table's to
        its streams' inboxes; whether there were any."""
        store = self._services.store
        found = False
        while self._inboxes:
            batch = await blocking(store.notifications, self._read_to + 1, READ_LIMIT)
            if not batch:
                return found
            found = True
            self._read_to = batch[-1].position
            by_table: dict[UUID, list[RecordedEvent]] = {}
            for note in batch:
                if note.table_id in self._inboxes:
                    recorded = RecordedEvent(note.version, note.at, note.event)
                    by_table.setdefault(note.table_id, []).append(recorded)
            for table_id, records in by_table.items():
                delivery = Delivery(records)
                for inbox in self._inboxes.get(table_id, ()):
                    inbox.put(delivery)
            if len(batch) < READ_LIMIT:
                return found
        return found
