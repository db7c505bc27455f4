"""Bourré's read-model shapes (design §5): ``ledger``, ``lobby`` and ``counters``.

They are leaving the domain for the projections; gathered here, apart from the rules, so they
can be deleted in one go. Nothing new should use them.
"""

from __future__ import annotations

from typing import Any

from domain.bourre.events import (
    Anted,
    CardPlayed,
    DecisionsRevealed,
    Declared,
    HandSettled,
    Reshuffled,
    TrickWon,
)
from domain.bourre.state import Table
from domain.table import PlayerSeated, TableEnded, TableOpened


def ledger(state: Table | None) -> dict[str, Any]:
    """Design §5: the pot, each player's net, and every settled hand."""
    if state is None:
        return {"pot": 0, "players": [], "hands": []}
    return {
        "pot": state.pot,
        "players": [
            {"seat": seat, "name": state.names[seat], "net": state.nets[seat]}
            for seat in range(state.seats)
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


def lobby(state: Table | None) -> dict[str, Any]:
    if state is None:
        return {"game": "bourre", "status": "none"}
    return {
        "game": "bourre",
        "seats": state.seats,
        "names": list(state.names),
        "openSeats": [s for s, name in enumerate(state.names) if name is None],
        "status": state.status,
        "hand": state.hand.number if state.hand else 0,
        "pot": state.pot,
    }


def counters(event: Any) -> dict[str, int]:
    """Analytics increments for one event."""
    if isinstance(event, HandSettled):
        return {
            "hands": 1,
            "pot_chips": event.pot,
            "bourres": len(event.bourre),
            "split_pots": 1 if event.tied else 0,
            "solo_wins": 1 if event.solo else 0,
        }
    if isinstance(event, TableOpened):
        return {"tables_opened": 1}
    if isinstance(event, TableEnded):
        return {"tables_ended": 1}
    if isinstance(event, PlayerSeated):
        return {"players_seated": 1}
    if isinstance(event, Declared) and not event.sealed:
        return {"plays": 1} if event.play else {"passes": 1}
    if isinstance(event, DecisionsRevealed):
        plays = sum(event.plays)
        return {"plays": plays, "passes": len(event.plays) - plays}
    if isinstance(event, CardPlayed):
        return {"cards_played": 1}
    if isinstance(event, TrickWon):
        return {"tricks": 1}
    if isinstance(event, Reshuffled):
        return {"reshuffles": 1}
    if isinstance(event, Anted):
        return {"ante_chips": event.amount * len(event.seats)}
    return {}
