"""Tables and seats: create a table, take a seat, the lobby (design §5)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from litestar import get, post
from litestar.params import JSONBody, QueryParameter

from api.params import AfterPosition, TableId
from api.problems import ApiProblem, documented
from api.routes.views import wait_for_projection
from api.schemas import CreateTable, SeatTaken, TableCreated, TakeSeat
from api.services import ServicesDep, blocking
from domain.cards import CardError, card
from domain.games import game_named


def _canonical_decks(decks: list[list[str]]) -> list[list[str]]:
    """Stacked decks with every code checked and written canonically; a bad code is named
    by its place (``decks[0][7]``)."""
    out: list[list[str]] = []
    for h, deck in enumerate(decks):
        row = []
        for i, code in enumerate(deck):
            try:
                row.append(card(code).code)
            except CardError as error:
                where = f"decks[{h}][{i}]"
                raise ApiProblem(422, "invalid-card", f"{where}: {error}", field=where) from None
        out.append(row)
    return out


@post(
    "/tables", status_code=201, summary="Create a table", responses=documented(400, 403, 422, 503)
)
async def create_table(data: JSONBody[CreateTable], services: ServicesDep) -> TableCreated:
    """Open a Bourré or Burraco table with the spec's options (validated per game; an
    unknown key or a bad value is named in the problem's ``option``). ``decks`` stacks the
    decks of hands 1, 2, … (index 0 = top) and is refused with 403 unless the server runs with
    ``CARDROOM_ALLOW_STACKED_DECKS=1``."""
    game_named(data.game)  # 422 naming 'game' before anything else
    decks = None
    if data.decks is not None:
        if not services.settings.allow_stacked_decks:
            raise ApiProblem(
                403,
                "stacked-decks-off",
                "stacked decks are disabled on this server (CARDROOM_ALLOW_STACKED_DECKS=1)",
                field="decks",
            )
        decks = _canonical_decks(data.decks)
    result = await blocking(
        services.store.create_table, data.game, data.options, seed=data.seed, decks=decks
    )
    return TableCreated(
        table_id=str(result.table_id),
        game=data.game,
        version=result.version,
        position=result.position,
    )


@post(
    "/tables/{table_id:uuid}/seats",
    status_code=201,
    summary="Take a seat",
    responses=documented(400, 404, 409, 422, 503),
)
async def take_seat(
    table_id: TableId, data: JSONBody[TakeSeat], services: ServicesDep
) -> SeatTaken:
    """Sit down (the first free seat, or ``seat``). The answer holds the seat's secret bearer
    token, shown only this once; the hand starts when every seat is filled."""
    await blocking(services.facts, table_id)  # 404 for an unknown table
    seat, token, result = await blocking(
        services.store.take_seat, table_id, data.name.strip(), data.seat
    )
    return SeatTaken(
        table_id=str(table_id),
        seat=seat,
        token=token,
        version=result.version,
        position=result.position,
    )


GameFilter = Annotated[
    Literal["bourre", "burraco"] | None,
    QueryParameter(name="game", required=False, description="only tables of this game"),
]


@get("/tables", summary="Lobby", responses=documented(400, 422, 503))
async def lobby(
    services: ServicesDep, game: GameFilter = None, after: AfterPosition = None
) -> list[dict[str, Any]]:
    """The open tables (waiting for players or playing), oldest first, from the read
    models; ended tables leave the lobby. ``?after=`` (e.g. the ``position`` a create
    answered) waits, bounded, until the lobby has caught up with it."""
    await blocking(wait_for_projection, services, after)
    return await blocking(services.read_models.lobby, game)


ROUTES = [create_table, take_seat, lobby]
