"""Exactly-once tracking (design §4, docs/scaling.md): a batch's writes and its position.

A projector collects the writes one batch of notifications causes into a :class:`Batch`, then
:meth:`Tracking.commit` runs them with the new tracking position in Lua scripts. Redis runs a
script atomically; on Redis Cluster a script may only touch one slot, so the writes are
grouped by hash tag (:mod:`projections.keys`):

* each **table's** keys (its slot) are written with a *guard*: the table version they show,
  kept at ``{p}table:{<id>}:version``. The script writes them only if that stored version is
  older, and then stores the new one. Every table key is an overwrite with the table's state
  at the batch's end, so writing them again, or skipping a table that is already further on,
  changes nothing: table writes are idempotent and never go backwards;
* the **shard's** keys (its position and its parts of the lobby and counters — increments
  are not idempotent) are written with a compare-and-set on the position: only on top of the
  position the batch started from. This is the commit point of a batch.

On one Redis everything goes in **one** script (all or nothing, as ever). On a cluster
(``split``) each table's group is one script, then the shard's script commits: a crash in
between leaves some tables ahead of the shard position, and the restarted projector, replaying
from that position, finds them guarded (skipped or rewritten equal) and commits the shard's
parts once. Either way the read side ends exactly as one clean run; a second projector's
stale batch fails the compare-and-set and writes nothing that is not already there.

The position key may also hold a *fence* (``rebuilding:<token>``) while a rebuild flushes the
read models; no batch commits against a fence except the rebuild's own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import redis

from projections.keys import Keys, hash_tag

# ARGV[1] = '1' to compare-and-set a position: then KEYS[1] = the position key and
# ARGV[2..4] = expected position, new position, the channel announcing it.
# Next ARGV = the number of groups; per group ARGV: its guard version ('' = unguarded) and its
# operation count n, then KEYS: the guard key (if guarded) and the n operation keys, and
# three ARGV per operation: name, a, b. Everything is checked before anything is written.
_COMMIT_LUA = """
local k, a = 1, 1
local cas = ARGV[1] == '1'
a = 2
local position_key, new
if cas then
  position_key = KEYS[1]
  k = 2
  local current = redis.call('GET', position_key) or '0'
  if current ~= ARGV[2] then
    return {0, current}
  end
  new = ARGV[3]
  a = 5
end
local known = {set=true, del=true, hset=true, hdel=true, hincrby=true, zadd=true, zrem=true}
local groups = tonumber(ARGV[a])
a = a + 1
local plan = {}
for g = 1, groups do
  local version, n = ARGV[a], tonumber(ARGV[a + 1])
  a = a + 2
  local guard = false
  if version ~= '' then
    guard = KEYS[k]
    k = k + 1
  end
  plan[g] = {guard, version, k, a, n}
  for i = 0, n - 1 do
    local op = ARGV[a + i * 3]
    if not known[op] then
      return redis.error_reply('unknown read-model operation ' .. tostring(op))
    end
  end
  k = k + n
  a = a + n * 3
end
local applied = 0
for g = 1, groups do
  local guard, version, gk, ga, n = unpack(plan[g])
  local fresh = true
  if guard then
    fresh = tonumber(redis.call('GET', guard) or '0') < tonumber(version)
  end
  if fresh then
    applied = applied + 1
    for i = 0, n - 1 do
      local key, op = KEYS[gk + i], ARGV[ga + i * 3]
      local x, y = ARGV[ga + i * 3 + 1], ARGV[ga + i * 3 + 2]
      if op == 'set' then redis.call('SET', key, x)
      elseif op == 'del' then redis.call('DEL', key)
      elseif op == 'hset' then redis.call('HSET', key, x, y)
      elseif op == 'hdel' then redis.call('HDEL', key, x)
      elseif op == 'hincrby' then redis.call('HINCRBY', key, x, y)
      elseif op == 'zadd' then redis.call('ZADD', key, y, x)
      elseif op == 'zrem' then redis.call('ZREM', key, x)
      end
    end
    if guard then redis.call('SET', guard, version) end
  end
