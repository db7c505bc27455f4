"""Trick play: leading (rule 17), winning a trick (rule 18), the obligations of 5.1 and the
server's refusal of reneges (rule 29)."""

from __future__ import annotations

import pytest

from domain.bourre import GAME
from domain.bourre.commands import Declare, PlayCard
from domain.bourre.events import CardPlayed, TrickWon
from domain.bourre.tricks import legal_cards, trick_winner
from domain.cards import Suit, card, parse
from domain.errors import IllegalCommand, NotYourTurn
from tests.unit.bourre.support import of_type, open_table, run, stack

S, H, D, C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS

# Spades trump (the dealer's face-up 9S); seat 1 leads. The spec's 5.1 example.
SPEC_EXAMPLE = stack(["AD 6D KC 3S 9S", "QD 2C 3C 4C 5C", "4S 7H 2H 3H 4H"])


def everyone_plays(state, seats=(1, 2, 0)):
    return run(state, *(Declare(seat=s, play=True) for s in seats))


def playing_table(deck, seats=3, **options):
    state, _ = open_table({"seats": seats, "cinch": "off", **options}, decks=[deck])
    state, _ = everyone_plays(state, [*range(1, seats), 0])
    return state


def test_rule_18_the_highest_trump_wins_the_trick() -> None:
    assert trick_winner([(1, card("QD")), (2, card("4S")), (0, card("AD"))], S) == (
        2,
        parse("4S")[0],
    )


def test_rule_18_without_a_trump_the_highest_card_of_the_suit_led_wins() -> None:
    trick = [(1, card("QD")), (2, card("AH")), (0, card("KD"))]
    assert trick_winner(trick, S) == (0, parse("KD")[0])


def test_5_1_a_player_may_lead_any_card() -> None:
    hand = parse("AD 6D 9S 3S KC")
    assert legal_cards(hand, S, []) == hand


def test_5_1_spec_example_following_a_trumped_trick_any_card_of_the_suit_led() -> None:
    hand = parse("AD 6D 9S 3S KC")
    assert legal_cards(hand, S, parse("QD 4S")) == parse("AD 6D")


def test_5_1_spec_example_following_suit_you_must_head_the_trick() -> None:
    hand = parse("AD 6D 9S 3S KC")
    assert legal_cards(hand, S, parse("QD 5D")) == parse("AD")


def test_5_1_following_suit_when_you_cannot_beat_any_card_of_the_suit_is_legal() -> None:
    assert legal_cards(parse("2D 6D 9S"), S, parse("QD 5D")) == parse("2D 6D")


def test_5_1_void_in_the_suit_led_you_must_trump() -> None:
    assert legal_cards(parse("9S 3S KC AH"), S, parse("QD 5D")) == parse("9S 3S")


def test_5_1_void_you_must_overtrump_when_you_can() -> None:
    assert legal_cards(parse("9S 3S KC"), S, parse("QD 5S")) == parse("9S")


def test_5_1_void_and_unable_to_overtrump_you_must_still_play_a_trump() -> None:
    assert legal_cards(parse("4S 3S KC"), S, parse("QD 5S")) == parse("4S 3S")


def test_5_1_with_neither_the_suit_led_nor_trumps_any_card_is_legal() -> None:
    assert legal_cards(parse("KC AH 2H"), S, parse("QD 5S")) == parse("KC AH 2H")


def test_5_1_when_trumps_are_led_you_must_head_them_with_a_higher_trump() -> None:
    assert legal_cards(parse("KS 3S KC"), S, parse("QS 5S")) == parse("KS")


def test_rule_17_the_first_active_player_left_of_the_dealer_leads() -> None:
    # given seat 1 passes
    state, _ = open_table({"seats": 3, "cinch": "off"}, decks=[SPEC_EXAMPLE])
    state, _ = run(state, Declare(seat=1, play=False), Declare(seat=2, play=True))
    state, _ = run(state, Declare(seat=0, play=True))
    # then seat 2, the first active player left of the dealer, leads
    assert GAME.to_act(state) == frozenset({2})


def test_rule_17_each_active_player_plays_one_card_in_turn_and_the_winner_leads_next() -> None:
    state = playing_table(SPEC_EXAMPLE)
    state, events = run(
        state,
        PlayCard(seat=1, card="QD"),
        PlayCard(seat=2, card="4S"),
        PlayCard(seat=0, card="6D"),
    )
    assert [e.card for e in of_type(events, CardPlayed)] == ["QD", "4S", "6D"]
    (won,) = of_type(events, TrickWon)
    assert (won.trick, won.seat, won.card) == (1, 2, "4S")
    assert state.hand is not None and state.hand.tricks == (0, 0, 1)
    assert GAME.to_act(state) == frozenset({2})


