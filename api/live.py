"""The live stream's source: Server-Sent Events, redacted per caller (design §5).

Each SSE message is one event as the caller may see it (``event:`` its type, ``id:`` its table
version, ``data:`` the JSON). Reconnecting with ``Last-Event-ID`` resumes after that version;
``?from=`` starts at a version (1 = the whole history); otherwise the stream starts live.
The stream follows the event store, not this process's memory, so it works behind several
API processes: the process's one :class:`~api.feed.PositionFeed` reads each table's new events
once when the projection's position moves (or, with no projector running, when the store's
head does) and hands them to every stream of that table — no stream polls, and a thousand
spectators of one table cost one store read and one redaction per event. Spectators are held
``spectator_delay`` events behind. The stream ends once the table has ended (after
``TableEnded``, or for spectators after the last event they may see), or when the server stops.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any
from uuid import UUID

import msgspec
from litestar.response import Stream

from api.auth import viewer_of
from api.problems import MALFORMED, ApiProblem
from api.services import Services, blocking
from domain.game import Viewer
from domain.table import TableEnded
from infra.records import RecordedEvent
from infra.visibility import TableFacts

KEEPALIVE = 15.0  # seconds between comments that keep proxies from closing an idle stream
RETRY_MS = 2000


def _resume_after(last_event_id: str | None) -> int | None:
    if last_event_id is None or not last_event_id.strip():
        return None
    text = last_event_id.strip()
    if not text.isdigit() or len(text) > 18:
        raise ApiProblem(
            400,
            MALFORMED,
            f"Last-Event-ID must be an event version (a non-negative integer), not {text!r}",
            field="Last-Event-ID",
        )
    return int(text)


def opening(
    services: Services,
    table_id: UUID,
    authorization: str | None,
    last_event_id: str | None,
    start: int | None,
) -> tuple[Viewer, TableFacts, int]:
    """Who is watching, the table's facts, and the version the stream starts after:
    ``Last-Event-ID``, else ``?from=`` minus one, else the last version the caller may see."""
    viewer = viewer_of(services, table_id, authorization)
    facts = services.queries.facts(table_id)
    after = _resume_after(last_event_id)
    if after is None:
        after = start - 1 if start is not None else services.queries.head(table_id, viewer)
    return viewer, facts, after


SEP = "\r\n"
HEADERS = {"Cache-Control": "no-cache", "Connection": "keep-alive", "X-Accel-Buffering": "no"}


def response(messages: AsyncIterator[bytes]) -> Stream:
    """The ``text/event-stream`` answer carrying ``messages`` (already encoded)."""
    return Stream(messages, media_type="text/event-stream", headers=HEADERS)


def comment(text: str, retry: int | None = None) -> bytes:
    """An SSE comment (ignored by clients; keeps proxies from closing an idle stream)."""
    tail = f"retry: {retry}{SEP}" if retry is not None else ""
    return f": {text}{SEP}{tail}{SEP}".encode()


async def events(
    services: Services, table_id: UUID, viewer: Viewer, facts: TableFacts, after: int
) -> AsyncIterator[bytes]:
    """The stream's messages: the events after version ``after`` as ``viewer`` may see them,
    as they are stored; the events of one delivery go out as one write."""
    feed = services.feed
    with feed.follow(table_id) as inbox:  # joined before reading: nothing falls between
        over = await blocking(services.queries.has_ended, table_id)  # nothing follows TableEnded
        yield comment(f"table {table_id} after version {after}", RETRY_MS)
        fetched = after  # last version read
        pending: list[RecordedEvent] = []  # read, not yet visible to this caller (delay)
        settled: set[int] = set()
        rendered: dict[Any, bytes] = {}
        new = await blocking(services.store.events, table_id, fetched + 1)
        while True:
            if new:
                pending.extend(new)
                fetched = new[-1].version
                over = over or any(isinstance(r.event, TableEnded) for r in new)
            visible = facts.visible_version(viewer, fetched)
            # Hands settled by now (as far as this caller may see) show their cards, as in the
            # timeline: a client catching up on old hands gets them revealed.
            settled |= facts.settled_hands(r for r in pending if r.version <= visible)
            ready = 0
            while ready < len(pending) and pending[ready].version <= visible:
                ready += 1
            if ready:
                shown = pending[:ready]
                del pending[:ready]
                yield b"".join(_message(facts, r, viewer, settled, rendered) for r in shown)
            if over:  # the table has ended: what is still held back stays held back
                return
            try:
                async with asyncio.timeout(KEEPALIVE):  # no task per wait, unlike wait_for
                    delivery = await inbox.get()
            except TimeoutError:
                yield comment("keep-alive")
                new = []
                continue
            if delivery is None:  # the server is stopping
                return
            rendered = delivery.rendered
            new = [r for r in delivery.records if r.version > fetched]
            if new and new[0].version > fetched + 1:  # joined between two reads: fill the gap
                new = await blocking(services.store.events, table_id, fetched + 1)


def _message(
    facts: TableFacts,
    recorded: RecordedEvent,
    viewer: Viewer,
    settled: set[int],
    cache: dict[Any, bytes],
) -> bytes:
    """One event as an SSE message for ``viewer`` (``id`` its version, ``event`` its type),
    encoded once per delivery and kind of viewer."""
    revealed = facts.reveals(facts.game.hand_of(recorded.event), settled)
    key = (recorded.version, viewer, revealed)
    found = cache.get(key)
    if found is None:
        shown = facts.redact(recorded, viewer, settled)
        data = msgspec.json.encode(shown).decode()
        found = cache[key] = (
            f"id: {recorded.version}{SEP}event: {shown['type']}{SEP}data: {data}{SEP}{SEP}"
        ).encode()
    return found
