"""The public event feed (design §8, "Analytics"): every table's events as spectators may see
them, NDJSON, in the order they became visible, paged by release (docs/analytics.md, "The
cursor"; the source is :mod:`api.feed_reads`)."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Request, Response, get
from litestar.params import QueryParameter

from api import feed_reads
from api.problems import documented
from api.services import ServicesDep


def _query(name: str, description: str) -> Any:
    """An optional feed query, documented; :func:`api.feed_reads.feed_query` checks its value."""
    return QueryParameter(name=name, required=False, max_length=100, description=description)


After = Annotated[str | None, _query("after", "a release (a line's `release`): the page after it")]
Limit = Annotated[str | None, _query("limit", f"events per page (capped, {feed_reads.MAX_LIMIT})")]
Follow = Annotated[str | None, _query("follow", "`true`: keep streaming new events")]
Game = Annotated[str | None, _query("game", "only this game's events")]
Type = Annotated[str | None, _query("type", "only events of this type (`HandSettled`)")]
TableFilter = Annotated[str | None, _query("tableId", "only this table's events")]


@get("/events", summary="Public event feed (NDJSON)", responses=documented(400, 429, 503))
async def events(
    request: Request[Any, Any, Any],
    services: ServicesDep,
    after: After = None,
    limit: Limit = None,
    follow: Follow = None,
    game: Game = None,
    kind: Type = None,
    table_id: TableFilter = None,
) -> Response[Any]:
    """Every table's events as spectators see them, in the order they became visible, one JSON
    object a line (``position``, ``tableId``, ``game``, ``version``, ``type``, ``at``, public
    fields, ``release``: the cursor ``after`` takes)."""
    query = feed_reads.feed_query(request.query_params, request.query_params.keys())
    return await feed_reads.answer(services, query)


ROUTES = [events]
