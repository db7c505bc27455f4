"""What the feed routes call: the public event feed and NDJSON answers (design §8,
"Analytics").

The feed is :class:`infra.feed.EventFeed` (the query service's spectator redaction); this module
reads its query (every parameter checked, unknown ones refused as the one ``malformed-request``
problem naming the parameter), renders NDJSON with a ``Link: rel="next"`` header, and follows
the log for ``follow=true``: woken by the projection's announcements through the process's one
position feed (:mod:`api.position_feed`; no follower polls), and reading the store every
``FALLBACK_POLL`` seconds in any case.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode
from uuid import UUID

import msgspec
from litestar import Response
from litestar.response import Stream

from api.params import ascii_integer
from api.problems import MALFORMED, ApiProblem
from api.services import Services, blocking
from domain.games import game_names
from infra.feed import DEFAULT_LIMIT, MAX_LIMIT, EventFeed, FeedFilter, FeedPage, event_types

NDJSON = "application/x-ndjson"
FEED_PARAMETERS = ("after", "limit", "follow", "game", "type", "tableId")
FALLBACK_POLL = 1.0  # seconds between store reads when the position does not move

_encode = msgspec.json.Encoder().encode


@dataclass(frozen=True, slots=True)
class FeedQuery:
    """A checked ``GET /events`` query."""

    after: int
    limit: int
    follow: bool
    wanted: FeedFilter

    def link(self, last: int) -> str:
        """The ``Link`` header of the page that ended at position ``last``."""
        query: dict[str, Any] = {"after": last, "limit": self.limit}
        for name, value in (
            ("game", self.wanted.game),
            ("type", self.wanted.type),
            ("tableId", self.wanted.table_id),
        ):
            if value is not None:
                query[name] = str(value)
        return f'</events?{urlencode(query)}>; rel="next"'


def _bad(parameter: str, detail: str) -> ApiProblem:
    return ApiProblem(400, MALFORMED, f"query parameter {parameter!r}: {detail}", field=parameter)


def _integer(query: Mapping[str, str], name: str, default: int, low: int) -> int:
    text = query.get(name)
    if text is None:
        return default
    number = ascii_integer(text)
    if number is None or number < low:
        raise _bad(name, f"expected an integer from {low} on, not {text!r}")
    return number


def _choice(query: Mapping[str, str], name: str, allowed: Iterable[str]) -> str | None:
    text = query.get(name)
    known = sorted(allowed)
    if text is not None and text not in known:
        raise _bad(name, f"expected one of {', '.join(known)}, not {text!r}")
    return text


def feed_query(params: Mapping[str, str], keys: Iterable[str]) -> FeedQuery:
    """``GET /events``'s query checked; ``limit`` is capped at :data:`MAX_LIMIT`."""
    for key in keys:
        if key not in FEED_PARAMETERS:
            raise _bad(key, f"unknown parameter; the feed takes {', '.join(FEED_PARAMETERS)}")
    game = _choice(params, "game", game_names())
    kind = _choice(params, "type", event_types(game))
    follow = _choice(params, "follow", ("true", "false")) == "true"
    table = params.get("tableId")
    try:
        table_id = UUID(table) if table is not None else None
    except ValueError:
        raise _bad("tableId", f"expected a table id (a UUID), not {table!r}") from None
    limit = min(_integer(params, "limit", DEFAULT_LIMIT, 1), MAX_LIMIT)
    return FeedQuery(
        _integer(params, "after", 0, 0), limit, follow, FeedFilter(game, kind, table_id)
    )


def ndjson(rows: Iterable[Any]) -> bytes:
    """One JSON document a line."""
    return b"".join(_encode(row) + b"\n" for row in rows)


def feed_page(services: Services, query: FeedQuery) -> tuple[bytes, dict[str, str]]:
    """One page of the feed as NDJSON and its headers (``Link: rel="next"``)."""
    page = _page(services, query.after, query)
    return ndjson(page.events), {"Link": query.link(page.last)}


def _page(services: Services, after: int, query: FeedQuery) -> FeedPage:
    return EventFeed(services.store, services.queries).page(after, query.limit, query.wanted)


async def follow(services: Services, query: FeedQuery) -> AsyncIterator[bytes]:
    """The feed from ``after`` on, then every new event as it is stored (until the client
    goes away)."""
    after = query.after
    feed = services.feed
    while True:
        seen = feed.position  # a move announced while the store is read: read again
        while True:
            page = await blocking(_page, services, after, query)
            after = page.last
            if page.events:
                yield ndjson(page.events)
            if len(page.events) < query.limit or page.held:
                break
        await feed.wait_for(seen + 1, FALLBACK_POLL)


async def answer(services: Services, query: FeedQuery) -> Response[Any]:
    """The feed's answer: a page with its ``Link``, or the endless stream of ``follow``."""
    if query.follow:
        return Stream(follow(services, query), media_type=NDJSON)
    body, headers = await blocking(feed_page, services, query)
    return Response(body, media_type=NDJSON, headers=headers)


def timeline_body(rows: list[dict[str, Any]], accept: str | None) -> tuple[Any, str | None]:
    """A timeline as JSON, or as NDJSON when the client asks for it (``Accept``)."""
    if accept is not None and NDJSON in accept:
        return ndjson(rows), NDJSON
    return rows, None
