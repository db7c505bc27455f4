"""The pozzetto (spec §5, rules 15–17) and its corollary (rule 19)."""

from __future__ import annotations

from typing import Any

import pytest

from domain.burraco import GAME
from domain.burraco.commands import AddToMeld, Discard, Draw, Meld, TakePile
from domain.burraco.events import PozzettoOpened, PozzettoTaken
from domain.burraco.state import PLAY
from domain.errors import IllegalCommand

from .helpers import (
    discards,
    draws,
    given,
    hand_round,
    melds,
    names,
    opening,
    play,
    stacked_deck,
    takes_pile,
    takes_pozzetto,
)

POZZETTO_0 = "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S"
POZZETTO_1 = "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D"
JACKS = "JS JH JC"
DIAMONDS = {3: "6D 7D 8D 9D 10D JD", 4: "6D 7D 8D 9D 10D"}  # seat 1's run, ending in its draw
BURRACO = "6H 7H 8H 9H 10H JH QH"


def drawn(
    hand: str, *, partner: tuple[str, ...] = (), players: int = 4, seat_2: str = ""
) -> list[Any]:
    """Seat 1 to act, having drawn, holding ``hand``: it drew the last card of a run of
    diamonds and melded the run and a set of jacks. With ``partner`` melds it is seat 1's
    second turn: on the first, seat 3 melded them and a run of clubs and took pozzetto 0.
    ``seat_2`` names cards dealt to seat 2."""
    *dealt_run, draw = DIAMONDS[len(hand.split())].split()
    hands = {1: " ".join([hand, JACKS, *dealt_run]), 2: seat_2}
    if partner:
        hands[3] = " ".join([*partner, "3C 4C 5C 6C"])
    deck = stacked_deck(
        players=players, hands=hands, pozzetti=(POZZETTO_0, POZZETTO_1), discard="KC",
        stock=f"KH KH 7C QC {draw}" if partner else f"{draw} QD KH KH",
    )  # fmt: skip
    events = opening(deck, players=players)
    if partner:
        events += [draws(1, "KH"), discards(1, "KH"), draws(2, "KH"), discards(2, "KH")]
        laid = [*partner, "3C 4C 5C 6C 7C"]
        events += [draws(3, "7C"), *(melds(3, i, text) for i, text in enumerate(laid, start=1))]
        events += [takes_pozzetto(3, 0, POZZETTO_0), discards(3, "AS")]
        events += [draws(0, "QC"), discards(0, "QC")]
    meld = len(partner) + 2 if partner else 1
    return [*events, draws(1, draw), melds(1, meld, JACKS),
            melds(1, meld + 1, " ".join([*dealt_run, draw]))]  # fmt: skip


def test_burraco_rule_16_melding_every_card_takes_the_pozzetto_at_once() -> None:
    table, events = play(given(drawn("3H 4H 5H")), Meld(seat=1, cards=["3H", "4H", "5H"]))
    assert names(events) == ["Melded", "PozzettoTaken"]
    taken = events[1]
    assert taken == PozzettoTaken(
        hand=1, seat=1, team=1, pozzetto=0, cards=POZZETTO_0.split(), direct=True
    )
    r = hand_round(table)
    assert r.hands[1] == tuple(POZZETTO_0.split())
    assert r.phase == PLAY  # rule 16: the turn goes on


def test_burraco_rule_16_the_player_goes_on_melding_from_the_pozzetto_then_discards() -> None:
    table, _ = play(given(drawn("3H 4H 5H")), Meld(seat=1, cards=["3H", "4H", "5H"]))
    table, events = play(
        table, Meld(seat=1, cards=["4S", "5S", "6S", "7S"]), Discard(seat=1, card="AS")
    )
    assert names(events) == ["Melded", "Discarded"]
    assert len(hand_round(table).hands[1]) == 6


def test_burraco_rule_17_melding_all_but_one_and_discarding_takes_it_sealed() -> None:
    table, events = play(
        given(drawn("3H 4H 5H 9C")),
        Meld(seat=1, cards=["3H", "4H", "5H"]),
        Discard(seat=1, card="9C"),
    )
    assert names(events) == ["Melded", "Discarded", "PozzettoTaken"]
    assert events[-1].direct is False
    r = hand_round(table)
    assert r.hands[1] == () and r.sealed[1] == tuple(POZZETTO_0.split())
    assert GAME.view(table, 1)["seats"][1]["cards"] == []  # rule 17: may not look at it yet


