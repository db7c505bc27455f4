"""Bourré rule 35: a seated player closes the table; during a hand the request is recorded,
the hand is played out and settled, and the table ends instead of anteing and dealing again
(docs/rules/bourre.md rule 35)."""

from __future__ import annotations

import pytest

from domain.bourre.commands import Declare, PlayCard
from domain.bourre.decide import decide
from domain.bourre.events import Anted, CloseRequested, Dealt, HandSettled
from domain.errors import IllegalCommand
from domain.table import CloseTable, TableEnded
from tests.unit.bourre.support import of_type, open_table, run

from .test_bourre_rule_34 import DEAL, TRICKS


def test_rule_35_a_close_during_a_hand_ends_the_table_once_the_hand_is_settled() -> None:
    state, _ = open_table({"seats": 3}, decks=[DEAL])
    state, _ = run(state, *[Declare(seat=s, play=True) for s in (1, 2, 0)])
    state, asked = run(state, CloseTable(seat=2))
    assert asked == [CloseRequested(hand=1, seat=2)]
    with pytest.raises(IllegalCommand, match="already requested"):
        decide(state, CloseTable(seat=0))
    state, events = run(state, *[PlayCard(seat=s, card=c) for s, c in TRICKS])
    assert len(of_type(events, HandSettled)) == 1
    assert events[-1] == TableEnded(reason="closed")
    assert not of_type(events, Anted) and not of_type(events, Dealt)  # no hand 2
    assert state.status == "ended"
    assert sum(state.nets) + state.pot == 0  # rule 28
