"""The pozzetto (spec §5, rules 15–17) and its corollary (rule 19)."""

from __future__ import annotations

import pytest

from domain.burraco import GAME
from domain.burraco.commands import AddToMeld, Discard, Draw, Meld, TakePile
from domain.burraco.events import PozzettoOpened, PozzettoTaken
from domain.burraco.state import PLAY, Table
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
)

POZZETTO_0 = "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S"
POZZETTO_1 = "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D"
DECK = stacked_deck(pozzetti=(POZZETTO_0, POZZETTO_1), discard="KC", stock="9C 9C 8C 8C 7C 7C")


def drawn(seat_hand: str, seat: int = 1, table: Table | None = None) -> Table:
    """``seat`` to act, having drawn, holding ``seat_hand``."""
    table = table or seated_table(DECK)
    while hand_round(table).turn != seat:
        turn = hand_round(table).turn
        table, _ = play(
            table, Draw(seat=turn), Discard(seat=turn, card=hand_round(table).hands[turn][0])
        )
    table, _ = play(table, Draw(seat=seat))
    return with_hand(table, seat, seat_hand)


def test_burraco_rule_16_melding_every_card_takes_the_pozzetto_at_once() -> None:
    table, events = play(drawn("3H 4H 5H"), Meld(seat=1, cards=["3H", "4H", "5H"]))
    assert names(events) == ["Melded", "PozzettoTaken"]
    taken = events[1]
    assert taken == PozzettoTaken(
        hand=1, seat=1, team=1, pozzetto=0, cards=POZZETTO_0.split(), direct=True
    )
    r = hand_round(table)
    assert r.hands[1] == tuple(POZZETTO_0.split())
    assert r.phase == PLAY  # rule 16: the turn goes on


def test_burraco_rule_16_the_player_goes_on_melding_from_the_pozzetto_then_discards() -> None:
    table, _ = play(drawn("3H 4H 5H"), Meld(seat=1, cards=["3H", "4H", "5H"]))
    table, events = play(
        table, Meld(seat=1, cards=["4S", "5S", "6S", "7S"]), Discard(seat=1, card="AS")
    )
    assert names(events) == ["Melded", "Discarded"]
    assert len(hand_round(table).hands[1]) == 6


def test_burraco_rule_17_melding_all_but_one_and_discarding_takes_it_sealed() -> None:
    table, events = play(
        drawn("3H 4H 5H 9C"), Meld(seat=1, cards=["3H", "4H", "5H"]), Discard(seat=1, card="9C")
    )
    assert names(events) == ["Melded", "Discarded", "PozzettoTaken"]
    assert events[-1].direct is False
    r = hand_round(table)
    assert r.hands[1] == () and r.sealed[1] == tuple(POZZETTO_0.split())
    assert GAME.view(table, 1)["seats"][1]["cards"] == []  # rule 17: may not look at it yet


def test_burraco_rule_17_the_sealed_pozzetto_opens_when_the_turn_comes_round() -> None:
    table, _ = play(
        drawn("3H 4H 5H 9C"), Meld(seat=1, cards=["3H", "4H", "5H"]), Discard(seat=1, card="9C")
    )
    for seat in (2, 3):
        table, events = play(table, Draw(seat=seat),
                             Discard(seat=seat, card=hand_round(table).hands[seat][0]))  # fmt: skip
        assert "PozzettoOpened" not in names(events)
    table, events = play(table, Draw(seat=0), Discard(seat=0, card=hand_round(table).hands[0][0]))
    assert events[-1] == PozzettoOpened(hand=1, seat=1, cards=POZZETTO_0.split())
    assert hand_round(table).hands[1] == tuple(POZZETTO_0.split())
    assert GAME.view(table, 1)["seats"][1]["cards"] == POZZETTO_0.split()


