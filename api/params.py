"""Request parameters shared by the controllers (headers and queries of design §5).

Every header and query here is optional: leaving it out means the default behaviour.
"""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from litestar.params import HeaderParameter, PathParameter, QueryParameter

MAX_POSITION = 2**62  # log positions and table versions (JSON integers, far beyond any log)


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


Authorization = Annotated[
    str | None,
    optional_header(
        "Authorization",
        "`Bearer <token>` from taking a seat; without it you are a spectator",
        max_length=300,
    ),
]
IdempotencyKey = Annotated[
    str | None,
    optional_header(
        "Idempotency-Key",
        "a retried key returns the first result and writes nothing",
        min_length=1,
        max_length=190,  # the store allows 200; "seat<n>:" is prefixed
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
