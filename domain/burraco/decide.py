"""``decide(state, command) -> events`` for a Burraco table.

Table life: ``OpenTable`` → ``TableOpened``; ``TakeSeat`` → ``PlayerSeated`` (the last seat
also deals hand 1); hands follow one another (dealer passing left) until a team wins
(``MatchWon``, ``TableEnded(reason="match")``). The table-level commands are decided by the
table kernel (:mod:`domain.table.kernel`); Burraco plugs in its options, its 108-card pack,
the deal of hand 1 when the last seat fills, and what closing means in play. The turn's five
commands are :mod:`domain.burraco.turn`'s.

``CloseTable`` by a seated player ends the table at once: a real service cannot keep three
players waiting on one who left, so the match is abandoned. The unfinished hand is not scored
(``HandAbandoned`` reveals its deck and salt so the deal can still be verified), the scored
hands stand in the ledger, and there is no winner (``TableEnded(reason="closed")``).
"""

from __future__ import annotations

from typing import Any

from domain.burraco.commands import AddToMeld, Discard, Draw, Meld, TakePile
from domain.burraco.deal import PACK, deal_hand
from domain.burraco.events import HandAbandoned
from domain.burraco.evolve import evolve
from domain.burraco.options import normalise_options
from domain.burraco.state import OVER, PLAYING, Table, seat_for_token, seating
from domain.burraco.turn import decide_turn
from domain.errors import IllegalCommand
from domain.table import TableEnded
from domain.table.kernel import TableRules, decide_table


def decide(table: Table | None, command: Any) -> list[Any]:
    """Decide one command (never mutates ``table``); raises a ``DomainError`` subclass."""
    events = decide_table(TABLE, table, command)
    if events is not None:
        return events
    assert table is not None
    if isinstance(command, Draw | TakePile | Meld | AddToMeld | Discard):
        return decide_turn(table, command)
    raise IllegalCommand(f"burraco does not accept {type(command).__name__}")


def close_in_play(table: Table, seat: int) -> list[Any]:
    """A seated player closes the table; an unfinished hand is abandoned (module docstring)."""
    events: list[Any] = []
    r = table.round
    if table.status == PLAYING and r is not None and r.phase != OVER:
        events.append(HandAbandoned(hand=r.number, deck=list(r.deck), salt=r.salt))
    events.append(TableEnded(reason="closed"))
    return events


TABLE: TableRules[Table] = TableRules(
    game="burraco",
    title="burraco",
    options=normalise_options,
    pack=PACK,
    seating=seating,
    seat_for_token=seat_for_token,
    evolve=evolve,
    start=lambda table: [deal_hand(table, 1)],  # rule 4: seat 0 deals hand 1
    close=close_in_play,
)
