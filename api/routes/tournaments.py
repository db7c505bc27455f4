"""Tournaments (design §10; the service layer is :mod:`api.tournaments`): create one, enter
it, start it, read it, its standings and a board's traveller. A browser asking for HTML gets
the web page of the same address (``tournaments.js``, ``tournament.js``)."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from litestar import MediaType, Request, Response, get, post
from litestar.params import JSONBody, PathParameter

from api import reads, tournaments
from api.accounts import session_of
from api.params import AfterPosition
from api.problems import documented
from api.services import ServicesDep, blocking
from api.webpage import page, wants_html

TournamentId = Annotated[UUID, PathParameter(description="the tournament's id")]
BoardNumber = Annotated[int, PathParameter(ge=1, le=10_000, description="the board (1, 2, …)")]


@post(
    "/tournaments", status_code=201, summary="Create a tournament", responses=documented(400, 422)
)
async def create(data: JSONBody[tournaments.CreateBody], services: ServicesDep) -> dict[str, Any]:
    """``{"game", "format": "duplicate"|"swiss"|"sit-and-go", "options", "rounds",
    "boardsPerRound", "tables", "bots"}`` → the tournament, waiting for entries."""
    return await blocking(tournaments.create, services, data)


@post(
    "/tournaments/{tournament_id:uuid}/entries",
    status_code=201,
    summary="Enter a tournament",
    responses=documented(400, 404, 409, 422),
)
async def enter(
    request: Request[Any, Any, Any],
    tournament_id: TournamentId,
    services: ServicesDep,
    data: JSONBody[tournaments.EntryBody | None] = None,
) -> dict[str, Any]:
    """A player (``name``) or a pair (``names``): the entry and each member's seat token.
    Signed in, an empty body enters the account under its name."""
    session = session_of(request.headers, request.cookies, write=True)
    body = data or tournaments.EntryBody()
    return await blocking(tournaments.enter, services, tournament_id, body, session)


@post(
    "/tournaments/{tournament_id:uuid}/start",
    status_code=200,
    summary="Start a tournament",
    responses=documented(400, 404, 409),
)
async def start(tournament_id: TournamentId, services: ServicesDep) -> dict[str, Any]:
    """Bots fill every free place (if the organiser chose a kind); round 1 is seated."""
    return await blocking(tournaments.start, services, tournament_id)


@get("/tournaments", summary="Tournaments", responses=documented(503))
async def listing(request: Request[Any, Any, Any], services: ServicesDep) -> Response[Any]:
    """Every tournament, newest first."""
    if wants_html(request.headers.get("accept", "")):
        return page("cardroom — tournaments", "tournaments.js")
    return Response(await blocking(tournaments.listing, services))


@get("/tournaments/{tournament_id:uuid}", summary="A tournament", responses=documented(400, 404))
async def tournament(
    request: Request[Any, Any, Any], tournament_id: TournamentId, services: ServicesDep
) -> Response[Any]:
    """Its entries, rounds and tables, standings of the ended rounds and boards open so far."""
    if wants_html(request.headers.get("accept", "")):
        return page("cardroom — tournament", "tournament.js")
    return Response(await blocking(tournaments.tournament, services, tournament_id))


@get(
    "/tournaments/{tournament_id:uuid}/standings",
    summary="Standings",
    responses=documented(400, 404, 422, 503),
)
async def standings(
    tournament_id: TournamentId, services: ServicesDep, after: AfterPosition = None
) -> Response[Any]:
    """The standings read model: the ended rounds only. ``?after=`` waits for a position."""
    found = await reads.after(services, after, tournaments.standings, tournament_id)
    media = MediaType.JSON if isinstance(found, bytes) else None
    return Response(found, media_type=media)


@get(
    "/tournaments/{tournament_id:uuid}/boards/{n:int}",
    summary="A board's traveller",
    responses=documented(400, 403, 404),
)
async def board(
    tournament_id: TournamentId, n: BoardNumber, services: ServicesDep
) -> dict[str, Any]:
    """403 until every table of its round has finished it; then its deck, salt and
    commitment and every table's result on it."""
    return await blocking(tournaments.traveller, services, tournament_id, n)


ROUTES = [create, enter, start, listing, tournament, standings, board]
