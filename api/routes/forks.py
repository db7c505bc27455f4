"""Forks (design §9.3): a sandbox table from any position of a table, as the caller saw it."""

from __future__ import annotations

from litestar import post
from litestar.params import JSONBody

from api import forks
from api.params import Authorization, TableId
from api.problems import documented
from api.services import ServicesDep, blocking


@post(
    "/tables/{table_id:str}/fork",
    status_code=201,
    summary="Fork a table (play from here)",
    responses=documented(400, 401, 404, 409, 413, 422, 429, 503),
)
async def fork_table(
    table_id: TableId,
    data: JSONBody[forks.ForkBody],
    services: ServicesDep,
    authorization: Authorization = None,
) -> forks.ForkCreated:
    """Open a sandbox table starting at version ``at`` as the caller saw it (with a seat's
    token: its cards and everything public; without: the public record, only at versions a
    spectator may see), every card the caller could not see dealt anew, and the caller playing
    ``seat`` against bots (the answer's ``token``, shown once). The fork is marked ``forkOf``
    and ``at`` in its views, never rated and never counted in statistics."""
    return await blocking(forks.fork, services, table_id, authorization, data)


ROUTES = [fork_table]
