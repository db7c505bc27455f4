"""Rule 10 (Burraco): where a table wild goes when cards are added — stays, crosses to the
other end to make room, or yields to its natural card — in the rules' notation and as
properties over every hint."""

from __future__ import annotations

import re
from functools import cache
from itertools import product
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from domain.burraco.candidates import extensions
from domain.burraco.melds import (
    SEQUENCE,
    Layout,
    MeldError,
    arrange_extension,
    arrange_new,
    position_name,
)
from tests.unit.burraco.helpers import extend, lay

# --- rule 10 holds whatever placement hint a command carries ---------------------------------


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


# --- rule 10 in the rules' notation: where a table wild goes when cards are added -------------


def shown(meld: Layout) -> str:
    """A meld in the rules' notation, its wild saying what it stands for: ``5C 6C 2C(as 7C)``."""
    return " ".join(
        f"{code}(as {position_name(meld.low + index, meld.suit)})"
        if index == meld.wild and meld.kind == SEQUENCE
        else code
        for index, code in enumerate(meld.cards)
    )


def on_table(text: str) -> Layout:
    """The sequence ``text`` (in the rules' notation) laid with the hints a player would give."""
    items = re.findall(r"(\w+)(?:\(as (\w+)\))?", text)  # (card, what a wild stands for)
    hints: dict[str, str] = {}
    for index, (_, stands_for) in enumerate(items):
        if stands_for:
            hints["wild_rank"] = stands_for[:-1]
            if stands_for.startswith("A"):
                hints["ace"] = "low" if index == 0 else "high"
    cards = " ".join(code for code, _ in items)
    meld = lay(cards, **hints)
    assert shown(meld) == text
    return meld


RULE_10 = [
    # (sequence on the table, cards added, the sequence after)
    ("2C(as 4C) 5C 6C", "8C", "5C 6C 2C(as 7C) 8C"),  # the rule's first example
    ("5H 6H 7H JK(as 8H)", "3H", "3H JK(as 4H) 5H 6H 7H"),  # the rule's second example
    ("QH KH JK(as AH)", "10H", "10H JK(as JH) QH KH"),  # from the ace-high end too
    ("5H 6H 7H JK(as 8H)", "4H", "4H 5H 6H 7H JK(as 8H)"),  # room enough: the wild stays
    ("2C(as 4C) 5C 6C", "7C", "2C(as 4C) 5C 6C 7C"),
    ("5H 6H 7H JK(as 8H)", "9H", "5H 6H 7H JK(as 8H) 9H"),  # it stays and bridges the gap
    ("5H JK(as 6H) 7H", "6H", "5H 6H 7H JK(as 8H)"),  # replaced by its natural card: to an end
    ("5H 6H 7H JK(as 8H)", "8H", "5H 6H 7H 8H JK(as 9H)"),
    ("5H JK(as 6H) 7H", "8H 9H", "5H JK(as 6H) 7H 8H 9H"),  # a wild inside stays
    ("JK(as 5C) 6C 7C", "5C", "5C 6C 7C JK(as 8C)"),
    # cards added together count as added one at a time: 8H sends the wild to 9H, then 10H
    ("5H 6H 7H JK(as 8H)", "8H 10H", "5H 6H 7H 8H JK(as 9H) 10H"),
    # ... 4H needs no room, then 2H (natural in its place) needs the wild at the other end
    ("5H 6H 7H JK(as 8H)", "4H 2H", "2H JK(as 3H) 4H 5H 6H 7H"),
    ("3H 4H 5H", "2H 7H", "3H 4H 5H 2H(as 6H) 7H"),  # rule 9: a 2H out of its place is wild
    # a same-suit 2 standing in as a wild reads as natural once its place is reached ...
    ("4H 5H 2H(as 6H)", "3H", "2H 3H 4H 5H"),
    ("3H 2H(as 4H) 5H", "4H", "2H 3H 4H 5H"),  # ... or when its natural card replaces it
    ("3H 2H(as 4H) 5H", "2H", "2H 3H 2H(as 4H) 5H"),  # another 2H may stand in its place
    # ... and a wild added after it goes to an end (a natural 2 allows one further wild)
    ("4H 5H 2H(as 6H)", "3H JK", "2H 3H 4H 5H JK(as 6H)"),
]


@pytest.mark.parametrize(("meld", "added", "after"), RULE_10)
def test_burraco_rule_10_a_table_wild_stays_crosses_to_make_room_or_yields_to_its_natural(
    meld: str, added: str, after: str
) -> None:
    assert shown(extend(on_table(meld), added)) == after


RULES = Path(__file__).parents[3] / "docs" / "rules" / "burraco.md"


