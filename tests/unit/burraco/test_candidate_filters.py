"""The filter ``candidates`` puts before reading a card added alone (``joinable_alone``) leaves
out of ``joinable`` only cards the meld refuses alone: checked here on every sequence of one
suit, clean or with its wild (a joker, its own 2 or another suit's 2) at each place, against
``arrange_extension``."""

from __future__ import annotations

from collections.abc import Iterator

from domain.burraco.candidates import AT, joinable, joinable_alone
from domain.burraco.melds import ACE_HIGH, ACE_LOW, Layout, MeldError, arrange_extension

SUIT = "H"
WILDS = ("JK", "2H", "2S")


def sequences() -> Iterator[Layout]:
    """Every sequence of hearts of 3 to 13 cards, clean or with one wild at any place."""
    at = AT[SUIT]
    for low in range(ACE_LOW, ACE_HIGH - 1):
        for high in range(low + 2, ACE_HIGH + 1):
            if (low, high) == (ACE_LOW, ACE_HIGH):
                continue  # a run of 14 holds a wild for one ace
            cards = tuple(at[p] for p in range(low, high + 1))
            yield Layout("sequence", cards, suit=SUIT, low=low)
            for index in range(len(cards)):
                for wild in WILDS:
                    if wild == f"2{SUIT}" and low + index == 2:
                        continue  # in its own place a same-suit 2 is natural (rule 10)
                    dirty = (*cards[:index], wild, *cards[index + 1 :])
                    yield Layout("sequence", dirty, suit=SUIT, low=low, wild=index)


def accepts(layout: Layout, code: str) -> bool:
    try:
        arrange_extension(layout, [code])
    except MeldError:
        return False
    return True


def test_a_card_left_out_by_the_filter_is_refused_alone() -> None:
    checked = 0
    for layout in sequences():
        for code in joinable(layout) - joinable_alone(layout):
            assert not accepts(layout, code), (layout, code)
            checked += 1
    assert checked > 5_000
