"""Players, cards and the objective: rules 1–3."""

from __future__ import annotations

import itertools

import pytest

from domain.bourre.events import Dealt
from domain.bourre.settlement import settle
from domain.bourre.tricks import beats, trick_winner
from domain.cards import Suit, card, parse, standard_pack
from tests.unit.bourre.support import of_type, open_table


@pytest.mark.parametrize("seats", [2, 7, 8])
def test_rule_1_two_to_eight_players_are_dealt_from_one_52_card_pack(seats: int) -> None:
    _, events = open_table({"seats": seats}, seed=seats)
    (dealt,) = of_type(events, Dealt)
    assert sorted(dealt.deck) == sorted(c.code for c in standard_pack())
    assert [len(h) for h in dealt.hands] == [5] * seats
    assert dealt.stock_size == 52 - 5 * seats


def test_rule_2_each_suit_ranks_ace_high_down_to_two() -> None:
    hearts = parse("AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H")
    for higher, lower in itertools.pairwise(hearts):
        assert beats(higher, lower, Suit.SPADES)
        assert not beats(lower, higher, Suit.SPADES)
    trick = [(0, card("10H")), (1, card("JH")), (2, card("9H"))]
    assert trick_winner(trick, Suit.SPADES)[0] == 1


def test_rule_3_most_tricks_win_the_pot_and_one_trick_avoids_bourre() -> None:
    result = settle(10, [1, 3, 1, 0], [0, 1, 2, 3], pot_limit=None, tie="carry")
    assert result.winner == 1 and result.payouts == [0, 10, 0, 0]
    assert result.bourre == [3]  # the players with one trick are not bourré
