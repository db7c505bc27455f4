"""Reading a table: the caller's view, timeline, time travel and ledger (design §5).

Each route hands over to :mod:`api.reads` (read models first, the store's query service
otherwise); answers say where they came from in ``X-Cardroom-Source``.
"""

from __future__ import annotations

from typing import Annotated, Any

from litestar import MediaType, Request, Response, get
from litestar.params import HeaderParameter, QueryParameter

from api import feed_reads, reads
from api.params import MAX_POSITION, AfterPosition, Authorization, TableId, paged
from api.problems import documented
from api.services import ServicesDep, blocking

SOURCE_HEADER = "X-Cardroom-Source"

FromVersion = Annotated[
    int | None,
    QueryParameter(name="from", required=False, ge=1, le=MAX_POSITION, description="first version"),
]
ToVersion = Annotated[
    int | None,
    QueryParameter(name="to", required=False, ge=1, le=MAX_POSITION, description="last version"),
]
TimelineLimit = Annotated[
    int,
    QueryParameter(
        name="limit", required=False, ge=1, le=1000, description="events per page (default 500)"
    ),
]
Accept = Annotated[
    str | None,
    HeaderParameter(name="Accept", required=False, max_length=500, description="NDJSON: x-ndjson"),
]
AtVersion = Annotated[
    int, QueryParameter(name="at", ge=1, le=MAX_POSITION, description="the table version to show")
]


@get("/tables/{table_id:str}", summary="Table view", responses=documented(400, 401, 404, 422, 503))
async def table_view(
    table_id: TableId,
    services: ServicesDep,
    authorization: Authorization = None,
    after: AfterPosition = None,
) -> Response[Any]:
    """The table as the caller may see it: a seat (with its token) sees its own cards, anyone
    else is a spectator and sees public cards only, ``spectator_delay`` events behind."""
    source, view = await reads.after(
        services, after, reads.table_view, table_id, authorization, table=table_id
    )
    # A read model's view is served as stored, without decoding and encoding it again.
    media = MediaType.JSON if isinstance(view, bytes) else None
    return Response(view, media_type=media, headers={SOURCE_HEADER: source})


@get(
    "/tables/{table_id:str}/timeline", summary="Timeline", responses=documented(400, 401, 404, 503)
)
async def timeline(
    request: Request[Any, Any, Any],
    table_id: TableId,
    services: ServicesDep,
    authorization: Authorization = None,
    from_version: FromVersion = None,
    to_version: ToVersion = None,
    limit: TimelineLimit = reads.TIMELINE_PAGE,
    accept: Accept = None,
) -> Response[Any]:
    """Events ``from``–``to`` as the caller sees them; 500 a page (``Link``); NDJSON on Accept."""
    args = (services, table_id, authorization, from_version, to_version, limit)
    page, following = await blocking(reads.timeline, *args)
    body, media = feed_reads.timeline_body(page, accept)
    return paged(request, body, {"from": following}, media)


@get(
    "/tables/{table_id:str}/replay",
    summary="Replay (time travel)",
    responses=documented(400, 401, 404, 422, 503),
)
async def replay(
    table_id: TableId, at: AtVersion, services: ServicesDep, authorization: Authorization = None
) -> Response[dict[str, Any]]:
    """The caller's view of the table as of version ``at``. A hand that has settled since
    shows its hidden cards (option ``reveal``: ``after_hand``)."""
    view = await blocking(reads.replay, services, table_id, authorization, at)
    return Response(view, headers={"X-Table-Version": str(view["version"])})


@get("/tables/{table_id:str}/ledger", summary="Ledger", responses=documented(400, 404, 422, 503))
async def ledger(
    table_id: TableId, services: ServicesDep, after: AfterPosition = None
) -> Response[dict[str, Any]]:
    """The game's running account: e.g. the pot, each player's net chips and every hand's
    pot and winner; or the score sheet per team per hand, totals and the winner. Spectators'
    answers, ``spectator_delay`` behind."""
    source, found = await reads.after(services, after, reads.ledger, table_id, table=table_id)
    return Response(found, headers={SOURCE_HEADER: source})


ROUTES = [table_view, timeline, replay, ledger]
