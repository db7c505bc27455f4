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
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain.game import Game, Viewer
from projections.model import Outcome, TableReadModel, encode
from projections.tables import TableProjection
from projections.tracking import Batch


def table_view(
    game: Game, table_id: UUID, state: Any, version: int, viewer: Viewer
) -> dict[str, Any]:
    """``viewer``'s view of the table at ``version`` (a seat, or ``None`` for spectators)."""
    view = {"tableId": str(table_id), "game": game.name, "version": version}
    view.update(game.view(state, viewer))
    return view


class PublicView(TableReadModel):
    """The spectators' view: public facts only, ``spectator_delay`` events behind live (the
    delay holds after the table ends too: spectators never see its last ``delay`` events)."""

    def key(self, table_id: UUID) -> str:
        return self.keys.table(table_id, "view")

    def write_table(self, batch: Batch, table: TableProjection, outcome: Outcome) -> None:
        state, version = table.public()
        view = table_view(table.game, table.table_id, state, version, None)
        batch.set(self.key(table.table_id), encode(view))

    def read(self, table_id: UUID) -> bytes | None:
        """The stored JSON, None while the table is not projected."""
        return self._redis.get(self.key(table_id))  # type: ignore[return-value]


class SeatViews(TableReadModel):
    """Each seated player's own view, live: their cards, everyone's public facts."""

    def key(self, table_id: UUID, seat: int) -> str:
        return self.keys.table(table_id, f"seat:{seat}")

    def write_table(self, batch: Batch, table: TableProjection, outcome: Outcome) -> None:
        for seat in sorted(table.seats):
            view = table_view(table.game, table.table_id, table.state, table.version, seat)
            batch.set(self.key(table.table_id, seat), encode(view))

    def read(self, table_id: UUID, seat: int) -> bytes | None:
        """The stored JSON, None while the table (or that seat) is not projected."""
        return self._redis.get(self.key(table_id, seat))  # type: ignore[return-value]
