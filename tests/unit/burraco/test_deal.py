"""The deal (spec §2, rules 4–6) and seating."""

from __future__ import annotations

from collections import Counter

import pytest

from domain.burraco import GAME
from domain.burraco.deal import deal_hand, deck_of_hand
from domain.burraco.events import Dealt
from domain.cards import burraco_pack, codes, deal_salt, deck_commitment, derive_seed, shuffled
from domain.errors import SeatUnavailable
from domain.table import OpenTable, TakeSeat

from .helpers import apply, hand_round, names, seated_table, stacked_deck


def test_burraco_rule_2_the_pack_has_108_cards_with_four_jokers() -> None:
    pack = Counter(codes(burraco_pack()))
    assert sum(pack.values()) == 108
    assert pack["JK"] == 4
    assert {count for code, count in pack.items() if code != "JK"} == {2}


def test_burraco_rule_5_each_player_gets_11_and_the_stock_holds_41_with_four_players() -> None:
    r = hand_round(seated_table())
    assert [len(h) for h in r.hands] == [11, 11, 11, 11]
    assert [len(p) for p in r.pozzetti] == [11, 11]
    assert len(r.pile) == 1
    assert r.stock_count == 41


def test_burraco_rule_5_the_stock_holds_63_heads_up() -> None:
    r = hand_round(seated_table(options={"players": 2}))
    assert [len(h) for h in r.hands] == [11, 11]
    assert r.stock_count == 63


def test_burraco_rule_6_cards_are_dealt_one_at_a_time_from_the_top_left_of_the_dealer() -> None:
    deck = stacked_deck()
    r = hand_round(seated_table(deck))
    # dealer 0: card k goes to seat (0 + 1 + k) mod 4
    assert r.hands[1][0] == deck[0]
    assert r.hands[2][0] == deck[1]
    assert r.hands[0][0] == deck[3]
    assert r.hands[1][1] == deck[4]
    assert r.pozzetti[0] == tuple(deck[44:66:2])
    assert r.pozzetti[1] == tuple(deck[45:66:2])
    assert r.pile == (deck[66],)
    assert r.stock == tuple(deck[67:])


def test_burraco_rule_4_seat_0_deals_first_and_the_player_on_its_left_starts() -> None:
    table = seated_table()
    r = hand_round(table)
    assert (r.dealer, r.turn) == (0, 1)
    assert GAME.to_act(table) == frozenset({1})


def test_burraco_rule_4_the_deal_passes_left_each_hand() -> None:
    table = seated_table(options={"players": 2})
    assert [deal_hand(table, n).dealer for n in (1, 2, 3)] == [0, 1, 0]
    four = seated_table()
    assert [deal_hand(four, n).dealer for n in (1, 2, 3, 4, 5)] == [0, 1, 2, 3, 0]


def test_burraco_rule_6_the_seeded_deck_is_the_shuffle_of_the_pack_by_derived_seed() -> None:
    table = seated_table(seed=1234)
    expected = codes(shuffled(burraco_pack(), derive_seed(1234, "deck", 1)))
    assert list(hand_round(table).deck) == expected
    assert deck_of_hand(table, 2) == codes(shuffled(burraco_pack(), derive_seed(1234, "deck", 2)))


def test_burraco_rule_6_a_stacked_deck_is_dealt_as_given_then_seeded_decks_follow() -> None:
    deck = stacked_deck(hands={1: "3H 4H 5H"}, discard="KS", stock="JK")
    table = seated_table(deck, seed=5)
    r = hand_round(table)
    assert r.hands[1][:3] == ("3H", "4H", "5H")
    assert r.pile == ("KS",)
    assert r.stock[0] == "JK"
    assert deck_of_hand(table, 2) == codes(shuffled(burraco_pack(), derive_seed(5, "deck", 2)))


def test_burraco_rule_6_the_deal_publishes_a_commitment_to_deck_and_salt() -> None:
    table = GAME.evolve(None, GAME.decide(None, OpenTable(game="burraco", options={}, seed=9))[0])
    events: list = []
    for seat in range(4):
        new = GAME.decide(table, TakeSeat(name=f"p{seat}", token_hash=f"h{seat}"))
        table = apply(table, new)
        events += new
    assert names(events) == ["PlayerSeated"] * 4 + ["Dealt"]
    dealt = events[-1]
    assert isinstance(dealt, Dealt)
    assert dealt.salt == deal_salt(9, 1)
    assert dealt.commitment == deck_commitment(dealt.deck, dealt.salt)
    assert dealt.first_discard == dealt.deck[66]


def test_burraco_seats_fill_lowest_first_or_as_asked_and_never_twice() -> None:
    table = GAME.evolve(None, GAME.decide(None, OpenTable(game="burraco", options={}, seed=1))[0])
    table = apply(table, GAME.decide(table, TakeSeat(name="Ada", token_hash="a", seat=2)))
    assert table.seats[2] is not None and table.seats[2].name == "Ada"
    with pytest.raises(SeatUnavailable, match="seat 2 is taken"):
        GAME.decide(table, TakeSeat(name="Bo", token_hash="b", seat=2))
    with pytest.raises(SeatUnavailable, match="no seat 4"):
        GAME.decide(table, TakeSeat(name="Bo", token_hash="b", seat=4))
    event = GAME.decide(table, TakeSeat(name="Bo", token_hash="b"))[0]
    assert event.seat == 0
    full = seated_table()
    with pytest.raises(SeatUnavailable, match="full"):
        GAME.decide(full, TakeSeat(name="Late", token_hash="l"))


def test_burraco_rule_6_stacked_decks_serve_hands_in_order() -> None:
    first = stacked_deck(discard="KS")
    second = stacked_deck(dealer=1, hands={2: "AH AH"}, discard="QD")
    table = GAME.evolve(None, GAME.decide(None, OpenTable(
        game="burraco", options={}, seed=1, decks=[first, second]
    ))[0])  # fmt: skip
    for seat in range(4):
        table = apply(table, GAME.decide(table, TakeSeat(name=f"p{seat}", token_hash=f"h{seat}")))
    assert hand_round(table).pile == ("KS",)
    dealt = deal_hand(table, 2)
    assert dealt.deck == second and dealt.dealer == 1 and dealt.first_discard == "QD"
    table = GAME.evolve(table, dealt)
    assert hand_round(table).hands[2][:2] == ("AH", "AH")
    assert hand_round(table).turn == 2  # left of dealer 1
