"""Declaring and the draw: rules 9, 11–13, 15–16 and the declaration variants 30–31."""

from __future__ import annotations

import pytest

from domain.bourre import GAME
from domain.bourre.commands import Declare, Draw
from domain.bourre.events import Anted, DecisionsRevealed, Declared, Discarded, HandSettled
from domain.bourre.legal import discard_choices
from domain.errors import IllegalCommand, NotYourTurn
from tests.unit.bourre.support import of_type, open_table, run, stack

# Dealer seat 0 (face-up 9S: spades trump); stock starts 2D 3D 4D 5D 6D 7D 8D.
DECK = stack(
    ["AH KH QH 5C 9S", "2H 3H 4H 5H 6H", "AS KS QS 4S 3S"],
    stock="2D 3D 4D 5D 6D 7D 8D",
)
ACE_UP = stack(["2H 3C 4C 5C AS", "3H 4H 5H 6H 7H", "2S 3S 4S 5S 6S"])


def test_rule_11_declaring_starts_left_of_the_dealer_and_goes_clockwise() -> None:
    state, _ = open_table({"seats": 3}, decks=[DECK])
    assert GAME.to_act(state) == frozenset({1})
    with pytest.raises(NotYourTurn, match="seat 1's turn to declare"):
        GAME.decide(state, Declare(seat=2, play=True))
    state, _ = run(state, Declare(seat=1, play=False))
    assert GAME.to_act(state) == frozenset({2})
    state, _ = run(state, Declare(seat=2, play=True))
    assert GAME.to_act(state) == frozenset({0})


def test_rule_13_a_player_who_plays_discards_and_draws_from_the_top_of_the_stock_at_once() -> None:
    state, _ = open_table({"seats": 3}, decks=[DECK])
    state, events = run(state, Declare(seat=1, play=True, discard=["2H", "3H"]))
    assert of_type(events, Declared) == [Declared(hand=1, seat=1, play=True)]
    (drawn,) = of_type(events, Discarded)
    assert (drawn.discarded, drawn.drawn) == (["2H", "3H"], ["2D", "3D"])
    assert state.hand is not None
    assert [c.code for c in state.hand.holdings[1]] == ["4H", "5H", "6H", "2D", "3D"]


def test_rule_13_replacements_are_served_in_declaration_order_so_the_dealer_is_last() -> None:
    state, _ = open_table({"seats": 3}, decks=[DECK])
    state, events = run(
        state,
        Declare(seat=1, play=True, discard=["2H"]),
        Declare(seat=2, play=True, discard=["3S", "4S"]),
        Declare(seat=0, play=True, discard=["5C"]),
    )
    assert [(d.seat, d.drawn) for d in of_type(events, Discarded)] == [
        (1, ["2D"]),
        (2, ["3D", "4D"]),
        (0, ["5D"]),
    ]


def test_rule_9_the_dealer_may_discard_the_face_up_card_and_trump_stays() -> None:
    state, _ = open_table({"seats": 3}, decks=[DECK])
    state, _ = run(state, Declare(seat=1, play=True), Declare(seat=2, play=True))
    state, _ = run(state, Declare(seat=0, play=True, discard=["9S"]))
    assert state.hand is not None
    assert "9S" not in [c.code for c in state.hand.holdings[0]]
    assert state.hand.trump == "S" and state.hand.trump_card.code == "9S"


@pytest.mark.parametrize(
    ("discard", "message"),
    [
        (["AS"], "you do not hold AS"),
        (["2H", "2H"], "2H is named twice"),
        (["XX"], "not a card"),
    ],
)
def test_rule_13_a_discard_must_name_cards_you_hold_once(discard: list, message: str) -> None:
    state, _ = open_table({"seats": 3}, decks=[DECK])
    with pytest.raises(IllegalCommand, match=message):
        GAME.decide(state, Declare(seat=1, play=True, discard=discard))


def test_rule_34_max_discard_limits_the_draw() -> None:
    state, _ = open_table({"seats": 3, "max_discard": 3}, decks=[DECK])
    with pytest.raises(IllegalCommand, match="you may discard at most 3 cards"):
        GAME.decide(state, Declare(seat=1, play=True, discard=["2H", "3H", "4H", "5H"]))
    assert max(len(c.discard) for c in GAME.legal_commands(state, 1)) == 3