def test_burraco_rule_10_every_example_in_the_rule_text_holds() -> None:
    text = RULES.read_text(encoding="utf-8")
    rule_10 = " ".join(text[text.index("10. Wilds in melds") : text.index("11. **Clean**")].split())
    examples = re.findall(r"`([^`…]+)` \+ `([^`…]+)` gives `([^`…]+)`", rule_10)
    assert len(examples) >= 6
    for meld, added, after in examples:
        assert shown(extend(on_table(meld), added)) == after


RULE_10_REFUSED = [
    # (sequence on the table, cards added, hints, why not)
    (
        "5H JK(as 6H) 7H",
        "8H",
        {"wild_rank": "9"},
        "stays where it stands for 6H: a wild inside a sequence moves only when its natural",
    ),
    (
        "5H 6H 7H JK(as 8H)",
        "4H",
        {"wild_rank": "3"},
        "stays where it stands for 8H: a wild at an end moves only when its natural card is "
        "added, or to the other end to make room",
    ),
    ("2C(as 4C) 5C 6C", "7C", {"wild_rank": "8"}, "stays where it stands for 4C"),
    ("QH KH JK(as AH)", "JH", {"wild_rank": "10"}, "stays where it stands for AH"),
    ("5H 6H 7H JK(as 8H)", "10H", {}, "missing 8H, 9H"),  # no jump to a far gap
    ("5H 6H 7H JK(as 8H)", "2H", {}, "do not run"),  # crossing fills one place, not two
    # a wild gives way only to its natural card, never to another wild
    ("3H 2H(as 4H) 5H", "JK", {}, "at most one wild card: its 2H standing for 4H stays wild"),
    ("4H 5H 2H(as 6H)", "JK", {}, "at most one wild card: its 2H standing for 6H stays wild"),
    # the 6H sends the 2H to an end, where it is still wild: no room for the JK
    ("4H 5H 2H(as 6H)", "6H JK", {}, "at most one wild card"),
]


@pytest.mark.parametrize(("meld", "added", "hints", "reason"), RULE_10_REFUSED)
def test_burraco_rule_10_a_table_wild_moves_no_further_than_the_rule_says(
    meld: str, added: str, hints: dict[str, str], reason: str
) -> None:
    with pytest.raises(MeldError, match=reason):
        extend(on_table(meld), added, **hints)


def test_burraco_rule_10_the_ace_hint_lays_the_natural_ace_in_a_run_of_fourteen() -> None:
    run = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS JK"
    middle = "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"
    assert shown(lay(run)) == f"JK(as AS) {middle} AS"  # an either-way ace plays high
    assert shown(lay(run, ace="low")) == f"AS {middle} JK(as AS)"
    assert shown(lay(run, ace="high")) == f"JK(as AS) {middle} AS"


def test_burraco_rule_10_the_natural_ace_added_to_a_run_of_thirteen_goes_where_the_hint_says() -> (
    None
):
    middle = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"
    low_wild = on_table(f"JK(as AH) {middle}")
    assert shown(extend(low_wild, "AH")) == f"JK(as AH) {middle} AH"  # the wild stays put
    # the natural ace takes its wild's place, which moves to the other end (rule 10)
    assert shown(extend(low_wild, "AH", ace="low")) == f"AH {middle} JK(as AH)"
    high_wild = on_table(f"{middle} JK(as AH)")
    assert shown(extend(high_wild, "AH")) == f"AH {middle} JK(as AH)"
    assert shown(extend(high_wild, "AH", ace="high")) == f"JK(as AH) {middle} AH"


# --- rule 10 as a property: what an addition may move on the table ---------------------------

HEARTS = {p: position_name(p, "H") for p in range(1, 15)}


@st.composite
def sequences_on_the_table(draw: st.DrawFn) -> Layout:
    """A hearts run of 3–9 cards (ace low or high), perhaps with a wild (JK, 2C or a 2H out
    of its place) standing for one of its cards: at either end or inside."""
    length = draw(st.integers(3, 9))
    low = draw(st.integers(1, 14 - length + 1))
    run = [HEARTS[p] for p in range(low, low + length)]
    if draw(st.integers(0, 3)) == 0:  # one in four is clean
        return arrange_new(run)
    index = draw(st.integers(0, length - 1))
    stands_for = HEARTS[low + index]
    laid = [*run[:index], draw(st.sampled_from(["JK", "2C", "2H"])), *run[index + 1 :]]
    ace = None if stands_for != "AH" else "low" if low + index == 1 else "high"
    try:
        return arrange_new(laid, wild_rank=stands_for[:-1], ace=ace)
    except MeldError:  # e.g. a 2H standing for 2H is natural, so no card is wild
        return arrange_new(run)


