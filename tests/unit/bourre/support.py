"""Test support: stacked decks by the dealing contract (rule 10) and tables ready to play."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.bourre.decide import decide_and_evolve
from domain.bourre.state import Table
from domain.cards import codes, parse, standard_pack
from domain.table import Command, Event, OpenTable, TakeSeat


def stack(
    hands: Sequence[str],
    *,
    dealer: int = 0,
    turned: str | None = None,
    stock: str = "",
) -> list[str]:
    """A 52-card deck that deals ``hands[seat]`` to each seat by rule 10 (the dealer's last
    card is its face-up card), then the separately ``turned`` card if given, then ``stock``,
    then the rest of the pack in canonical order."""
    n = len(hands)
    per_seat = [parse(h) for h in hands]
    size = len(per_seat[0])
    deck = []
    for k in range(size * n):
        seat = (dealer + 1 + k) % n
        deck.append(per_seat[seat][k // n].code)
    if turned:
        deck.append(turned)
    deck += codes(parse(stock))
    used = set(deck)
    assert len(used) == len(deck), "a card is stacked twice"
    deck += [c for c in codes(standard_pack()) if c not in used]
    return deck


def open_table(options: dict[str, Any], decks: Sequence[Sequence[str]] = (), seed: int = 7):
    """An open table with every seat filled: returns (state, all events so far)."""
    state, events = decide_and_evolve(
        None, OpenTable(game="bourre", options=options, seed=seed, decks=[list(d) for d in decks])
    )
    for seat in range(options["seats"]):
        state, more = decide_and_evolve(state, TakeSeat(name=f"P{seat}", token_hash=f"tok{seat}"))
        events += more
    return state, events


def run(state: Table, *commands: Command) -> tuple[Table, list[Event]]:
    """Apply commands in order; returns the final state and every event they produced."""
    events: list[Event] = []
    for command in commands:
        state, more = decide_and_evolve(state, command)
        events += more
    return state, events


def of_type(events: Sequence[Event], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]
