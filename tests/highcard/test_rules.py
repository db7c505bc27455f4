"""High card's rules, and the table kernel it runs on (seats, tokens, names, the deck of each
hand, closing) — the same kernel as Bourré's and Burraco's."""

from __future__ import annotations

import pytest

from domain.errors import (
    IllegalCommand,
    InvalidName,
    InvalidOption,
    NameTaken,
    NotYourTurn,
    SeatUnavailable,
    TableClosed,
)
from domain.table import CloseTable, OpenTable, TableEnded, TakeSeat
from domain.table.deck import DealSource, hand_deck
from tests.highcard import GAME
from tests.highcard.commands import PlayCard
from tests.highcard.events import CardPlayed, Dealt, HandWon
from tests.highcard.rules import PACK
from tests.highcard.support import run, seated, stack


def test_rule_1_the_last_seat_taken_deals_hand_1_from_the_kernels_deck() -> None:
    state, events = seated()
    dealt = events[-1]
    assert isinstance(dealt, Dealt) and dealt.hand == 1 and dealt.dealer == 0
    assert (dealt.deck, dealt.salt, dealt.commitment) == hand_deck(
        DealSource(7, "", (), False), PACK, 1
    )
    assert dealt.hands == [dealt.deck[1:6:2], dealt.deck[0:6:2]]  # from the dealer's left
    assert GAME.seating(state).status == "playing"


def test_rule_2_seats_play_in_turn_from_the_dealers_left() -> None:
    state, _ = seated(stack("AS 2C 3D", "KH 4S 5S"))
    assert GAME.to_act(state) == {1}
    with pytest.raises(NotYourTurn):
        GAME.decide(state, PlayCard(seat=0, card="AS"))
    assert GAME.legal_commands(state, 1) == [
        PlayCard(seat=1, card=code) for code in ("KH", "4S", "5S")
    ]


def test_rule_2_a_seat_plays_only_a_card_it_holds() -> None:
    state, _ = seated(stack("AS 2C 3D", "KH 4S 5S"))
    with pytest.raises(IllegalCommand, match="you do not hold AS"):
        GAME.decide(state, PlayCard(seat=1, card="AS"))


def test_rule_3_the_highest_card_wins_the_hand() -> None:
    state, _ = seated(stack("AS 2C 3D", "KH 4S 5S"), stack("2D 3C 4C", "9H 8H 7H"), hands=2)
    state, events = run(state, PlayCard(seat=1, card="KH"), PlayCard(seat=0, card="2C"))
    assert events[:2] == [
        CardPlayed(hand=1, seat=1, card="KH"),
        CardPlayed(hand=1, seat=0, card="2C"),
    ]
    won = events[2]
    assert isinstance(won, HandWon) and (won.seat, won.card) == (1, "KH")
    assert GAME.settles_hand(won) and won.deck == stack("AS 2C 3D", "KH 4S 5S")
    assert isinstance(events[3], Dealt) and events[3].hand == 2 and events[3].dealer == 1
    assert state.wins == (0, 1)


def test_rule_3_between_equal_ranks_spades_beat_hearts() -> None:
    state, _ = seated(stack("QH", "QS"), hand_size=1)
    _, events = run(state, PlayCard(seat=1, card="QS"), PlayCard(seat=0, card="QH"))
    assert next(e for e in events if isinstance(e, HandWon)).seat == 1


def test_rule_4_the_table_ends_after_its_hands() -> None:
    state, _ = seated(stack("AS", "2S"), hand_size=1)
    state, events = run(state, PlayCard(seat=1, card="2S"), PlayCard(seat=0, card="AS"))
    assert events[-1] == TableEnded(reason="hands")
    assert GAME.seating(state).status == "ended" and GAME.to_act(state) == frozenset()


def test_a_settled_hand_shows_its_cards_and_an_open_one_only_your_own() -> None:
    state, events = seated(stack("AS 2C 3D", "KH 4S 5S"))
    dealt = events[-1]
    hidden = GAME.redact(dealt, 0, False)
    assert hidden["hands"] == [["AS", "2C", "3D"], None] and "deck" not in hidden
    assert GAME.view(state, 1)["seats"][1]["cards"] == ["KH", "4S", "5S"]
    assert "cards" not in GAME.view(state, None)["seats"][0]
    assert GAME.redact(dealt, None, True)["deck"] == dealt.deck


def test_the_kernel_refuses_a_name_already_seated_and_a_second_seat_for_a_token() -> None:
    state, _ = run(None, OpenTable(game="highcard", options={"seats": 3}, seed=1))
    state, _ = run(state, TakeSeat(name="Ann", token_hash="a"))
    with pytest.raises(NameTaken, match="'Ann' is already seated") as taken:
        GAME.decide(state, TakeSeat(name=" Ann ", token_hash="b"))
    assert taken.value.status == 409 and taken.value.field == "name"
    with pytest.raises(SeatUnavailable, match="already holds seat 0"):
        GAME.decide(state, TakeSeat(name="Bob", token_hash="a"))
    with pytest.raises(InvalidName):
        GAME.decide(state, TakeSeat(name="Bob\u202e", token_hash="b"))


def test_the_kernel_opens_only_a_valid_seed_and_known_options() -> None:
    with pytest.raises(InvalidOption, match="seed"):
        GAME.decide(None, OpenTable(game="highcard", options={}, seed=-1))
    with pytest.raises(InvalidOption) as unknown:
        GAME.decide(None, OpenTable(game="highcard", options={"jokers": 2}, seed=1))
    assert unknown.value.key == "jokers"
    assert "seats, hands, hand_size, reveal, spectator_delay" in unknown.value.message


def test_the_kernel_lets_a_seated_player_close_the_table() -> None:
    state, _ = seated()
    with pytest.raises(IllegalCommand, match="only a seated player"):
        GAME.decide(state, CloseTable(seat=5))
    state, events = run(state, CloseTable(seat=0))
    assert events == [TableEnded(reason="closed")]
    with pytest.raises(TableClosed, match="the table has ended"):
        GAME.decide(state, PlayCard(seat=1, card="AS"))
