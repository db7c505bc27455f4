"""The card primitives both games share (Bourré rules 1–2, Burraco rules 2 and the notation)."""

from __future__ import annotations

import pytest

from domain.cards import (
    JOKER,
    Card,
    CardError,
    Rank,
    Suit,
    burraco_pack,
    card,
    deck_commitment,
    derive_seed,
    format_cards,
    parse,
    shuffled,
    standard_pack,
)


def test_cards_parse_and_format_in_the_spec_notation() -> None:
    cards = parse("AS KD 10H 2C JK")
    assert cards == [
        Card(Rank.ACE, Suit.SPADES),
        Card(Rank.KING, Suit.DIAMONDS),
        Card(Rank.TEN, Suit.HEARTS),
        Card(Rank.TWO, Suit.CLUBS),
        JOKER,
    ]
    assert format_cards(cards) == "AS KD 10H 2C JK"


@pytest.mark.parametrize("bad", ["1S", "AX", "10", "", "T H", "11H", "JOKER"])
def test_a_bad_card_code_is_rejected_naming_the_code(bad: str) -> None:
    with pytest.raises(CardError, match="not a card"):
        card(bad)


def test_bourre_rule_1_one_standard_pack_has_52_distinct_cards_and_no_joker() -> None:
    pack = standard_pack()
    assert len(pack) == 52 == len(set(pack))
    assert JOKER not in pack


def test_bourre_rule_2_ranks_run_ace_high_down_to_two() -> None:
    assert sorted(parse("2S AS 10S KS"), key=lambda c: c.rank or 0) == parse("2S 10S KS AS")


def test_burraco_rule_2_two_packs_and_four_jokers_make_108_cards() -> None:
    pack = burraco_pack()
    assert len(pack) == 108
    assert pack.count(JOKER) == 4
    assert pack.count(card("7H")) == 2


def test_a_seeded_shuffle_is_the_same_every_time_and_a_permutation() -> None:
    pack = standard_pack()
    assert shuffled(pack, 42) == shuffled(pack, 42)
    assert shuffled(pack, 42) != shuffled(pack, 43)
    assert sorted(shuffled(pack, 42)) == sorted(pack)


def test_the_shuffle_order_for_a_seed_never_changes() -> None:
    """Stored tables derive decks from seeds; this pins the algorithm (Fisher–Yates on random())."""
    assert format_cards(shuffled(standard_pack(), 7)[:5]) == "3S 5S AS QC JD"
    assert derive_seed(1, "deck", 1) == derive_seed("1", "deck", "1")


def test_a_deck_commitment_changes_with_the_order_and_the_salt() -> None:
    deck = ["AS", "KD", "10H"]
    assert deck_commitment(deck, "s") == deck_commitment(list(deck), "s")
    assert deck_commitment(deck, "s") != deck_commitment(deck[::-1], "s")
    assert deck_commitment(deck, "s") != deck_commitment(deck, "t")
