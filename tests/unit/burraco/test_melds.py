"""Melds (Burraco rules 7–11): valid and invalid sets and sequences, wild placement."""

from __future__ import annotations

import pytest

from domain.burraco.melds import (
    SEQUENCE,
    SET,
    MeldError,
)
from domain.burraco.values import card_points, points_of
from domain.cards import parse
from tests.unit.burraco.helpers import extend, lay

# --- valid melds: cards laid -> (kind, table order, index of the wild) ----------------------

VALID = [
    # rule 8: sets of one rank, suits may repeat, at most one wild
    ("7S 7H 7C", SET, "7S 7H 7C", -1),
    ("7S 7S 7H", SET, "7S 7S 7H", -1),
    ("KS KH JK", SET, "KS KH JK", 2),
    ("AS 2D AC AH", SET, "AS AC AH 2D", 3),
    ("QS QS QH QH QD QD QC QC JK", SET, "QS QS QH QH QD QD QC QC JK", 8),
    # rule 9: sequences of one suit, ace high or low
    ("3H 4H 5H", SEQUENCE, "3H 4H 5H", -1),
    ("5H 3H 4H", SEQUENCE, "3H 4H 5H", -1),
    ("QS KS AS", SEQUENCE, "QS KS AS", -1),
    ("AD 2D 3D", SEQUENCE, "AD 2D 3D", -1),  # rule 9: natural 2 in place is clean
    ("AH 2H 3H 2C", SEQUENCE, "AH 2H 3H 2C", 3),  # rule 9: the spec's example, 2C is 4H
    ("5D 2D 7D", SEQUENCE, "5D 2D 7D", 1),  # a same-suit 2 out of place is wild (6D)
    ("8C JK 10C", SEQUENCE, "8C JK 10C", 1),  # rule 9: a wild inside
    ("8C 9C JK", SEQUENCE, "8C 9C JK", 2),  # rule 9: a wild at an end goes high by default
    ("QH KH JK", SEQUENCE, "QH KH JK", 2),  # the end wild stands for the ace high
    ("KH AH JK", SEQUENCE, "JK KH AH", 0),  # no room above the ace-high end
    ("2H 3H 4H", SEQUENCE, "2H 3H 4H", -1),  # rule 10: a same-suit 2 reads as natural
    ("AH 2H 2H", SEQUENCE, "AH 2H 2H", 2),  # one 2H natural, the other wild for 3H
    ("KH AH 2H", SEQUENCE, "2H KH AH", 0),  # 2H wild for QH: K-A-2 cannot wrap
    (
        "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS JK",
        SEQUENCE,
        "JK 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS",
        0,
    ),  # rule 9: 14 cards, A…K plus a wild for the other ace (an either-way ace goes high)
]


@pytest.mark.parametrize(("cards", "kind", "order", "wild"), VALID)
def test_burraco_valid_meld_is_laid_out_by_rules_8_to_10(
    cards: str, kind: str, order: str, wild: int
) -> None:
    layout = lay(cards)
    assert (layout.kind, " ".join(layout.cards), layout.wild) == (kind, order, wild)


INVALID = [
    ("7S 7H", "at least 3 cards"),  # rule 7
    ("7S 7H JK 2C", "at most one wild"),  # rule 8
    ("2S 2H 2D", "no sets of 2s"),  # rule 8
    ("JK JK 2C", "no sets of 2s"),  # rule 8: never only wilds
    ("5H 6H 8H 9H", "do not run: missing 7H"),  # rule 9
    ("5H 6H 9H JK", "missing 7H, 8H"),  # rule 9: one wild fills one gap
    ("5H 6H 7S", "one suit"),  # rule 9
    ("QH KH AH 2H 3H", "do not run"),  # rule 9: no wrap-around
    ("4C 5C JK 2H", "at most one wild"),  # rule 9
    ("5H 2H JK", "at most one wild"),  # 2H cannot be natural next to a 5
    ("5H 5S 6H", "neither"),
    ("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS", "never both"),  # rule 9
]


@pytest.mark.parametrize(("cards", "reason"), INVALID)
def test_burraco_invalid_meld_is_rejected_with_the_rule_broken(cards: str, reason: str) -> None:
    with pytest.raises(MeldError, match=reason):
        lay(cards)


def test_burraco_rule_8_a_set_holds_at_most_nine_cards() -> None:
    meld = lay("QS QS QH QH QD QD QC QC")
    assert len(extend(meld, "JK").cards) == 9
    with pytest.raises(MeldError, match="at most one wild"):
        extend(extend(meld, "JK"), "2C")


def test_burraco_rule_8_a_set_takes_only_its_rank() -> None:
    with pytest.raises(MeldError, match="5S is not a 7"):
        extend(lay("7S 7H 7C"), "5S")


def test_burraco_rule_10_the_displaced_wild_may_be_sent_to_the_low_end() -> None:
    grown = extend(lay("5H JK 7H"), "6H", wild_rank="4")
    assert grown.cards == ("JK", "5H", "6H", "7H")


def test_burraco_rule_9_a_second_wild_is_refused_in_a_sequence() -> None:
    with pytest.raises(MeldError, match="at most one wild"):
        extend(lay("5H JK 7H"), "2C")


