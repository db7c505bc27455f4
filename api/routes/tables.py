"""Tables and seats: create a table, take a seat, the lobby (design §5)."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import get, post
from litestar.params import JSONBody, QueryParameter

from api import reads, writes
from api.params import AfterPosition, TableId
from api.problems import documented
from api.schemas import CreateTable, SeatTaken, TableCreated, TakeSeat
from api.services import ServicesDep, blocking

GameFilter = Annotated[
    str | None,
    QueryParameter(
        name="game", required=False, max_length=40, description="only tables of this game"
    ),
]


@post(
    "/tables", status_code=201, summary="Create a table", responses=documented(400, 403, 422, 503)
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
    responses=documented(400, 404, 409, 422, 503),
)
async def take_seat(
    table_id: TableId, data: JSONBody[TakeSeat], services: ServicesDep
) -> SeatTaken:
    """Sit down (the first free seat, or ``seat``). The answer holds the seat's secret bearer
    token, shown only this once; the hand starts when every seat is filled."""
    return await blocking(writes.take_seat, services, table_id, data)


@get("/tables", summary="Lobby", responses=documented(400, 422, 503))
async def lobby(
    services: ServicesDep, game: GameFilter = None, after: AfterPosition = None
) -> list[dict[str, Any]]:
    """The open tables (waiting for players or playing), oldest first, from the read
    models; ended tables leave the lobby. ``?game=`` keeps one registered game's tables;
    ``?after=`` (e.g. the ``position`` a create answered) waits, bounded, until the lobby has
    caught up with it."""
    return await reads.after(services, after, reads.lobby, game)


ROUTES = [create_table, take_seat, lobby]
