"""The playout path of Burraco (``domain.burraco.playout``) on stacked deals: draws come from
the known stock (rule 12a), melds are the rules' (7–11), melding out takes the pozzetto
(rule 16), and the outcome is each seat's side's score for the hand (rules 22–26)."""

from __future__ import annotations

import random

from domain.burraco import GAME
from domain.burraco import playout as P
from domain.burraco.commands import Discard, Meld
from tests.unit.burraco.helpers import seated_table, stacked_deck

HAND_1 = "5H 6H 7H 9C 9D 9S KS QD 3C 4D JK"


def table(**options):
    deck = stacked_deck(hands={1: HAND_1}, discard="8H", stock="AS 10C", pozzetti=("2C", ""))
    return seated_table(deck, options)


def test_the_first_player_draws_or_takes_the_first_discard() -> None:
    pos = P.from_state(table())
    assert P.to_move(pos) == 1
    assert P.legal(pos) == [P.DRAW, P.TAKE]


def test_a_draw_is_the_top_of_the_known_stock() -> None:
    pos = P.from_state(table())
    P.apply(pos, P.DRAW)
    assert pos.hands[1][-1] == "AS"
    assert P.legal(pos)[-1] == P.DISCARD_MOVE["AS"]  # the discards come last, in hand order


def test_melds_are_listed_as_the_reference_lists_them_and_read_back() -> None:
    state = table()
    pos = P.from_state(state)
    P.apply(pos, P.TAKE)  # the 8H joins 5H 6H 7H
    _, state = GAME.decision(state, P.to_command(P.from_state(state), P.TAKE))
    moves = P.legal(pos)
    assert (0, ("5H", "6H", "7H", "8H")) in moves
    assert (0, ("9C", "9D", "9S")) in moves
    listed = GAME.legal_commands(state, 1)
    assert [P.to_command(pos, m) for m in moves] == listed
    assert [P.from_command(pos, c) for c in listed] == moves


def test_a_meld_leaves_the_hand_and_a_discard_passes_the_turn() -> None:
    pos = P.from_state(table())
    P.apply(pos, P.DRAW)
    P.apply(pos, P.from_command(pos, Meld(seat=1, cards=["9C", "9D", "9S"])))
    assert [layout.cards for _, team, layout in pos.melds if team == 1] == [("9C", "9D", "9S")]
    assert "9C" not in pos.hands[1]
    P.apply(pos, P.from_command(pos, Discard(seat=1, card="KS")))
    assert P.to_move(pos) == 2 and pos.pile == ["8H", "KS"]


def test_a_random_playout_leaves_the_position_and_scores_partners_alike() -> None:
    pos = P.from_state(table())
    before = P.legal(pos)
    rng = random.Random(3)
    for _ in range(5):
        scores = P.random_playout(pos, rng)
        assert scores[0] == scores[2] and scores[1] == scores[3]
    assert P.legal(pos) == before and not P.is_over(pos)
