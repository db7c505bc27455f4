"""The table's life: options (spec §9), seats, antes (rules 5–7), the deal (rules 8–10),
the next hand and the end of the table."""

from __future__ import annotations

import pytest

from domain.bourre import GAME
from domain.bourre.commands import Declare
from domain.bourre.decide import decide, decide_and_evolve
from domain.bourre.events import Anted, Dealt, HandSettled
from domain.cards import codes, deal_salt, deck_commitment, derive_seed, shuffled, standard_pack
from domain.errors import IllegalCommand, InvalidOption, SeatUnavailable, TableClosed
from domain.table import CloseTable, OpenTable, PlayerSeated, TableEnded, TableOpened, TakeSeat
from tests.unit.bourre.support import of_type, open_table, run, stack


def test_opening_a_table_records_every_option_with_its_default() -> None:
    # given / when
    (opened,) = decide(None, OpenTable(game="bourre", options={"seats": 5}, seed=3))
    # then
    assert isinstance(opened, TableOpened)
    assert opened.options == {
        "reveal": "after_hand", "spectator_delay": 0, "seats": 5, "ante": 1, "pot_limit": None,
        "double_ante": False, "declaration": "sequential", "trump_card": "dealer_card",
        "four_card": False, "max_discard": 5, "ace_forces_dealer": True, "cinch": "equivalent",
        "tie": "carry", "reshuffle_pool": "served_discards", "hands": None, "buy_in": None,
    }  # fmt: skip


@pytest.mark.parametrize(
    ("options", "key"),
    [
        ({}, "seats"),
        ({"seats": 1}, "seats"),
        ({"seats": 9}, "seats"),
        ({"seats": True}, "seats"),
        ({"seats": 4, "ante": 0}, "ante"),
        ({"seats": 4, "pot_limit": -1}, "pot_limit"),
        ({"seats": 4, "double_ante": "yes"}, "double_ante"),
        ({"seats": 4, "declaration": "shouted"}, "declaration"),
        ({"seats": 4, "trump_card": "joker"}, "trump_card"),
        ({"seats": 4, "max_discard": 6}, "max_discard"),
        ({"seats": 4, "cinch": "maybe"}, "cinch"),
        ({"seats": 4, "tie": "coin"}, "tie"),
        ({"seats": 4, "reshuffle_pool": "none"}, "reshuffle_pool"),
        ({"seats": 4, "hands": 0}, "hands"),
        ({"seats": 4, "colour": "red"}, "colour"),
        ({"seats": 4, "reveal": "always"}, "reveal"),
        ({"seats": 4, "four_card": True, "max_discard": 4}, "max_discard"),
        ({"seats": 4, "four_card": True, "trump_card": "dealer_card"}, "trump_card"),
        ({"seats": 4, "buy_in": 100}, "buy_in"),
    ],
)
def test_spec_9_a_bad_option_is_rejected_naming_the_key(options: dict, key: str) -> None:
    with pytest.raises(InvalidOption) as error:
        decide(None, OpenTable(game="bourre", options=options, seed=1))
    assert error.value.key == key
    assert key in error.value.message


def test_rule_33_four_card_implies_a_separate_trump_card_and_three_discards() -> None:
    (opened,) = decide(
        None, OpenTable(game="bourre", options={"seats": 4, "four_card": True}, seed=1)
    )
    assert isinstance(opened, TableOpened)
    assert opened.options["trump_card"] == "separate"
    assert opened.options["max_discard"] == 3


def test_a_stacked_deck_that_is_not_the_52_card_pack_is_rejected_naming_deck_and_card() -> None:
    deck = codes(standard_pack())
    broken = [*deck[:-1], deck[0]]
    with pytest.raises(InvalidOption, match=r"deck 1: AS occurs twice"):
        decide(None, OpenTable(game="bourre", options={"seats": 2}, seed=1, decks=[deck, broken]))
    with pytest.raises(InvalidOption, match=r"deck 0: 'ZZ' is not a card"):
        decide(None, OpenTable(game="bourre", options={"seats": 2}, seed=1, decks=[["ZZ"]]))
    with pytest.raises(InvalidOption, match=r"deck 0: .* is missing"):
        decide(None, OpenTable(game="bourre", options={"seats": 2}, seed=1, decks=[deck[:51]]))


def test_a_table_for_another_game_or_a_command_before_opening_is_rejected() -> None:
    with pytest.raises(InvalidOption, match="game"):
        decide(None, OpenTable(game="burraco", options={"seats": 2}, seed=1))
    with pytest.raises(IllegalCommand, match="not open"):
        decide(None, TakeSeat(name="Ann", token_hash="t"))


def test_players_take_seats_and_the_first_hand_starts_when_the_last_seat_fills() -> None:
    # given an open three-seat table with two players seated
    state, _ = decide_and_evolve(None, OpenTable(game="bourre", options={"seats": 3}, seed=9))
    state, first = decide_and_evolve(state, TakeSeat(name="Ann", token_hash="a", seat=2))
    state, second = decide_and_evolve(state, TakeSeat(name="Bob", token_hash="b"))
    assert first == [PlayerSeated(seat=2, name="Ann", token_hash="a")]
    assert second == [PlayerSeated(seat=0, name="Bob", token_hash="b")]
    assert state.hand is None
    # when the last seat fills
    state, events = decide_and_evolve(state, TakeSeat(name="Cy", token_hash="c"))
    # then the same decision antes and deals the first hand
    assert [type(e) for e in events] == [PlayerSeated, Anted, Dealt]
    assert state.hand is not None and state.hand.number == 1
    assert GAME.to_act(state) == frozenset({1})


