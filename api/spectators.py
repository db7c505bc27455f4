"""Who watches a table: the count of its open spectators' streams (design §5, issue 21).

A live stream opened without a seat token (``GET /tables/{id}/stream``) is a spectator's.
Every API process keeps its spectators in one Redis sorted set per table
(:meth:`projections.keys.Keys.spectators`, the table's hash tag): member a stream's random id,
score the end of its *lease* (epoch ms). A stream takes its lease when it opens, renews it
while it lives (at least every :data:`RENEW_S`, as its loop wakes for a delivery or a
keep-alive) and gives it back when it ends; a process that dies leaves leases that lapse on
their own. The count is the leases not yet past their end, whichever process holds them, so
``cardroom serve --workers N`` counts every worker's streams. Only the number ever leaves the
server. Nothing here is on the command path; when Redis does not answer, the stream goes on
uncounted (a warning is logged) and the count is a 503.
"""

from __future__ import annotations

import logging
import time
import uuid
from typing import Any
from uuid import UUID

from redis import RedisError

from projections.keys import Keys

log = logging.getLogger("cardroom.api")

LEASE_S = 60.0  # a stream's lease: it counts this long after its last renewal
RENEW_S = 15.0  # a stream renews its lease at least this often (the stream's keep-alive)

# KEYS[1] the table's spectators; ARGV: now ms, lease end ms, member, lease ms.
# Drops the lapsed leases, adds or renews the member's, and keeps the set as long as its
# newest lease (every lease ends at most a lease from now).
TAKE_LEASE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
"""


def _now_ms() -> int:
    return int(time.time() * 1000)


class Spectators:
    """The spectators' leases of every table, in the Redis of ``client`` under ``prefix``.

    Synchronous (the project's Redis client): call it from a worker thread."""

    def __init__(self, client: Any, prefix: str) -> None:
        self.client = client
        self.keys = Keys(prefix)
        self._take = client.register_script(TAKE_LEASE)

    def join(self, table_id: UUID) -> str:
        """A new stream of ``table_id`` watches: its lease's member (counted unless Redis
        does not answer)."""
        member = uuid.uuid4().hex
        self.renew(table_id, member)
        return member

    def renew(self, table_id: UUID, member: str) -> None:
        """Keep ``member``'s lease (a stream still open) for another :data:`LEASE_S`."""
        now = _now_ms()
        lease = int(LEASE_S * 1000)
        try:
            self._take(
                keys=[self.keys.spectators(table_id)], args=[now, now + lease, member, lease]
            )
        except (RedisError, OSError) as error:
            log.warning(
                "spectators of %s not counted while Redis does not answer: %s", table_id, error
            )

    def leave(self, table_id: UUID, member: str) -> None:
        """``member``'s stream has ended: it no longer counts."""
        try:
            self.client.zrem(self.keys.spectators(table_id), member)
        except (RedisError, OSError) as error:  # else its lease lapses on its own
            log.warning("spectator of %s left uncounted: %s", table_id, error)

    def count(self, table_id: UUID) -> int:
        """How many spectators' streams of ``table_id`` are open (leases not past their end)."""
        return int(self.client.zcount(self.keys.spectators(table_id), f"({_now_ms()}", "+inf"))
