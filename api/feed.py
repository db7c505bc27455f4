"""One subscription per API process (design §5, "Waiting holds no thread"): the position feed.

Every projector commit announces its new log position on the channel ``{p}positions``
(:mod:`projections.tracking`). A :class:`PositionFeed` is the process's single subscriber, on
the event loop (redis-py's asyncio client), and it serves two kinds of waiters without a
thread or a Redis connection each:

* **position waits** (``?after=``): :meth:`PositionFeed.wait_for` sleeps on an asyncio event
  that every announcement sets, so a hundred waiting readers cost nothing while they wait;
* **live streams** (:mod:`api.live`): while any stream follows a table, the feed reads the
  store's notification log once per move — from the last position it read up to the announced
  one — and hands each table's new events to the inboxes of that table's streams. One store
  read per move serves every stream of the process, however many follow one table.

The store, not Redis, is the stream's source: when no announcement comes (no projector is
running), the feed looks at the store's head every ``FALLBACK_POLL`` seconds while streams
follow, so streams still move, only later. A stream that finds a gap before an inbox's first
event (it joined between two reads) reads the gap itself from the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

import redis.asyncio as aioredis

from api.services import Services, blocking
from infra.records import RecordedEvent
from projections.tracking import parse_position

log = logging.getLogger("cardroom.api")
FALLBACK_POLL = 1.0  # seconds between looks at the store's head while streams follow tables
RECONNECT = 1.0  # seconds before subscribing again after the connection to Redis failed
READ_LIMIT = 1000  # notifications read from the store at once


@dataclass
class Delivery:
    """New events of one table, shared by all its streams (with a cache of their renderings
    per viewer, so a thousand spectators redact and encode each event once)."""

    records: list[RecordedEvent]
    rendered: dict[Any, Any] = field(default_factory=dict)


class PositionFeed:
    """The process's one subscription to ``{p}positions``, on the running event loop."""

    def __init__(self, services: Services) -> None:
        self._services = services
        self.position = 0  # the projection's last announced position
        self._moved = asyncio.Event()  # set (and replaced) at every announcement
        self._inboxes: dict[UUID, set[asyncio.Queue[Delivery | None]]] = {}
        self._read_to = 0  # the store's notifications read for the streams, up to here
        self._task: asyncio.Task[None] | None = None
        self._client: aioredis.Redis | None = None

    async def start(self) -> None:
        """Subscribe and start listening (returns once subscribed)."""
        # A plain connection to the configured node: a PUBLISH reaches every node of a cluster.
        self._client = self._services.redis.async_subscriber()
        self._read_to = await blocking(self._services.store.max_position)
        ready = asyncio.Event()
        self._task = asyncio.create_task(self._listen(ready), name="cardroom-position-feed")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(ready.wait(), 5.0)

    async def close(self) -> None:
        """Stop listening and end every live stream of the process (graceful stop)."""
        for inboxes in self._inboxes.values():
            for inbox in inboxes:
                inbox.put_nowait(None)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._client is not None:
            await self._client.aclose()

    # -- position waits -----------------------------------------------------------------------
    async def wait_for(self, position: int, timeout: float) -> bool:
        """Wait (on the event loop) until an announced position reaches ``position``; False
        when ``timeout`` runs out first. The caller has read the stored position already."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.position < position:
            remaining = deadline - loop.time()
            if remaining <= 0:
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._moved.wait(), remaining)
        return True

    # -- live streams ---------------------------------------------------------------------------
    @contextlib.contextmanager
    def follow(self, table_id: UUID) -> Iterator[asyncio.Queue[Delivery | None]]:
        """An inbox of ``table_id``'s new events for one stream (``None``: the server stops)."""
        inbox: asyncio.Queue[Delivery | None] = asyncio.Queue()
        self._inboxes.setdefault(table_id, set()).add(inbox)
        try:
            yield inbox
        finally:
            inboxes = self._inboxes.get(table_id)
            if inboxes is not None:
                inboxes.discard(inbox)
                if not inboxes:
                    del self._inboxes[table_id]

    async def _listen(self, ready: asyncio.Event) -> None:
        assert self._client is not None
        channel = self._services.read_models.keys.position_channel()
        while True:
            try:
                async with self._client.pubsub() as pubsub:
                    await pubsub.subscribe(channel)
                    # Subscribed: later commits reach us; the earlier ones are stored.
                    self._announce(await blocking(self._services.read_models.position))
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
                if self._services.read_models.keys.shards > 1:
                    # One shard announced its own position: the read side is at the lowest.
                    announced = await blocking(self._services.read_models.position)
                self._announce(announced)
                await self._deliver(announced)
            elif self._inboxes:  # quiet: streams still follow the store itself
                await self._deliver(await blocking(self._services.store.max_position))

    def _announce(self, position: int) -> None:
        self.position = position
        moved, self._moved = self._moved, asyncio.Event()
        moved.set()

    async def _deliver(self, head: int) -> None:
        """Read the notifications up to ``head`` once, and give each followed table's to its
        streams' inboxes."""
        if not self._inboxes:
            self._read_to = max(self._read_to, head)  # nobody follows: nothing to read
            return
        store = self._services.store
        while self._read_to < head:
            batch = await blocking(store.notifications, self._read_to + 1, READ_LIMIT)
            if not batch:
                return
            self._read_to = batch[-1].position
            by_table: dict[UUID, list[RecordedEvent]] = {}
            for note in batch:
                if note.table_id in self._inboxes:
                    recorded = RecordedEvent(note.version, note.at, note.event)
                    by_table.setdefault(note.table_id, []).append(recorded)
            for table_id, records in by_table.items():
                delivery = Delivery(records)
                for inbox in self._inboxes.get(table_id, ()):
                    inbox.put_nowait(delivery)
