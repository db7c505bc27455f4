"""Burraco rule 28: the match ends by agreement — when every seated player has asked during
the same hand, the last one to ask ends it; the unfinished hand is not scored
(docs/rules/burraco.md rule 28)."""

from __future__ import annotations

from domain.burraco.events import HandAbandoned, HandScored
from domain.table import CloseAsked, CloseTable, TableEnded
from tests.unit.burraco.helpers import names, play, seated_table


def test_rule_28_the_last_of_the_four_to_ask_ends_the_match() -> None:
    table = seated_table()
    table, events = play(table, CloseTable(seat=1), CloseTable(seat=3), CloseTable(seat=0))
    assert events == [CloseAsked(seat=s, hand=1) for s in (1, 3, 0)]
    assert table.status == "playing"  # play goes on
    table, events = play(table, CloseTable(seat=2))
    assert names(events) == ["HandAbandoned", "TableEnded"]
    abandoned: HandAbandoned = events[0]
    assert abandoned.hand == 1 and len(abandoned.deck) == 108  # the deal can be verified
    assert events[1] == TableEnded(reason="closed")
    assert not any(isinstance(e, HandScored) for e in events)  # the hand is not scored
    assert table.status == "ended" and table.ended_reason == "closed"
