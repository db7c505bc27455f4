"""Hand reviews (design §9.4): ``GET /tables/{id}/hands/{n}/review?seat=S``, what the
search bot would have played at each of seat S's decisions (the source is :mod:`api.reviews`),
and the review page ``/review/{id}/{n}?seat=S`` that shows it beside the hand's replay."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Response, get
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import PathParameter, QueryParameter

from api import reviews
from api.params import Authorization, TableId
from api.problems import documented
from api.services import ServicesDep, blocking
from api.webpage import page

HandNumber = Annotated[int, PathParameter(ge=1, le=2**31, description="the hand (1, 2, …)")]
Seat = Annotated[int, QueryParameter(ge=0, le=63, description="the seat reviewed")]


@get(
    "/tables/{table_id:str}/hands/{n:int}/review",
    summary="Hand review",
    responses={
        202: ResponseSpec(
            dict[str, Any],
            description="being computed: ask again after `Retry-After`",
            generate_examples=False,
        ),
        **documented(400, 401, 403, 404, 409, 503),
    },
)
async def hand_review(
    table_id: TableId, n: HandNumber, seat: Seat, services: ServicesDep,
    authorization: Authorization = None,
) -> Response[dict[str, Any]]:  # fmt: skip
    """Seat ``seat``'s decisions in hand ``n``: each legal move with the search bot's value
    (from the seat's information only), the move played and its loss, and a summary; 202 with
    ``Retry-After`` while it is computed, 409 while the hand is in play."""
    answer = await blocking(reviews.hand_review, services, table_id, n, seat, authorization)
    retry = {"Retry-After": str(answer.retry_after)} if answer.retry_after else None
    return Response(answer.body, status_code=answer.status, headers=retry)


@get("/review/{table_id:uuid}/{n:int}", include_in_schema=False)
async def review_page(table_id: TableId, n: HandNumber) -> Response[str]:
    """The review page: the hand replayed for one seat (``?seat=S``), each decision marked."""
    return page("cardroom — review", "review.js")


ROUTES = [hand_review, review_page]