def test_rule_12_a_pass_names_no_discards_and_the_passer_is_out_of_the_hand() -> None:
    state, _ = open_table({"seats": 3}, decks=[DECK])
    with pytest.raises(IllegalCommand, match="a pass names no discards"):
        GAME.decide(state, Declare(seat=1, play=False, discard=["2H"]))
    state, _ = run(state, Declare(seat=1, play=False), Declare(seat=2, play=True))
    state, _ = run(state, Declare(seat=0, play=True))
    assert state.hand is not None and state.hand.playing == (2, 0)
    assert GAME.legal_commands(state, 1) == []


def test_rule_15_with_an_ace_turned_up_the_dealer_must_play() -> None:
    state, _ = open_table({"seats": 3}, decks=[ACE_UP])
    state, _ = run(state, Declare(seat=1, play=True), Declare(seat=2, play=True))
    with pytest.raises(IllegalCommand, match=r"dealer must play: the face-up card is an ace \(AS"):
        GAME.decide(state, Declare(seat=0, play=False))
    assert Declare(seat=0, play=False) not in GAME.legal_commands(state, 0)


def test_rule_15_ace_forces_dealer_off_lets_the_dealer_pass() -> None:
    state, _ = open_table({"seats": 3, "ace_forces_dealer": False}, decks=[ACE_UP])
    state, _ = run(state, Declare(seat=1, play=True), Declare(seat=2, play=True))
    state, events = run(state, Declare(seat=0, play=False))
    assert of_type(events, Declared)[0].play is False


def test_rule_15_an_ace_turned_apart_belongs_to_nobody_and_forces_no_dealer() -> None:
    # rule 15 binds the dealer's own face-up card; a separately turned ace (rule 32) is nobody's
    deck = stack(["2H 3C 4C 5C 6C", "3H 4H 5H 6H 7H", "2S 3S 4S 5S 6S"], turned="AS")
    state, _ = open_table({"seats": 3, "trump_card": "separate"}, decks=[deck])
    state, _ = run(state, Declare(seat=1, play=True), Declare(seat=2, play=True))
    state, events = run(state, Declare(seat=0, play=False))
    assert of_type(events, Declared)[0].play is False


def test_rule_15_in_simultaneous_and_two_round_declaration_the_dealer_still_must_play() -> None:
    for declaration in ("simultaneous", "two_round"):
        state, _ = open_table({"seats": 3, "declaration": declaration}, decks=[ACE_UP])
        state, _ = run(state, Declare(seat=1, play=True), Declare(seat=2, play=True))
        with pytest.raises(IllegalCommand, match="dealer must play: the face-up card is an ace"):
            GAME.decide(state, Declare(seat=0, play=False))
        assert GAME.legal_commands(state, 0) == [Declare(seat=0, play=True)]


def test_rule_16_when_everyone_before_the_dealer_passes_the_dealer_must_play_and_wins() -> None:
    state, _ = open_table({"seats": 3}, decks=[DECK])
    state, _ = run(state, Declare(seat=1, play=False), Declare(seat=2, play=False))
    with pytest.raises(IllegalCommand, match="everyone else passed: you must play"):
        GAME.decide(state, Declare(seat=0, play=False))
    state, events = run(state, Declare(seat=0, play=True))
    (settled,) = of_type(events, HandSettled)
    assert settled.solo and settled.winner == 0 and settled.bourre == []
    assert settled.payouts == [3, 0, 0]


def test_rule_16_when_every_player_but_one_passes_that_player_takes_the_pot_without_play() -> None:
    state, _ = open_table({"seats": 3}, decks=[DECK])
    state, _ = run(state, Declare(seat=1, play=True), Declare(seat=2, play=False))
    state, events = run(state, Declare(seat=0, play=False))
    (settled,) = of_type(events, HandSettled)
    assert (settled.winner, settled.solo, settled.tricks) == (1, True, [0, 0, 0])
    assert settled.payouts == [0, 3, 0]
    assert state.hand is not None and state.hand.number == 2
    assert state.nets == (-2, 1, -2)  # after everyone's ante for hand 2


def test_rule_30_double_ante_a_player_who_plays_pays_a_second_ante_and_a_passer_does_not() -> None:
    state, _ = open_table({"seats": 3, "double_ante": True}, decks=[DECK])
    state, events = run(state, Declare(seat=1, play=True), Declare(seat=2, play=False))
    assert of_type(events, Anted) == [Anted(hand=1, seats=[1], amount=1, reason="double_ante")]
    assert state.pot == 4 and state.nets == (-1, -2, -1)


