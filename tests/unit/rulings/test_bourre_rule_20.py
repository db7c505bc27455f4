"""Bourré rule 20 (the cinch's sure tricks) and the turned-up trump card: a turned card that
belongs to nobody is out of play; the dealer's face-up card, or a turned card the dealer took,
is a live card (docs/rules/bourre.md rule 20, with rules 21–22 and 32)."""

from __future__ import annotations

from typing import Any

import pytest

from domain.bourre import GAME
from domain.bourre.commands import Declare, Draw, PlayCard
from domain.bourre.state import Table
from domain.errors import IllegalCommand
from tests.unit.bourre.support import open_table, run, stack

LEADER = "KH QH JH 5C 6D"  # seat 1 leads the first trick (rule 17)
OTHERS = ["2C 3C 4C 7C 8C", "2D 3D 4D 7D 8D"]  # seats 0 (the dealer) and 2


def separate_table(**options: Any) -> Table:
    """Three seats, AH turned up for trump and belonging to nobody; nobody discards."""
    deck = stack([OTHERS[0], LEADER, OTHERS[1]], turned="AH")
    state, _ = open_table({"seats": 3, "trump_card": "separate", **options}, decks=[deck])
    state, _ = run(state, *[Declare(seat=s, play=True) for s in (1, 2, 0)])
    return state


def first_leads(state: Table) -> set[str]:
    return {command.card for command in GAME.legal_commands(state, 1)}


def test_rule_20_a_turned_trump_card_of_nobodys_is_out_of_play() -> None:
    state = separate_table()
    # AH is out of play: K, Q and J of hearts are three sure tricks, a cinch at the first lead
    assert first_leads(state) == {"KH", "QH", "JH"}  # all equivalent (rule 22)
    with pytest.raises(IllegalCommand, match="highest trump"):
        GAME.decide(state, PlayCard(seat=1, card="5C"))


def test_rule_20_under_strict_only_the_king_may_be_led() -> None:
    assert first_leads(separate_table(cinch="strict")) == {"KH"}


def test_rule_20_the_dealers_face_up_ace_is_a_live_card() -> None:
    deck = stack(["2C 3C 4C 7C AH", LEADER, OTHERS[1]])  # AH: the dealer's face-up card
    state, _ = open_table({"seats": 3}, decks=[deck])
    state, _ = run(state, *[Declare(seat=s, play=True) for s in (1, 2, 0)])
    # the ace is still to come: two sure tricks, no cinch
    assert first_leads(state) == set(LEADER.split())
    run(state, PlayCard(seat=1, card="5C"))


def test_rule_20_a_turned_card_the_dealer_took_is_a_live_card() -> None:
    deck = stack([OTHERS[0], LEADER, OTHERS[1]], turned="AH")
    state, _ = open_table(
        {"seats": 3, "trump_card": "separate_dealer_may_take", "declaration": "two_round"},
        decks=[deck],
    )
    state, _ = run(
        state,
        *[Declare(seat=s, play=True) for s in (1, 2, 0)],
        Draw(seat=1),
        Draw(seat=2),
        Draw(seat=0, discard=["8C"], take_trump=True),
    )
    assert first_leads(state) == set(LEADER.split())


def test_rule_20_the_turned_card_left_by_the_dealer_stays_out_of_play() -> None:
    deck = stack([OTHERS[0], LEADER, OTHERS[1]], turned="AH")
    state, _ = open_table(
        {"seats": 3, "trump_card": "separate_dealer_may_take", "declaration": "two_round"},
        decks=[deck],
    )
    state, _ = run(
        state, *[Declare(seat=s, play=True) for s in (1, 2, 0)], *[Draw(seat=s) for s in (1, 2, 0)]
    )
    assert first_leads(state) == {"KH", "QH", "JH"}
