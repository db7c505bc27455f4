"""Burraco rule 8 and the two-pack deck: a set holds at most 8 natural cards of its rank (no
more than the deck holds) and one wild, 9 cards in all (docs/rules/burraco.md rule 8)."""

from __future__ import annotations

import pytest

from domain.burraco import GAME
from domain.burraco.commands import AddToMeld, Draw, Meld
from domain.burraco.melds import MeldError, arrange_extension, arrange_new, extends, reads_new
from domain.errors import IllegalCommand
from tests.unit.burraco.helpers import hand_round, play, seated_table, stacked_deck

EIGHT_SEVENS = ["7H", "7H", "7D", "7D", "7S", "7S", "7C", "7C"]


def test_rule_8_eight_natural_sevens_and_a_wild_are_the_largest_set() -> None:
    layout = arrange_new([*EIGHT_SEVENS, "JK"])
    assert (layout.kind, layout.rank, len(layout.cards), layout.wild) == ("set", "7", 9, 8)


def test_rule_8_nine_natural_sevens_are_refused() -> None:
    with pytest.raises(MeldError, match="at most 8 natural 7s"):
        arrange_new([*EIGHT_SEVENS, "7C"])
    assert reads_new((*EIGHT_SEVENS, "7C")) is None


def test_rule_8_a_set_of_eight_natural_sevens_takes_no_ninth() -> None:
    eight = arrange_new(EIGHT_SEVENS)
    assert not extends(eight, "7C")
    with pytest.raises(MeldError, match="at most 8 natural 7s"):
        arrange_extension(eight, ["7C"])
    assert extends(eight, "JK")


def test_rule_8_played_the_eight_sevens_take_a_wild_and_then_nothing() -> None:
    # seat 1 holds all eight 7s and a joker: it lays them, adds the joker, and the set is full
    deck = stacked_deck(hands={1: "7H 7H 7D 7D 7S 7S 7C 7C JK 2C 4D"}, stock="9S")
    table = seated_table(deck)
    table, _ = play(
        table,
        Draw(seat=1),  # 9S
        Meld(seat=1, cards=EIGHT_SEVENS),
        AddToMeld(seat=1, meld=1, cards=["JK"]),
    )
    (meld,) = hand_round(table).melds
    assert len(meld.layout.cards) == 9 and meld.layout.wild == 8
    with pytest.raises(IllegalCommand):
        GAME.decide(table, AddToMeld(seat=1, meld=1, cards=["2C"]))
