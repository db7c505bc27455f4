"""The ledger (design §5, ``GET /tables/{id}/ledger``): a table's running account, per game.

==============================  =====  ===================================================
key                             type   holds
==============================  =====  ===================================================
``{p}table:{id}:ledger``        str    :meth:`Ledger.shape` of the spectators' state, JSON
==============================  =====  ===================================================

The shape is the game's: its ``house.ledger`` (:mod:`domain.house`; e.g. chips per player per
settled hand, or a score sheet per team per scored hand). A game without one gets who sits
where, from the table kernel's ``seating`` — ``{"players": [{"seat","name"}], "status",
"hand"}`` — so a new game needs no code here.

The ledger is public, so it follows the spectators' view (``spectator_delay`` behind live) and
reveals nothing early. :meth:`Ledger.shape` is the one shaper: the API's answer from the event
store uses it too.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain.game import Game
from projections.model import Outcome, TableReadModel, decode, encode
from projections.table_projection import TableProjection
from projections.tracking import Batch


class Ledger(TableReadModel):
    sees_withheld = True  # read behind the API's embargo (api.embargo)
    """Each table's ledger, as spectators may see it."""

    @staticmethod
    def shape(game: Game, state: Any) -> dict[str, Any]:
        """The ledger of ``game``'s table in ``state`` (JSON-ready; the module docstring)."""
        return game.house.ledger(game, state)

    def key(self, table_id: UUID) -> str:
        return self.keys.table(table_id, "ledger")

    def write_table(self, batch: Batch, table: TableProjection, outcome: Outcome) -> None:
        state, _ = table.public()
        batch.set(self.key(table.table_id), encode(self.shape(table.game, state)))

    def read(self, table_id: UUID) -> dict[str, Any] | None:
        """The stored ledger, None while the table is not projected."""
        raw = self._redis.get(self.key(table_id))
        return None if raw is None else decode(raw)
