"""The ledger (design §5, ``GET /tables/{id}/ledger``): a table's running account, per game.

==============================  =====  ===================================================
key                             type   holds
==============================  =====  ===================================================
``{p}table:{id}:ledger``        str    :meth:`Ledger.shape` of the spectators' state, JSON
==============================  =====  ===================================================

* Bourré: ``{"pot", "players": [{"seat","name","net"}], "hands": [{"hand","pot","winner",
  "bourre":[seats],"tied":[seats]}]}`` — chips per player per settled hand (Bourré rules 23–28).
* Burraco: ``{"teams": [{"team","total"}], "hands": [{"hand","scores":[…],"breakdown":[…]}],
  "winner"}`` — the score sheet per team per scored hand (Burraco rules 22–27).
* Any other game: who sits where, from the table kernel's ``seating`` —
  ``{"players": [{"seat","name"}], "status", "hand"}`` — so a new game needs no code here.

The ledger is public, so it follows the spectators' view (``spectator_delay`` behind live) and
reveals nothing early. :meth:`Ledger.shape` is the one shaper: the API's answer from the event
store uses it too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from uuid import UUID

from domain.game import Game
from projections.model import Outcome, TableReadModel, decode, encode
from projections.table_projection import TableProjection
from projections.tracking import Batch

# Burraco's two partnerships (rule 1), named as its views name them.
BURRACO_TEAMS = ("A", "B")


def bourre_ledger(game: Game, state: Any) -> dict[str, Any]:
    """Bourré: the pot, each player's net, and every settled hand (``state.history``)."""
    if state is None:
        return {"pot": 0, "players": [], "hands": []}
    seating = game.seating(state)
    return {
        "pot": state.pot,
        "players": [
            {"seat": seat, "name": seating.names[seat], "net": state.nets[seat]}
            for seat in range(seating.seats)
        ],
        "hands": [
            {
                "hand": record.hand,
                "pot": record.pot,
                "winner": record.winner,
                "bourre": list(record.bourre),
                "tied": list(record.tied),
            }
            for record in state.history
        ],
    }


def burraco_ledger(game: Game, table: Any) -> dict[str, Any]:
    """Burraco: each team's total, every scored hand with its breakdown, and the winner."""
    if table is None:
        return {"teams": [], "hands": [], "winner": None}
    return {
        "teams": [{"team": BURRACO_TEAMS[t], "total": table.totals[t]} for t in (0, 1)],
        "hands": [
            {
                "hand": scored.hand,
                "scores": [s.total for s in scored.scores],
                "breakdown": [
                    {
                        "team": BURRACO_TEAMS[t],
                        "melds": s.melds,
                        "inHand": s.in_hand,
                        "burracos": s.burracos,
                        "closing": s.closing,
                        "pozzetto": s.pozzetto,
                        "total": s.total,
                    }
                    for t, s in enumerate(scored.scores)
                ],
            }
            for scored in table.results
        ],
        "winner": BURRACO_TEAMS[table.winner] if table.winner is not None else None,
    }


def seating_ledger(game: Game, state: Any) -> dict[str, Any]:
    """Any game: the seats and who holds them, the table's status and the hand in play."""
    seating = game.seating(state)
    return {
        "players": [{"seat": seat, "name": name} for seat, name in enumerate(seating.names)],
        "status": seating.status,
        "hand": seating.hand,
    }


_SHAPES: dict[str, Callable[[Game, Any], dict[str, Any]]] = {
    "bourre": bourre_ledger,
    "burraco": burraco_ledger,
}


class Ledger(TableReadModel):
    """Each table's ledger, as spectators may see it."""

    @staticmethod
    def shape(game: Game, state: Any) -> dict[str, Any]:
        """The ledger of ``game``'s table in ``state`` (JSON-ready; the module docstring)."""
        return _SHAPES.get(game.name, seating_ledger)(game, state)

    def key(self, table_id: UUID) -> str:
        return self.keys.table(table_id, "ledger")

    def write_table(self, batch: Batch, table: TableProjection, outcome: Outcome) -> None:
        state, _ = table.public()
        batch.set(self.key(table.table_id), encode(self.shape(table.game, state)))

    def read(self, table_id: UUID) -> dict[str, Any] | None:
        """The stored ledger, None while the table is not projected."""
        raw = self._redis.get(self.key(table_id))
        return None if raw is None else decode(raw)