def test_burraco_rule_15_the_other_team_takes_the_second_pozzetto() -> None:
    table, _ = play(drawn("3H 4H 5H"), Meld(seat=1, cards=["3H", "4H", "5H"]),
                    Discard(seat=1, card="AS"))  # fmt: skip
    table = drawn("6C 7C 8C", seat=2, table=table)
    table, events = play(table, Meld(seat=2, cards=["6C", "7C", "8C"]))
    assert events[-1] == PozzettoTaken(
        hand=1, seat=2, team=0, pozzetto=1, cards=POZZETTO_1.split(), direct=True
    )
    assert hand_round(table).pozzetti == ((), ())


def test_burraco_rule_15_each_team_takes_at_most_one_pozzetto() -> None:
    table = with_pozzetto_taken(drawn("3H 4H 5H"), team=1, seat=3)
    with pytest.raises(IllegalCommand, match="keep a card to discard"):
        GAME.decide(table, Meld(seat=1, cards=["3H", "4H", "5H"]))
    assert hand_round(table).pozzetti[1]  # the other team's pozzetto stays


def test_burraco_rule_19_melding_down_to_one_card_needs_a_possible_closing() -> None:
    table = with_pozzetto_taken(drawn("3H 4H 5H 9C"), team=1)
    with pytest.raises(IllegalCommand, match=r"could not close.*needs a burraco"):
        GAME.decide(table, Meld(seat=1, cards=["3H", "4H", "5H"]))
    table = with_melds(table, 1, "4D 5D 6D 7D 8D 9D 10D")
    table, events = play(table, Meld(seat=1, cards=["3H", "4H", "5H"]))
    assert names(events) == ["Melded"]


def test_burraco_rule_19_the_last_card_may_not_be_a_wild_once_the_pozzetto_is_taken() -> None:
    table = with_melds(with_pozzetto_taken(drawn("3H 4H 5H JK"), team=1), 1,
                       "4D 5D 6D 7D 8D 9D 10D")  # fmt: skip
    with pytest.raises(IllegalCommand, match=r"could not close.*may not be a wild"):
        GAME.decide(table, Meld(seat=1, cards=["3H", "4H", "5H"]))
    with pytest.raises(IllegalCommand, match="keep a card"):
        GAME.decide(table, Meld(seat=1, cards=["3H", "4H", "5H", "JK"]))
    table, events = play(table, AddToMeld(seat=1, meld=1, cards=["JK"]))
    assert names(events) == ["MeldExtended"]  # a wild may be melded while cards remain


def test_burraco_rule_17_heads_up_the_pozzetto_opens_after_the_opponents_turn() -> None:
    deck = stacked_deck(players=2, pozzetti=(POZZETTO_0, POZZETTO_1), stock="9C 9C 8C")
    table = seated_table(deck, options={"players": 2})
    table, _ = play(table, Draw(seat=1))
    table = with_hand(table, 1, "3H 4H 5H 9C")
    table, events = play(table, Meld(seat=1, cards=["3H", "4H", "5H"]), Discard(seat=1, card="9C"))
    assert events[-1].pozzetto == 0 and events[-1].team == 1 and not events[-1].direct
    opponent_card = hand_round(table).hands[0][0]
    table, events = play(table, Draw(seat=0), Discard(seat=0, card=opponent_card))
    assert events[-1] == PozzettoOpened(hand=1, seat=1, cards=POZZETTO_0.split())
    assert GAME.to_act(table) == frozenset({1})
    assert len(hand_round(table).hands[1]) == 11


def test_burraco_rule_13_the_taken_card_left_alone_may_be_melded_out_for_the_pozzetto() -> None:
    # rule 19 binds once the pozzetto is taken; before it, a player left holding only the
    # single card taken from the pile (which rule 13 keeps from the discard) may meld it out
    deck = stacked_deck(hands={1: "KS KC KD"}, discard="7H")
    table = with_melds(with_hand(seated_table(deck), 1, "KS KC KD"), 1, "4H 5H 6H")
    table, _ = play(table, TakePile(seat=1), Meld(seat=1, cards=["KS", "KC", "KD"]))
    assert GAME.legal_commands(table, 1) == [AddToMeld(seat=1, meld=1, cards=["7H"])]
    table, events = play(table, AddToMeld(seat=1, meld=1, cards=["7H"]))
    assert names(events) == ["MeldExtended", "PozzettoTaken"]
