"""Hand reviews (design §9.4): what the search bot would have played, stored per hand
and seat, and the queue of reviews asked for.

==========================================  =====  ===========================================
key                                         type   holds
==========================================  =====  ===========================================
``{p}review:{<id>}:{hand}:{seat}``          str    one seat's review of one settled hand, JSON
``{p}reviews:{jobs}``                       zset   reviews asked for and not yet stored
                                                   (member ``<id>:<hand>:<seat>``, score: when
                                                   the worker may take it, epoch seconds)
==========================================  =====  ===========================================

Unlike the projector's read models a review is not folded from the events alone: the reviewer
(:mod:`managers.reviewer`) computes it with the search bot, seeded from the table, hand and
seat, so the same store and budget give the same review, and stores it once. Its keys live
outside ``table:``, in the table's hash tag (``{<id>}``), so ``cardroom rebuild`` leaves them
alone (they are not the projector's) and a table's reviews share its cluster slot.

A job stays in the queue while it is worked on and leaves it only once its review is stored
(:meth:`Reviews.store`), so a worker that dies mid-review leaves it for the next one; asking
again for a review already queued changes nothing (``ZADD NX``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, cast
from uuid import UUID

import msgspec
import redis

encode = msgspec.json.Encoder(order="deterministic").encode
decode = msgspec.json.Decoder().decode


@dataclass(frozen=True, slots=True)
class Job:
    """One review asked for: seat ``seat``'s decisions in hand ``hand`` of ``table_id``."""

    table_id: UUID
    hand: int
    seat: int

    @property
    def member(self) -> str:
        return f"{self.table_id}:{self.hand}:{self.seat}"

    @classmethod
    def parse(cls, member: str | bytes) -> Job | None:
        """The job a queue member names (None: not one of ours)."""
        text = member.decode(errors="replace") if isinstance(member, bytes) else member
        table, _, rest = text.partition(":")
        hand, _, seat = rest.partition(":")
        try:
            return cls(UUID(table), int(hand), int(seat))
        except ValueError:
            return None


class Reviews:
    """The reviews under ``prefix`` on ``client`` (a ``decode_responses=False`` client) and
    the queue of those asked for (the module docstring)."""

    def __init__(self, client: redis.Redis, prefix: str) -> None:
        if "{" in prefix or "}" in prefix:
            raise ValueError(f"a key prefix may not hold braces (hash tags): {prefix!r}")
        self._redis = client
        self.prefix = prefix
        self.jobs_key = f"{prefix}reviews:{{jobs}}"

    def key(self, job: Job) -> str:
        """The review's key, in its table's slot."""
        return f"{self.prefix}review:{{{job.table_id}}}:{job.hand}:{job.seat}"

    def read(self, job: Job) -> dict[str, Any] | None:
        """The stored review, None while it is not computed."""
        raw = self._redis.get(self.key(job))
        return None if raw is None else decode(raw)

    def ask(self, job: Job, now: float | None = None) -> None:
        """Queue ``job`` unless it is queued already (its place is kept)."""
        when = time.time() if now is None else now
        self._redis.zadd(self.jobs_key, {job.member: when}, nx=True)

    def queued(self, job: Job) -> bool:
        return self._redis.zscore(self.jobs_key, job.member) is not None

    def next_job(self, now: float | None = None) -> Job | None:
        """The oldest job the worker may take now (it stays queued until stored)."""
        when = time.time() if now is None else now
        found = self._redis.zrangebyscore(self.jobs_key, "-inf", when, start=0, num=8)
        for member in cast(list[bytes], found):
            job = Job.parse(member)
            if job is not None:
                return job
            self._redis.zrem(self.jobs_key, member)  # not a job: drop it
        return None

    def defer(self, job: Job, until: float) -> None:
        """Put ``job`` back for later (its review failed; the worker tries again then)."""
        self._redis.zadd(self.jobs_key, {job.member: until}, xx=True)

    def drop(self, job: Job) -> None:
        """Forget ``job`` without a review (e.g. its table is gone)."""
        self._redis.zrem(self.jobs_key, job.member)

    def store(self, job: Job, review: dict[str, Any]) -> None:
        """Store ``review``, then take its job off the queue (two keys of two slots: one after
        the other, so a reader never finds neither)."""
        self._redis.set(self.key(job), encode(review))
        self._redis.zrem(self.jobs_key, job.member)
