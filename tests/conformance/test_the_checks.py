"""The conformance suite's visibility checks find leaks: high card, honest and then with its
``redact`` or ``view`` made to leak (a game built from its parts), on one hand played out."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from domain.game import Game, Viewer
from tests.conformance.support import visibility_breaches
from tests.highcard import GAME, visibility
from tests.highcard.commands import PlayCard
from tests.highcard.events import Dealt
from tests.highcard.support import run, seated, stack


def events() -> list[Any]:
    state, opened = seated(stack("AS 2C 3D", "KH 4S 5S"), seats=2)
    _, played = run(state, PlayCard(seat=1, card="KH"), PlayCard(seat=0, card="AS"))
    return opened + played


def leaky(
    redact: Callable[[Any, Viewer, bool], dict[str, Any]] = visibility.redact,
    view: Callable[..., dict[str, Any]] = visibility.view,
) -> Game[Any, Any, Any]:
    class Visibility:
        pass

    parts = Visibility()
    parts.redact = redact  # type: ignore[attr-defined]
    parts.view = view  # type: ignore[attr-defined]
    return Game(
        name="leaky",
        command_type=GAME.command_type,
        event_type=GAME.event_type,
        rules=GAME.rules,
        visibility=parts,  # type: ignore[arg-type]
        table=GAME.table,
        settles_hand=GAME.settles_hand,
    )


def test_an_honest_game_breaches_nothing() -> None:
    assert visibility_breaches(GAME, events(), 2) == []


def test_a_deal_told_to_another_seat_is_found() -> None:
    def redact(event: Any, viewer: Viewer, revealed: bool) -> dict[str, Any]:
        data = visibility.redact(event, viewer, revealed)
        if isinstance(event, Dealt) and viewer == 0:
            data["hands"] = event.hands  # seat 0 is told seat 1's cards too
        return data

    found = visibility_breaches(leaky(redact=redact), events(), 2)
    assert "v4 Dealt: 4S told to 2 seats, the pack has 1" in found


def test_a_deal_shown_to_everyone_is_found() -> None:
    def redact(event: Any, viewer: Viewer, revealed: bool) -> dict[str, Any]:
        shown: dict[str, Any] = msgspec.to_builtins(event)
        return shown

    found = visibility_breaches(leaky(redact=redact), events(), 2)
    assert "hand 1: seat 0 was dealt no card of its own" in found


def test_a_view_showing_what_no_event_told_is_found() -> None:
    def view(state: Any, viewer: Viewer = None, revealed: bool = False) -> dict[str, Any]:
        return visibility.view(state, viewer, revealed=viewer == 1)  # seat 1 sees the deck

    found = visibility_breaches(leaky(view=view), events(), 2)
    assert any(line.startswith("v4: seat 1's view shows") for line in found)
