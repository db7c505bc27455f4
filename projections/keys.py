"""The read side's key space (design §4, docs/scaling.md): one prefix, hash tags, shard parts.

Every key lives under one configurable prefix (``CARDROOM_REDIS_PREFIX``, default
``cardroom:``), so several deployments (or test runs) can share a Redis server. Every key
carries a Redis Cluster *hash tag* (the part in braces), so the keys one commit writes share a
slot — on a single Redis the tags are just characters of the name:

==================================  =====  ==============================================
key                                 type   holds
==================================  =====  ==============================================
``{p}table:{<id>}:{name}``          —      a table's own read-model keys (tag: the table id)
``{p}table:{<id>}:version``         str    the table version its keys show (tracking)
``{p}shard:{<i>}:position``         str    shard ``i``'s last projected log position
``{p}shard:{<i>}:{name}``           —      shard ``i``'s part of a cross-table read model
``{p}live:{<id>}:spectators``       zset   a table's open spectators' streams (not a read
                                           model: :mod:`api.spectators`)
==================================  =====  ==============================================

Pub/sub channel ``{p}positions`` announces each newly projected position (not a key).

Two methods name every read-model key, so a new read model inherits the layout:

* :meth:`Keys.table` — a key of one table. Its value must be an overwrite (it is written with
  the table's state at the end of a batch, guarded by the table's version).
* :meth:`Keys.named` — a key spanning tables (lobby, counters): this shard's *part*, written
  with the shard's position in one script; readers merge :meth:`Keys.parts` (every shard's).

A table belongs to shard :func:`shard_of` (a stable hash of its id); with one shard (the
default) there is one part and one position.
"""

from __future__ import annotations

import zlib
from uuid import UUID

_GLOB_SPECIALS = "\\*?[]^"


def _glob_escape(text: str) -> str:
    """Escape Redis glob characters so a prefix such as ``a[1]:`` matches literally."""
    return "".join("\\" + char if char in _GLOB_SPECIALS else char for char in text)


def shard_of(table_id: UUID, shards: int) -> int:
    """The shard projecting ``table_id``: CRC-32 of its 16 bytes modulo ``shards`` (stable
    across processes, machines and Python versions)."""
    return zlib.crc32(table_id.bytes) % shards if shards > 1 else 0


def hash_tag(key: str) -> str:
    """The part of ``key`` Redis Cluster hashes: the text between the first ``{`` and the next
    ``}`` when non-empty, else the whole key."""
    start = key.find("{")
    if start >= 0:
        end = key.find("}", start + 1)
        if end > start + 1:
            return key[start + 1 : end]
    return key


class Keys:
    """Key names under ``prefix`` (include the separator, e.g. ``"cardroom:"``) for shard
    ``shard`` of ``shards`` (a reader uses shard 0 and merges :meth:`parts`)."""

    __slots__ = ("prefix", "shard", "shards")

    def __init__(self, prefix: str, shard: int = 0, shards: int = 1) -> None:
        if "{" in prefix or "}" in prefix:
            raise ValueError(f"a key prefix may not hold braces (hash tags): {prefix!r}")
        if not 0 <= shard < shards:
            raise ValueError(f"shard {shard} is not one of 0..{shards - 1}")
        self.prefix = prefix
        self.shard = shard
        self.shards = shards

    def for_shard(self, shard: int) -> Keys:
        return Keys(self.prefix, shard, self.shards)

    # -- tracking -------------------------------------------------------------------------
    def position(self) -> str:
        """This shard's tracking position."""
        return self.named("position")

    def positions(self) -> list[str]:
        """Every shard's tracking position, shard 0 first."""
        return self.parts("position")

    def position_channel(self) -> str:
        return f"{self.prefix}positions"

    def table_version(self, table_id: UUID) -> str:
        """The table version a table's keys show: a batch writes them only when newer."""
        return self.table(table_id, "version")

    def spectators(self, table_id: UUID) -> str:
        """A table's open spectators' streams (member: a stream, score: its lease's end, epoch
        ms), in the table's slot; outside ``table:`` so a rebuild leaves it alone."""
        return f"{self.prefix}live:{{{table_id}}}:spectators"

    # -- the read models' names ------------------------------------------------------------
    def named(self, name: str) -> str:
        """This shard's part of a read model spanning tables (e.g. ``lobby``)."""
        return f"{self.prefix}shard:{{{self.shard}}}:{name}"

    def parts(self, name: str) -> list[str]:
        """Every shard's part of ``name``: a reader merges them."""
        return [self.for_shard(shard).named(name) for shard in range(self.shards)]

    def table(self, table_id: UUID, name: str) -> str:
        """A read model's key for one table (e.g. ``ledger``), in the table's slot."""
        return f"{self.prefix}table:{{{table_id}}}:{name}"

    def table_of(self, key: str | bytes) -> UUID | None:
        """The table a :meth:`table` key belongs to; None for any other key."""
        text = key.decode(errors="replace") if isinstance(key, bytes) else key
        head = f"{self.prefix}table:{{"
        if not text.startswith(head):
            return None
        try:
            return UUID(text[len(head) : text.find("}", len(head))])
        except ValueError:
            return None

    def shard_of_key(self, key: str | bytes) -> int | None:
        """The shard a :meth:`named` key belongs to; None for any other key."""
        text = key.decode(errors="replace") if isinstance(key, bytes) else key
        head = f"{self.prefix}shard:{{"
        if not text.startswith(head):
            return None
        index = text[len(head) : text.find("}", len(head))]
        return int(index) if index.isdigit() else None

    def table_pattern(self) -> str:
        """A SCAN pattern matching every table's read-model keys (for rebuild)."""
        return f"{_glob_escape(self.prefix)}table:*"

    def shard_pattern(self) -> str:
        """A SCAN pattern matching every shard's keys (positions and parts)."""
        return f"{_glob_escape(self.prefix)}shard:*"

    def everything_pattern(self) -> str:
        """A SCAN pattern matching every key under the prefix (for digests)."""
        return f"{_glob_escape(self.prefix)}*"
