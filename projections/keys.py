"""The read side's key space (design §4): one prefix, the tracking keys, the per-table namespace.

Every key lives under one configurable prefix (``CARDROOM_REDIS_PREFIX``, default
``cardroom:``), so several deployments (or test runs) can share a Redis server. This module
spells only what no single read model owns:

==============================  =====  ===================================================
key                             type   holds
==============================  =====  ===================================================
``{p}position``                 str    last projected notification position (tracking)
``{p}table:{id}:{name}``        —      a table's own read-model keys, named by their model
==============================  =====  ===================================================

Pub/sub channel ``{p}positions`` announces each newly projected position (not a key).

Each read model names its own keys (the table views in :mod:`projections.views`, the ledger in
:mod:`projections.ledger`, the lobby in :mod:`projections.lobby`, the counters in
:mod:`projections.analytics`); a table's keys sit under ``{p}table:{id}:`` so a rebuild's flush
finds every one of them with a single SCAN.
"""

from __future__ import annotations

from uuid import UUID

_GLOB_SPECIALS = "\\*?[]^"


def _glob_escape(text: str) -> str:
    """Escape Redis glob characters so a prefix such as ``a[1]:`` matches literally."""
    return "".join("\\" + char if char in _GLOB_SPECIALS else char for char in text)


class Keys:
    """Key names under ``prefix`` (include the separator, e.g. ``"cardroom:"``)."""

    __slots__ = ("prefix",)

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix

    # -- tracking -------------------------------------------------------------------------
    def position(self) -> str:
        return f"{self.prefix}position"

    def position_channel(self) -> str:
        return f"{self.prefix}positions"

    # -- the read models' names ------------------------------------------------------------
    def named(self, name: str) -> str:
        """A read model's key that does not depend on a table (e.g. ``lobby``)."""
        return f"{self.prefix}{name}"

    def table(self, table_id: UUID, name: str) -> str:
        """A read model's key for one table (e.g. ``ledger``)."""
        return f"{self.prefix}table:{table_id}:{name}"

    def table_pattern(self) -> str:
        """A SCAN pattern matching every table's read-model keys (for rebuild)."""
        return f"{_glob_escape(self.prefix)}table:*"

    def everything_pattern(self) -> str:
        """A SCAN pattern matching every key under the prefix (for digests)."""
        return f"{_glob_escape(self.prefix)}*"
