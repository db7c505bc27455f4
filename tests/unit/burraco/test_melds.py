"""Melds (spec §3, rules 7–11): valid and invalid sets and sequences, wild placement."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.burraco.melds import (
    SEQUENCE,
    SET,
    Layout,
    MeldError,
    arrange_extension,
    arrange_new,
    position_name,
)
from domain.burraco.values import card_points, points_of
from domain.cards import codes, parse


def lay(text: str, **hints: str) -> Layout:
    return arrange_new(codes(parse(text)), **hints)


def extend(meld: Layout, text: str, **hints: str) -> Layout:
    return arrange_extension(meld, codes(parse(text)), **hints)


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


def test_burraco_rule_10_a_natural_card_displaces_the_inner_wild_to_an_end() -> None:
    meld = lay("5H JK 7H")
    assert meld.wild_position == 6
    grown = extend(meld, "6H")
    assert grown.cards == ("5H", "6H", "7H", "JK")
    assert grown.wild_position == 8


def test_burraco_rule_10_the_displaced_wild_may_be_sent_to_the_low_end() -> None:
    grown = extend(lay("5H JK 7H"), "6H", wild_rank="4")
    assert grown.cards == ("JK", "5H", "6H", "7H")


def test_burraco_rule_10_an_end_wild_moves_to_the_other_end_to_make_room() -> None:
    meld = lay("5H 6H 7H JK")  # JK stands for 8H
    grown = extend(meld, "8H")
    assert grown.cards == ("5H", "6H", "7H", "8H", "JK")
    assert extend(meld, "4H").cards == ("4H", "5H", "6H", "7H", "JK")  # the wild stays put


def test_burraco_rule_10_an_inner_wild_stays_when_other_cards_are_added() -> None:
    grown = extend(lay("5H JK 7H"), "8H 9H")
    assert grown.cards == ("5H", "JK", "7H", "8H", "9H")
    assert grown.wild_position == 6


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
    assert points_of(lay("5D 2D 7D").cards) == 30  # spec §7: a wild 2 still counts 20


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
    ("JK 6C 7C", "5C", "5C 6C 7C JK"),  # rule 10: an end wild moves to make room
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


# --- audit (round 2): rule 10 holds whatever placement hint a command carries ----------------


def test_burraco_rule_10_a_same_suit_two_in_its_place_stays_natural_whatever_the_hint() -> None:
    # rule 10: "where a same-suit 2 can be read as natural or as wild, it is read as natural",
    # so a wildRank hint may not turn the clean run 2H 3H 4H into a dirty 3H 4H 2H(5H)
    with pytest.raises(MeldError, match=r"no wild card \(its 2H is natural in its own place"):
        lay("2H 3H 4H", wild_rank="5")
    with pytest.raises(MeldError, match="no wild card"):
        extend(lay("3H 4H 5H"), "2H", wild_rank="6")
    assert extend(lay("3H 4H 5H"), "2H").cards == ("2H", "3H", "4H", "5H")


def test_burraco_rule_10_an_end_wild_moves_to_the_other_end_only_to_make_room() -> None:
    meld = lay("5H 6H 7H JK")  # JK stands for 8H
    # adding 4H needs no room at the high end: the wild may not wander to 3H
    with pytest.raises(MeldError, match="stays where it stands for 8H"):
        extend(meld, "4H", wild_rank="3")
    assert extend(meld, "4H", wild_rank="8").cards == ("4H", "5H", "6H", "7H", "JK")
    # displaced by its natural card, the wild may go to either end (rule 10)
    assert extend(meld, "8H", wild_rank="4").cards == ("JK", "5H", "6H", "7H", "8H")


def test_burraco_rule_10_an_end_wild_makes_room_at_the_ace_high_end() -> None:
    # Q K JK(A): the ace-high end is taken by the wild; adding the natural AH sends it to J
    meld = lay("QH KH JK")
    assert extend(meld, "AH").cards == ("JK", "QH", "KH", "AH")
    with pytest.raises(MeldError, match="stays where it stands for AH"):
        extend(meld, "JH", wild_rank="10")


def test_burraco_rule_10_an_end_wild_does_not_jump_into_a_gap() -> None:
    # the wild stands for AH: adding 10H would need it to stand for JH instead, but a wild
    # moves only when its natural card is added, or to the other end to make room
    with pytest.raises(MeldError, match="stays where it stands for AH"):
        extend(lay("QH KH JK"), "10H")
    with pytest.raises(MeldError, match="stays where it stands for 8H"):
        extend(lay("5H 6H 7H JK"), "3H")
    # displaced by its natural card, it may then bridge the gap the new card opens
    assert extend(lay("5H 6H 7H JK"), "8H 10H").cards == ("5H", "6H", "7H", "8H", "JK", "10H")


# --- rule 10 as a property: what an addition may move on the table ---------------------------

HEARTS = {p: position_name(p, "H") for p in range(1, 15)}


@st.composite
def sequences_on_the_table(draw: st.DrawFn) -> Layout:
    """A hearts run of 3–9 cards (ace low or high), perhaps with a joker or 2C for one card."""
    length = draw(st.integers(3, 9))
    low = draw(st.integers(1, 14 - length + 1))
    laid = [HEARTS[p] for p in range(low, low + length)]
    if draw(st.booleans()):
        laid[draw(st.integers(0, length - 1))] = draw(st.sampled_from(["JK", "2C"]))
    try:
        return arrange_new(laid)
    except MeldError:  # e.g. the wild replaced one of only two naturals
        return arrange_new([HEARTS[p] for p in range(low, low + length)])


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(
    meld=sequences_on_the_table(),
    added=st.lists(st.sampled_from([*HEARTS.values(), "JK", "2C"]), min_size=1, max_size=3),
    wild_rank=st.sampled_from([None, "A", "2", "3", "7", "8", "9", "Q", "K"]),
)
def test_burraco_rule_10_additions_never_move_naturals_and_move_the_wild_only_as_allowed(
    meld: Layout, added: list[str], wild_rank: str | None
) -> None:
    try:
        grown = arrange_extension(meld, added, wild_rank=wild_rank)
    except MeldError:
        return
    place = {grown.low + i: code for i, code in enumerate(grown.cards)}
    for index, code in enumerate(meld.cards):
        if index != meld.wild:  # rule 10: naturals never move
            assert place[meld.low + index] == code
    old = meld.wild_position
    if old is None or (meld.cards[meld.wild] == "2H" and grown.wild_position is None):
        return  # a clean meld, or its 2H now read as natural in its place
    if grown.wild_position != old:
        # the wild moved: only because its natural card took its place (rule 10)
        assert HEARTS[old] in added and place[old] == HEARTS[old]