def test_rule_17_there_are_always_five_tricks() -> None:
    state = playing_table(SPEC_EXAMPLE)
    events = []
    while state.hand is not None and state.hand.number == 1:
        seat = min(GAME.to_act(state))
        state, more = run(state, GAME.legal_commands(state, seat)[0])
        events += more
    assert [e.trick for e in of_type(events, TrickWon)] == [1, 2, 3, 4, 5]


def test_5_1_must_follow_suit_is_refused_with_the_suit_you_hold() -> None:
    state = playing_table(SPEC_EXAMPLE)
    state, _ = run(state, PlayCard(seat=1, card="QD"), PlayCard(seat=2, card="4S"))
    with pytest.raises(IllegalCommand, match="must follow suit: you hold a diamond"):
        run(state, PlayCard(seat=0, card="KC"))
    state, events = run(state, PlayCard(seat=0, card="6D"))  # any diamond after a trump
    assert of_type(events, TrickWon)[0].seat == 2


def test_5_1_must_head_the_trick_is_refused_naming_the_card_that_beats() -> None:
    deck = stack(["AD 6D KC 3S 9S", "QD 2C 3C 4C 5C", "5D 4S 2H 3H 4H"])
    state = playing_table(deck)
    state, _ = run(state, PlayCard(seat=1, card="QD"), PlayCard(seat=2, card="5D"))
    with pytest.raises(IllegalCommand, match="must head the trick: you hold AD, which beats QD"):
        run(state, PlayCard(seat=0, card="6D"))


def test_5_1_must_trump_and_must_overtrump_are_refused_with_reasons() -> None:
    deck = stack(["2H 6H KS 3S 9S", "QD 2C 3C 4C 5C", "4S 5H 6C 3H 4H"])
    state = playing_table(deck)
    state, _ = run(state, PlayCard(seat=1, card="QD"))
    with pytest.raises(IllegalCommand, match="must trump: you have no diamond"):
        run(state, PlayCard(seat=2, card="5H"))
    state, _ = run(state, PlayCard(seat=2, card="4S"))
    with pytest.raises(IllegalCommand, match="must overtrump: you hold KS or 9S, which beats 4S"):
        run(state, PlayCard(seat=0, card="3S"))


def test_rule_29_an_illegal_play_is_rejected_and_writes_nothing_so_no_renege_exists() -> None:
    state = playing_table(SPEC_EXAMPLE)
    state, _ = run(state, PlayCard(seat=1, card="QD"), PlayCard(seat=2, card="4S"))
    with pytest.raises(IllegalCommand):
        GAME.decide(state, PlayCard(seat=0, card="9S"))
    assert state.hand is not None and len(state.hand.trick) == 2  # unchanged


def test_playing_out_of_turn_a_card_you_do_not_hold_or_a_bad_code_is_refused() -> None:
    state = playing_table(SPEC_EXAMPLE)
    with pytest.raises(NotYourTurn, match="seat 1"):
        GAME.decide(state, PlayCard(seat=2, card="4S"))
    with pytest.raises(IllegalCommand, match="you do not hold AS"):
        GAME.decide(state, PlayCard(seat=1, card="AS"))
    with pytest.raises(IllegalCommand, match="not a card"):
        GAME.decide(state, PlayCard(seat=1, card="1Z"))
    with pytest.raises(IllegalCommand, match="no seat 9"):
        GAME.decide(state, PlayCard(seat=9, card="QD"))


def test_a_card_cannot_be_played_during_the_declaration() -> None:
    state, _ = open_table({"seats": 3}, decks=[SPEC_EXAMPLE])
    with pytest.raises(IllegalCommand, match="declare phase"):
        GAME.decide(state, PlayCard(seat=1, card="QD"))


def test_legal_commands_list_exactly_the_playable_cards_of_the_seat_to_act() -> None:
    state = playing_table(SPEC_EXAMPLE)
    state, _ = run(state, PlayCard(seat=1, card="QD"), PlayCard(seat=2, card="4S"))
    assert GAME.legal_commands(state, 0) == [
        PlayCard(seat=0, card="AD"),
        PlayCard(seat=0, card="6D"),
    ]
    assert GAME.legal_commands(state, 1) == []