def test_burraco_rule_9_a_natural_two_allows_one_further_wild() -> None:
    grown = extend(lay("AH 2H 3H"), "JK")
    assert grown.cards == ("AH", "2H", "3H", "JK")
    assert not grown.clean


def test_burraco_rule_10_a_same_suit_two_becomes_natural_when_its_place_is_reached() -> None:
    meld = lay("4H 5H 2H")  # the 2H is wild (for 6H)
    assert not meld.clean
    grown = extend(meld, "3H")
    assert grown.cards == ("2H", "3H", "4H", "5H")
    assert grown.clean


def test_burraco_rule_9_an_ace_goes_high_or_low_as_the_player_says() -> None:
    run = lay("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")
    assert extend(run, "AH").cards[-1] == "AH"
    assert extend(run, "AH", ace="low").cards[0] == "AH"
    with pytest.raises(MeldError, match="never both"):
        extend(extend(run, "AH"), "AH")


def test_burraco_rule_9_the_wild_may_stand_for_the_rank_the_player_names() -> None:
    assert lay("8C 9C JK", wild_rank="7").cards == ("JK", "8C", "9C")
    with pytest.raises(MeldError, match="cannot stand for a 5"):
        lay("8C 9C JK", wild_rank="5")


def test_burraco_rule_9_a_sequence_holds_at_most_fourteen_cards() -> None:
    full = lay("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS JK")
    assert len(full.cards) == 14
    with pytest.raises(MeldError):
        extend(full, "2D")


def test_burraco_rule_11_clean_dirty_and_burraco() -> None:
    clean = lay("3H 4H 5H 6H 7H 8H 9H")
    dirty = lay("3H 4H 5H 6H JK 8H 9H")
    assert clean.burraco and clean.clean
    assert dirty.burraco and not dirty.clean
    assert not lay("3H 4H 5H 6H 7H 8H").burraco
    assert lay("AD 2D 3D 4D 5D 6D 7D").clean  # the natural 2 in place is clean


def test_burraco_rule_3_card_values() -> None:
    values = [card_points(c) for c in parse("JK 2C AS KD QH JC 10S 9D 8H 7C 6S 5D 4H 3C")]
    assert values == [30, 20, 15, 10, 10, 10, 10, 10, 10, 5, 5, 5, 5, 5]
    assert points_of(lay("5D 2D 7D").cards) == 30  # rule 3: a wild 2 still counts 20


EXTENSIONS = [
    # (meld on the table, cards added, new table order)
    ("7S 7H 7C", "7D", "7S 7H 7C 7D"),  # rule 8: a set grows by its rank
    ("7S 7H 7C", "JK", "7S 7H 7C JK"),  # rule 8: one wild
    ("7S 7H JK", "7C 7C", "7S 7H 7C 7C JK"),  # the set's wild stays last
    ("5H 6H 7H", "8H 9H", "5H 6H 7H 8H 9H"),  # rule 9: either end
    ("5H 6H 7H", "4H", "4H 5H 6H 7H"),
    ("5H 6H 7H", "9H 2C", "5H 6H 7H 2C 9H"),  # rule 9: a wild fills the gap it bridges
    ("QH KH AH", "JH", "JH QH KH AH"),  # ace high stays high
    ("QH KH AH", "2H", "2H QH KH AH"),  # K-A-2 cannot wrap, so the 2H is wild (for JH)
    ("2H 3H 4H", "AH", "AH 2H 3H 4H"),  # ace low below a natural 2
    ("AH 2H 3H", "2C", "AH 2H 3H 2C"),  # rule 9: a natural 2 allows one further wild
    ("5D 2D 7D", "6D", "5D 6D 7D 2D"),  # rule 10: the displaced wild goes to an end
    ("JK 6C 7C", "5C", "5C 6C 7C JK"),  # rule 10: replaced by its natural card
]


@pytest.mark.parametrize(("meld", "added", "order"), EXTENSIONS)
def test_burraco_valid_addition_is_laid_out_by_rules_8_to_10(
    meld: str, added: str, order: str
) -> None:
    assert " ".join(extend(lay(meld), added).cards) == order


BAD_EXTENSIONS = [
    ("7S 7H 7C", "8S", "8S is not a 7"),  # rule 8
    ("7S 7H JK", "2C", "at most one wild"),  # rule 8
    ("5H 6H 7H", "9H", "missing 8H"),  # rule 9
    ("5H 6H 7H", "8S", "not a heart"),  # rule 9
    ("5H JK 7H", "JK", "at most one wild"),  # rule 9
    ("QH KH AH", "3H", "do not run"),  # rule 9: no wrap-around (K-A-2-3)
    ("QH KH AH", "AH", "never both"),  # rule 9
    ("5H 6H 7H", "7H", "already holds 7H"),  # rule 9: one card per place
    ("5H 6H 7H", "", "at least one card"),
]


@pytest.mark.parametrize(("meld", "added", "reason"), BAD_EXTENSIONS)
def test_burraco_invalid_addition_is_rejected_with_the_rule_broken(
    meld: str, added: str, reason: str
) -> None:
    with pytest.raises(MeldError, match=reason):
        extend(lay(meld), added)
