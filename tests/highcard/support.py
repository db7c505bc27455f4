"""Helpers for the high card tests: stacked decks from each seat's cards, and commands run
through the game (no tests here)."""

from __future__ import annotations

from typing import Any

from domain.cards import parse
from domain.table import OpenTable, TakeSeat
from tests.highcard import GAME
from tests.highcard.rules import PACK


def stack(*seats: str, dealer: int = 0) -> list[str]:
    """A deck dealing ``seats[s]`` (e.g. ``"AS 2C"``) to seat ``s`` (rule 1: one card at a time
    from the dealer's left), then the rest of the pack."""
    n = len(seats)
    hands = [[c.code for c in parse(cards)] for cards in seats]
    order = [(dealer + 1 + k) % n for k in range(n)]
    top = [hands[seat][i] for i in range(len(hands[0])) for seat in order]
    return top + [code for code in PACK if code not in top]


def run(state: Any, *commands: Any) -> tuple[Any, list[Any]]:
    """The state after ``commands`` and every event they produced."""
    events: list[Any] = []
    for command in commands:
        produced, state = GAME.decision(state, command)
        events += produced
    return state, events


def seated(*decks: list[str], seats: int = 2, **options: Any) -> tuple[Any, list[Any]]:
    """A table of ``seats`` players (``p0``, ``p1``, …) with the given stacked decks."""
    opened = OpenTable(
        game="highcard", options={"seats": seats, **options}, seed=7, decks=list(decks)
    )
    sits = [TakeSeat(name=f"p{s}", token_hash=f"t{s}") for s in range(seats)]
    return run(None, opened, *sits)
