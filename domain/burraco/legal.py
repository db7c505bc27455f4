"""``legal_commands``: what a seat may do now, as command objects.

Draw-phase and discard commands are listed exhaustively. Meld commands are a finite,
representative set (see :mod:`domain.burraco.candidates`): every single card that can join a
team meld and the natural sets and runs the hand holds. Each listed command is checked by
``decide`` itself, so the listing never offers an illegal move; ``decide`` also accepts legal
melds that are not listed (any subset of the hand, wild placement hints).
"""

from __future__ import annotations

from typing import Any

from domain.burraco.candidates import extensions, new_melds
from domain.burraco.commands import AddToMeld, Discard, Draw, Meld, TakePile
from domain.burraco.rules import decide_turn, discard_fault
from domain.burraco.state import DRAW, OVER, PLAYING, Table, team_of
from domain.errors import DomainError


def legal_commands(table: Table | None, seat: int) -> list[Any]:
    if table is None or table.status != PLAYING or table.round is None:
        return []
    r = table.round
    if r.phase == OVER or seat != r.turn:
        return []
    if r.phase == DRAW:
        listed: list[Any] = [Draw(seat=seat)]
        if r.pile:
            listed.append(TakePile(seat=seat))
        return [c for c in listed if _accepted(table, c)]
    return meld_commands(table, seat) + discard_commands(table, seat)


def discard_commands(table: Table, seat: int) -> list[Any]:
    r = table.round
    assert r is not None
    return [
        Discard(seat=seat, card=code)
        for code in dict.fromkeys(r.hands[seat])
        if not discard_fault(table, r, seat, code)
    ]


def meld_commands(table: Table, seat: int) -> list[Any]:
    r = table.round
    assert r is not None
    hand = r.hands[seat]
    team = team_of(seat)
    team_melds = [(m.id, m.layout) for m in r.melds if m.team == team]
    listed: list[Any] = [
        AddToMeld(seat=seat, meld=c.meld, cards=list(c.cards))
        for c in extensions(hand, team_melds)
        if c.meld is not None
    ]
    listed += [Meld(seat=seat, cards=list(c.cards)) for c in new_melds(hand)]
    return [c for c in listed if _accepted(table, c)]


def _accepted(table: Table, command: Any) -> bool:
    try:
        decide_turn(table, command)
    except DomainError:
        return False
    return True