def test_rule_31_two_round_round_one_declares_and_round_two_draws_in_turn() -> None:
    state, _ = open_table({"seats": 3, "declaration": "two_round"}, decks=[DECK])
    with pytest.raises(IllegalCommand, match=r"name your discards \(.*\) in the draw"):
        GAME.decide(state, Declare(seat=1, play=True, discard=["2H"]))
    with pytest.raises(IllegalCommand, match="there is no draw now"):
        GAME.decide(state, Draw(seat=1, discard=["2H"]))
    state, events = run(
        state,
        Declare(seat=1, play=True),
        Declare(seat=2, play=False),
        Declare(seat=0, play=True),
    )
    assert of_type(events, Discarded) == []
    assert state.hand is not None and state.hand.phase == "draw"
    assert GAME.to_act(state) == frozenset({1})
    state, events = run(state, Draw(seat=1, discard=["2H"]), Draw(seat=0, discard=["5C", "9S"]))
    assert [(d.seat, d.drawn) for d in of_type(events, Discarded)] == [
        (1, ["2D"]),
        (0, ["3D", "4D"]),
    ]
    assert state.hand is not None and state.hand.phase == "play"


def test_rule_31_two_round_with_double_ante_the_second_ante_is_paid_in_round_one() -> None:
    state, _ = open_table(
        {"seats": 3, "declaration": "two_round", "double_ante": True}, decks=[DECK]
    )
    state, events = run(state, Declare(seat=1, play=True))
    assert of_type(events, Anted) == [Anted(hand=1, seats=[1], amount=1, reason="double_ante")]


def test_rule_31_simultaneous_decisions_are_sealed_then_revealed_together() -> None:
    state, _ = open_table({"seats": 3, "declaration": "simultaneous"}, decks=[DECK])
    # every seat may decide, in any order
    assert GAME.to_act(state) == frozenset({0, 1, 2})
    state, events = run(state, Declare(seat=2, play=False))
    (sealed,) = of_type(events, Declared)
    assert sealed.sealed
    assert "play" not in GAME.redact(sealed, 1, False)
    assert GAME.redact(sealed, 2, False)["play"] is False
    with pytest.raises(IllegalCommand, match="already declared"):
        GAME.decide(state, Declare(seat=2, play=True))
    assert GAME.to_act(state) == frozenset({0, 1})
    # when the last decision is in, all are revealed and the draw goes in rotation
    state, _ = run(state, Declare(seat=0, play=True))
    state, events = run(state, Declare(seat=1, play=True))
    assert of_type(events, DecisionsRevealed) == [
        DecisionsRevealed(hand=1, plays=[True, True, False])
    ]
    assert GAME.to_act(state) == frozenset({1})
    state, _ = run(state, Draw(seat=1), Draw(seat=0, discard=["5C"]))
    assert state.hand is not None and state.hand.phase == "play"


def test_rule_31_simultaneous_when_everyone_passes_the_dealer_plays_and_wins() -> None:
    state, _ = open_table({"seats": 3, "declaration": "simultaneous"}, decks=[DECK])
    state, events = run(*[state], *(Declare(seat=s, play=False) for s in (0, 1, 2)))
    (revealed,) = of_type(events, DecisionsRevealed)
    assert revealed.dealer_forced and revealed.plays == [True, False, False]
    (settled,) = of_type(events, HandSettled)
    assert settled.solo and settled.winner == 0


def test_rule_31_simultaneous_with_double_ante_the_players_pay_at_the_reveal() -> None:
    state, _ = open_table(
        {"seats": 3, "declaration": "simultaneous", "double_ante": True}, decks=[DECK]
    )
    state, events = run(state, *(Declare(seat=s, play=s != 2) for s in (0, 1, 2)))
    assert of_type(events, Anted) == [Anted(hand=1, seats=[0, 1], amount=1, reason="double_ante")]


def test_rule_34_the_discards_listed_are_every_choice_of_at_most_max_discard_cards() -> None:
    """The empty discard first, then one card, two cards, … each in the order of the hand;
    every choice its own list."""
    choices = discard_choices(["AS", "10H", "7D"], 2)
    assert choices == [
        [],
        ["AS"], ["10H"], ["7D"],
        ["AS", "10H"], ["AS", "7D"], ["10H", "7D"],
    ]  # fmt: skip
    assert len({id(choice) for choice in choices}) == len(choices)
    assert discard_choices(["KC", "2S"], 5) == [[], ["KC"], ["2S"], ["KC", "2S"]]
    assert len(discard_choices(["AS", "KS", "QS", "JS", "10S"], 5)) == 32
    assert discard_choices(["AS", "KS", "QS", "JS"], 0) == [[]]
