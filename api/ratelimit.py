"""Rate limits per client address, shared by every API process (design §5, "Limits").

Budgets come from ``CARDROOM_RATE_LIMITS`` (:mod:`infra.limits`): table creation, seat taking
and commands each have ``count`` requests per ``seconds`` window; past it the answer is a 429
``rate-limited`` problem with ``Retry-After`` (the seconds left in the window). Long-lived answers
— a table's live stream and the feed's ``follow=true`` — are capped together by how many one
client holds open at once (429 as well).

The counts live in Redis, so every API process behind a balancer spends the same budget:

* a window is one key, counted by a Lua script (``INCR``, and ``PEXPIRE`` on the first hit;
  one atomic step, so racing processes never lose a count or leave a key without expiry);
* open streams are a sorted set of leases (member: the stream, score: its lease's end),
  renewed while the stream lives and removed when it ends; a process that dies leaves leases
  that expire on their own;
* every key of one client holds the hash tag ``{client address}``, so on a Redis Cluster all
  of one client's counters share a slot.

The limiter is ASGI middleware: it runs after routing, so it knows the route's template, and
answers through the API's problem handlers. When Redis does not answer, requests pass
unlimited (and a warning is logged): the write side never needs Redis, and a limit must not
take the tables down with it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from typing import Any
from urllib.parse import parse_qsl

from litestar.types import ASGIApp, Receive, Scope, Send
from redis import RedisError

from api.problems import ApiProblem

log = logging.getLogger("cardroom.api")

# The route templates that spend a budget, by (method, template).
WINDOWED = {
    ("POST", "/tables"): "tables",
    ("POST", "/tables/{table_id}/seats"): "seats",
    ("POST", "/tables/{table_id}/commands"): "commands",
}
STREAMS = ("GET", "/tables/{table_id}/stream")
FEED = ("GET", "/events")  # long-lived with ``follow=true``
LEASE_MS = 60_000  # a stream's lease; renewed every third of it while the stream is open

# KEYS[1] the window's counter; ARGV[1] the window in ms. Returns {count, ms left}.
COUNT_HIT = """
local count = redis.call('INCR', KEYS[1])
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  left = tonumber(ARGV[1])
end
return {count, left}
"""

# KEYS[1] the client's stream leases; ARGV: now ms, lease end ms, member, cap.
# Returns 1 when the stream may open (its lease is added), else 0.
OPEN_STREAM = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then
  return 0
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2] - ARGV[1])
return 1
"""


