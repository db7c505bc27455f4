"""Tables and seats: create a table, take a seat, the lobby (design §5)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from litestar import Request, Response, get, post
from litestar.params import JSONBody, QueryParameter

from api import reads, writes
from api.accounts import session_of
from api.params import AfterPosition, Cursor, PageLimit, TableId, paged
from api.problems import documented
from api.schemas import CreateTable, SeatTaken, TableCreated, TakeSeat
from api.services import ServicesDep, blocking

GameFilter = Annotated[
    str | None,
    QueryParameter(
        name="game", required=False, max_length=40, description="only tables of this game"
    ),
]

StatusFilter = Annotated[
    Literal["waiting", "playing", "ended"] | None,
    QueryParameter(
        name="status", required=False, description="only tables in this status (default: open)"
    ),
]


@post(
    "/tables",
    status_code=201,
    summary="Create a table",
    responses=documented(400, 403, 413, 422, 429, 503),
)
async def create_table(data: JSONBody[CreateTable], services: ServicesDep) -> TableCreated:
    """Open a table of a registered game with its options (validated per game; an unknown
    key or a bad value is named in the problem's ``option``). ``decks`` stacks the decks of
    hands 1, 2, … (index 0 = top) and is refused with 403 unless the server runs with
    ``CARDROOM_ALLOW_STACKED_DECKS=1``."""
    return await blocking(writes.create_table, services, data)


@post(
    "/tables/{table_id:str}/seats",
    status_code=201,
    summary="Take a seat",
    responses=documented(400, 401, 403, 404, 409, 413, 422, 429, 503),
)
async def take_seat(
    request: Request[Any, Any, Any],
    table_id: TableId,
    services: ServicesDep,
    data: JSONBody[TakeSeat | None] = None,
) -> SeatTaken:
    """Sit down (the first free seat, or ``seat``). The answer holds the seat's secret bearer
    token, shown only this once; the hand starts when every seat is filled. Signed in
    (``Authorization: Bearer <session token>`` or the session cookie), an empty body seats
    the account, and any session of the account acts for the seat."""
    session = session_of(request.headers, request.cookies, write=True)
    return await blocking(writes.take_seat, services, table_id, data or TakeSeat(), session)


@get("/tables", summary="Lobby", responses=documented(400, 422, 503))
async def lobby(
    request: Request[Any, Any, Any],
    services: ServicesDep,
    game: GameFilter = None,
    status: StatusFilter = None,
    limit: PageLimit = 50,
    cursor: Cursor = None,
    after: AfterPosition = None,
) -> Response[list[dict[str, Any]]]:
    """A page of tables, oldest first: the open ones (waiting or playing) unless ``?status=``
    says waiting, playing or ended; ``?game=`` keeps one game's; ``?limit=`` (50, at most 200);
    the next page's URL is in ``Link: <…>; rel="next"``. ``?after=`` waits, bounded, for the
    lobby to reach a position. Lines are spectators' answers (``spectator_delay`` behind)."""
    found = await reads.after(services, after, reads.lobby, game, status, limit, cursor)
    return paged(request, found[0], {"cursor": found[1]})


ROUTES = [create_table, take_seat, lobby]
