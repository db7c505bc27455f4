"""Exactly-once tracking (design §4): a batch's read-model writes and its position, atomically.

A projector collects the writes one batch of notifications causes into a :class:`Batch`, then
:func:`commit` runs them together with the new tracking position in **one Lua script**. Redis
runs a script atomically, so the read models and the position always agree: a crash before the
script leaves neither, a crash after it leaves both. The script first compares the stored
position with the one the projector started the batch from; if another projector (or a
rebuild) moved it, nothing is written and the caller resynchronises — two projectors never
apply a batch twice.

The position key may also hold a *fence* (``rebuilding:<token>``) while a rebuild flushes the
read models; no batch commits against a fence except the rebuild's own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import redis

from projections.keys import Keys

# KEYS[1] = position key, KEYS[1 + i] = the key of operation i.
# ARGV[1] = expected position, ARGV[2] = new position, ARGV[3] = channel announcing it,
# then three arguments per operation: name, a, b.
_COMMIT_LUA = """
local current = redis.call('GET', KEYS[1]) or '0'
if current ~= ARGV[1] then
  return {0, current}
end
local known = {set=true, del=true, hset=true, hdel=true, hincrby=true, zadd=true, zrem=true}
for i = 2, #KEYS do
  local op = ARGV[4 + (i - 2) * 3]
  if not known[op] then
    return redis.error_reply('unknown read-model operation ' .. tostring(op))
  end
end
for i = 2, #KEYS do
  local base = 4 + (i - 2) * 3
  local op, a, b = ARGV[base], ARGV[base + 1], ARGV[base + 2]
  local key = KEYS[i]
  if op == 'set' then redis.call('SET', key, a)
  elseif op == 'del' then redis.call('DEL', key)
  elseif op == 'hset' then redis.call('HSET', key, a, b)
  elseif op == 'hdel' then redis.call('HDEL', key, a)
  elseif op == 'hincrby' then redis.call('HINCRBY', key, a, b)
  elseif op == 'zadd' then redis.call('ZADD', key, b, a)
  elseif op == 'zrem' then redis.call('ZREM', key, a)
  end
end
redis.call('SET', KEYS[1], ARGV[2])
redis.call('PUBLISH', ARGV[3], ARGV[2])
return {1, ARGV[2]}
"""

# Replace our own fence by "no position yet", leaving anyone else's fence alone.
_RELEASE_FENCE_LUA = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
"""

# Keep our own fence alive while a long flush runs.
_RENEW_FENCE_LUA = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""

FENCE_PREFIX = "rebuilding:"


def parse_position(raw: bytes | str | None) -> int | None:
    """The stored position as an int (0 when absent); ``None`` while a rebuild fences it."""
    if raw is None:
        return 0
    text = raw.decode() if isinstance(raw, bytes) else raw
    if text.startswith(FENCE_PREFIX):
        return None
    return int(text)


@dataclass
class Batch:
    """The read-model writes of one batch, in order; values are bytes or str."""

    keys: list[str] = field(default_factory=list)
    args: list[Any] = field(default_factory=list)

    def _add(self, op: str, key: str, a: Any = "", b: Any = "") -> None:
        self.keys.append(key)
        self.args.extend((op, a, b))

    def set(self, key: str, value: bytes | str) -> None:
        self._add("set", key, value)

    def delete(self, key: str) -> None:
        self._add("del", key)

    def hset(self, key: str, name: str, value: bytes | str) -> None:
        self._add("hset", key, name, value)

    def hdel(self, key: str, name: str) -> None:
        self._add("hdel", key, name)

    def hincrby(self, key: str, name: str, amount: int) -> None:
        self._add("hincrby", key, name, amount)

    def zadd(self, key: str, member: str, score: float) -> None:
        self._add("zadd", key, member, score)

    def zrem(self, key: str, member: str) -> None:
        self._add("zrem", key, member)

    def __len__(self) -> int:
        return len(self.keys)


@dataclass(frozen=True)
class CommitResult:
    committed: bool
    position: str  # the stored position after the attempt (ours, or whoever moved it)


class Tracking:
    """Commits batches for one prefix; the scripts are registered once per client."""

    def __init__(self, client: redis.Redis, keys: Keys) -> None:
        self._client = client
        self._keys = keys
        self._commit = client.register_script(_COMMIT_LUA)
        self._release = client.register_script(_RELEASE_FENCE_LUA)
        self._renew = client.register_script(_RENEW_FENCE_LUA)

    def stored_position(self) -> bytes | None:
        value = self._client.get(self._keys.position())
        return value  # type: ignore[return-value]  # redis-py's sync stubs are loose

    def commit(self, batch: Batch, expected: str, new: str) -> CommitResult:
        """Apply ``batch`` and set the position to ``new`` iff it still equals ``expected``."""
        keys = [self._keys.position(), *batch.keys]
        args = [expected, new, self._keys.position_channel(), *batch.args]
        ok, position = self._commit(keys=keys, args=args)
        text = position.decode() if isinstance(position, bytes) else str(position)
        return CommitResult(committed=bool(ok), position=text)

    def fence(self, token: str, ttl_ms: int) -> str:
        """Fence the position for a rebuild; returns the fence value.

        The fence expires after ``ttl_ms`` (renew it while working): should the rebuilding
        process die, the position then reads 0 and projectors replay from the start, which
        rewrites every table's keys — the analytics and lobby are flushed first for that.
        """
        value = f"{FENCE_PREFIX}{token}"
        self._client.set(self._keys.position(), value, px=ttl_ms)
        return value

    def renew(self, fence: str, ttl_ms: int) -> bool:
        return bool(self._renew(keys=[self._keys.position()], args=[fence, ttl_ms]))

    def release(self, fence: str) -> bool:
        """Drop our fence (the position becomes 0), unless someone replaced it since."""
        return bool(self._release(keys=[self._keys.position()], args=[fence]))
