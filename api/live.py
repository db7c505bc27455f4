"""The live stream's source: Server-Sent Events, redacted per caller (design §5).

Each SSE message is one event as the caller may see it (``event:`` its type, ``id:`` its table
version, ``data:`` the JSON). Reconnecting with ``Last-Event-ID`` resumes after that version;
``?from=`` starts at a version (1 = the whole history); otherwise the stream starts live.
The stream follows the event store, not this process's memory, so it works behind several
API processes: it wakes when the projection's log position moves (a cheap Redis read) and in
any case every ``FALLBACK_POLL`` seconds. Spectators are held ``spectator_delay`` events
behind. The stream ends once the table has ended (after ``TableEnded``, or for spectators after
the last event they may see).
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any
from uuid import UUID

import anyio
import msgspec
from litestar.response import ServerSentEventMessage

from api.auth import viewer_of
from api.problems import MALFORMED, ApiProblem
from api.services import Services, blocking
from domain.game import Viewer
from domain.table import TableEnded
from infra.visibility import TableFacts

POLL = 0.1  # seconds between checks of the projection position
FALLBACK_POLL = 1.0  # seconds between store reads when the position does not move
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


async def events(
    services: Services, table_id: UUID, viewer: Viewer, facts: TableFacts, after: int
) -> AsyncIterator[ServerSentEventMessage]:
    sent = after  # last version sent
    fetched = after  # last version read from the store
    pending: list[Any] = []  # read, not yet visible to this caller (spectator delay)
    settled: set[int] = set()
    last_position = -1
    last_read = 0.0
    last_beat = time.monotonic()
    over = await blocking(services.queries.has_ended, table_id)  # nothing will follow TableEnded
    yield ServerSentEventMessage(
        data=None, comment=f"table {table_id} after version {after}", retry=RETRY_MS
    )
    while True:
        now = time.monotonic()
        position = await blocking(services.read_models.position)
        if position != last_position or now - last_read >= FALLBACK_POLL:
            last_position, last_read = position, now
            new = await blocking(services.store.events, table_id, fetched + 1)
            if new:
                pending.extend(new)
                fetched = new[-1].version
                over = over or any(isinstance(r.event, TableEnded) for r in new)
        visible = facts.visible_version(viewer, fetched)
        # Hands settled by now (as far as this caller may see) show their cards, as in the
        # timeline: a client catching up on old hands gets them revealed.
        settled |= facts.settled_hands(r for r in pending if r.version <= visible)
        while pending and pending[0].version <= visible:
            recorded = pending.pop(0)
            shown = facts.redact(recorded, viewer, settled)
            sent = recorded.version
            last_beat = time.monotonic()
            yield ServerSentEventMessage(
                data=msgspec.json.encode(shown).decode(), event=str(shown["type"]), id=sent
            )
        if over:  # the table has ended: what is still held back stays held back
            return
        if time.monotonic() - last_beat >= KEEPALIVE:
            last_beat = time.monotonic()
            yield ServerSentEventMessage(data=None, comment="keep-alive")
        await anyio.sleep(POLL)
