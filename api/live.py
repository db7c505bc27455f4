"""The live stream's source: Server-Sent Events, redacted per caller (design §5).

Each SSE message is one event as the caller may see it (``event:`` its type, ``id:`` its table
version, ``data:`` the JSON). Reconnecting with ``Last-Event-ID`` resumes after that version;
``?from=`` starts at a version (1 = the whole history); otherwise the stream starts live.
The stream follows the event store, not this process's memory, so it works behind several
API processes: the process's one :class:`~api.position_feed.PositionFeed` reads each table's
new events once when the store moves (on SQLite as soon as it is written, otherwise when the
projection's position moves, and once a second in any case) and hands them to every stream of
that table — no stream polls. The streams that stand at the same place (:class:`Sent`) share
each delivery's message (:func:`step`, worked out by the first of them), so a thousand spectators
of one table cost one store read, one redaction, one encoding and one join per delivery, then
a write each. Spectators are held
``spectator_delay`` events behind. The stream ends once the table has ended (after
``TableEnded``, or for spectators after the last event they may see), or when the server stops.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any
from uuid import UUID

import msgspec
from litestar.response import Stream

from api.auth import viewer_of
from api.params import ascii_integer
from api.position_feed import Delivery
from api.problems import MALFORMED, ApiProblem
from api.schemas import SpectatorCount
from api.services import Services, blocking, in_background
from api.spectators import RENEW_S
from domain.game import Viewer
from domain.table import TableEnded
from infra.results import RecordedEvent
from infra.visibility import TableFacts

KEEPALIVE = RENEW_S  # seconds between comments that keep proxies from closing an idle stream
RETRY_MS = 2000


def _resume_after(last_event_id: str | None) -> int | None:
    if last_event_id is None or not last_event_id.strip():
        return None
    text = last_event_id.strip()
    version = ascii_integer(text)
    if version is None:
        raise ApiProblem(
            400,
            MALFORMED,
            f"Last-Event-ID must be an event version (a non-negative integer), not {text!r}",
            field="Last-Event-ID",
        )
    return version


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


def spectators(services: Services, table_id: UUID) -> SpectatorCount:
    """How many spectators' streams of the table are open, across every API process (a count
    only: nothing about who). Unknown table -> 404. Synchronous: call it from a worker thread."""
    services.queries.facts(table_id)  # 404 for an unknown table
    return SpectatorCount(spectators=services.spectators.count(table_id))


SEP = "\r\n"
HEADERS = {"Cache-Control": "no-cache", "Connection": "keep-alive", "X-Accel-Buffering": "no"}


def response(messages: AsyncIterator[bytes]) -> Stream:
    """The ``text/event-stream`` answer carrying ``messages`` (already encoded)."""
    return Stream(messages, media_type="text/event-stream", headers=HEADERS)


def comment(text: str, retry: int | None = None) -> bytes:
    """An SSE comment (ignored by clients; keeps proxies from closing an idle stream)."""
    tail = f"retry: {retry}{SEP}" if retry is not None else ""
    return f": {text}{SEP}{tail}{SEP}".encode()


class Sent:
    """Where one stream stands: the last version it read, the events it read but may not show
    yet (``spectator_delay``) and the hands it has seen settle. Streams of a table that opened
    together stand at equal places and, at every delivery, move to the same next one: the
    first of them works out the step, the others reuse it (:func:`follow`)."""

    __slots__ = ("_hash", "_key", "fetched", "pending", "settled")

    def __init__(
        self, fetched: int, pending: tuple[RecordedEvent, ...], settled: frozenset[int]
    ) -> None:
        self.fetched = fetched
        self.pending = pending
        self.settled = settled
        self._key = (fetched, tuple(r.version for r in pending), settled)
        self._hash = hash(self._key)

    def __eq__(self, other: object) -> bool:
        return other is self or (isinstance(other, Sent) and other._key == self._key)

    def __hash__(self) -> int:
        return self._hash


def step(
    facts: TableFacts,
    viewer: Viewer,
    at: Sent,
    new: list[RecordedEvent],
    rendered: dict[Any, bytes],
) -> tuple[bytes, Sent]:
    """The message a stream standing at ``at`` sends after reading ``new`` (the events after
    ``at.fetched``; empty: nothing to send) and where it stands then. Hands settled by now (as
    far as this caller may see) show their cards, as in the timeline: a client catching up on
    old hands gets them revealed."""
    pending = at.pending + tuple(new) if new else at.pending
    fetched = new[-1].version if new else at.fetched
    visible = facts.visible_version(viewer, fetched)
    ready = 0
    while ready < len(pending) and pending[ready].version <= visible:
        ready += 1
    if not ready:
        return b"", at if not new else Sent(fetched, pending, at.settled)
    shown = pending[:ready]
    settled = at.settled
    found = facts.settled_hands(shown)
    if not found <= settled:
        settled = settled | found
    message = b"".join(_message(facts, r, viewer, settled, rendered) for r in shown)
    return message, Sent(fetched, pending[ready:], settled)


def _ends(records: list[RecordedEvent]) -> bool:
    return any(isinstance(r.event, TableEnded) for r in records)


async def answer(
    services: Services, table_id: UUID, viewer: Viewer, facts: TableFacts, after: int
) -> Stream:
    """The stream's answer. A spectator's stream counts among the table's spectators
    (:mod:`api.spectators`) from before its answer starts until it ends."""
    member = None if viewer is not None else await blocking(services.spectators.join, table_id)
    return response(events(services, table_id, viewer, facts, after, member))


async def events(
    services: Services,
    table_id: UUID,
    viewer: Viewer,
    facts: TableFacts,
    after: int,
    member: str | None = None,
) -> AsyncIterator[bytes]:
    """The stream's messages: the events after version ``after`` as ``viewer`` may see them,
    as they are stored; the events of one delivery go out as one write. ``member``: the
    spectator's lease, renewed while the stream lives and given back when it ends."""
    try:
        async for message in _messages(services, table_id, viewer, facts, after, member):
            yield message
    finally:  # runs to the end even when the stream is cancelled
        if member is not None:
            in_background(services.spectators.leave, table_id, member)


