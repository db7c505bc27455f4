"""Commands the table refuses, each with a message a player can act on (design §5 errors)."""

from __future__ import annotations

import pytest

from domain.bourre import GAME
from domain.bourre.commands import Declare, Draw, PlayCard, SecondChance
from domain.bourre.decide import decide_and_evolve
from domain.errors import IllegalCommand, NotYourTurn
from domain.table import OpenTable, TakeSeat
from projections.lobby import Lobby
from tests.unit.bourre.support import open_table, run, stack

DECK = stack(["AH KH QH 5C 9S", "2H 3H 4H 5H 6H", "AS KS QS 4S 3S"], stock="2D 3D 4D")


def test_a_player_command_before_every_seat_is_filled_is_refused() -> None:
    state, _ = decide_and_evolve(None, OpenTable(game="bourre", options={"seats": 3}, seed=1))
    state, _ = decide_and_evolve(state, TakeSeat(name="Ann", token_hash="a"))
    with pytest.raises(IllegalCommand, match="waiting for 2 more player"):
        GAME.decide(state, Declare(seat=0, play=True))
    assert GAME.view(state, 0)["phase"] == "seating"
    assert Lobby.shape(GAME, state)["openSeats"] == [1, 2]


def test_opening_an_open_table_again_is_refused() -> None:
    state, _ = open_table({"seats": 2}, seed=1)
    with pytest.raises(IllegalCommand, match="already open"):
        GAME.decide(state, OpenTable(game="bourre", options={"seats": 2}, seed=1))


def test_a_draw_out_of_turn_or_out_of_phase_is_refused() -> None:
    state, _ = open_table({"seats": 3, "declaration": "two_round"}, decks=[DECK])
    state, _ = run(state, *(Declare(seat=s, play=True) for s in (1, 2, 0)))
    with pytest.raises(NotYourTurn, match="seat 1's turn to draw"):
        GAME.decide(state, Draw(seat=2))
    with pytest.raises(IllegalCommand, match="declarations are over"):
        GAME.decide(state, Declare(seat=1, play=True))


def test_taking_the_turned_card_is_named_in_the_draw_in_two_round_declaration() -> None:
    state, _ = open_table(
        {"seats": 3, "declaration": "two_round", "trump_card": "separate_dealer_may_take"},
        decks=[stack(["AH KH QH 5C 8C", "2H 3H 4H 5H 6H", "AS KS QS 4S 3S"], turned="9S")],
    )
    state, _ = run(state, Declare(seat=1, play=True), Declare(seat=2, play=True))
    with pytest.raises(IllegalCommand, match="in the draw"):
        GAME.decide(state, Declare(seat=0, play=True, take_trump=True))
    state, _ = run(state, Declare(seat=0, play=True), Draw(seat=1), Draw(seat=2))
    assert any(c.take_trump for c in GAME.legal_commands(state, 0))
    state, _events = run(state, Draw(seat=0, discard=["5C"], take_trump=True))
    assert state.hand is not None and state.hand.trump_card_owner == 0


def test_a_second_chance_out_of_turn_is_refused() -> None:
    deck = stack(["2C 3C 4C 5C", "AS KS 2H 3H", "4D 5D 6D 7D"], turned="9S")
    state, _ = open_table({"seats": 3, "four_card": True}, decks=[deck])
    state, _ = run(state, *(Declare(seat=s, play=True) for s in (1, 2, 0)))
    with pytest.raises(NotYourTurn, match="seat 1's turn to decide"):
        GAME.decide(state, SecondChance(seat=0, play=True))


def test_a_command_for_a_seat_that_does_not_exist_is_refused() -> None:
    state, _ = open_table({"seats": 3}, decks=[DECK])
    with pytest.raises(IllegalCommand, match="there is no seat 3"):
        GAME.decide(state, Declare(seat=3, play=True))
    with pytest.raises(IllegalCommand, match="there is no seat -1"):
        GAME.decide(state, PlayCard(seat=-1, card="AS"))