def test_a_taken_seat_a_missing_seat_and_a_full_table_are_unavailable() -> None:
    state, _ = decide_and_evolve(None, OpenTable(game="bourre", options={"seats": 2}, seed=9))
    state, _ = decide_and_evolve(state, TakeSeat(name="Ann", token_hash="a", seat=0))
    with pytest.raises(SeatUnavailable, match="seat 0 is taken"):
        decide(state, TakeSeat(name="Bob", token_hash="b", seat=0))
    with pytest.raises(SeatUnavailable, match="there is no seat 5"):
        decide(state, TakeSeat(name="Bob", token_hash="b", seat=5))
    with pytest.raises(SeatUnavailable, match="already holds seat 0"):
        decide(state, TakeSeat(name="Ann again", token_hash="a"))
    with pytest.raises(IllegalCommand, match="name"):
        decide(state, TakeSeat(name="  ", token_hash="b"))
    state, _ = decide_and_evolve(state, TakeSeat(name="Bob", token_hash="b"))
    with pytest.raises(SeatUnavailable, match="full"):
        decide(state, TakeSeat(name="Cy", token_hash="c"))


def test_rule_5_every_player_antes_before_the_first_hand() -> None:
    state, events = open_table({"seats": 4, "ante": 3})
    (anted,) = of_type(events, Anted)
    assert anted.seats == [0, 1, 2, 3] and anted.amount == 3
    assert state.pot == 12
    assert state.nets == (-3, -3, -3, -3)


def test_rule_10_the_seeded_deck_is_dealt_one_card_at_a_time_from_the_dealers_left() -> None:
    _state, events = open_table({"seats": 3}, seed=11)
    (dealt,) = of_type(events, Dealt)
    deck = codes(shuffled(standard_pack(), derive_seed(11, "deck", 1)))
    assert dealt.deck == deck
    assert dealt.dealer == 0
    assert dealt.hands[1] == deck[0:15:3]
    assert dealt.hands[2] == deck[1:15:3]
    assert dealt.hands[0] == deck[2:15:3]
    assert dealt.stock_size == 52 - 15
    assert dealt.salt == deal_salt(11, 1)
    assert dealt.commitment == deck_commitment(deck, dealt.salt)


def test_rule_8_the_dealers_last_card_is_face_up_and_its_suit_is_trump() -> None:
    deck = stack(["2C 3C 4C 5C 9D", "AS KS QS JS 10S", "2H 3H 4H 5H 6H"])
    state, events = open_table({"seats": 3}, decks=[deck])
    (dealt,) = of_type(events, Dealt)
    assert dealt.trump_card == "9D" and dealt.trump == "D"
    assert dealt.trump_card_owner == 0
    assert dealt.hands[0] == ["2C", "3C", "4C", "5C", "9D"]
    assert state.hand is not None and state.hand.trump_card.code == "9D"


def test_rule_32_in_separate_mode_the_turned_card_belongs_to_nobody() -> None:
    deck = stack(["AS KS QS JS 10S", "2H 3H 4H 5H 6H"], turned="7C")
    _state, events = open_table({"seats": 2, "trump_card": "separate"}, decks=[deck])
    (dealt,) = of_type(events, Dealt)
    assert dealt.trump_card == "7C" and dealt.trump_card_owner is None
    assert dealt.hands[0] == ["AS", "KS", "QS", "JS", "10S"]
    assert dealt.stock_size == 52 - 11


def test_rule_4_the_deal_passes_left_after_each_hand() -> None:
    state, _ = open_table({"seats": 3}, seed=5)
    dealers = []
    for _ in range(4):
        assert state.hand is not None
        dealers.append(state.hand.dealer)
        number = state.hand.number
        while state.hand.number == number:
            seat = min(GAME.to_act(state))
            state, _ = run(state, GAME.legal_commands(state, seat)[0])
    assert dealers == [0, 1, 2, 0]


def test_the_table_ends_when_the_hands_option_is_reached() -> None:
    state, _ = open_table({"seats": 2, "hands": 2}, seed=5)
    events = []
    while state.status != "ended":
        seat = min(GAME.to_act(state))
        state, more = run(state, GAME.legal_commands(state, seat)[-1])
        events += more
    assert len(of_type(events, HandSettled)) == 2
    assert events[-1] == TableEnded(reason="hands")
    with pytest.raises(TableClosed):
        decide(state, Declare(seat=0, play=False))


def test_closing_during_a_hand_plays_it_out_and_then_ends_the_table() -> None:
    # given a table in its first hand
    state, _ = open_table({"seats": 2}, seed=5)
    # when a seated player closes the table
    state, events = run(state, CloseTable(seat=1))
    # then the hand goes on, and no second hand is dealt after it settles
    assert state.status == "playing" and state.close_requested
    with pytest.raises(IllegalCommand, match="already requested"):
        decide(state, CloseTable(seat=0))
    while state.status != "ended":
        seat = min(GAME.to_act(state))
        state, events = run(state, GAME.legal_commands(state, seat)[-1])
    assert events[-1] == TableEnded(reason="closed")
    assert state.hand is not None and state.hand.number == 1
    assert sum(state.nets) + state.pot == 0


def test_closing_a_table_that_is_still_seating_ends_it_at_once() -> None:
    state, _ = decide_and_evolve(None, OpenTable(game="bourre", options={"seats": 3}, seed=9))
    state, _ = decide_and_evolve(state, TakeSeat(name="Ann", token_hash="a"))
    with pytest.raises(IllegalCommand, match="seated player"):
        decide(state, CloseTable(seat=2))
    state, events = decide_and_evolve(state, CloseTable(seat=0))
    assert events == [TableEnded(reason="closed")]
    with pytest.raises(TableClosed):
        decide(state, TakeSeat(name="Bob", token_hash="b"))