async def _messages(
    services: Services,
    table_id: UUID,
    viewer: Viewer,
    facts: TableFacts,
    after: int,
    member: str | None,
) -> AsyncIterator[bytes]:
    """:func:`events`' messages; a spectator's lease (``member``) is renewed as the loop
    wakes, at least every keep-alive (:data:`~api.spectators.RENEW_S`)."""
    renewed = time.monotonic()
    with services.feed.follow(table_id, KEEPALIVE) as inbox:  # joined before reading
        over = await blocking(services.queries.has_ended, table_id)  # nothing follows TableEnded
        yield comment(f"table {table_id} after version {after}", RETRY_MS)
        new = await blocking(services.store.events, table_id, after + 1)
        message, at = step(facts, viewer, Sent(after, (), frozenset()), new, {})
        over = over or _ends(new)
        while True:
            if member is not None and time.monotonic() - renewed >= RENEW_S:
                renewed = time.monotonic()
                await blocking(services.spectators.renew, table_id, member)
            if message:
                yield message
            if over:  # the table has ended: what is still held back stays held back
                return
            try:
                delivery = await inbox.get()
            except TimeoutError:
                yield comment("keep-alive")
                message = b""
                continue
            if delivery is None:  # the server is stopping
                return
            found = delivery.steps.get((viewer, at))  # worked out by a stream standing here
            if found is None:
                found = await follow(services, table_id, facts, viewer, at, delivery)
            message, at, ended = found
            over = over or ended


async def follow(
    services: Services,
    table_id: UUID,
    facts: TableFacts,
    viewer: Viewer,
    at: Sent,
    delivery: Delivery,
) -> tuple[bytes, Sent, bool]:
    """:func:`step` over a delivery's events, and whether they end the table; kept in the
    delivery for every stream of the process standing at the same place (viewer and
    :class:`Sent`). A stream that joined between two reads reads the gap itself (not shared)."""
    new = [r for r in delivery.records if r.version > at.fetched]
    if new and new[0].version > at.fetched + 1:  # joined between two reads: fill the gap
        new = await blocking(services.store.events, table_id, at.fetched + 1)
        message, moved = step(facts, viewer, at, new, delivery.rendered)
        return message, moved, _ends(new)
    message, moved = step(facts, viewer, at, new, delivery.rendered)
    found = delivery.steps[viewer, at] = (message, moved, _ends(new))
    return found


def _message(
    facts: TableFacts,
    recorded: RecordedEvent,
    viewer: Viewer,
    settled: frozenset[int],
    cache: dict[Any, bytes],
) -> bytes:
    """One event as an SSE message for ``viewer`` (``id`` its version, ``event`` its type),
    encoded once per delivery and kind of viewer."""
    revealed = facts.reveals(facts.game.hand_of(recorded.event), settled)
    key = (recorded.version, viewer, revealed)
    found = cache.get(key)
    if found is None:
        shown = facts.redact(recorded, viewer, set(settled))
        data = msgspec.json.encode(shown).decode()
        found = cache[key] = (
            f"id: {recorded.version}{SEP}event: {shown['type']}{SEP}data: {data}{SEP}{SEP}"
        ).encode()
    return found
