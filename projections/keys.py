"""Redis key names of the read side (design §4) — the only module that spells them.

Every key lives under one configurable prefix (``CARDROOM_REDIS_PREFIX``, default
``cardroom:``), so several deployments (or test runs) can share a Redis server:

==============================  =====  ===================================================
key                             type   holds
==============================  =====  ===================================================
``{p}position``                 str    last projected notification position (tracking)
``{p}table:{id}:view``          str    the public (spectator) view, JSON, ``spectator_delay``
                                       events behind live
``{p}table:{id}:seat:{n}``      str    seat ``n``'s private view, JSON, live
``{p}table:{id}:ledger``        str    the ledger (design §5 shape), JSON
``{p}lobby``                    hash   table id -> lobby line (JSON) of each open table
``{p}lobby:order``              zset   table id scored by the position that opened it
``{p}analytics``                hash   ``{scope}:{counter}`` -> int; scope ``all`` or a game
==============================  =====  ===================================================

Pub/sub channel ``{p}positions`` announces each newly projected position (not a key).
"""

from __future__ import annotations

from uuid import UUID

from domain.game import Viewer

ALL_GAMES = "all"  # the analytics scope summing every game

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

    # -- per table --------------------------------------------------------------------------
    def view(self, table_id: UUID, viewer: Viewer) -> str:
        """The public view for ``viewer=None`` (spectators), else that seat's own view."""
        if viewer is None:
            return f"{self.prefix}table:{table_id}:view"
        return f"{self.prefix}table:{table_id}:seat:{viewer}"

    def ledger(self, table_id: UUID) -> str:
        return f"{self.prefix}table:{table_id}:ledger"

    # -- across tables ----------------------------------------------------------------------
    def lobby(self) -> str:
        return f"{self.prefix}lobby"

    def lobby_order(self) -> str:
        return f"{self.prefix}lobby:order"

    def analytics(self) -> str:
        return f"{self.prefix}analytics"

    @staticmethod
    def counter_field(scope: str, counter: str) -> str:
        return f"{scope}:{counter}"

    # -- whole read side ---------------------------------------------------------------------
    def read_model_patterns(self) -> list[str]:
        """SCAN patterns matching every read-model key except the position (for rebuild)."""
        escaped = _glob_escape(self.prefix)
        return [f"{escaped}table:*"]

    def fixed_read_model_keys(self) -> list[str]:
        """The read-model keys whose names do not depend on a table (for rebuild)."""
        return [self.lobby(), self.lobby_order(), self.analytics()]

    def everything_pattern(self) -> str:
        """A SCAN pattern matching every key under the prefix (for digests)."""
        return f"{_glob_escape(self.prefix)}*"
