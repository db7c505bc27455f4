"""The read side's query interface: views, ledgers, the lobby, analytics, read-your-writes.

Everything here reads what the projector stored (design §4), through the read models that own
the keys; nothing is computed from the event store. ``wait_for`` gives the API read-your-writes:
a command answers with the notification position of its last event, and a view requested with
``?after=<position>`` waits (bounded) until the projection has reached it — woken by the
position each commit announces on ``{p}positions`` (:mod:`projections.tracking`).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import redis

from domain.game import Viewer
from projections.accountstats import AccountStats
from projections.analytics import Analytics
from projections.keys import Keys, shard_of
from projections.ledger import Ledger
from projections.lobby import OPEN, Lobby, LobbyPage
from projections.model import decode
from projections.players import GameTotals, PlayerStats
from projections.ratings import Ratings
from projections.tracking import parse_position
from projections.views import PublicView, SeatViews


class ReadModels:
    """Read models under ``prefix`` on ``redis`` (a ``decode_responses=False`` client)."""

    def __init__(self, redis: redis.Redis, prefix: str, shards: int = 1) -> None:
        self._redis = redis
        self.keys = Keys(prefix, 0, shards)
        self._public = PublicView(redis, self.keys)
        self._seats = SeatViews(redis, self.keys)
        self._ledger = Ledger(redis, self.keys)
        self._lobby = Lobby(redis, self.keys)
        self._analytics = Analytics(redis, self.keys)
        self._players = PlayerStats(redis, self.keys)
        self._totals = GameTotals(redis, self.keys)
        self.ratings = Ratings(redis, self.keys)  # design §2.2
        self.accounts = AccountStats(redis, self.keys)  # design §2.2: accounts' seats

    # -- views ------------------------------------------------------------------------------
    def view_json(self, table_id: UUID, viewer: Viewer) -> bytes | None:
        """The stored view as JSON bytes (serve it without re-encoding); None if unknown."""
        if viewer is None:
            return self._public.read(table_id)
        return self._seats.read(table_id, viewer)

    def view(self, table_id: UUID, viewer: Viewer) -> dict[str, Any] | None:
        """``viewer``'s view: a seat sees its own cards, ``None`` (a spectator) public facts
        only, ``spectator_delay`` events behind live. None = table (or seat) not projected."""
        raw = self.view_json(table_id, viewer)
        return None if raw is None else decode(raw)

    def ledger(self, table_id: UUID) -> dict[str, Any] | None:
        """The table's ledger as spectators may see it; None = table not projected."""
        return self._ledger.read(table_id)

    # -- lobby and analytics -----------------------------------------------------------------
    def lobby(self, game: str | None = None) -> list[dict[str, Any]]:
        """Open tables (waiting for players or playing), oldest first; ended tables leave it."""
        return self._lobby.read(game)

    def lobby_page(
        self,
        statuses: tuple[str, ...] = OPEN,
        game: str | None = None,
        limit: int = 50,
        cursor: str | None = None,
    ) -> LobbyPage:
        """A page of the tables in ``statuses`` (default: open), oldest first, after
        ``cursor``; raises :class:`~projections.lobby.BadCursor` for a cursor it did not give."""
        return self._lobby.page(statuses, game, limit, cursor)

    def waiting_opened_before(self, cutoff: float) -> Iterator[str]:
        """Ids of tables waiting for players opened before ``cutoff`` (POSIX seconds), oldest
        first (read lazily)."""
        return self._lobby.waiting_opened_before(cutoff)

    def analytics(self) -> dict[str, dict[str, int]]:
        """Counters per scope: ``{"all": {...}, "<game>": {...}, ...}``."""
        return self._analytics.read()

    def player_stats(self, name: str) -> dict[str, dict[str, int]] | None:
        """``name``'s counters per game over every table; None for a name never seated."""
        return self._players.read(name)

    def game_totals(self) -> dict[str, dict[str, int]]:
        """Per-game totals (:mod:`projections.players`)."""
        return self._totals.read()

    # -- read-your-writes --------------------------------------------------------------------
    def position(self, shard: int | None = None) -> int:
        """The log position every shard has projected (0 = none, or a rebuild is flushing):
        the least of :meth:`positions`; with ``shard``, that shard's alone."""
        if shard is not None:
            return parse_position(self._redis.get(self.keys.positions()[shard])) or 0
        return min(self.positions())

    def shard_of(self, table_id: UUID) -> int:
        """The shard projecting ``table_id``: the one a read of that table alone waits for."""
        return shard_of(table_id, self.keys.shards)

    def positions(self) -> list[int]:
        """Each shard's projected position, shard 0 first (one GET each: on a cluster the
        positions live in different slots)."""
        return [position or 0 for position in self.stored_positions()]

    def stored_positions(self) -> list[int | None]:
        """Each shard's position as stored: None while a rebuild fences it."""
        return [parse_position(self._redis.get(key)) for key in self.keys.positions()]

    def wait_for(self, position: int, timeout: float = 5.0) -> bool:
        """Wait until the projection has reached ``position``; False when ``timeout`` ran out.

        A position already reached answers at once. Otherwise the wait subscribes to the
        channel every commit announces its position on, reads the position once more (a
        commit between the first read and the subscription announced it to nobody), and
        sleeps on the channel until an announced position reaches ``position`` or the time
        is up.
        """
        if self.position() >= position:
            return True
        if timeout <= 0:
            return False
        deadline = time.monotonic() + timeout
        pubsub = self._redis.pubsub()
        try:
            pubsub.subscribe(self.keys.position_channel())
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                message = pubsub.get_message(timeout=remaining)
                if message is None:
                    continue
                if message["type"] == "subscribe":
                    # Subscribed: every later commit reaches us; the earlier ones are stored.
                    if self.position() >= position:
                        return True
                elif message["type"] == "message" and self._reached(message["data"], position):
                    return True
        finally:
            pubsub.close()

    def _reached(self, announced: Any, position: int) -> bool:
        """Whether a commit's announcement means ``position`` is reached: with one shard the
        announced position says it; with several, one shard moved, so read them all."""
        if self.keys.shards == 1:
            return _announced(announced) >= position
        return _announced(announced) >= position and self.position() >= position


def _announced(data: Any) -> int:
    """The position a commit announced (the channel carries the new position as digits)."""
    parsed = parse_position(data)
    return parsed or 0
