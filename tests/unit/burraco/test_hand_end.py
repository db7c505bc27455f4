"""The end of the hand (spec §6, rules 18–21)."""

from __future__ import annotations

from typing import Any

import pytest

from domain.burraco import GAME
from domain.burraco.commands import Discard, Draw, Meld, TakePile
from domain.burraco.events import Dealt, HandClosed, HandScored
from domain.burraco.state import OVER, PLAY, Table
from domain.errors import IllegalCommand

from .helpers import (
    hand_round,
    names,
    play,
    seated_table,
    stacked_deck,
    with_hand,
    with_melds,
    with_pozzetto_taken,
    with_round,
)

BURRACO = "4D 5D 6D 7D 8D 9D 10D"


def ready_to_close(hand: str = "QC KC AC 9H", **options: object) -> Table:
    """Seat 1 has drawn; its team (1) has its pozzetto and a clean burraco."""
    table = seated_table(stacked_deck(), options=dict(options))
    table, _ = play(table, Draw(seat=1))
    table = with_pozzetto_taken(with_melds(table, 1, BURRACO), team=1, seat=3)
    return with_hand(table, 1, hand)


def test_burraco_rule_18_a_player_closes_by_melding_all_but_one_and_discarding_it() -> None:
    _, events = play(
        ready_to_close(), Meld(seat=1, cards=["QC", "KC", "AC"]), Discard(seat=1, card="9H")
    )
    assert names(events) == ["Melded", "Discarded", "HandClosed", "HandScored", "Dealt"]
    assert events[2] == HandClosed(hand=1, reason="closed", seat=1, team=1)
    scored = events[3]
    assert isinstance(scored, HandScored) and scored.scores[1].closing == 100  # rule 25
    assert isinstance(events[4], Dealt) and (events[4].hand, events[4].dealer) == (2, 1)


def test_burraco_rule_18a_without_the_pozzetto_the_last_discard_takes_it_instead() -> None:
    table = seated_table(stacked_deck())
    table, _ = play(table, Draw(seat=1))
    table = with_melds(with_hand(table, 1, "QC KC AC 9H"), 1, BURRACO)
    table, events = play(table, Meld(seat=1, cards=["QC", "KC", "AC"]), Discard(seat=1, card="9H"))
    assert names(events) == ["Melded", "Discarded", "PozzettoTaken"]


def test_burraco_rule_18b_the_team_needs_a_burraco_to_close() -> None:
    table = with_round(ready_to_close("9H"), melds=())
    with pytest.raises(IllegalCommand, match="your team needs a burraco to close"):
        GAME.decide(table, Discard(seat=1, card="9H"))


def test_burraco_rule_18b_option_close_requires_a_clean_burraco() -> None:
    table = ready_to_close("9H", close_requires="clean_burraco")
    table = with_melds(with_round(table, melds=()), 1, "4D 5D 6D JK 8D 9D 10D")
    with pytest.raises(IllegalCommand, match="needs a clean burraco"):
        GAME.decide(table, Discard(seat=1, card="9H"))
    table = with_melds(table, 1, "4C 5C 6C 7C 8C 9C 10C")
    _, events = play(table, Discard(seat=1, card="9H"))
    assert "HandClosed" in names(events)


def test_burraco_rule_18c_a_final_discard_is_required() -> None:
    with pytest.raises(IllegalCommand, match="keep a card to discard"):
        GAME.decide(ready_to_close("QC KC AC"), Meld(seat=1, cards=["QC", "KC", "AC"]))


def test_burraco_rule_18d_the_closing_discard_may_not_be_a_wild() -> None:
    for wild in ("JK", "2H"):
        with pytest.raises(IllegalCommand, match="closing discard may not be a wild"):
            GAME.decide(ready_to_close(wild), Discard(seat=1, card=wild))


def test_burraco_rule_20_the_hand_ends_after_the_turn_that_leaves_two_cards_in_the_stock() -> None:
    table = seated_table(stacked_deck())
    r = hand_round(table)
    table = with_round(table, stock_next=len(r.deck) - 3)
    table, events = play(table, Draw(seat=1))
    assert hand_round(table).last_turn and hand_round(table).stock_count == 2
    table, events = play(table, Discard(seat=1, card=hand_round(table).hands[1][0]))
    assert names(events) == ["Discarded", "HandClosed", "HandScored", "Dealt"]
    assert events[1] == HandClosed(hand=1, reason="stock")
    assert [s.closing for s in events[2].scores] == [0, 0]  # no closing bonus
    assert hand_round(table).number == 2


def test_burraco_rule_20_the_last_player_may_still_close_for_the_bonus() -> None:
    table = ready_to_close()
    table = with_round(table, last_turn=True, stock_next=len(hand_round(table).deck) - 2)
    _, events = play(table, Meld(seat=1, cards=["QC", "KC", "AC"]), Discard(seat=1, card="9H"))
    assert events[2] == HandClosed(hand=1, reason="closed", seat=1, team=1)
    assert events[3].scores[1].closing == 100


def single_pile_turn(table: Table, seat: int) -> tuple[Table, list[Any]]:
    """``seat`` takes the one-card pile and discards something else."""
    table, _ = play(table, TakePile(seat=seat))
    taken = hand_round(table).took_pile[0]
    card = next(c for c in hand_round(table).hands[seat] if c != taken)
    return play(table, Discard(seat=seat, card=card))


def test_burraco_rule_21_a_round_of_single_card_pile_takes_is_a_stalemate() -> None:
    table = seated_table(stacked_deck())
    for seat in (1, 2, 3):
        table, events = single_pile_turn(table, seat)
        assert names(events) == ["Discarded"]
    table, events = single_pile_turn(table, 0)
    assert names(events) == ["Discarded", "HandClosed", "HandScored", "Dealt"]
    assert events[1] == HandClosed(hand=1, reason="stalemate")


def test_burraco_rule_21_a_draw_from_the_stock_breaks_the_round() -> None:
    table = seated_table(stacked_deck())
    table, _ = single_pile_turn(table, 1)
    table, _ = single_pile_turn(table, 2)
    table, _ = play(table, Draw(seat=3), Discard(seat=3, card=hand_round(table).hands[3][0]))
    for seat in (0, 1, 2):
        table, events = single_pile_turn(table, seat)
        assert names(events) == ["Discarded"]
    assert hand_round(table).phase != OVER


def test_burraco_rule_21_option_stalemate_rounds_waits_longer() -> None:
    table = seated_table(stacked_deck(), options={"stalemate_rounds": 2})
    for seat in (1, 2, 3, 0, 1, 2, 3):
        table, events = single_pile_turn(table, seat)
        assert "HandClosed" not in names(events)
    table, events = single_pile_turn(table, 0)
    assert "HandClosed" in names(events)
    assert hand_round(table).phase == "draw" and hand_round(table).number == 2
    assert hand_round(table).phase != PLAY
