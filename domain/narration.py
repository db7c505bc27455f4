"""Hand histories' words (design §8, "Analytics"): the pieces a game's narrator tells its
events with — "Ann antes 1 · Bob declares play · Bob discards 2, draws 2 · Ann leads 9♠ …".

A narrator (``House.narrate``, :mod:`domain.house`) turns one public event (as spectators see
it, JSON) into a sentence, or ``None`` to leave it plain ("Ann: Dealt"); the :class:`Teller`
knows the seats' names and remembers what a reader would (the trick so far). Presentation,
not rules: the rules' names for things are the narrators' words.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

Event = dict[str, Any]


def card(code: Any) -> str:
    """A card code for people: ``"9S"`` -> ``"9♠"`` (other text as it is)."""
    text = str(code)
    return text[:-1] + SUITS[text[-1]] if text[-1:] in SUITS and len(text) >= 2 else text


def cards(codes: list[Any] | None) -> str:
    return " ".join(card(code) for code in codes or [])


@dataclass
class Teller:
    """Renders one hand's events in order; remembers what a reader would (the trick so far)."""

    names: list[str | None]
    trick_open: bool = False
    said: list[str] = field(default_factory=list)

    def who(self, seat: Any) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return self.names[seat] or f"seat {seat}"
        return "someone"

    def all_of(self, seats: list[int]) -> str:
        named = [self.who(seat) for seat in seats]
        return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]


Narrator = Callable[[Teller, Event], str | None]


def plain(teller: Teller, event: Event) -> str:
    """Any game: who (if the event names a seat) and what happened."""
    if "seat" in event:
        return f"{teller.who(event['seat'])}: {event['type']}"
    return str(event["type"])
