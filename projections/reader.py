"""The read side's query interface: views, ledgers, the lobby, analytics, read-your-writes.

Everything here reads what the projector stored (design §4); nothing is computed from the event
store. ``wait_for`` gives the API read-your-writes: a command answers with the notification
position of its last event, and a view requested with ``?after=<position>`` waits (bounded)
until the projection has reached it.
"""

from __future__ import annotations

import time
from typing import Any
from uuid import UUID

import msgspec
import redis

from domain.game import Viewer
from projections.keys import ALL_GAMES, Keys
from projections.tracking import parse_position

_decode = msgspec.json.Decoder().decode

# wait_for polls the position key (one GET, ~0.1 ms) with a growing pause: quick when the
# projector is close behind, cheap for Redis when it is not.
_FIRST_PAUSE = 0.0005
_LONGEST_PAUSE = 0.005


class ReadModels:
    """Read models under ``prefix`` on ``redis`` (a ``decode_responses=False`` client)."""

    def __init__(self, redis: redis.Redis, prefix: str) -> None:
        self._redis = redis
        self.keys = Keys(prefix)

    # -- views ------------------------------------------------------------------------------
    def view_json(self, table_id: UUID, viewer: Viewer) -> bytes | None:
        """The stored view as JSON bytes (serve it without re-encoding); None if unknown."""
        value = self._redis.get(self.keys.view(table_id, viewer))
        return value  # type: ignore[return-value]

    def view(self, table_id: UUID, viewer: Viewer) -> dict[str, Any] | None:
        """``viewer``'s view: a seat sees its own cards, ``None`` (a spectator) public facts
        only, ``spectator_delay`` events behind live. None = table (or seat) not projected."""
        raw = self.view_json(table_id, viewer)
        return None if raw is None else _decode(raw)

    def ledger(self, table_id: UUID) -> dict[str, Any] | None:
        raw = self._redis.get(self.keys.ledger(table_id))
        return None if raw is None else _decode(raw)

    # -- lobby and analytics -----------------------------------------------------------------
    def lobby(self, game: str | None = None) -> list[dict[str, Any]]:
        """Open tables (waiting for players or playing), oldest first; ended tables leave it."""
        order = self._redis.zrange(self.keys.lobby_order(), 0, -1)
        if not order:
            return []
        lines = self._redis.hmget(self.keys.lobby(), order)  # type: ignore[arg-type]
        tables = [_decode(line) for line in lines if line is not None]
        if game is not None:
            tables = [line for line in tables if line.get("game") == game]
        return tables

    def analytics(self) -> dict[str, dict[str, int]]:
        """Counters per scope: ``{"all": {...}, "bourre": {...}, "burraco": {...}}``."""
        raw: dict[bytes, bytes] = self._redis.hgetall(self.keys.analytics())  # type: ignore[assignment]
        scopes: dict[str, dict[str, int]] = {ALL_GAMES: {}}
        for field, value in sorted(raw.items()):
            scope, _, counter = field.decode().partition(":")
            scopes.setdefault(scope, {})[counter] = int(value)
        return scopes

    # -- read-your-writes --------------------------------------------------------------------
    def position(self) -> int:
        """The last projected notification position (0 = none, or a rebuild is flushing)."""
        return parse_position(self._redis.get(self.keys.position())) or 0

    def wait_for(self, position: int, timeout: float = 5.0) -> bool:
        """Wait until the projection has reached ``position``; False when ``timeout`` ran out."""
        deadline = time.monotonic() + max(0.0, timeout)
        pause = _FIRST_PAUSE
        while True:
            if self.position() >= position:
                return True
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            time.sleep(min(pause, remaining))
            pause = min(pause * 2, _LONGEST_PAUSE)
