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
    discards,
    draws,
    extends,
    given,
    hand_round,
    melds,
    names,
    opening,
    play,
    quiet_turns,
    seated_table,
    stacked_deck,
    takes_pile,
    takes_pozzetto,
)

BURRACO = "4D 5D 6D 7D 8D 9D 10D"
POZZETTO = "AS KS QS 10S 9S 8S AD KD QD 3D AH"
# What seat 1 melds on its first turn to keep a hand of 8, 4, 3 or 1 cards: jacks, hearts.
SHED = {8: ("JS JH JC", ""), 4: ("JS JH JC", "3H 4H 5H 6H"),
        3: ("JS JH JC", "3H 4H 5H 6H 7H"), 1: ("JS JH JC JD", "3H 4H 5H 6H 7H 8H")}  # fmt: skip


def history_to_close(
    hand: str = "QC KC AC 9H", team_melds: tuple[str, ...] = (BURRACO,), *,
    last_turn: bool = False, **options: Any,
) -> list[Any]:  # fmt: skip
    """Seat 1 melds all but ``hand`` on its first turn; seat 3 melds ``team_melds`` and a run
    of spades and takes its team's pozzetto; on seat 1's next turn it draws a jack and adds
    it to its set: seat 1 holds ``hand``, having drawn. With ``last_turn`` nine quiet rounds
    (and two pile takes) come first, so that draw leaves two cards in the stock (rule 20)."""
    jacks, hearts = SHED[len(hand.split())]
    deck = stacked_deck(
        hands={1: f"{hand} {jacks} {hearts}", 3: " ".join([*team_melds, "3S 4S 5S 6S"])},
        pozzetti=(POZZETTO, ""), discard="QH",
        stock="KH 7S" if last_turn else "KH KH 7S QH JC", stock_end="JC 2C 2C" if last_turn else "",
    )  # fmt: skip
    laid = [(1, jacks), (1, hearts), *((3, text) for text in team_melds), (3, "3S 4S 5S 6S 7S")]
    meld = dict(enumerate(((seat, text) for seat, text in laid if text), start=1))
    by_seat = {seat: [melds(seat, i, text) for i, (s, text) in meld.items() if s == seat]
               for seat in (1, 3)}  # fmt: skip
    events = [*opening(deck, **options), draws(1, "KH"), *by_seat[1], discards(1, "KH")]
    if last_turn:  # seats 2 and 0 take the pile, so that seat 1 draws the stock down to two
        events += [takes_pile(2, "QH KH"), discards(2, "KH")]
    else:
        events += [draws(2, "KH"), discards(2, "KH")]
    events += [draws(3, "7S"), *by_seat[3], takes_pozzetto(3, 0, POZZETTO), discards(3, "AH")]
    if last_turn:
        events += [takes_pile(0, "KH AH"), discards(0, "AH")]
        events += quiet_turns(given(events), 36)
    else:
        events += [draws(0, "QH"), discards(0, "QH")]
    return [*events, draws(1, "JC"), extends(1, 1, "JC", f"{jacks} JC")]


def ready_to_close(hand: str = "QC KC AC 9H", **options: Any) -> Table:
    """Seat 1 has drawn and holds ``hand``; its team (1) has its pozzetto and a clean burraco."""
    return given(history_to_close(hand, **options))


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
    deck = stacked_deck(hands={1: f"QC KC AC 3D {BURRACO}"}, stock="9H")
    table = given([*opening(deck), draws(1, "9H"), melds(1, 1, f"3D {BURRACO}")])
    table, events = play(table, Meld(seat=1, cards=["QC", "KC", "AC"]), Discard(seat=1, card="9H"))
    assert names(events) == ["Melded", "Discarded", "PozzettoTaken"]


def test_burraco_rule_18b_the_team_needs_a_burraco_to_close() -> None:
    table = given(history_to_close("9H", team_melds=("4D 5D 6D 7D", "8C 8H 8S")))
    with pytest.raises(IllegalCommand, match="your team needs a burraco to close"):
        GAME.decide(table, Discard(seat=1, card="9H"))


def test_burraco_rule_18b_option_close_requires_a_clean_burraco() -> None:
    dirty = ("4D 5D 6D JK 8D 9D 10D",)
    history = history_to_close("9H", dirty, close_requires="clean_burraco")
    with pytest.raises(IllegalCommand, match="needs a clean burraco"):
        GAME.decide(given(history), Discard(seat=1, card="9H"))
    clubs = "4C 5C 6C 7C 8C 9C 10C"
    history = history_to_close(f"{clubs} 9H", dirty, close_requires="clean_burraco")
    table = given([*history, melds(1, 5, clubs)])
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
    history = opening(stacked_deck())
    table = given([*history, *quiet_turns(given(history), 38)])  # 3 cards left; seat 3 draws
    table, events = play(table, Draw(seat=3))
    assert hand_round(table).last_turn and hand_round(table).stock_count == 2
    table, events = play(table, Discard(seat=3, card=hand_round(table).hands[3][0]))
    assert names(events) == ["Discarded", "HandClosed", "HandScored", "Dealt"]
    assert events[1] == HandClosed(hand=1, reason="stock")
    assert [s.closing for s in events[2].scores] == [0, 0]  # no closing bonus
    assert hand_round(table).number == 2


def test_burraco_rule_20_the_last_player_may_still_close_for_the_bonus() -> None:
    table = ready_to_close(last_turn=True)
    assert hand_round(table).last_turn and hand_round(table).stock_count == 2
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
