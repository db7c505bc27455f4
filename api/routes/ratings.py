"""Profiles and leaderboards (design §2.2; the service layer is :mod:`api.ratings`). A browser
asking for HTML gets the web page of the same address (``players.js``, ``leaderboard.js``)."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Request, Response, get
from litestar.params import PathParameter, QueryParameter

from api import ratings, reads
from api.params import AfterPosition, Cursor, PageLimit, paged
from api.problems import documented
from api.services import ServicesDep
from api.webpage import page, wants_html

AccountName = Annotated[str, PathParameter(min_length=1, max_length=64, description="a name")]
Game = Annotated[
    str | None,
    QueryParameter(name="game", required=False, max_length=40, description="the game (required)"),
]
Pool = Annotated[
    str,
    QueryParameter(
        name="pool", required=False, max_length=10, description="`players` (default) or `bots`"
    ),
]


@get("/players/{name:str}", summary="A player's profile", responses=documented(400, 404, 503))
async def player(
    request: Request[Any, Any, Any],
    name: AccountName,
    services: ServicesDep,
    after: AfterPosition = None,
) -> Response[Any]:
    """An account's name, kind (``player``, ``guest``, ``bot:<kind>``) and its rating per
    game: μ, σ, the displayed ordinal (μ − 3σ) and the hands rated. ``?after=`` waits,
    bounded, for the ratings to reach a log position."""
    if wants_html(request.headers.get("accept", "")):
        return page(f"cardroom — {name}", "players.js")
    return Response(await reads.after(services, after, ratings.profile, name))


@get("/leaderboard", summary="Leaderboard", responses=documented(400, 503))
async def leaderboard(
    request: Request[Any, Any, Any],
    services: ServicesDep,
    game: Game = None,
    pool: Pool = "players",
    limit: PageLimit = 50,
    cursor: Cursor = None,
    after: AfterPosition = None,
) -> Response[Any]:
    """A page of a game's ratings, highest ordinal first: ``{"name", "mu", "sigma",
    "ordinal", "hands"}``; the next page's URL in ``Link``. ``?pool=bots``: the bots'."""
    if wants_html(request.headers.get("accept", "")):
        return page("cardroom — leaderboard", "leaderboard.js")
    found = await reads.after(services, after, ratings.leaderboard, game, pool, limit, cursor)
    return paged(request, found[0], {"cursor": found[1]})


ROUTES = [player, leaderboard]