class RateLimiter:
    """The budgets of ``limits`` kept under ``prefix`` in the Redis of ``client``."""

    def __init__(self, client: Any, prefix: str, limits: Any) -> None:
        self.client = client
        self.prefix = prefix
        self.limits = limits
        self._count = client.register_script(COUNT_HIT)
        self._open = client.register_script(OPEN_STREAM)

    def key(self, address: str, kind: str) -> str:
        return f"{self.prefix}ratelimit:{{{address}}}:{kind}"

    async def spend(self, address: str, kind: str) -> None:
        """Count one request of ``kind``; raises the 429 problem past the budget."""
        budget = self.limits.budget(kind)
        window = budget.seconds * 1000
        try:
            count, left = await self._count(keys=[self.key(address, kind)], args=[window])
        except (RedisError, OSError) as error:
            log.warning("rate limits off while Redis does not answer: %s", error)
            return
        if int(count) > budget.count:
            retry = max(1, -(-int(left) // 1000))
            raise ApiProblem(
                429,
                "rate-limited",
                f"too many {kind} requests from your address: {budget} allowed; retry in {retry} s",
                headers={"Retry-After": str(retry)},
            )

    async def spend_window(self, owner: str, kind: str, count: int, seconds: int) -> None:
        """Count one request of ``kind`` for ``owner`` (an address, or anything a budget is
        kept for: a name signing in) against ``count`` per ``seconds``; 429 past it."""
        try:
            hits, left = await self._count(keys=[self.key(owner, kind)], args=[seconds * 1000])
        except (RedisError, OSError) as error:
            log.warning("rate limits off while Redis does not answer: %s", error)
            return
        if int(hits) > count:
            retry = max(1, -(-int(left) // 1000))
            raise ApiProblem(
                429,
                "rate-limited",
                f"too many {kind} requests: {count} per {seconds} s allowed; retry in {retry} s",
                headers={"Retry-After": str(retry)},
            )

    async def open_stream(self, address: str) -> str | None:
        """A lease for one more open stream (None: Redis does not answer); raises the 429
        problem past the cap."""
        member = uuid.uuid4().hex
        now = int(time.time() * 1000)
        key = self.key(address, "streams")
        try:
            allowed = await self._open(
                keys=[key], args=[now, now + LEASE_MS, member, self.limits.streams]
            )
        except (RedisError, OSError) as error:
            log.warning("stream cap off while Redis does not answer: %s", error)
            return None
        if not int(allowed):
            raise ApiProblem(
                429,
                "rate-limited",
                f"too many open streams from your address: at most {self.limits.streams}; "
                "close one first",
                headers={"Retry-After": str(LEASE_MS // 3000)},
            )
        return member

    async def renew(self, address: str, member: str) -> None:
        """Keep ``member``'s lease alive while its stream is open."""
        while True:
            await asyncio.sleep(LEASE_MS / 3000)
            end = int(time.time() * 1000) + LEASE_MS
            with contextlib.suppress(RedisError, OSError):
                await self.client.zadd(self.key(address, "streams"), {member: end}, xx=True)

    async def close_stream(self, address: str, member: str) -> None:
        with contextlib.suppress(RedisError, OSError):  # else the lease expires on its own
            await self.client.zrem(self.key(address, "streams"), member)

    async def aclose(self) -> None:
        await self.client.aclose()


def _limiter(scope: Scope) -> RateLimiter | None:
    """The app's limiter (made on first use from the lifespan's Redis), None when off."""
    state = scope["app"].state
    limiter: RateLimiter | None = state.get("rate_limiter")
    if limiter is None:
        services = state.services
        if not services.settings.rate_limits.enabled:
            return None
        limiter = RateLimiter(
            services.redis.async_client(), services.settings.redis_prefix,
            services.settings.rate_limits,
        )  # fmt: skip
        state.rate_limiter = limiter
    return limiter


def _address(scope: Scope) -> str:
    return str((scope.get("client") or ("unknown", 0))[0])


async def spend_budget(scope: Scope, kind: str) -> None:
    """Spend one request of ``kind`` from the caller's budget (nothing when limits are off);
    raises the 429 problem past it. The command route's fast lane (:mod:`api.fastlane`)
    spends here as this middleware does."""
    limiter = _limiter(scope)
    if limiter is not None:
        await limiter.spend(_address(scope), kind)


async def spend_key(
    scope: Scope, kind: str, count: int, seconds: int, *, per_client: bool = False
) -> None:
    """Spend one of ``count`` requests per ``seconds`` of ``kind`` — the caller's own budget
    with ``per_client``, else one ``kind`` shares whoever sends it (sign-ins to one name:
    :mod:`api.routes.accounts`). Nothing when limits are off; 429 past it."""
    limiter = _limiter(scope)
    if limiter is not None:
        owner = _address(scope) if per_client else "any"
        await limiter.spend_window(owner, kind, count, seconds)


def long_lived(route: tuple[str, str], scope: Scope) -> bool:
    """Whether the request opens an answer that stays open: a table's live stream, or the
    feed followed (any ``follow`` of ``true``: a request the feed refuses holds its lease only
    while it is answered)."""
    if route == STREAMS:
        return True
    if route != FEED:
        return False
    query = scope.get("query_string", b"")
    if b"follow" not in query:
        return False
    pairs = parse_qsl(query.decode("latin-1"), keep_blank_values=True)
    return any(name == "follow" and value == "true" for name, value in pairs)


def rate_limited(app: ASGIApp) -> ASGIApp:
    """ASGI middleware (after routing): spend the route's budget before it runs."""

    async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
        route = (str(scope.get("method", "")), str(scope.get("path_template", "")))
        kind = WINDOWED.get(route)
        if scope["type"] != "http" or (kind is None and not long_lived(route, scope)):
            await app(scope, receive, send)
            return
        if kind is not None:
            await spend_budget(scope, kind)
            await app(scope, receive, send)
            return
        limiter = _limiter(scope)
        if limiter is None:
            await app(scope, receive, send)
            return
        address = _address(scope)
        member = await limiter.open_stream(address)
        if member is None:
            await app(scope, receive, send)
            return
        renewing = asyncio.create_task(limiter.renew(address, member))
        try:
            await app(scope, receive, send)
        finally:
            renewing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await renewing
            await asyncio.shield(limiter.close_stream(address, member))

    return middleware


async def close_limiter(app: Any) -> None:
    """On shutdown: close the limiter's Redis client, if one was made."""
    limiter: RateLimiter | None = app.state.get("rate_limiter")
    if limiter is not None:
        app.state.rate_limiter = None
        await limiter.aclose()
