"""``candidates.new_meld_cards`` reads a hand at once as numbers (how many naturals of each
rank and wilds it holds, which positions each suit holds) and looks further only where a
meld may be: these hands check the edges of that reading against the rules' proposals."""

from __future__ import annotations

import random

from domain.burraco.candidates import new_meld_cards
from domain.cards import burraco_pack, codes
from tests.unit.burraco.test_legal_listing import proposed_melds

PACK = codes(burraco_pack())


def test_a_hand_of_scattered_cards_proposes_nothing() -> None:
    assert new_meld_cards(["3H", "7S", "KD", "9C", "5H", "QS"]) == []


def test_two_of_a_rank_need_a_wild_and_three_do_not() -> None:
    assert new_meld_cards(["7H", "7S", "9C"]) == []
    assert new_meld_cards(["7H", "7S", "9C", "JK"]) == [("7H", "7S", "JK")]
    assert new_meld_cards(["7H", "9C", "7S", "7H"]) == [("7H", "7S", "7H")]


def test_two_in_a_row_need_a_wild_and_three_do_not() -> None:
    assert new_meld_cards(["5H", "6H", "KS"]) == []
    assert new_meld_cards(["5H", "6H", "KS", "2C"]) == [("5H", "6H", "2C")]
    assert new_meld_cards(["5H", "7H", "KS", "2C"]) == [("5H", "7H", "2C")]
    assert new_meld_cards(["5H", "6H", "7H", "KS"]) == [("5H", "6H", "7H")]


def test_a_card_far_from_the_others_of_its_suit_changes_nothing() -> None:
    assert new_meld_cards(["3H", "4H", "5H", "9H", "JK"]) == [("3H", "4H", "5H")]
    assert new_meld_cards(["QH", "KH", "AH", "6H"]) == [("QH", "KH", "AH")]
    assert new_meld_cards(["AH", "2H", "3H", "9H"]) == [("AH", "2H", "3H")]


def test_aces_and_kings_of_neighbouring_suits_make_no_sequence() -> None:
    # the ace high of one suit and the ace low of the next are two places apart as numbers
    assert new_meld_cards(["AS", "AH", "JK"]) == [("AS", "AH", "JK")]  # a set, not a run
    assert new_meld_cards(["KS", "AH", "JK", "5D"]) == []
    assert new_meld_cards(["AS", "3H", "2C"]) == []


def test_every_wild_and_every_natural_of_a_rank_are_counted() -> None:
    wilds = ["JK"] * 4 + [f"2{suit}" for suit in "SHDC"] * 2
    eights = [f"8{suit}" for suit in "SHDC"] * 2
    assert new_meld_cards([*eights, *wilds]) == [tuple(eights)]
    assert new_meld_cards(["8S", "8H", *wilds]) == [("8S", "8H", "JK")]
    assert new_meld_cards(wilds) == []  # no naturals: no set, and each 2 alone in its suit


def test_proposals_match_the_rules_in_hands_heavy_in_one_suit_and_wilds() -> None:
    rng = random.Random(12)
    for _ in range(3000):
        suit = rng.choice("SHDC")
        pool = [code for code in PACK if code.endswith(suit) or code[0] == "2" or code == "JK"]
        hand = rng.sample(pool, rng.randint(1, 20))
        assert new_meld_cards(hand) == proposed_melds(hand), hand
