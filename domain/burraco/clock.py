"""A Burraco seat whose turn ran out (design §9, turn clocks): it draws from the stock
(rule 12a) and discards the card it drew last — the last card of its hand — or, where that
discard is not allowed (rule 12c), the first one that is."""

from __future__ import annotations

from typing import Any

from domain.burraco.commands import Draw
from domain.burraco.legal import discard_commands, legal_commands
from domain.burraco.state import DRAW, Table


def timeout_move(state: Table, seat: int) -> Any | None:
    r = state.round
    if r is None or seat != r.turn:
        return None
    if r.phase == DRAW:
        return Draw(seat=seat)
    discards = discard_commands(state, seat)
    last = r.hands[seat][-1] if r.hands[seat] else None
    chosen = next((d for d in discards if d.card == last), None)
    if chosen is None and discards:
        chosen = discards[0]
    if chosen is not None:
        return chosen
    legal = legal_commands(state, seat)
    return legal[0] if legal else None
