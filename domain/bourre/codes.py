"""Fast card <-> code lookups and the bit masks of the hot paths (``evolve``, legal plays).

Events carry canonical codes (validated by ``decide``), so ``evolve`` may look them up
directly instead of parsing; ``Card.code`` formats on every call, these tables do not.

Sets of cards are ``int`` bit masks: card ``i`` is bit ``i``, with ``i = 13 * suit + rank - 2``
(suits in :class:`~domain.cards.Suit` order, so the 13 bits of a suit run from its 2 up to its
Ace and "higher in the suit" is "a higher bit"). ``PACK`` keeps the canonical order of the
52-card pack (the order shuffles start from); the masks have their own.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from domain.cards import Card, Suit, codes, standard_pack

PACK: Final[tuple[Card, ...]] = tuple(standard_pack())
PACK_CODES: Final[tuple[str, ...]] = tuple(codes(PACK))
CARD: Final[dict[str, Card]] = dict(zip(PACK_CODES, PACK, strict=True))
CODE: Final[dict[Card, str]] = dict(zip(PACK, PACK_CODES, strict=True))

SUITS: Final[tuple[Suit, ...]] = tuple(Suit)
SUIT_INDEX: Final[dict[Suit, int]] = {suit: i for i, suit in enumerate(SUITS)}
SUIT_BY_CODE: Final[dict[str, Suit]] = {suit.value: suit for suit in SUITS}  # "S" -> Suit.SPADES
SUIT_BITS: Final = 0x1FFF  # the 13 ranks of one suit, 2 (bit 0) to Ace (bit 12)
SUIT_MASK: Final[tuple[int, ...]] = tuple(SUIT_BITS << 13 * i for i in range(4))


def _index(c: Card) -> int:
    assert c.suit is not None and c.rank is not None
    return 13 * SUIT_INDEX[c.suit] + int(c.rank) - 2


INDEX: Final[dict[str, int]] = {code: _index(c) for code, c in CARD.items()}  # code -> bit index
BIT: Final[dict[Card, int]] = {c: 1 << _index(c) for c in PACK}  # card -> its bit
CARD_AT: Final[tuple[Card, ...]] = tuple(sorted(PACK, key=_index))  # bit index -> card
CODE_AT: Final[tuple[str, ...]] = tuple(CODE[c] for c in CARD_AT)  # bit index -> code
CODE_BIT: Final[dict[str, int]] = {code: 1 << i for code, i in INDEX.items()}  # code -> its bit
SUIT_OF: Final[tuple[int, ...]] = tuple(i // 13 for i in range(52))  # bit index -> suit index
# the cards of the same suit ranked above card i
ABOVE: Final[tuple[int, ...]] = tuple(SUIT_MASK[i // 13] & ~((2 << i) - 1) for i in range(52))


def mask_of(cards: Iterable[Card]) -> int:
    """The bit mask of some cards (an iterable of :class:`Card`)."""
    mask = 0
    for c in cards:
        mask |= BIT[c]
    return mask


def mask_of_codes(codes: Iterable[str]) -> int:
    """The bit mask of some distinct canonical codes (their bits summed: none overlap)."""
    return sum(map(CODE_BIT.__getitem__, codes))


def cards_in(cards: Sequence[Card], mask: int) -> list[Card]:
    """The cards of ``cards`` whose bit is in ``mask``, in their order."""
    return [c for c in cards if BIT[c] & mask]


def cards_of(mask: int) -> list[Card]:
    """The cards of a mask, lowest bit first."""
    found = []
    while mask:
        low = mask & -mask
        found.append(CARD_AT[low.bit_length() - 1])
        mask ^= low
    return found
