"""Request parameters shared by the controllers (headers and queries of design §5)."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from litestar.params import HeaderParameter, PathParameter, QueryParameter

Authorization = Annotated[
    str | None,
    HeaderParameter(
        name="Authorization",
        required=False,
        max_length=300,
        description="`Bearer <token>` from taking a seat; without it you are a spectator",
    ),
]
IdempotencyKey = Annotated[
    str | None,
    HeaderParameter(
        name="Idempotency-Key",
        required=False,
        min_length=1,
        max_length=190,  # the store allows 200; "seat<n>:" is prefixed
        description="a retried key returns the first result and writes nothing",
    ),
]
AfterPosition = Annotated[
    int | None,
    QueryParameter(
        name="after",
        required=False,
        ge=0,
        le=2**62,
        description="wait (bounded) until the read models have reached this log position",
    ),
]
TableId = Annotated[UUID, PathParameter(description="the table's id (a UUID)")]