def test_a_command_of_another_game_is_refused() -> None:
    state, _ = open_table({"seats": 3}, decks=[DECK])
    with pytest.raises(IllegalCommand, match="not a Bourré command"):
        GAME.decide(state, object())


def test_a_refused_command_leaves_the_state_untouched() -> None:
    state, _ = open_table({"seats": 3}, decks=[DECK])
    before = state
    with pytest.raises(IllegalCommand):
        GAME.decide(state, Declare(seat=1, play=True, discard=["AS"]))
    assert state == before and GAME.to_act(state) == frozenset({1})


def test_rule_12_a_player_who_passed_is_told_so_when_trying_to_play() -> None:
    state, _ = open_table({"seats": 3}, decks=[DECK])
    state, _ = run(state, Declare(seat=1, play=False), Declare(seat=2, play=True))
    state, _ = run(state, Declare(seat=0, play=True))
    with pytest.raises(IllegalCommand, match="you passed: you are out of this hand"):
        GAME.decide(state, PlayCard(seat=1, card="2H"))


def test_rule_12_a_passer_neither_draws_nor_gets_a_second_chance() -> None:
    state, _ = open_table({"seats": 3, "declaration": "two_round"}, decks=[DECK])
    state, _ = run(state, Declare(seat=1, play=False), Declare(seat=2, play=True))
    state, _ = run(state, Declare(seat=0, play=True))
    with pytest.raises(IllegalCommand, match="you passed"):
        GAME.decide(state, Draw(seat=1, discard=["2H"]))
    deck = stack(["2C 3C 4C 5C", "AS KS 2H 3H", "4D 5D 6D 7D"], turned="9S")
    state, _ = open_table({"seats": 3, "four_card": True}, decks=[deck])
    state, _ = run(state, Declare(seat=1, play=False), Declare(seat=2, play=True))
    state, _ = run(state, Declare(seat=0, play=True))
    with pytest.raises(IllegalCommand, match="you passed"):
        GAME.decide(state, SecondChance(seat=1, play=True))


def test_rule_11_a_player_who_already_declared_is_told_so_not_whose_turn_it_is() -> None:
    state, _ = open_table({"seats": 3}, decks=[DECK])
    state, _ = run(state, Declare(seat=1, play=False))
    with pytest.raises(IllegalCommand, match="you have already declared this hand"):
        GAME.decide(state, Declare(seat=1, play=True))
    state, _ = open_table({"seats": 3, "declaration": "two_round"}, decks=[DECK])
    state, _ = run(state, Declare(seat=1, play=True))
    with pytest.raises(IllegalCommand, match="you have already declared this hand"):
        GAME.decide(state, Declare(seat=1, play=False))


def test_rule_31_a_player_who_already_drew_is_told_so_not_whose_turn_it_is() -> None:
    state, _ = open_table({"seats": 3, "declaration": "two_round"}, decks=[DECK])
    state, _ = run(state, *(Declare(seat=s, play=True) for s in (1, 2, 0)))
    state, _ = run(state, Draw(seat=1, discard=["2H"]))
    with pytest.raises(IllegalCommand, match="you have already drawn this hand"):
        GAME.decide(state, Draw(seat=1))


def test_rule_13_in_sequential_declaration_a_draw_is_told_to_name_discards_with_declare() -> None:
    state, _ = open_table({"seats": 3}, decks=[DECK])
    with pytest.raises(IllegalCommand, match="name your discards when you declare play"):
        GAME.decide(state, Draw(seat=1, discard=["2H"]))


def test_rule_33_a_second_chance_at_a_five_card_table_names_the_four_card_option() -> None:
    state, _ = open_table({"seats": 3}, decks=[DECK])
    with pytest.raises(IllegalCommand, match="only with the four_card option"):
        GAME.decide(state, SecondChance(seat=1, play=True))
