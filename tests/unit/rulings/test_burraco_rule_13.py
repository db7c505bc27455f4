"""Burraco rule 13 with two packs: after taking a single-card pile the player may not discard
that card, but may discard its twin already held, or the copy kept when one is melded
(docs/rules/burraco.md rule 13)."""

from __future__ import annotations

import pytest

from domain.burraco import GAME
from domain.burraco.commands import Discard, Meld, TakePile
from domain.burraco.events import Discarded
from domain.errors import IllegalCommand
from tests.unit.burraco.helpers import play, seated_table, stacked_deck


def test_rule_13_the_twin_already_held_may_be_discarded() -> None:
    table = seated_table(stacked_deck(hands={1: "7H 3C 5D 9S"}, discard="7H"))
    table, events = play(table, TakePile(seat=1), Discard(seat=1, card="7H"))
    assert events[-1] == Discarded(hand=1, seat=1, card="7H")


def test_rule_13_the_card_taken_alone_may_not_be_discarded() -> None:
    table = seated_table(stacked_deck(hands={1: "8H 3C 5D 9S"}, discard="7H"))
    table, _ = play(table, TakePile(seat=1))
    with pytest.raises(IllegalCommand, match="may not discard that same card"):
        GAME.decide(table, Discard(seat=1, card="7H"))
    table, events = play(table, Discard(seat=1, card="3C"))  # another card must go
    assert events[-1] == Discarded(hand=1, seat=1, card="3C")


def test_rule_13_the_copy_kept_when_one_is_melded_may_go() -> None:
    table = seated_table(stacked_deck(hands={1: "7H 7S 7C 4H 9C"}, discard="7H"))
    table, events = play(
        table, TakePile(seat=1), Meld(seat=1, cards=["7H", "7S", "7C"]), Discard(seat=1, card="7H")
    )
    assert events[-1] == Discarded(hand=1, seat=1, card="7H")
