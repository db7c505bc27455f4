"""Plain melds (rules 8–10): the common readings that need no search.

:mod:`domain.burraco.melds` reads a meld by trying every reading of its cards
(:mod:`domain.burraco.sequences`). Most melds a game lays are plain, and each has one reading
only: naturals of one rank, or two with one wild (a set, rule 8); a run of naturals from 3 to
K (a sequence, rule 9); a natural added next to either end of a run whose wild, if it has one,
is a joker or another suit's 2 (rule 10 keeps such a wild where it stands); a card added to a
set. These functions give that layout at once, or ``None`` when the cards are not that plain:
then the full reading decides, refusals included. Tests check them against the full reading.
"""

from __future__ import annotations

from typing import Final

from domain.burraco.layout import MAX_SET, MAX_SET_NATURALS, SEQUENCE, SET, Layout
from domain.burraco.values import INFO

# the positions of a run that hold neither an ace nor a 2
LOWEST: Final = 3
HIGHEST: Final = 13


def plain_new(cards: tuple[str, ...]) -> Layout | None:
    """A new meld of naturals of one rank (or two and a wild, rule 8), or a run of naturals
    of one suit from 3 to K laid in order (rule 9); ``None`` if the cards are not that."""
    size = len(cards)
    if size < 3 or size > MAX_SET:
        return None
    first = INFO[cards[0]]
    if first.wild:
        return None
    second = INFO[cards[1]]
    if second.symbol == first.symbol:  # a set: naturals of one rank, its wild last
        last = INFO[cards[-1]]
        if last.wild:
            if size != 3:
                return None
            return Layout(SET, cards, None, first.symbol, 0, 2)
        if size > MAX_SET_NATURALS:
            return None  # more naturals than two packs hold: the full reading refuses it
        for code in cards:
            if INFO[code].symbol != first.symbol:
                return None
        return Layout(SET, cards, None, first.symbol)
    low = first.rank
    if low < LOWEST or low + size - 1 > HIGHEST:
        return None
    suit = first.suit
    for position, code in enumerate(cards, low):
        info = INFO[code]
        if info.rank != position or info.suit != suit:
            return None
    return Layout(SEQUENCE, cards, suit, None, low)


def plain_extension(
    kind: str,
    cards: tuple[str, ...],
    suit: str | None,
    rank: str | None,
    low: int,
    wild: int,
    code: str,
) -> Layout | None:
    """The meld laid out as ``cards`` (with ``suit``, ``rank``, ``low``, ``wild`` as in
    :class:`Layout`) with the one card ``code`` added, when that is plain; else ``None``."""
    info = INFO[code]
    size = len(cards)
    if kind == SET:
        if size >= MAX_SET or (wild >= 0 and wild != size - 1):
            return None
        if info.wild:
            return None if wild >= 0 else Layout(SET, (*cards, code), None, rank, 0, size)
        if info.symbol != rank:
            return None
        if wild < 0:
            if size >= MAX_SET_NATURALS:
                return None  # a ninth natural: the full reading refuses it
            return Layout(SET, (*cards, code), None, rank)
        return Layout(SET, (*cards[:wild], code, cards[wild]), None, rank, 0, wild + 1)
    position = info.rank
    if info.suit != suit or not LOWEST <= position <= HIGHEST:
        return None
    if wild >= 0 and cards[wild] == f"2{suit}":
        return None  # a same-suit 2 may turn natural (rule 10): read in full
    if position == low + size:
        return Layout(SEQUENCE, (*cards, code), suit, None, low, wild)
    if position == low - 1:
        return Layout(SEQUENCE, (code, *cards), suit, None, low - 1, wild + 1 if wild >= 0 else -1)
    return None
