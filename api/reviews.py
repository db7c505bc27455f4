"""What the review route calls (design §9.4): one seat's review of one settled hand.

A review is computed off the request path by the reviewer (:mod:`managers.reviewer`) and
stored (:class:`projections.reviews.Reviews`); asking for one not stored yet queues it and
answers 202 with ``Retry-After``. Who may read it: the seat itself (its token), or anyone once
the hand's cards are public (settled as the caller may see it, ``spectator_delay`` holding
spectators behind, and the table's ``reveal`` is ``after_hand``) — a review lists the seat's
cards, so it shows nothing the caller could not already see.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from api.auth import viewer_of
from api.malformed import MALFORMED
from api.problems import ApiProblem
from api.services import Services
from infra.errors import HandNotDealt
from projections.reviews import Job, Reviews

RETRY_AFTER = 1  # seconds a client waits before asking again for a review being computed


@dataclass(frozen=True, slots=True)
class Answer:
    """A review (200) or word that it is being computed (202, with ``Retry-After``)."""

    status: int
    body: dict[str, Any]
    retry_after: int | None = None


def hand_review(
    services: Services, table_id: UUID, hand: int, seat: int, authorization: str | None
) -> Answer:
    """Seat ``seat``'s review of hand ``hand``: 404 for an unknown table or a hand not dealt,
    400 naming ``seat`` for a seat the table does not have, 409 ``hand-in-play`` while the
    hand is in play, 404 ``review-unavailable`` for a game without a search bot, 403
    ``hand-not-revealed`` when the seat's cards are not the caller's to see; else the stored
    review, or 202 while it is computed."""
    viewer = viewer_of(services, table_id, authorization)
    facts = services.queries.facts(table_id)
    version, hands = services.store.hands(table_id)
    seats = facts.game.seating(services.store.get(table_id).state).seats
    if not 0 <= seat < seats:
        raise ApiProblem(400, MALFORMED, f"this table has seats 0 to {seats - 1}", field="seat")
    span = hands.span(hand, facts.visible_version(viewer, version))
    if span is None or span.dealt is None:
        raise HandNotDealt(f"hand {hand} has not been dealt at this table")
    if span.settled is None:
        raise ApiProblem(409, "hand-in-play", f"hand {hand} is still in play; its review "
                         "can be asked for once it has settled", field="n")  # fmt: skip
    if facts.game.house.bots.search is None:
        raise ApiProblem(404, "review-unavailable", f"{facts.game.title} has no search bot to "
                         "review a hand with yet")  # fmt: skip
    if viewer != seat and not facts.reveals(hand, {hand}):
        raise ApiProblem(403, "hand-not-revealed", f"seat {seat}'s cards of hand {hand} are "
                         "not shown to you (option reveal: never); ask with that seat's token",
                         field="seat")  # fmt: skip
    job = Job(table_id, hand, seat)
    reviews = Reviews(services.redis.client, services.settings.redis_prefix)
    found = reviews.read(job)
    if found is not None:
        return Answer(200, found)
    reviews.ask(job)
    pending = {"tableId": str(table_id), "hand": hand, "seat": seat, "status": "pending"}
    return Answer(202, pending, RETRY_AFTER)
