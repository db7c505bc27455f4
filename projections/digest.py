"""A digest of every key under a prefix: proves a rebuild (or a resumed run) equals the original.

``cardroom rebuild`` must reproduce the read models exactly (design §4): the same keys with the same
values. Comparing two digests checks that in one string; :func:`snapshot` gives the full content
when a test needs to show what differs.
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec
import redis

from projections.keys import Keys


def snapshot(client: redis.Redis, prefix: str) -> dict[str, Any]:
    """Every key under ``prefix`` (relative name) with its type-aware, ordered content."""
    content: dict[str, Any] = {}
    names = sorted(client.scan_iter(match=Keys(prefix).everything_pattern(), count=1000))
    for name in names:
        key = name.decode() if isinstance(name, bytes) else name
        kind = client.type(key)
        kind = kind.decode() if isinstance(kind, bytes) else kind
        value: Any
        if kind == "string":
            value = client.get(key)
        elif kind == "hash":
            value = sorted(client.hgetall(key).items())
        elif kind == "zset":
            value = client.zrange(key, 0, -1, withscores=True)
        elif kind == "set":
            value = sorted(client.smembers(key))
        elif kind == "list":
            value = client.lrange(key, 0, -1)
        else:  # a key that vanished between SCAN and TYPE
            continue
        content[key[len(prefix) :]] = (kind, _text(value))
    return content


def digest(client: redis.Redis, prefix: str) -> str:
    """SHA-256 over :func:`snapshot` — equal digests mean equal keys and values."""
    encoded = msgspec.json.encode(snapshot(client, prefix), order="deterministic")
    return hashlib.sha256(encoded).hexdigest()


def _text(value: Any) -> Any:
    """Bytes to str (JSON-encodable), recursively through lists and tuples."""
    if isinstance(value, bytes):
        return value.decode(errors="backslashreplace")
    if isinstance(value, list | tuple):
        return [_text(item) for item in value]
    return value
