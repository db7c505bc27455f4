"""Whether a card alone joins a sequence (``melds.extends``) is read once per shape of the
sequence — where it starts, how long it is, where its wild stands and whether that wild is
its own 2 — since rules 9–10 name no suit and tell wilds apart only as the sequence's own 2
or any other. Checked here on every sequence of hearts, clean or with its wild (a joker, its
own 2, another suit's 2) at each place, for every card, against ``arrange_extension``."""

from __future__ import annotations

from domain.burraco.candidates import forget
from domain.burraco.melds import Layout, extends
from domain.burraco.values import INFO
from tests.unit.burraco.test_candidate_filters import sequences
from tests.unit.burraco.test_extends import accepted


def test_a_card_joins_a_sequence_alone_as_the_full_reading_says() -> None:
    forget()
    hearts_and_wilds = [code for code in INFO if code.endswith("H") or INFO[code].wild]
    for layout in sequences():
        for code in [*hearts_and_wilds, "7S", "AC", "KD"]:
            assert extends(layout, code) == accepted(layout, code), (layout, code)


def test_the_same_shape_in_another_suit_gives_the_same_answer() -> None:
    run = Layout("sequence", ("5H", "JK", "7H"), suit="H", low=5, wild=1)
    assert extends(run, "6H")  # its natural takes the wild's place; the wild goes to an end
    assert extends(Layout("sequence", ("5C", "2D", "7C"), suit="C", low=5, wild=1), "6C")
    assert not extends(run, "6C")  # another suit's natural never joins
    assert not extends(run, "2S")  # a second wild
    own = Layout("sequence", ("3H", "4H", "2H"), suit="H", low=3, wild=2)
    assert extends(own, "JK")  # its 2 turns natural below the 3 and the joker takes the 5
