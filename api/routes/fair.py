"""Provably fair deals (design §5): check a hand's deck against its published commitment.

Each ``Dealt`` event publishes ``commitment`` = SHA-256 of the deck order and a secret salt
(:func:`domain.cards.deck_commitment`). When the hand settles, the settlement reveals the deck
and the salt; from then on (table option ``reveal``: ``after_hand``) anyone can recompute the
commitment and see that the deal was fixed before play. Before that only the commitment is
shown. Spectators are held ``spectator_delay`` events behind here as everywhere.
"""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from litestar import get
from litestar.params import PathParameter

from api.auth import caller_seat
from api.params import Authorization, TableId
from api.problems import ApiProblem, documented
from api.schemas import Verification
from api.services import Services, ServicesDep, blocking
from domain.cards import deck_commitment
from domain.game import Viewer

SCAN_CHUNK = 512  # events read at a time while looking for a hand

HandNumber = Annotated[int, PathParameter(ge=1, le=2**31, description="the hand (1, 2, …)")]


def _hand_events(
    services: Services, table_id: UUID, hand: int, visible: int
) -> tuple[Any | None, Any | None]:
    """The hand's ``Dealt`` and settling events among the first ``visible`` versions, read in
    chunks that stop at the settlement or at the next hand."""
    game = services.facts(table_id).game
    dealt = None
    start = 1
    while start <= visible:
        chunk = services.store.events(table_id, start, min(visible, start + SCAN_CHUNK - 1))
        if not chunk:
            break
        for recorded in chunk:
            event = recorded.event
            event_hand = game.hand_of(event)
            if event_hand > hand:
                return dealt, None
            if event_hand != hand:
                continue
            if dealt is None and type(event).__name__ == "Dealt":
                dealt = event
            if game.settles_hand(event):
                return dealt, event
        start = chunk[-1].version + 1
    return dealt, None


def verify_hand(services: Services, table_id: UUID, viewer: Viewer, hand: int) -> Verification:
    facts = services.facts(table_id)
    head = services.store.get(table_id)
    visible = facts.visible_version(viewer, head.version)
    dealt, settlement = _hand_events(services, table_id, hand, visible)
    if dealt is None:
        raise ApiProblem(
            404, "hand-not-dealt", f"hand {hand} has not been dealt at this table", field="n"
        )
    commitment = str(dealt.commitment)
    settled = settlement is not None
    revealed = settled and facts.reveal == "after_hand"
    if not revealed:
        return Verification(
            table_id=str(table_id), hand=hand, commitment=commitment, settled=settled,
            revealed=False,
        )  # fmt: skip
    # The settlement repeats deck and salt; the deal's own record is the fallback.
    deck = list(getattr(settlement, "deck", None) or dealt.deck)
    salt = str(getattr(settlement, "salt", None) or dealt.salt)
    return Verification(
        table_id=str(table_id),
        hand=hand,
        commitment=commitment,
        settled=True,
        revealed=True,
        deck=deck,
        salt=salt,
        valid=deck_commitment(deck, salt) == commitment,
    )


@get(
    "/tables/{table_id:uuid}/hands/{n:int}/verify",
    summary="Verify a deal",
    responses=documented(400, 401, 404, 503),
)
async def verify(
    table_id: TableId, n: HandNumber, services: ServicesDep, authorization: Authorization = None
) -> Verification:
    """The commitment published with hand ``n``'s deal; once the hand has settled (and the
    table reveals hands) its deck and salt, and ``valid``: whether SHA-256 of them matches."""
    viewer = await caller_seat(services, table_id, authorization)
    return await blocking(verify_hand, services, table_id, viewer, n)


ROUTES = [verify]
