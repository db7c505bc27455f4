"""The live stream route: Server-Sent Events, redacted per caller (design §5; the source is
:mod:`api.live`)."""

from __future__ import annotations

from litestar import get
from litestar.response import Stream

from api import live
from api.params import Authorization, LastEventId, StreamFrom, TableId
from api.problems import documented
from api.schemas import SpectatorCount
from api.services import ServicesDep, blocking


@get(
    "/tables/{table_id:str}/stream",
    summary="Live stream (SSE)",
    responses=documented(400, 401, 404, 429, 503),
)
async def stream(
    table_id: TableId,
    services: ServicesDep,
    authorization: Authorization = None,
    last_event_id: LastEventId = None,
    from_version: StreamFrom = None,
) -> Stream:
    """Server-Sent Events, live, redacted per caller; ``id`` is the event's table version.
    Resume with ``Last-Event-ID``; start at a version with ``?from=``. A stream without a
    seat token counts among the table's spectators while it is open."""
    opened = await blocking(
        live.opening, services, table_id, authorization, last_event_id, from_version
    )
    return await live.answer(services, table_id, *opened)


@get(
    "/tables/{table_id:str}/spectators",
    summary="Spectators watching",
    responses=documented(400, 404, 503),
)
async def spectators(table_id: TableId, services: ServicesDep) -> SpectatorCount:
    """``{"spectators": n}``: how many live streams of the table are open without a seat
    token, across every API process (a count only)."""
    return await blocking(live.spectators, services, table_id)


ROUTES = [stream, spectators]
