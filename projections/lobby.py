"""The lobby (design §5, ``GET /tables``): every table by status, oldest first.

==============================  =====  ===================================================
key                             type   holds
==============================  =====  ===================================================
``{p}shard:{<i>}:lobby``        hash   table id -> lobby line (JSON) of each table
``{p}shard:{<i>}:lobby:{status}`` zset the tables ``waiting``, ``playing`` or ``ended``,
                                       scored by when their ``TableOpened`` was stored
==============================  =====  ===================================================

Each shard keeps the part for its tables (:mod:`projections.keys`); a read merges the parts in
opening order, so any number of shards lists the same lobby.

A line is ``tableId``, ``game`` and ``version`` with the table kernel's facts (``seating``:
``seats``, ``names``, ``openSeats``, ``status``, ``hand``) — all a new game needs — or what the
game's ``house.lobby`` (:mod:`domain.house`) makes of them (a pot, team totals and a target).

The lobby is public, so a line shows the table as spectators see it: ``spectator_delay``
events behind live (its ``version``, ``hand``, ``pot`` and ``status`` are those of the public
view). A table is filed under the kernel status of that public state, and under ``ended`` once
it has ended (that a table is over is public; its last ``spectator_delay`` events stay hidden).
Listing a status is a range read of its sorted set; the default listing is the open tables
(``waiting`` and ``playing`` merged in opening order). Pages follow a cursor: the opening
time and id of the last line given.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, cast

from domain.game import Game
from domain.table import ENDED, PLAYING, WAITING
from projections.model import Outcome, TableReadModel, decode, encode
from projections.table_projection import TableProjection
from projections.tracking import Batch

STATUSES = (WAITING, PLAYING, ENDED)
OPEN = (WAITING, PLAYING)  # the default listing
_CHUNK = 200  # members read from a sorted set at once


@dataclass(frozen=True)
class LobbyPage:
    """One page of lobby lines and the cursor of the next (None: this is the last page)."""

    lines: list[dict[str, Any]]
    next_cursor: str | None


class BadCursor(ValueError):
    """A lobby cursor that this lobby did not give."""


def cursor_of(score: float, table_id: str) -> str:
    """The cursor after a line: its table's opening time and id."""
    return f"{score!r}_{table_id}"


def parse_cursor(cursor: str) -> tuple[float, str]:
    score, _, table_id = cursor.partition("_")
    try:
        parsed = float(score)
    except ValueError:
        raise BadCursor(f"cursor {cursor!r} is not one a lobby page gave") from None
    if not table_id or len(table_id) > 64 or parsed != parsed:  # NaN
        raise BadCursor(f"cursor {cursor!r} is not one a lobby page gave")
    return parsed, table_id


