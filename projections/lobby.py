"""The lobby (design §5, ``GET /tables``): the open tables, oldest first.

==============================  =====  ===================================================
key                             type   holds
==============================  =====  ===================================================
``{p}shard:{<i>}:lobby``        hash   table id -> lobby line (JSON) of each open table
``{p}shard:{<i>}:lobby:order``  zset   table id scored by the position that opened it
==============================  =====  ===================================================

Each shard keeps the part for its tables (:mod:`projections.keys`); a read merges the parts by
opening position, which is the one log's order, so any number of shards lists the same lobby.

A line is ``tableId``, ``game`` and ``version`` with the table kernel's facts (``seating``:
``seats``, ``names``, ``openSeats``, ``status``, ``hand``) — all a new game needs — and what a
game adds: Bourré its ``pot``; Burraco its team ``totals`` and ``target``, its own seating
``status`` and no ``openSeats``. A table leaves the lobby when it ends.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, cast

from domain.game import Game
from projections.model import Outcome, TableReadModel, decode, encode
from projections.tables import TableProjection
from projections.tracking import Batch


def seating_line(game: Game, state: Any) -> dict[str, Any]:
    """Any game: its seats, who holds them, which are open, its status and hand in play."""
    seating = game.seating(state)
    return {
        "game": game.name,
        "seats": seating.seats,
        "names": list(seating.names),
        "openSeats": [seat for seat, name in enumerate(seating.names) if name is None],
        "status": seating.status,
        "hand": seating.hand,
    }


def bourre_line(game: Game, state: Any) -> dict[str, Any]:
    """Bourré: the kernel's facts and the chips in the pot."""
    line = seating_line(game, state)
    line["pot"] = state.pot
    return line


def burraco_line(game: Game, table: Any) -> dict[str, Any]:
    """Burraco: seats, names, its own status (``seating`` while it waits), the hand, and the
    match so far: each team's total and the target score (rule 27)."""
    seating = game.seating(table)
    return {
        "game": game.name,
        "seats": seating.seats,
        "names": list(seating.names),
        "status": table.status,
        "hand": seating.hand,
        "totals": list(table.totals),
        "target": table.options.target,
    }


_LINES: dict[str, Callable[[Game, Any], dict[str, Any]]] = {
    "bourre": bourre_line,
    "burraco": burraco_line,
}


class Lobby(TableReadModel):
    """A line per open table, in the order the tables were opened."""

    @staticmethod
    def shape(game: Game, state: Any) -> dict[str, Any]:
        """The game's part of a lobby line for its table in ``state``."""
        return _LINES.get(game.name, seating_line)(game, state)

    def key(self) -> str:
        return self.keys.named("lobby")

    def order_key(self) -> str:
        return self.keys.named("lobby:order")

    def write_table(self, batch: Batch, table: TableProjection, outcome: Outcome) -> None:
        table_id = str(table.table_id)
        if table.ended:
            batch.hdel(self.key(), table_id)
            batch.zrem(self.order_key(), table_id)
            return
        line = {"tableId": table_id, "game": table.game.name, "version": table.version}
        line.update(self.shape(table.game, table.state))
        batch.hset(self.key(), table_id, encode(line))
        opened_at = outcome.opened_at.get(table.table_id)
        if opened_at is not None:
            batch.zadd(self.order_key(), table_id, opened_at)

    def flush_keys(self) -> Iterable[str]:
        return (self.key(), self.order_key())

    def flush_patterns(self) -> Iterable[str]:
        return ()  # its two keys hold every table's line

    def read(self, game: str | None = None) -> list[dict[str, Any]]:
        """Open tables (waiting for players or playing), oldest first; ``game`` filters."""
        scored: list[tuple[float, bytes]] = []
        for order, lines_key in zip(
            self.keys.parts("lobby:order"), self.keys.parts("lobby"), strict=True
        ):
            members = cast(
                list[tuple[bytes, float]], self._redis.zrange(order, 0, -1, withscores=True)
            )
            if not members:
                continue
            found = cast(
                list[bytes | None], self._redis.hmget(lines_key, [name for name, _ in members])
            )
            scored.extend(
                (score, line)
                for (_, score), line in zip(members, found, strict=True)
                if line is not None
            )
        scored.sort(key=lambda pair: pair[0])
        tables = [decode(line) for _, line in scored]
        if game is not None:
            tables = [line for line in tables if line.get("game") == game]
        return tables
