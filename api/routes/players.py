"""Player statistics, per-game totals and hand histories (design §8, "Analytics"; the source
is :mod:`api.stats`). Names are not identities: the answers say so in ``note``."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import get
from litestar.params import PathParameter

from api import stats
from api.params import TableId
from api.problems import documented
from api.services import ServicesDep, blocking

PlayerName = Annotated[str, PathParameter(min_length=1, max_length=32, description="a name")]
HandNumber = Annotated[int, PathParameter(ge=1, le=2**31, description="the hand (1, 2, …)")]


@get("/players/{name:str}/stats", summary="Player statistics", responses=documented(400, 404, 503))
async def player_stats(name: PlayerName, services: ServicesDep) -> dict[str, Any]:
    """A name's play over every table, per game: each game's own counters (hands, wins, chips
    or points, its feats), those never counted as 0."""
    return await blocking(stats.player_stats, services, name)


@get("/stats", summary="Per-game totals", responses=documented(503))
async def game_stats(services: ServicesDep) -> dict[str, Any]:
    """Per game: hands, every counter, and the figures the game derives from them (averages,
    rates)."""
    return await blocking(stats.game_stats, services)


@get(
    "/tables/{table_id:str}/hands/{n:int}/history",
    summary="Hand history",
    responses=documented(400, 404, 409, 503),
)
async def hand_history(table_id: TableId, n: HandNumber, services: ServicesDep) -> dict[str, Any]:
    """One settled hand told in order as a person reads it (``text``), with its public events;
    409 while the hand is in play."""
    return await blocking(stats.hand_history, services, table_id, n)


ROUTES = [player_stats, game_stats, hand_history]
