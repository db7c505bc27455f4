"""The reviewer: the process manager that computes hand reviews off the request path (design
§9.4).

``GET /tables/{id}/hands/{n}/review?seat=S`` answers a stored review, or queues the job and
answers 202 (:mod:`api.reviews`); the reviewer takes the queued jobs oldest first
(:class:`projections.reviews.Reviews`), replays the hand, asks the search bot for the value of
every move of each of the seat's decisions (:mod:`managers.hand_review`) and stores the review.
A job leaves the queue only once its review is stored, so a reviewer that dies mid-review
leaves it to the next; two reviewers on one job store the same review (the search is seeded
from the table, hand, seat and version). A review that fails is tried again a minute later.

With ``settled=True`` (``CARDROOM_REVIEW_SETTLED_HANDS=1``) it also follows the notification
log, as the bots' worker does (its own tracking position, ``{p}reviews:position``), and queues
the review of every person's seat (not a bot's) of each hand that settles, so those are ready
before anyone asks. Off by default: a review costs the search budget for every decision.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any
from uuid import UUID

from bots import search
from domain.table import PlayerSeated
from domain.table.leaving import SeatLeft
from infra.errors import TableNotFound
from managers.following import follow
from managers.hand_review import Evaluator, decisions, review
from projections.reviews import Job, Reviews

log = logging.getLogger(__name__)

BOT = "search"  # the bot whose values a review shows (GET /bots)
RETRY_SECONDS = 60.0  # a review that failed is tried again this much later
_TABLES_REMEMBERED = 10_000
_ADVANCE = """
local stored = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) > stored then redis.call('SET', KEYS[1], ARGV[1]) end
return redis.call('GET', KEYS[1])
"""


class NotReviewable(LookupError):
    """The hand asked for is not a settled hand of the table, or its game has no search."""


def searching(rounds: int) -> Evaluator:
    """The search bot's values (:func:`bots.search.evaluate`, ``every=True``) of every legal
    move, not only those it weighs when it plays, over exactly ``rounds`` determinizations a
    decision, whatever the time: the same on every machine. A move the rules accept without
    listing it gets no value (its decision is marked ``unvalued``)."""

    def evaluate(game: Any, state: Any, seat: int, moves: Any, rng: Any) -> search.Evaluation:
        return search.evaluate(state, seat, 0.0, rng, game=game, rounds=rounds, every=True)

    return evaluate


def reviewer_for(store: Any, redis_client: Any, settings: Any) -> Reviewer:
    """The reviewer of a deployment: the search bot at ``settings.review_rounds``, reviewing
    settled hands unasked when ``settings.review_settled_hands``."""
    rounds = settings.review_rounds
    return Reviewer(store, redis_client, settings.redis_prefix, evaluate=searching(rounds),
                    engine={"bot": BOT, "rounds": rounds},
                    settled=settings.review_settled_hands)  # fmt: skip


def compute(store: Any, job: Job, evaluate: Evaluator, engine: dict[str, Any]) -> dict[str, Any]:
    """Seat ``job.seat``'s review of hand ``job.hand``, from the store (the module docstring).
    Raises :class:`NotReviewable` for a hand not settled (or not dealt) at the table."""
    version, hands = store.hands(job.table_id)
    span = hands.span(job.hand, version)
    if span is None or span.settled is None:
        raise NotReviewable(f"hand {job.hand} of {job.table_id} has not settled")
    before = store.get(job.table_id, span.start - 1)
    game = before.game
    if game.house.bots.search is None:
        raise NotReviewable(f"{game.name} has no search bot to review with")
    if not 0 <= job.seat < game.seating(before.state).seats:
        raise NotReviewable(f"the table {job.table_id} has no seat {job.seat}")
    events = [r.event for r in store.events(job.table_id, span.start, span.settled)]
    found = decisions(game, before.state, events, job.seat, span.start)
    body = review(game, found, evaluate, table_id=job.table_id, hand=job.hand, seat=job.seat)
    return {"tableId": str(job.table_id), "game": game.name, "engine": engine, **body}


class Reviewer:
    """Computes the queued reviews of ``store``'s hands (see the module docstring)."""

    def __init__(
        self,
        store: Any,
        redis_client: Any,
        prefix: str,
        *,
        evaluate: Evaluator,
        engine: dict[str, Any],
        settled: bool = False,
        now: Callable[[], float] = time.time,
    ) -> None:
        self._store = store
        self._redis = redis_client
        self.reviews = Reviews(redis_client, prefix)
        self._evaluate = evaluate
        self._engine = engine
        self._settled = settled
        self._now = now
        self._position_key = f"{prefix}reviews:position"
        self._advance = redis_client.register_script(_ADVANCE)
        self._games: dict[UUID, Any] = {}  # each table's game, to ask which events settle

    def position(self) -> int:
        return int(self._redis.get(self._position_key) or 0)

    def run_once(self, limit: int = 200) -> int:
        """Queue the reviews of hands just settled (when asked to), then compute the oldest
        queued review; returns how much was handled."""
        handled = self._follow(limit) if self._settled else 0
        job = self.reviews.next_job(self._now())
        if job is None:
            return handled
        self.work(job)
        return handled + 1

    def run_forever(self, stop: threading.Event, poll_interval: float = 0.2) -> None:
        """Review until ``stop`` is set; errors are logged and retried with backoff."""
        follow(self.run_once, stop, poll_interval, "reviewer")

    def work(self, job: Job) -> None:
        """Compute and store ``job``'s review; a job that can never be reviewed is dropped,
        one that failed is put back for later."""
        try:
            body = compute(self._store, job, self._evaluate, self._engine)
        except (NotReviewable, TableNotFound) as error:
            log.info("review %s dropped: %s", job.member, error)
            self.reviews.drop(job)
            return
        except Exception:
            log.exception("review %s failed; tried again in %ss", job.member, RETRY_SECONDS)
            self.reviews.defer(job, self._now() + RETRY_SECONDS)
            return
        self.reviews.store(job, body)

    def _follow(self, limit: int) -> int:
        """Queue the people's seats' reviews of the hands the next notifications settle."""
        notes = self._store.notifications(self.position() + 1, limit)
        for note in notes:
            self._settles(note.table_id, note.event)
        if notes:
            self._advance(keys=[self._position_key], args=[notes[-1].position])
        return len(notes)

    def _settles(self, table_id: UUID, event: Any) -> None:
        game = self._games.get(table_id)
        if game is None:
            if len(self._games) >= _TABLES_REMEMBERED:
                self._games.clear()
            game = self._games[table_id] = self._store.get(table_id).game
        if not game.settles_hand(event):
            return
        table = self._store.get(table_id)
        hand = game.hand_of(event)
        for seat in people(game.seating(table.state).seats, self._store.events(table_id)):
            self.reviews.ask(Job(table_id, hand, seat), self._now())


def people(seats: int, events: Sequence[Any]) -> list[int]:
    """The seats a person holds after ``events`` (a table's stored events): every seat but
    those a bot took (``PlayerSeated.bot``) or took over (``SeatLeft.bot``)."""
    bots: set[int] = set()
    for recorded in events:
        if isinstance(recorded.event, PlayerSeated | SeatLeft):
            if recorded.event.bot is None:
                bots.discard(recorded.event.seat)
            else:
                bots.add(recorded.event.seat)
    return [seat for seat in range(seats) if seat not in bots]
