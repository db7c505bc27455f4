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

from domain.burraco.candidates import (
    Candidate,
    extensions,
    first_of_each,
    joining_alone,
    new_meld_cards,
    new_melds,
    pile_melds,
)
from domain.burraco.commands import AddToMeld, Discard, Draw, Meld, TakePile
from domain.burraco.decide import decide_turn
from domain.burraco.melds import SET, reads_new
from domain.burraco.options import CHOICES
from domain.burraco.state import DRAW, OVER, PLAYING, Round, Table, team_of
from domain.burraco.turn import (
    TWO_LEFT,
    discard_fault,
    discards_restricted,
    meld_allowed,
    new_layout,
    set_fault,
    unrefusable,
)
from domain.burraco.values import INFO
from domain.errors import DomainError

MAX_SEATS = max(CHOICES["players"])
ONE_SEAT = tuple(frozenset((seat,)) for seat in range(MAX_SEATS))  # the answers of to_act


def to_act(table: Table | None) -> frozenset[int]:
    """The seat whose turn it is, while a hand is in play."""
    if table is None or table.status != PLAYING or table.round is None:
        return frozenset()
    if table.round.phase == OVER:
        return frozenset()
    return ONE_SEAT[table.round.turn]


def legal_commands(table: Table | None, seat: int) -> list[Any]:
    if table is None or table.status != PLAYING or table.round is None:
        return []
    r = table.round
    if r.phase == OVER or seat != r.turn:
        return []
    if r.phase == DRAW:
        # rule 12a: the stock never runs out in play (rule 20 ends the hand at two cards), and
        # the pile may be taken whenever it holds a card unless option must_meld says otherwise
        listed: list[Any] = [DRAWS[seat]]
        take = TAKES[seat]
        if r.pile and (table.options.take_pile != "must_meld" or _accepted(table, take)):
            listed.append(take)
        return listed
    melds, discards = play_commands(table, seat)
    return melds + discards


# Commands are frozen values, so the draw, the pile take and each discard are made once per
# seat (and card) and listed again and again rather than made anew for every listing.
DRAWS = tuple(Draw(seat=seat) for seat in range(MAX_SEATS))
TAKES = tuple(TakePile(seat=seat) for seat in range(MAX_SEATS))
DISCARDS = tuple(
    {code: Discard(seat=seat, card=code) for code in INFO} for seat in range(MAX_SEATS)
)


def play_commands(table: Table, seat: int) -> tuple[list[Any], list[Any]]:
    """The listing of the seat to act in its play phase, in its two parts: the melds and
    additions, then the discards (the hand's distinct cards are read once for both)."""
    r = table.round
    assert r is not None
    distinct = list(dict.fromkeys(r.hands[seat]))
    return _meld_commands(table, r, seat, distinct), _discard_commands(table, r, seat, distinct)


def discard_commands(table: Table, seat: int) -> list[Any]:
    r = table.round
    assert r is not None
    return _discard_commands(table, r, seat, list(dict.fromkeys(r.hands[seat])))


def _discard_commands(table: Table, r: Round, seat: int, distinct: list[str]) -> list[Any]:
    codes = distinct
    if discards_restricted(table, r, seat):
        codes = [code for code in codes if not discard_fault(table, r, seat, code)]
    return list(map(DISCARDS[seat].__getitem__, codes))


def meld_commands(table: Table, seat: int) -> list[Any]:
    r = table.round
    assert r is not None
    return _meld_commands(table, r, seat, list(dict.fromkeys(r.hands[seat])))


def _meld_commands(table: Table, r: Round, seat: int, distinct: list[str]) -> list[Any]:
    hand = r.hands[seat]
    team = team_of(seat)
    if table.options.take_pile == "must_meld" and r.took_pile and not r.melded_from_pile:
        return _owed_meld_commands(table, r, seat)
    # Nothing after a meld of ``most`` cards or fewer can refuse it (turn.unrefusable), so
    # within it a listed addition stands as read and a new meld once read (see _stands).
    most = len(hand) - TWO_LEFT
    listed: list[Any] = []
    for m in r.melds:  # candidates.extensions, as commands
        if m.team != team:
            continue
        for code in joining_alone(distinct, m.layout):
            added = AddToMeld(seat=seat, meld=m.id, cards=[code])
            if most >= 1 or meld_allowed(table, added):
                listed.append(added)
    for cards in new_meld_cards(hand):  # candidates.new_melds
        if len(cards) > most:
            laid = Meld(seat=seat, cards=list(cards))
            if meld_allowed(table, laid):
                listed.append(laid)
            continue
        layout = reads_new(cards)  # turn.new_layout, for canonical cards without hints
        if layout is None or (layout.kind == SET and set_fault(table, r, team, layout)):
            continue
        listed.append(Meld(seat=seat, cards=list(cards)))
    return listed


def _owed_meld_commands(table: Table, r: Round, seat: int) -> list[Any]:
    """The listing while option ``take_pile=must_meld`` holds the discard back: the melds
    that may make the pile meld are listed too (``candidates.pile_melds``)."""
    hand = r.hands[seat]
    team_melds = [(m.id, m.layout) for m in r.melds if m.team == team_of(seat)]
    candidates = [*extensions(hand, team_melds), *new_melds(hand)]
    candidates += pile_melds(hand, team_melds, r.took_pile)
    candidates = first_of_each(candidates)  # they may repeat the others
    most = unrefusable(table, seat)
    return [_command(seat, c) for c in candidates if _stands(table, r, seat, c, most)]


def _command(seat: int, c: Candidate) -> Meld | AddToMeld:
    if c.meld is None:
        return Meld(seat=seat, cards=list(c.cards))
    return AddToMeld(seat=seat, meld=c.meld, cards=list(c.cards))


def _stands(table: Table, r: Round, seat: int, c: Candidate, most: int) -> bool:
    """``decide``'s verdict on a candidate, checking only what the candidate leaves open.

    A candidate is made of cards in the seat's hand, in its play phase, for one of its team's
    melds, and an addition from :func:`~domain.burraco.candidates.extensions` was read with
    its card added; so a new meld is read here (``turn.new_layout``), and when
    it lays no more than ``most`` cards (``turn.unrefusable``: nothing after it could refuse
    the meld) that is the verdict. Otherwise — the last cards of a hand, or a pile meld owed —
    ``decide``'s own checks say.
    """
    if len(c.cards) > most:
        return meld_allowed(table, _command(seat, c))
    if c.meld is None:
        try:
            new_layout(table, r, team_of(seat), c.cards)
        except DomainError:
            return False
    return True


def _accepted(table: Table, command: Any) -> bool:
    try:
        decide_turn(table, command)
    except DomainError:
        return False
    return True