def test_burraco_rule_17_the_sealed_pozzetto_opens_when_the_turn_comes_round() -> None:
    table, _ = play(
        given(drawn("3H 4H 5H 9C")),
        Meld(seat=1, cards=["3H", "4H", "5H"]),
        Discard(seat=1, card="9C"),
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
    history = drawn("3H 4H 5H", seat_2="6C 7C 8C QS QH QC 7H 8H 9H 10H JH")
    _, turn = play(given(history), Meld(seat=1, cards=["3H", "4H", "5H"]),
                   Discard(seat=1, card="AS"))  # fmt: skip
    # seat 2 melds a set of queens, ending in its draw, and a run of hearts: 6C 7C 8C are left
    history += [*turn, draws(2, "QD"), melds(2, 4, "QS QH QC QD"), melds(2, 5, "7H 8H 9H 10H JH")]
    table, events = play(given(history), Meld(seat=2, cards=["6C", "7C", "8C"]))
    assert events[-1] == PozzettoTaken(
        hand=1, seat=2, team=0, pozzetto=1, cards=POZZETTO_1.split(), direct=True
    )
    assert hand_round(table).pozzetti == ((), ())


def test_burraco_rule_15_each_team_takes_at_most_one_pozzetto() -> None:
    table = given(drawn("3H 4H 5H", partner=("QD QH QS", "8H 9H 10H JH")))
    with pytest.raises(IllegalCommand, match="keep a card to discard"):
        GAME.decide(table, Meld(seat=1, cards=["3H", "4H", "5H"]))
    assert hand_round(table).pozzetti[1]  # the other team's pozzetto stays


def test_burraco_rule_19_melding_down_to_one_card_needs_a_possible_closing() -> None:
    table = given(drawn("3H 4H 5H 9C", partner=("QD QH QS", "8H 9H 10H JH")))
    with pytest.raises(IllegalCommand, match=r"could not close.*needs a burraco"):
        GAME.decide(table, Meld(seat=1, cards=["3H", "4H", "5H"]))
    table = given(drawn("3H 4H 5H 9C", partner=(BURRACO,)))
    table, events = play(table, Meld(seat=1, cards=["3H", "4H", "5H"]))
    assert names(events) == ["Melded"]


def test_burraco_rule_19_the_last_card_may_not_be_a_wild_once_the_pozzetto_is_taken() -> None:
    table = given(drawn("3H 4H 5H JK", partner=(BURRACO,)))
    with pytest.raises(IllegalCommand, match=r"could not close.*may not be a wild"):
        GAME.decide(table, Meld(seat=1, cards=["3H", "4H", "5H"]))
    with pytest.raises(IllegalCommand, match="keep a card"):
        GAME.decide(table, Meld(seat=1, cards=["3H", "4H", "5H", "JK"]))
    table, events = play(table, AddToMeld(seat=1, meld=1, cards=["JK"]))
    assert names(events) == ["MeldExtended"]  # a wild may be melded while cards remain


def test_burraco_rule_17_heads_up_the_pozzetto_opens_after_the_opponents_turn() -> None:
    table = given(drawn("3H 4H 5H 9C", players=2))
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
    deck = stacked_deck(hands={1: "KS KC KD 4H 5H 6H 8C 9C 10C JC 3S", 0: "7H"},
                        discard="3D", stock="QC 5S 5S")  # fmt: skip
    table = given([
        *opening(deck),
        draws(1, "QC"), melds(1, 1, "4H 5H 6H"), melds(1, 2, "8C 9C 10C JC QC"),
        discards(1, "3S"),
        draws(2, "5S"), discards(2, "5S"), draws(3, "5S"), discards(3, "5S"),
        takes_pile(0, "3D 3S 5S 5S"), discards(0, "7H"),
    ])  # fmt: skip
    assert hand_round(table).hands[1] == ("KS", "KC", "KD")
    table, _ = play(table, TakePile(seat=1), Meld(seat=1, cards=["KS", "KC", "KD"]))
    assert GAME.legal_commands(table, 1) == [AddToMeld(seat=1, meld=1, cards=["7H"])]
    table, events = play(table, AddToMeld(seat=1, meld=1, cards=["7H"]))
    assert names(events) == ["MeldExtended", "PozzettoTaken"]
