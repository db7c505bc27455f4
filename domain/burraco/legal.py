"""``to_act`` and ``legal_commands``: who is to act, and what a seat may do now, as commands.

Draw-phase and discard commands are listed exhaustively. Meld commands are a finite,
representative set (see :mod:`domain.burraco.candidates`): every single card that can join a
team meld and the natural sets and runs the hand holds (and, while option
``take_pile=must_meld`` holds the discard back, the melds that use a card of the pile:
``candidates.pile_melds``). Each listed meld goes through ``decide``'s own checks
(:func:`~domain.burraco.turn.meld_allowed`), so the listing never offers an illegal move;
``decide`` also accepts legal melds that are not listed (any subset of the hand, wild
placement hints).
"""

from __future__ import annotations

from typing import Any

from domain.burraco.candidates import extensions, new_melds, pile_melds
from domain.burraco.commands import AddToMeld, Discard, Draw, Meld, TakePile
from domain.burraco.decide import decide_turn
from domain.burraco.state import DRAW, OVER, PLAYING, Table, team_of
from domain.burraco.turn import discard_fault, meld_allowed
from domain.errors import DomainError


def to_act(table: Table | None) -> frozenset[int]:
    """The seat whose turn it is, while a hand is in play."""
    if table is None or table.status != PLAYING or table.round is None:
        return frozenset()
    if table.round.phase == OVER:
        return frozenset()
    return frozenset((table.round.turn,))


def legal_commands(table: Table | None, seat: int) -> list[Any]:
    if table is None or table.status != PLAYING or table.round is None:
        return []
    r = table.round
    if r.phase == OVER or seat != r.turn:
        return []
    if r.phase == DRAW:
        # rule 12a: the stock never runs out in play (rule 20 ends the hand at two cards), and
        # the pile may be taken whenever it holds a card unless option must_meld says otherwise
        listed: list[Any] = [Draw(seat=seat)]
        take = TakePile(seat=seat)
        if r.pile and (table.options.take_pile != "must_meld" or _accepted(table, take)):
            listed.append(take)
        return listed
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
    candidates = [*extensions(hand, team_melds), *new_melds(hand)]
    if table.options.take_pile == "must_meld" and r.took_pile and not r.melded_from_pile:
        # the discard waits for a meld from the pile: list the melds that may make it
        candidates += pile_melds(hand, team_melds, r.took_pile)
    listed: list[Any] = []
    seen: set[tuple[int | None, tuple[str, ...]]] = set()
    for c in candidates:
        key = (c.meld, tuple(sorted(c.cards)))
        if key in seen:
            continue
        seen.add(key)
        command: Any = (
            Meld(seat=seat, cards=list(c.cards))
            if c.meld is None
            else AddToMeld(seat=seat, meld=c.meld, cards=list(c.cards))
        )
        if meld_allowed(table, command):
            listed.append(command)
    return listed


def _accepted(table: Table, command: Any) -> bool:
    try:
        decide_turn(table, command)
    except DomainError:
        return False
    return True
