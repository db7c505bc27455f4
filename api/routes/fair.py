"""Provably fair deals (design §5): check a hand's deck against its published commitment.

Each ``Dealt`` event publishes ``commitment`` = SHA-256 of the deck order and a secret salt
(:func:`domain.cards.deck_commitment`). When the hand settles, the settlement reveals the deck
and the salt; from then on (table option ``reveal``: ``after_hand``) anyone can recompute the
commitment and see that the deal was fixed before play. Before that only the commitment is
shown. Spectators are held ``spectator_delay`` events behind here as everywhere
(:meth:`infra.queries.TableQueries.verify`).
"""

from __future__ import annotations

from typing import Annotated

from litestar import get
from litestar.params import PathParameter

from api import reads
from api.params import Authorization, TableId
from api.problems import documented
from api.schemas import Verification
from api.services import ServicesDep, blocking

HandNumber = Annotated[int, PathParameter(ge=1, le=2**31, description="the hand (1, 2, …)")]


@get(
    "/tables/{table_id:str}/hands/{n:int}/verify",
    summary="Verify a deal",
    responses=documented(400, 401, 404, 503),
)
async def verify(
    table_id: TableId, n: HandNumber, services: ServicesDep, authorization: Authorization = None
) -> Verification:
    """The commitment published with hand ``n``'s deal; once the hand has settled (and the
    table reveals hands) its deck and salt, and ``valid``: whether SHA-256 of them matches."""
    return await blocking(reads.verify, services, table_id, authorization, n)


ROUTES = [verify]
