"""The playout path of Bourré (``domain.bourre.playout``) on stacked deals: the moves it lists
are the rules' (5.1, the cinch, rules 11–16), its chance comes from the known deck, and its
outcome is each seat's chips for the hand, antes included."""

from __future__ import annotations

import random

from domain.bourre import GAME
from domain.bourre import playout as P
from domain.bourre.codes import INDEX
from domain.bourre.commands import Declare, Draw, PlayCard
from tests.unit.bourre.support import open_table, run, stack


def cards(*codes: str) -> list[int]:
    return sorted(INDEX[c] for c in codes)


def three_seats_in_play():
    """Three seats keep their cards; the dealer (seat 0) turned the 9D: diamonds are trumps.
    Seat 1 leads."""
    deck = stack(["2C 3C 4C 5C 9D", "AH KH 2S 3S 4S", "QH 5H 10D 6S 7S"])
    state, _ = open_table({"seats": 3}, decks=[deck])
    state, _ = run(state, *(Declare(seat=s, play=True) for s in (1, 2, 0)))
    return state


def test_the_leader_may_lead_any_card_and_the_next_must_follow_and_head_the_trick() -> None:
    state = three_seats_in_play()
    pos = P.from_state(state)
    assert P.to_move(pos) == 1
    assert P.legal(pos) == cards("AH", "KH", "2S", "3S", "4S")
    P.apply(pos, INDEX["KH"])
    assert P.to_move(pos) == 2
    assert P.legal(pos) == cards("QH", "5H")  # follows suit: nothing heads the K (5.1)


def test_a_void_seat_must_trump() -> None:
    pos = P.from_state(three_seats_in_play())
    P.apply(pos, INDEX["AH"])
    P.apply(pos, INDEX["5H"])
    assert P.to_move(pos) == 0
    assert P.legal(pos) == cards("9D")  # no heart: must trump (5.1 b)


def test_a_copy_is_independent_of_its_original() -> None:
    pos = P.from_state(three_seats_in_play())
    other = P.copy(pos)
    P.apply(other, INDEX["AH"])
    assert P.legal(pos) == cards("AH", "KH", "2S", "3S", "4S")
    assert P.to_move(other) == 2


def test_every_listed_move_is_a_legal_command_and_reads_back_as_itself() -> None:
    state, _ = open_table({"seats": 4, "trump_card": "separate_dealer_may_take"}, seed=3)
    pos = P.from_state(state)
    seat = P.to_move(pos)
    commands = [P.to_command(pos, move) for move in P.legal(pos)]
    assert len(commands) == len(GAME.legal_commands(state, seat))
    for move, command in zip(P.legal(pos), commands, strict=True):
        assert P.from_command(pos, command) == move


def test_a_draw_takes_the_top_of_the_known_stock() -> None:
    deck = stack(["2C 3C 4C 5C 9D", "AH KH 2S 3S 4S"], stock="JS QS")
    state, _ = open_table({"seats": 2}, decks=[deck])
    pos = P.from_state(state)
    P.apply(pos, P.from_command(pos, Declare(seat=1, play=True, discard=["2S", "3S"])))
    assert pos.held[1] == sum(1 << INDEX[c] for c in ("AH", "KH", "4S", "JS", "QS"))


def test_rule_16_when_everyone_else_passed_the_last_must_play_and_wins_the_pot() -> None:
    state, _ = open_table({"seats": 3, "ace_forces_dealer": False}, seed=5)
    pos = P.from_state(state)
    P.apply(pos, P.PASS)  # seat 1
    P.apply(pos, P.PASS)  # seat 2
    assert P.PASS not in P.legal(pos)  # the dealer must play (rule 16)
    P.apply(pos, P.DISCARD)  # plays, keeping every card
    assert P.is_over(pos)
    assert P.outcome(pos) == [2.0, -1.0, -1.0]  # the pot of three antes, less its own ante


def test_a_random_playout_leaves_the_position_and_pays_the_pot_to_one_winner_at_most() -> None:
    state, _ = open_table({"seats": 7}, seed=11)
    pos = P.from_state(state)
    before = P.legal(pos)
    rng = random.Random(1)
    for _ in range(50):
        nets = P.random_playout(pos, rng)
        winners = [net for net in nets if net > 0]
        # rules 23-25: the pot of seven antes goes to one winner (less its own ante) or is
        # carried on a tie; every other seat loses its ante, a bourré seat the pot too
        assert len(winners) <= 1 and all(net == 6 for net in winners)
        assert all(net in (-1, -8) for net in nets if net <= 0)
    assert P.legal(pos) == before and P.to_move(pos) == 1


def test_the_draw_command_of_two_round_declaration() -> None:
    state, _ = open_table({"seats": 2, "declaration": "two_round"}, seed=2)
    pos = P.from_state(state)
    P.apply(pos, P.STAY)
    P.apply(pos, P.STAY)
    command = P.to_command(pos, P.DISCARD + 0b11)
    assert isinstance(command, Draw) and len(command.discard) == 2
    assert P.from_command(pos, PlayCard(seat=0, card="AS")) == INDEX["AS"]