class Lobby(TableReadModel):
    """A line per table, filed by status in the order the tables were opened."""

    @staticmethod
    def shape(game: Game, state: Any) -> dict[str, Any]:
        """The game's part of a lobby line for its table in ``state``."""
        return game.house.lobby(game, state)

    def key(self) -> str:
        return self.keys.named("lobby")

    def status_key(self, status: str) -> str:
        return self.keys.named(f"lobby:{status}")

    def _parts(self, status: str) -> list[tuple[str, str]]:
        """Every shard's ``(status set, lines hash)`` for ``status``."""
        return list(zip(self.keys.parts(f"lobby:{status}"), self.keys.parts("lobby"), strict=True))

    def write_table(self, batch: Batch, table: TableProjection, outcome: Outcome) -> None:
        table_id = str(table.table_id)
        state, version = table.public()  # spectators' view: ``spectator_delay`` behind
        line = {"tableId": table_id, "game": table.game.name, "version": version}
        line.update(self.shape(table.game, state))
        batch.hset(self.key(), table_id, encode(line))
        status = ENDED if table.ended else table.game.seating(state).status
        for other in STATUSES:
            if other == status:
                batch.zadd(self.status_key(other), table_id, table.opened_at)
            else:
                batch.zrem(self.status_key(other), table_id)

    def flush_keys(self) -> Iterable[str]:
        # ``lobby:order`` was the open tables' order before the lobby kept every status.
        return (self.key(), self.keys.named("lobby:order"), *map(self.status_key, STATUSES))

    def flush_patterns(self) -> Iterable[str]:
        return ()  # its keys hold every table's line

    def read(self, game: str | None = None) -> list[dict[str, Any]]:
        """Open tables (waiting for players or playing), oldest first; ``game`` filters."""
        lines: list[dict[str, Any]] = []
        cursor: str | None = None
        while True:
            page = self.page(OPEN, game, _CHUNK, cursor)
            lines.extend(page.lines)
            if page.next_cursor is None:
                return lines
            cursor = page.next_cursor

    def waiting_opened_before(self, cutoff: float) -> Iterator[str]:
        """The ids of tables waiting for players that opened before ``cutoff`` (POSIX
        seconds), oldest first: the candidates for abandonment."""
        parts = self._parts(WAITING)
        for score, table_id, _ in heapq.merge(
            *(self._members(order, lines, None) for order, lines in parts)
        ):
            if score >= cutoff:
                return
            yield table_id

    def page(
        self, statuses: Iterable[str], game: str | None, limit: int, cursor: str | None
    ) -> LobbyPage:
        """Up to ``limit`` lines of tables in ``statuses`` (of ``game``, if given), oldest
        first, after ``cursor``. Raises :class:`BadCursor`."""
        after = parse_cursor(cursor) if cursor is not None else None
        members = heapq.merge(
            *(
                self._members(order, lines_key, after)
                for status in statuses
                for order, lines_key in self._parts(status)
            )
        )
        lines: list[tuple[float, dict[str, Any]]] = []
        while len(lines) <= limit:
            chunk = [member for _, member in zip(range(limit + 1), members, strict=False)]
            if not chunk:
                break
            for score, raw in zip(
                (score for score, _, _ in chunk), self._lines(chunk), strict=True
            ):
                line = decode(raw) if raw is not None else None
                if line is not None and (game is None or line.get("game") == game):
                    lines.append((score, line))
        if len(lines) <= limit:
            return LobbyPage([line for _, line in lines], None)
        score, last = lines[limit - 1]
        return LobbyPage([line for _, line in lines[:limit]], cursor_of(score, last["tableId"]))

    def _lines(self, chunk: list[tuple[float, str, str]]) -> list[bytes | None]:
        """The stored lines of ``chunk``'s tables, read from each one's shard part."""
        wanted: dict[str, list[str]] = {}
        for _, table_id, lines_key in chunk:
            wanted.setdefault(lines_key, []).append(table_id)
        found: dict[tuple[str, str], bytes | None] = {}
        for lines_key, ids in wanted.items():
            values = cast(list[bytes | None], self._redis.hmget(lines_key, ids))
            found.update(((lines_key, i), v) for i, v in zip(ids, values, strict=True))
        return [found[(lines_key, table_id)] for _, table_id, lines_key in chunk]

    def _members(
        self, key: str, lines_key: str, after: tuple[float, str] | None
    ) -> Iterator[tuple[float, str, str]]:
        """``(score, table id, lines hash)`` of a sorted set in its order, after ``after``."""
        low = "-inf" if after is None else repr(after[0])
        offset = 0  # members at score ``low`` already read
        while True:
            chunk = cast(
                list[tuple[bytes, float]],
                self._redis.zrangebyscore(
                    key, low, "+inf", start=offset, num=_CHUNK, withscores=True
                ),
            )
            for member, score in chunk:
                found = (float(score), member.decode())
                if after is None or found > after:
                    yield (*found, lines_key)
            if len(chunk) < _CHUNK:
                return
            last = float(chunk[-1][1])
            ties = sum(1 for _, score in chunk if float(score) == last)
            offset = offset + ties if repr(last) == low else ties
            low = repr(last)
