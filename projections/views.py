"""The table views (design §5, visibility): what spectators see, and what each seat sees.

==============================  =====  ===================================================
key                             type   holds
==============================  =====  ===================================================
``{p}table:{id}:view``          str    the public (spectator) view, JSON, ``spectator_delay``
                                       events behind live (:class:`PublicView`)
``{p}table:{id}:seat:{n}``      str    seat ``n``'s private view, JSON, live
                                       (:class:`SeatViews`)
==============================  =====  ===================================================

Both hold :func:`table_view`: ``tableId``, ``game`` and ``version`` framing the game's own
``view`` of the state for that viewer, so the read models show exactly what the rules show.
On a table with a turn clock (option ``turn_seconds``) the live views add ``deadline``: the
stored time of the event that prompted the turn plus ``turn_seconds`` (ISO 8601), so a
rebuild shows the same deadlines (design §9).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from domain.game import Game, Viewer
from domain.table.clock import result_pause, turn_starts
from domain.tournament.embargo import view_fields
from projections.model import Outcome, TableReadModel, encode
from projections.table_projection import TableProjection
from projections.tracking import Batch


def table_view(
    game: Game,
    table_id: UUID,
    state: Any,
    version: int,
    viewer: Viewer,
    last_at: datetime | None = None,
    settled_at: datetime | None = None,
) -> dict[str, Any]:
    """``viewer``'s view of the table at ``version`` (a seat, or ``None`` for spectators);
    ``last_at``: when the event at ``version`` was stored, ``settled_at``: when the last hand
    settled (for the turn's ``deadline``)."""
    view = {"tableId": str(table_id), "game": game.name, "version": version}
    view.update(game.view(state, viewer))
    view.update(view_fields(view))  # a tournament's table: tournamentId, board (design §10)
    deadline = turn_deadline(view, last_at, settled_at)
    if deadline is not None:
        view["deadline"] = deadline.isoformat()
    return view


def turn_deadline(
    view: dict[str, Any], last_at: datetime | None, settled_at: datetime | None = None
) -> datetime | None:
    """When the turn a view shows runs out: the prompting event's time + ``turn_seconds``,
    the clock starting after the result pause when a hand has just settled (``settled_at``,
    option ``result_pause``); ``None`` without a clock, a time, or anyone to act."""
    options = view.get("options") or {}
    seconds = options.get("turn_seconds")
    if seconds is None or last_at is None or not view.get("toAct"):
        return None
    if view.get("status") != "playing":
        return None
    if settled_at is not None:
        start = turn_starts(last_at.timestamp(), settled_at.timestamp(), result_pause(options))
        last_at = max(last_at, datetime.fromtimestamp(start, last_at.tzinfo))
    return last_at + timedelta(seconds=float(seconds))


class PublicView(TableReadModel):
    """The spectators' view: public facts only, ``spectator_delay`` events behind live (the
    delay holds after the table ends too: spectators never see its last ``delay`` events)."""

    sees_withheld = True  # read behind the API's embargo (api.embargo)

    def key(self, table_id: UUID) -> str:
        return self.keys.table(table_id, "view")

    def write_table(self, batch: Batch, table: TableProjection, outcome: Outcome) -> None:
        state, version = table.public()
        live = version == table.version
        view = table_view(table.game, table.table_id, state, version, None,
                          table.last_at if live else None,
                          table.settled_at if live else None)  # fmt: skip
        batch.set(self.key(table.table_id), encode(view))

    def read(self, table_id: UUID) -> bytes | None:
        """The stored JSON, None while the table is not projected."""
        return self._redis.get(self.key(table_id))  # type: ignore[return-value]


class SeatViews(TableReadModel):
    """Each seated player's own view, live: their cards, everyone's public facts."""

    sees_withheld = True  # a seat sees its own table

    def key(self, table_id: UUID, seat: int) -> str:
        return self.keys.table(table_id, f"seat:{seat}")

    def write_table(self, batch: Batch, table: TableProjection, outcome: Outcome) -> None:
        for seat in sorted(table.seats):
            view = table_view(
                table.game, table.table_id, table.state, table.version, seat, table.last_at,
                table.settled_at,
            )  # fmt: skip
            batch.set(self.key(table.table_id, seat), encode(view))

    def read(self, table_id: UUID, seat: int) -> bytes | None:
        """The stored JSON, None while the table (or that seat) is not projected."""
        return self._redis.get(self.key(table_id, seat))  # type: ignore[return-value]