@st.composite
def additions(draw: st.DrawFn) -> tuple[Layout, list[str]]:
    """A sequence on the table and 1–3 cards offered to it: hearts just beyond its ends, the
    natural card of its wild, an ace or a wild."""
    meld = draw(sequences_on_the_table())
    ends = range(meld.low - 2, meld.high + 3)
    beyond = [p for p in ends if 1 <= p <= 14 and not meld.low <= p <= meld.high]
    natural = [] if meld.wild_position is None else [meld.wild_position]
    offered = st.sampled_from([*(HEARTS[p] for p in beyond + natural), "AH", "JK", "2C", "2H"])
    return meld, draw(st.lists(offered, min_size=1, max_size=3))


WILD_RANKS = [None, "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(addition=additions())
def test_burraco_rule_10_additions_never_move_naturals_and_move_the_wild_only_as_allowed(
    addition: tuple[Layout, list[str]],
) -> None:
    meld, added = addition
    for wild_rank, ace in product(WILD_RANKS, [None, "low", "high"]):  # whatever the hints say
        try:
            grown = arrange_extension(meld, added, wild_rank=wild_rank, ace=ace)
        except MeldError:
            continue
        assert_rule_10(meld, grown, ace)


def assert_rule_10(meld: Layout, grown: Layout, ace: str | None) -> None:
    """Rule 10 between a hearts sequence on the table and the same sequence with cards added."""
    place = {grown.low + i: code for i, code in enumerate(grown.cards)}
    fixed = {meld.low + i for i in range(len(meld.cards)) if i != meld.wild}
    for position in fixed:  # rule 10: naturals never move
        assert place[position] == meld.cards[position - meld.low]
    if ace is not None:  # a natural ace plays where the hint says
        for position in (1, 14):
            if place.get(position) == "AH" and position - grown.low != grown.wild:
                assert position == (1 if ace == "low" else 14)
    old, new = meld.wild_position, grown.wild_position
    if old is None or new == old:
        return  # a clean meld, or its wild stays where it stands
    if place.get(old) == HEARTS[old]:
        return  # its natural card took its place (it moved to an end, or a gap the addition opened)
    if meld.cards[meld.wild] == "2H" and place.get(2) == "2H" and 2 not in fixed:
        return  # a same-suit 2 now natural in its own place
    # else it stood at an end and crossed to the other end to make room for a card beyond it
    assert meld.wild_at_end and new is not None
    assert grown.low < new < grown.high  # inside the run: without it the run would not run
    assert new < meld.low if old == meld.high else new > meld.high


@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(meld=sequences_on_the_table())
def test_burraco_rule_10_every_single_card_that_may_join_a_sequence_is_a_listed_addition(
    meld: Layout,
) -> None:
    # legal_commands lists single-card additions: a card that joins only because the table's
    # wild crosses to the other end (AH to 3H 4H JK(as 5H)) is listed too
    hand = [*HEARTS.values(), "AS", "JK", "2C"]
    listed = {c.cards[0] for c in extensions(hand, [(1, meld)])}
    for code in hand:
        try:
            arrange_extension(meld, [code])
        except MeldError:
            assert code not in listed
        else:
            assert code in listed


HINTS = list(product(WILD_RANKS, [None, "low", "high"]))


@cache
def one_at_a_time(meld: Layout, cards: tuple[str, ...]) -> frozenset[Layout]:
    """Every sequence ``cards`` can make of ``meld`` added one by one, in any order and with
    any hints."""
    if not cards:
        return frozenset([meld])
    made: set[Layout] = set()
    for code in set(cards):
        rest = list(cards)
        rest.remove(code)
        for wild_rank, ace in HINTS:
            try:
                step = arrange_extension(meld, [code], wild_rank=wild_rank, ace=ace)
            except MeldError:
                continue
            made |= one_at_a_time(step, tuple(sorted(rest)))
    return frozenset(made)


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(addition=additions())
def test_burraco_rule_10_the_table_wild_moves_as_if_the_cards_were_added_one_at_a_time(
    addition: tuple[Layout, list[str]],
) -> None:
    # a 2H added is left out: added alone it reads as natural, with a card beyond the gap it
    # may bridge as a wild (3H 4H 5H + 2H 7H gives 3H 4H 5H 2H(as 6H) 7H)
    meld, added = addition
    assume("2H" not in added)
    possible = one_at_a_time(meld, tuple(sorted(added)))
    for wild_rank, ace in HINTS:
        try:
            grown = arrange_extension(meld, added, wild_rank=wild_rank, ace=ace)
        except MeldError:
            assert wild_rank or ace or not possible  # without hints, what can be done is
            continue
        assert grown in possible
