"""Playing cards: ranks, suits, the spec's notation, packs, and the seeded shuffle.

Notation (both specs): rank ``A K Q J 10 9 8 7 6 5 4 3 2`` followed by suit ``S H D C``
(``AS``, ``10H``, ``7D``); the joker is ``JK``. Events and commands carry cards as these
codes (plain strings), so stored events stay readable and stable; rules work with
:class:`Card` values obtained through :func:`card` / :func:`parse`.

Randomness enters as data: :func:`shuffled` is a Fisher–Yates shuffle driven only by
``random.Random(seed).random()``, whose sequence CPython guarantees across versions
(``random.shuffle`` is not guaranteed). The resulting order is what ``Dealt`` events record,
so replay never re-shuffles.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Sequence
from enum import IntEnum, StrEnum
from math import floor
from typing import NamedTuple, TypeVar

T = TypeVar("T")


class CardError(ValueError):
    """A card code that is not in the spec's notation."""


class Suit(StrEnum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"


class Rank(IntEnum):
    """Ranks ordered low to high, Ace high (Bourré rule 2)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def symbol(self) -> str:
        return _RANK_SYMBOL[self]


_RANK_SYMBOL = {
    Rank.TWO: "2", Rank.THREE: "3", Rank.FOUR: "4", Rank.FIVE: "5", Rank.SIX: "6",
    Rank.SEVEN: "7", Rank.EIGHT: "8", Rank.NINE: "9", Rank.TEN: "10", Rank.JACK: "J",
    Rank.QUEEN: "Q", Rank.KING: "K", Rank.ACE: "A",
}  # fmt: skip
_SYMBOL_RANK = {symbol: rank for rank, symbol in _RANK_SYMBOL.items()}

JOKER_CODE = "JK"


class Card(NamedTuple):
    """An immutable card. The joker has ``rank is None`` and ``suit is None``."""

    rank: Rank | None
    suit: Suit | None

    @property
    def code(self) -> str:
        if self.rank is None or self.suit is None:
            return JOKER_CODE
        return f"{self.rank.symbol}{self.suit.value}"

    @property
    def is_joker(self) -> bool:
        return self.rank is None

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"


JOKER = Card(None, None)

_BY_CODE: dict[str, Card] = {JOKER_CODE: JOKER}
for _suit in Suit:
    for _rank in Rank:
        _BY_CODE[f"{_rank.symbol}{_suit.value}"] = Card(_rank, _suit)
del _suit, _rank


def card(code: str) -> Card:
    """The card for one code, e.g. ``card("10H")``. Case-insensitive; raises :class:`CardError`."""
    found = _BY_CODE.get(code)
    if found is None and isinstance(code, str):
        found = _BY_CODE.get(code.strip().upper())
    if found is None:
        raise CardError(
            f"not a card: {code!r} (expected rank A K Q J 10 9 … 2 then suit S H D C, or JK)"
        )
    return found


def parse(text: str | Iterable[str]) -> list[Card]:
    """Cards from ``"AS KD 10H"`` (space or comma separated) or from an iterable of codes."""
    codes = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [card(c) for c in codes]


def format_cards(cards: Iterable[Card]) -> str:
    """The inverse of :func:`parse`: ``"AS KD 10H"``."""
    return " ".join(c.code for c in cards)


def codes(cards: Iterable[Card]) -> list[str]:
    """Card codes as events record them."""
    return [c.code for c in cards]


def is_code(code: object) -> bool:
    """Whether ``code`` is exactly a canonical card code (as events store them)."""
    return isinstance(code, str) and code in _BY_CODE


def standard_pack() -> list[Card]:
    """One 52-card pack, no jokers (Bourré rule 1), in a fixed canonical order."""
    return [Card(rank, suit) for suit in Suit for rank in sorted(Rank, reverse=True)]


def burraco_pack() -> list[Card]:
    """Two 52-card packs and four jokers: 108 cards (Burraco rule 2)."""
    return standard_pack() + standard_pack() + [JOKER] * 4


def shuffled(items: Sequence[T], seed: int | str) -> list[T]:
    """A Fisher–Yates shuffle of ``items`` driven by ``random.Random(seed).random()``.

    Deterministic for a given seed on every CPython version (only ``random()`` is used).
    """
    uniform = random.Random(seed).random
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        # the draw's integer part (floor is int() for these non-negative floats: one C call
        # rather than the int type's constructor)
        j = floor(uniform() * (i + 1))
        out[i], out[j] = out[j], out[i]
    return out


def derive_seed(seed: int | str, *labels: object) -> int:
    """A sub-seed for one purpose (e.g. ``derive_seed(seed, "deck", hand)``), stable forever."""
    text = ":".join([str(seed), *(str(label) for label in labels)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:16], "big")


def deal_salt(seed: int | str, hand: int) -> str:
    """The secret salt of one hand's deal commitment (hex), derived from the table's seed."""
    return hashlib.sha256(f"salt:{seed}:{hand}".encode()).hexdigest()[:32]


def deck_commitment(deck: Sequence[str], salt: str) -> str:
    """SHA-256 commitment to a deck order: ``sha256("AS KD …|salt")`` in hex.

    Published with each ``Dealt`` event; the settlement reveals deck and salt so anyone can
    check that the deal was fixed before play.
    """
    return hashlib.sha256(f"{' '.join(deck)}|{salt}".encode()).hexdigest()