end
if cas then
  redis.call('SET', position_key, new)
  redis.call('PUBLISH', ARGV[4], new)
  return {1, new}
end
return {1, tostring(applied)}
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
class Group:
    """The writes of one hash tag (one cluster slot), maybe guarded by a version key."""

    keys: list[str] = field(default_factory=list)
    args: list[Any] = field(default_factory=list)
    guard: tuple[str, int] | None = None  # (version key, version)


@dataclass
class Batch:
    """The read-model writes of one batch, in order, grouped by hash tag; values are bytes or
    str."""

    groups: dict[str, Group] = field(default_factory=dict)

    def _group(self, key: str) -> Group:
        tag = hash_tag(key)
        group = self.groups.get(tag)
        if group is None:
            group = self.groups[tag] = Group()
        return group

    def _add(self, op: str, key: str, a: Any = "", b: Any = "") -> None:
        group = self._group(key)
        group.keys.append(key)
        group.args.extend((op, a, b))

    def guard(self, version_key: str, version: int) -> None:
        """Write the group of ``version_key``'s slot only over an older stored version."""
        self._group(version_key).guard = (version_key, version)

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
        return sum(len(group.keys) for group in self.groups.values())


def _encode(groups: list[Group]) -> tuple[list[str], list[Any]]:
    """The script's KEYS and ARGV tail for ``groups`` (see ``_COMMIT_LUA``)."""
    keys: list[str] = []
    args: list[Any] = [len(groups)]
    for group in groups:
        if group.guard is not None:
            keys.append(group.guard[0])
            args.extend((group.guard[1], len(group.keys)))
        else:
            args.extend(("", len(group.keys)))
        keys.extend(group.keys)
        args.extend(group.args)
    return keys, args


@dataclass(frozen=True)
class CommitResult:
    committed: bool
    position: str  # the stored position after the attempt (ours, or whoever moved it)


class Tracking:
    """Commits batches for one shard; the scripts are registered once per client.

    ``split`` (default: when ``client`` is a Redis Cluster client) commits slot by slot as the
    module docstring says; otherwise one script commits the whole batch.
    """

    def __init__(self, client: redis.Redis, keys: Keys, *, split: bool | None = None) -> None:
        from redis.cluster import RedisCluster

        self._client = client
        self._keys = keys
        self.split = isinstance(client, RedisCluster) if split is None else split
        self._commit = client.register_script(_COMMIT_LUA)
        self._release = client.register_script(_RELEASE_FENCE_LUA)
        self._renew = client.register_script(_RENEW_FENCE_LUA)

    def stored_position(self) -> bytes | None:
        value = self._client.get(self._keys.position())
        return value  # type: ignore[return-value]  # redis-py's sync stubs are loose

    def commit(self, batch: Batch, expected: str, new: str) -> CommitResult:
        """Apply ``batch`` and set the position to ``new`` iff it still equals ``expected``."""
        own = hash_tag(self._keys.position())
        shard = batch.groups.get(own, Group())
        others = [group for tag, group in batch.groups.items() if tag != own]
        if self.split:
            unguarded = [group.keys[0] for group in others if group.guard is None and group.keys]
            if unguarded:
                raise ValueError(f"{unguarded[0]!r}: neither a guarded table key nor the shard's")
            for group in others:
                self.commit_group(group)
            others = []
        keys, args = _encode([*others, Group(shard.keys, shard.args)])
        keys = [self._keys.position(), *keys]
        args = ["1", expected, new, self._keys.position_channel(), *args]
        ok, position = self._commit(keys=keys, args=args)
        text = position.decode() if isinstance(position, bytes) else str(position)
        return CommitResult(committed=bool(ok), position=text)

    def commit_group(self, group: Group) -> bool:
        """One guarded group's script (its own slot); True if it was newer and written."""
        keys, args = _encode([group])
        _, applied = self._commit(keys=keys, args=["0", *args])
        return int(applied) > 0

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
