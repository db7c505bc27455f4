"""High card's events. ``Dealt.deck``/``salt`` and each seat's cards are hidden; ``HandWon``
repeats ``deck`` and ``salt`` so the settled hand's deal can be verified."""

from __future__ import annotations

from domain.table import Event, PlayerSeated, TableEnded, TableOpened


class Dealt(Event, frozen=True, tag="Dealt"):
    """Rule 1: the kernel's deck of this hand; seat ``(dealer + 1 + k) mod n`` got card ``k``."""

    hand: int
    dealer: int
    deck: list[str]
    salt: str
    commitment: str
    hands: list[list[str]]


class CardPlayed(Event, frozen=True, tag="CardPlayed"):
    """Rule 2: ``seat`` played ``card``."""

    hand: int
    seat: int
    card: str


class HandWon(Event, frozen=True, tag="HandWon"):
    """Rule 3: every seat has played; ``seat`` played the highest card."""

    hand: int
    seat: int
    card: str
    deck: list[str]
    salt: str


HighCardEvent = TableOpened | PlayerSeated | TableEnded | Dealt | CardPlayed | HandWon
