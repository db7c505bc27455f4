"""The public event feed (design §8, "Analytics"): every table's events as spectators may see
them, NDJSON, paged by log position (the source is :mod:`api.feeds`)."""

from __future__ import annotations

from typing import Any

from litestar import Request, Response, get
from litestar.response import Stream

from api import feeds
from api.problems import documented
from api.services import ServicesDep, blocking


@get("/events", summary="Public event feed (NDJSON)", responses=documented(400, 503))
async def events(request: Request[Any, Any, Any], services: ServicesDep) -> Response[Any]:
    """Every table's events in log order, one JSON object a line (``position``, ``tableId``,
    ``game``, ``version``, ``type``, ``at`` and the public fields). Query: ``after`` (a log
    position), ``limit`` (capped), ``game``, ``type``, ``tableId``; ``follow=true`` streams new
    events as they are stored. The next page is in ``Link: rel="next"``."""
    params = request.query_params
    query = feeds.feed_query(params, params.keys())
    if query.follow:
        return Stream(feeds.follow(services, query), media_type=feeds.NDJSON)
    body, headers = await blocking(feeds.feed_page, services, query)
    return Response(body, media_type=feeds.NDJSON, headers=headers)


ROUTES = [events]
