"""Request parameters shared by the controllers (headers and queries of design §5).

Every header and query here is optional: leaving it out means the default behaviour.
"""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import urlencode
from uuid import UUID

from litestar import MediaType, Request, Response
from litestar.params import HeaderParameter, PathParameter, QueryParameter

MAX_POSITION = 2**62  # log positions and table versions (JSON integers, far beyond any log)
_ASCII_DIGITS = frozenset("0123456789")


def ascii_integer(text: str | bytes, *, max_digits: int = 18) -> int | None:
    """``text`` as a non-negative integer when it is 1 to ``max_digits`` ASCII digits, else
    ``None``. Never ``str.isdigit``: it is true of superscripts and other digits (``²``,
    ``①``) that ``int`` refuses or reads as another number (``٣`` is 3)."""
    if isinstance(text, bytes):
        text = text.decode("latin-1")
    if not 0 < len(text) <= max_digits or not _ASCII_DIGITS.issuperset(text):
        return None
    return int(text)


def optional_header(
    name: str, description: str, *, min_length: int | None = None, max_length: int
) -> Any:
    """An optional header ``name``; its length is bounded so no caller can send a huge one."""
    return HeaderParameter(
        name=name,
        required=False,
        min_length=min_length,
        max_length=max_length,
        description=description,
    )


def optional_position(name: str, description: str, *, ge: int) -> Any:
    """An optional query ``name`` holding a log position or table version from ``ge`` on."""
    return QueryParameter(
        name=name, required=False, ge=ge, le=MAX_POSITION, description=description
    )


MAX_AUTHORIZATION = 300
MAX_IDEMPOTENCY_KEY = 190  # the store allows 200; "seat<n>:" is prefixed

Authorization = Annotated[
    str | None,
    optional_header(
        "Authorization",
        "`Bearer <token>` from taking a seat; without it you are a spectator",
        max_length=MAX_AUTHORIZATION,
    ),
]
IdempotencyKey = Annotated[
    str | None,
    optional_header(
        "Idempotency-Key",
        "a retried key returns the first result and writes nothing",
        min_length=1,
        max_length=MAX_IDEMPOTENCY_KEY,
    ),
]
LastEventId = Annotated[
    str | None,
    optional_header("Last-Event-ID", "resume after this event version", max_length=30),
]
AfterPosition = Annotated[
    int | None,
    optional_position(
        "after", "wait (bounded) until the read models have reached this log position", ge=0
    ),
]
StreamFrom = Annotated[
    int | None,
    optional_position("from", "first version to send (default: only new events)", ge=1),
]
TableId = Annotated[UUID, PathParameter(description="the table's id (a UUID)")]


def paged(
    request: Request[Any, Any, Any], lines: Any, page: dict[str, Any], media_type: str | None = None
) -> Response[Any]:
    """A page of ``lines`` (JSON, or a body already encoded as ``media_type``), with the next
    page's URL in ``Link: <…>; rel="next"``: the request's path and filters with ``page``'s
    parameters (e.g. a cursor); no link when ``page`` holds only ``None`` (the last page)."""
    media = media_type or MediaType.JSON
    if all(value is None for value in page.values()):
        return Response(lines, media_type=media)
    merged = {**dict(request.query_params), **page}
    target = urlencode({key: value for key, value in merged.items() if value is not None})
    link = f'<{request.url.path}?{target}>; rel="next"'
    return Response(lines, media_type=media, headers={"Link": link})


PageLimit = Annotated[
    int,
    QueryParameter(name="limit", required=False, ge=1, le=200, description="lines per page"),
]
Cursor = Annotated[
    str | None,
    QueryParameter(
        name="cursor",
        required=False,
        min_length=1,
        max_length=120,
        description="the next page's cursor (from the `Link` header of the previous page)",
    ),
]
