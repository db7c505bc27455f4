"""The filter ``candidates`` puts before reading a card added alone (``joinable_alone``) leaves
out of ``joinable`` only cards the meld refuses alone: checked here on every sequence of one
suit, clean or with its wild (a joker, its own 2 or another suit's 2) at each place, against
``arrange_extension``."""

from __future__ import annotations

from collections.abc import Iterator

from domain.burraco.candidates import AT, joinable, joinable_alone
from domain.burraco.melds import ACE_HIGH, ACE_LOW, Layout, arrange_extension
from tests.unit.burraco.test_extends import accepted

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


def test_a_card_left_out_by_the_filter_is_refused_alone() -> None:
    checked = 0
    for layout in sequences():
        for code in joinable(layout) - joinable_alone(layout):
            assert not accepted(layout, code), (layout, code)
            checked += 1
    assert checked > 5_000


def test_every_card_a_sequence_takes_alone_passes_the_filter() -> None:
    # the listing offers every single card that can join (candidates' docstring): the filter
    # may let through cards the meld refuses, never leave out one it takes
    cards = (*AT[SUIT].values(), "JK", "2S", "2C", "2D")
    checked = 0
    for layout in sequences():
        alone = joinable_alone(layout)
        for code in cards:
            if accepted(layout, code):
                assert code in alone, (layout, code)
                checked += 1
    assert checked > 5_000


def test_rule_9_a_wild_joins_a_run_whose_own_2_can_turn_natural() -> None:
    # 3H 4H 2H(as 5H) + JK gives 2H 3H 4H JK(as 5H): the 2 read as natural, the joker the wild
    layout = Layout("sequence", ("3H", "4H", "2H"), suit="H", low=3, wild=2)
    for wild in ("JK", "2C", "2H"):
        assert wild in joinable_alone(layout)
        assert arrange_extension(layout, [wild]).cards == ("2H", "3H", "4H", wild)
    # where the run does not reach down to 3 the 2 stays a wild, and no other wild may join
    higher = Layout("sequence", ("5H", "6H", "2H"), suit="H", low=5, wild=2)
    assert not {"JK", "2C"} & joinable_alone(higher)
