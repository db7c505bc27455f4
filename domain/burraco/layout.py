"""A meld as the table shows it (Burraco rules 7–11): kinds, positions and :class:`Layout`.

A meld's *layout* is what the table shows and what events record: the cards in order, which one
(if any) is the wild, and for a sequence the position of its first card. Positions run
``1`` (ace low) ``2 … 13`` (two … king) ``14`` (ace high), so a sequence is a contiguous range
of positions with one card in each. Reading cards into a layout is :mod:`domain.burraco.melds`.
"""

from __future__ import annotations

from typing import Final

import msgspec

from domain.cards import Rank
from domain.errors import IllegalCommand

SET: Final = "set"
SEQUENCE: Final = "sequence"
ACE_LOW: Final = 1
ACE_HIGH: Final = 14
MAX_SET: Final = 9  # rule 8: eight naturals of a rank (two packs) plus one wild
MAX_SET_NATURALS: Final = 8  # rule 8: no more naturals of a rank than two packs hold
MAX_SEQUENCE: Final = 14  # rule 9: A…K plus a wild standing for the other ace
BURRACO: Final = 7  # rule 11

SUIT_NAMES = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}


class MeldError(IllegalCommand):
    """A meld (or an addition to one) that rules 7–11 forbid."""


# the rank symbol of each sequence position (the ace at both ends)
POSITION_SYMBOLS = {
    **{int(rank): rank.symbol for rank in Rank},
    ACE_LOW: Rank.ACE.symbol,
}


def position_name(position: int, suit: str | None) -> str:
    """The card a sequence position stands for, e.g. ``4H``."""
    return f"{POSITION_SYMBOLS[position]}{suit or ''}"


class Layout(msgspec.Struct, frozen=True, gc=False):
    """Where every card of a meld stands, as ``Melded``/``MeldExtended`` record it.

    ``cards`` are in table order (a sequence from its low end up; a set's naturals, then its
    wild). ``wild`` is the index of the wild card in ``cards`` (``-1`` if the meld is clean;
    a natural 2 in place is not a wild, rule 9). ``low`` is the position of a sequence's first
    card, so its wild stands for the card at position ``low + wild``. ``suit`` names a
    sequence's suit, ``rank`` a set's rank. (A frozen msgspec Struct: readings and ``evolve``
    make many, and it is several times cheaper to make than a dataclass. Not tracked by the
    cyclic garbage collector, ``gc=False``: frozen, holding strings and ints, it holds no
    reference cycle.)
    """

    kind: str
    cards: tuple[str, ...]
    suit: str | None = None
    rank: str | None = None
    low: int = 0
    wild: int = -1

    @property
    def clean(self) -> bool:
        """Rule 11: clean (*pulito*) when no card plays as a wild."""
        return self.wild < 0

    @property
    def burraco(self) -> bool:
        """Rule 11: seven or more cards."""
        return len(self.cards) >= BURRACO

    @property
    def high(self) -> int:
        """Position of a sequence's last card."""
        return self.low + len(self.cards) - 1

    @property
    def wild_position(self) -> int | None:
        """The position the wild stands for in a sequence (``None`` if clean or a set)."""
        if self.wild < 0 or self.kind != SEQUENCE:
            return None
        return self.low + self.wild

    @property
    def wild_at_end(self) -> bool:
        """Whether a sequence's wild sits at an end: rule 10 lets it cross to the other end to
        make room, and the FITAB bonus counts such a burraco semi-clean."""
        return self.kind == SEQUENCE and self.wild in (0, len(self.cards) - 1)
