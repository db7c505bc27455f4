"""Building Burraco tables in known positions for rule tests.

``stacked_deck`` lays out a 108-card deck by the dealing contract (rule 6), so a test names
the cards each seat holds, the pozzetti, the first discard and the top of the stock; the rest
of the pack fills the gaps. ``seated_table`` opens a table with that deck and seats everyone,
which deals hand 1. ``play`` decides and applies commands like the write side does.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from msgspec.structs import replace

from domain.burraco import GAME
from domain.burraco.melds import arrange_new
from domain.burraco.state import Round, Table, TeamMeld
from domain.cards import burraco_pack, codes
from domain.table import OpenTable, TakeSeat


def stacked_deck(
    *,
    players: int = 4,
    dealer: int = 0,
    hands: Mapping[int, str] | None = None,
    pozzetti: Sequence[str] = ("", ""),
    discard: str | None = None,
    stock: str = "",
) -> list[str]:
    """A full deck whose deal (rule 6) gives these cards (space-separated codes)."""
    deck: list[str | None] = [None] * 108
    dealt = 11 * players
    for seat, text in (hands or {}).items():
        slots = [k for k in range(dealt) if (dealer + 1 + k) % players == seat]
        for k, code in zip(slots, text.split(), strict=False):
            deck[k] = code
    for index, text in enumerate(pozzetti):
        for i, code in enumerate(text.split()):
            deck[dealt + index + 2 * i] = code
    if discard is not None:
        deck[dealt + 22] = discard
    for i, code in enumerate(stock.split()):
        deck[dealt + 23 + i] = code
    left = Counter(codes(burraco_pack()))
    left.subtract(code for code in deck if code is not None)
    extra = {code: -count for code, count in left.items() if count < 0}
    assert not extra, f"more copies than the pack holds: {extra}"
    spare = list(left.elements())
    return [code if code is not None else spare.pop() for code in deck]


def seated_table(
    deck: list[str] | None = None, options: Mapping[str, Any] | None = None, seed: int = 7
) -> Table:
    """Open a table (stacked ``deck`` for hand 1 if given) and fill every seat."""
    options = dict(options or {})
    table = apply(None, GAME.decide(None, OpenTable(
        game="burraco", options=options, seed=seed, decks=[deck] if deck else []
    )))  # fmt: skip
    for seat in range(table.players):
        table = apply(table, GAME.decide(table, TakeSeat(name=f"p{seat}", token_hash=f"h{seat}")))
    return table


def apply(table: Table | None, events: Iterable[Any]) -> Table:
    for event in events:
        table = GAME.evolve(table, event)
    assert table is not None
    return table


def play(table: Table, *commands: Any) -> tuple[Table, list[Any]]:
    """Decide and apply each command in turn; returns the table and all events."""
    out: list[Any] = []
    for command in commands:
        events = GAME.decide(table, command)
        table = apply(table, events)
        out += events
    return table, out


def names(events: Iterable[Any]) -> list[str]:
    return [type(e).__name__ for e in events]


def hand_round(table: Table) -> Round:
    assert table.round is not None
    return table.round


def with_round(table: Table, **changes: Any) -> Table:
    """The table with its hand changed (to reach positions quickly in rule tests)."""
    return replace(table, round=replace(hand_round(table), **changes))


def with_hand(table: Table, seat: int, text: str) -> Table:
    r = hand_round(table)
    hands = list(r.hands)
    hands[seat] = tuple(text.split())
    return with_round(table, hands=tuple(hands))


def with_melds(table: Table, team: int, *melds: str) -> Table:
    """Lay these melds (space-separated codes each) for ``team``, ids from ``next_meld``."""
    r = hand_round(table)
    laid = list(r.melds)
    next_id = table.next_meld
    for text in melds:
        laid.append(TeamMeld(next_id, team, arrange_new(text.split())))
        next_id += 1
    return replace(table, next_meld=next_id, round=replace(r, melds=tuple(laid)))


def with_pozzetto_taken(table: Table, team: int, seat: int | None = None) -> Table:
    """Record that ``team`` took a pozzetto (the first one still there)."""
    r = hand_round(table)
    index = 0 if r.pozzetti[0] else 1
    pozzetti = list(r.pozzetti)
    pozzetti[index] = ()
    taken = list(r.pozzetto_of_team)
    taken[team] = index
    return with_round(
        table,
        pozzetti=tuple(pozzetti),
        pozzetto_of_team=tuple(taken),
        pozzetto_seats=(*r.pozzetto_seats, team if seat is None else seat),
    )
