"""Burraco's read-model shapes (design §5): ``ledger``, ``lobby`` and ``counters``.

They are leaving the domain for the projections; gathered here, apart from the rules, so they
can be deleted in one go. Nothing new should use them.
"""

from __future__ import annotations

from typing import Any

from domain.burraco.events import Dealt, HandClosed, HandScored, MatchWon, Melded, PozzettoTaken
from domain.burraco.state import Table
from domain.burraco.visibility import TEAM_NAMES
from domain.table import TableOpened

HAND_ENDINGS = {"closed": "closings", "stock": "stock_exhausted", "stalemate": "stalemates"}


def ledger(table: Table | None) -> dict[str, Any]:
    """Design §5: ``{"teams": [{"team","total"}], "hands": [{"hand","scores"}], "winner"}``;
    each hand also carries its breakdown per team (rules 22–26)."""
    if table is None:
        return {"teams": [], "hands": [], "winner": None}
    return {
        "teams": [{"team": TEAM_NAMES[t], "total": table.totals[t]} for t in (0, 1)],
        "hands": [
            {
                "hand": scored.hand,
                "scores": [s.total for s in scored.scores],
                "breakdown": [
                    {
                        "team": TEAM_NAMES[t],
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
        "winner": TEAM_NAMES[table.winner] if table.winner is not None else None,
    }


def lobby(table: Table | None) -> dict[str, Any]:
    if table is None:
        return {"game": "burraco", "seats": 0, "names": [], "status": "unopened", "hand": 0}
    return {
        "game": "burraco",
        "seats": table.players,
        "names": [s.name if s else None for s in table.seats],
        "status": table.status,
        "hand": table.round.number if table.round else 0,
        "totals": list(table.totals),
        "target": table.options.target,
    }


def counters(event: Any) -> dict[str, int]:
    """Analytics increments for one event."""
    if isinstance(event, TableOpened):
        return {"tables": 1}
    if isinstance(event, Dealt):
        return {"hands_dealt": 1}
    if isinstance(event, Melded):
        return {"melds": 1}
    if isinstance(event, PozzettoTaken):
        kind = "pozzetti_direct" if event.direct else "pozzetti_on_discard"
        return {"pozzetti": 1, kind: 1}
    if isinstance(event, HandClosed):
        return {HAND_ENDINGS.get(event.reason, "hands_ended"): 1}
    if isinstance(event, HandScored):
        return {
            "hands": 1,
            "burracos_clean": sum(s.clean_burracos for s in event.scores),
            "burracos_dirty": sum(s.dirty_burracos for s in event.scores),
        }
    if isinstance(event, MatchWon):
        return {"matches": 1}
    return {}
