"""Burraco ends by agreement (docs/rules/burraco.md rule 28): in play, ``close_table``
asks to end the match; it ends once every seated person has asked this hand. Bots agree at
once, seats sat out by the turn clock do not block, and the next deal clears the requests."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.burraco import GAME
from domain.burraco.deal import deal_hand
from domain.errors import IllegalCommand
from domain.table import CloseAsked, CloseTable, PlayerSeated
from domain.table.clock import SatIn, TurnTimedOut

from .helpers import apply, given, names, opening, play, seated_table


def test_the_match_ends_when_every_seated_person_has_asked() -> None:
    table, events = play(seated_table(), CloseTable(seat=2), CloseTable(seat=0))
    assert events == [CloseAsked(seat=2, hand=1), CloseAsked(seat=0, hand=1)]
    assert table.status == "playing" and GAME.to_act(table) == frozenset({1})
    table, events = play(table, CloseTable(seat=1), CloseTable(seat=3))
    assert names(events) == ["CloseAsked", "HandAbandoned", "TableEnded"]
    assert table.status == "ended" and table.ended_reason == "closed"


def test_a_seat_asks_once_a_hand() -> None:
    table, _ = play(seated_table(), CloseTable(seat=1))
    with pytest.raises(IllegalCommand, match="already asked"):
        GAME.decide(table, CloseTable(seat=1))


def test_bots_agree_at_once() -> None:
    events = [
        replace(e, bot="basic") if isinstance(e, PlayerSeated) and e.seat % 2 else e
        for e in opening()
    ]
    table, asked = play(given(events), CloseTable(seat=0))
    assert names(asked) == ["CloseAsked"]
    table, ended = play(table, CloseTable(seat=2))
    assert names(ended) == ["HandAbandoned", "TableEnded"]


def test_a_seat_sat_out_does_not_block_until_it_sits_in() -> None:
    sat_out = apply(seated_table(), [TurnTimedOut(seat=3, timeouts=3, sat_out=True)])
    table, _ = play(sat_out, CloseTable(seat=0), CloseTable(seat=1))
    back = apply(table, [SatIn(seat=3)])
    assert names(GAME.decide(back, CloseTable(seat=2))) == ["CloseAsked"]
    assert names(GAME.decide(table, CloseTable(seat=2))) == ["HandAbandoned", "TableEnded"]


def test_the_next_deal_clears_the_requests() -> None:
    table, _ = play(seated_table(), CloseTable(seat=0), CloseTable(seat=1), CloseTable(seat=2))
    next_hand = apply(table, [deal_hand(table, 2)])
    assert next_hand.close_asked == ()
    assert names(GAME.decide(next_hand, CloseTable(seat=3))) == ["CloseAsked"]
