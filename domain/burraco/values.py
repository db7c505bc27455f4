"""Card values and what the rules need to know of each card code (Burraco rules 2 and 3)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from domain.cards import Card, Rank, burraco_pack, card


def card_points(c: Card) -> int:
    """Rule 3: joker 30, 2 20, ace 15, K–8 10, 7–3 5 — whatever role the card plays."""
    if c.rank is None:
        return 30
    if c.rank is Rank.TWO:
        return 20
    if c.rank is Rank.ACE:
        return 15
    return 10 if c.rank >= Rank.EIGHT else 5


POINTS: dict[str, int] = {}  # code -> value, filled lazily by points_of


def points_of(codes_: Iterable[str]) -> int:
    """The total value (rule 3) of some card codes."""
    total = 0
    for code in codes_:
        value = POINTS.get(code)
        if value is None:
            value = POINTS[code] = card_points(card(code))
        total += value
    return total


class CodeInfo(NamedTuple):
    """What the rules need of a card code, looked up once: rank number (2…14, 0 for the
    joker), rank symbol, suit letter ('' for the joker) and whether it is wild-capable."""

    rank: int
    symbol: str
    suit: str
    wild: bool


INFO: dict[str, CodeInfo] = {
    c.code: CodeInfo(
        int(c.rank) if c.rank is not None else 0,
        c.rank.symbol if c.rank is not None else "JK",
        c.suit.value if c.suit is not None else "",
        c.rank is None or c.rank is Rank.TWO,
    )
    for c in {*burraco_pack()}
}
