"""A single card joins a meld exactly when rules 8–10 let it be added (``melds.extends``, what
the listing offers as additions): checked against ``arrange_extension`` for every card on sets
of every shape — the suits of a set never matter to rule 8 — and on sequences."""

from __future__ import annotations

import random

import pytest

from domain.burraco.candidates import extensions
from domain.burraco.melds import Layout, MeldError, arrange_extension, arrange_new, extends
from domain.burraco.values import INFO

RANKS = ["A", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = "SHDC"


def accepted(layout: Layout, code: str) -> bool:
    try:
        arrange_extension(layout, [code])
    except MeldError:
        return False
    return True


def some_sets(rng: random.Random) -> list[Layout]:
    """Sets of each rank and size, clean or with a wild (a joker or a 2), suits drawn at random."""
    sets = []
    for rank in RANKS:
        for naturals in range(2, 9):  # rule 8: at most 8 naturals (two packs hold 8)
            for wild in ("", "JK", f"2{rng.choice(SUITS)}"):
                if naturals + bool(wild) < 3 or naturals + bool(wild) > 9:
                    continue
                cards = [f"{rank}{rng.choice(SUITS)}" for _ in range(naturals)]
                sets.append(arrange_new([*cards, wild] if wild else cards))
    return sets


@pytest.mark.parametrize("seed", range(3))
def test_burraco_rule_8_a_card_joins_a_set_as_the_set_read_again_accepts_it(seed: int) -> None:
    for layout in some_sets(random.Random(seed)):
        for code in INFO:
            assert extends(layout, code) == accepted(layout, code), (layout, code)


@pytest.mark.parametrize(
    "cards",
    ["5H 6H 7H", "AS 2S 3S", "QD KD AD", "5C JK 7C", "8H 9H JK", "2S 3S 4S 2H", "AH 2H 2H"],
)
def test_burraco_rules_9_10_a_card_joins_a_sequence_as_the_sequence_read_again_accepts_it(
    cards: str,
) -> None:
    layout = arrange_new(cards.split())
    joining = [code for code in INFO if extends(layout, code)]
    assert joining, layout  # every one of these sequences can take some card
    assert joining == [code for code in INFO if accepted(layout, code)]


def clean_sequences() -> list[Layout]:
    """Every clean sequence of every suit: each span of three or more positions (ace low or
    high, never both), its 2 natural in place."""
    sequences = []
    for suit in SUITS:
        for low in range(1, 13):
            for high in range(low + 2, 15):
                if (low, high) == (1, 14):
                    continue
                ranks = [
                    "A" if p in (1, 14) else {11: "J", 12: "Q", 13: "K"}.get(p, str(p))
                    for p in range(low, high + 1)
                ]
                sequences.append(arrange_new([f"{rank}{suit}" for rank in ranks]))
    return sequences


def test_burraco_rule_9_the_additions_listed_to_a_clean_sequence_are_every_card_that_joins() -> (
    None
):
    hand = list(INFO)  # one of every card
    for layout in clean_sequences():
        assert layout.wild < 0, layout
        listed = [c.cards[0] for c in extensions(hand, [(1, layout)])]
        assert listed == [code for code in hand if accepted(layout, code)], layout
