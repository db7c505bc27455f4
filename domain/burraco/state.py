"""The state of a Burraco table, as :func:`domain.burraco.evolve.evolve` builds it from events.

State is immutable and shares structure: an event replaces the few tuples it changes (one
hand, the pile, one meld) and keeps the rest, so ``evolve`` is cheap and never deep-copies.
``Table`` and ``Round`` are frozen msgspec Structs because ``msgspec.structs.replace`` copies
a 20-field record several times faster than ``dataclasses.replace``. Neither is tracked by
the cyclic garbage collector (``gc=False``): frozen trees of tuples, strings and ints, they
hold no reference cycle, and every command makes a new pair.
The stock is not copied at all: it is the tail of the hand's deck from ``stock_next``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

import msgspec

from domain.burraco.events import HandScored
from domain.burraco.melds import Layout
from domain.burraco.options import Options
from domain.table import ENDED, PLAYING, WAITING, Seating, seat_holding
from domain.table.deck import DealSource

STOCK_END: Final = 2  # rule 20: the hand ends when only two cards remain in the stock

__all__ = ["ENDED", "PLAYING", "WAITING"]  # the kernel's table status, the same for every game
# phases of a hand
DRAW: Final = "draw"
PLAY: Final = "play"
OVER: Final = "over"


def team_of(seat: int) -> int:
    """Spec: seats 0 and 2 are team A (0), 1 and 3 team B (1); heads-up each seat is a team."""
    return seat % 2


def without(hand: tuple[str, ...], removed: Iterable[str]) -> tuple[str, ...]:
    """``hand`` less one copy of each removed card."""
    if isinstance(removed, (list, tuple)) and len(removed) == 1:  # a discard, an addition
        at = hand.index(removed[0])
        return hand[:at] + hand[at + 1 :]
    remaining = list(hand)
    for code in removed:
        remaining.remove(code)
    return tuple(remaining)


@dataclass(frozen=True, slots=True)
class Seat:
    name: str
    token_hash: str


@dataclass(frozen=True, slots=True)
class TeamMeld:
    """A meld on the table: it belongs to a team (rule 7) and is laid out by rules 8–10."""

    id: int
    team: int
    layout: Layout


class Round(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One hand in play (rules 4–21)."""

    number: int
    dealer: int
    deck: tuple[str, ...]
    salt: str
    commitment: str
    hands: tuple[tuple[str, ...], ...]
    sealed: tuple[tuple[str, ...], ...]  # rule 17: taken on the discard, not yet opened
    pozzetti: tuple[tuple[str, ...], ...]  # the two pozzetti; () once taken
    pozzetto_of_team: tuple[int | None, ...]  # which pozzetto each team took (rule 15)
    stock_next: int  # index in ``deck`` of the stock's top card
    pile: tuple[str, ...]
    melds: tuple[TeamMeld, ...]
    turn: int
    phase: str = DRAW
    took_pile: tuple[str, ...] = ()  # this turn's pile take (rules 13 and option take_pile)
    melded_from_pile: bool = False
    last_turn: bool = False  # rule 20: the stock is down to two cards
    single_streak: int = 0  # rule 21: turns in a row that took a single-card pile
    closed_by: int | None = None
    end_reason: str | None = None
    pozzetto_seats: tuple[int, ...] = ()  # who took a pozzetto, in order

    @property
    def stock(self) -> tuple[str, ...]:
        return self.deck[self.stock_next :]

    @property
    def stock_count(self) -> int:
        return len(self.deck) - self.stock_next

    def team_melds(self, team: int) -> tuple[TeamMeld, ...]:
        return tuple(m for m in self.melds if m.team == team)

    def meld(self, meld_id: int) -> TeamMeld | None:
        melds = self.melds
        if melds:  # melds are laid with ids counting up (Table.next_meld): look there first
            guess = meld_id - melds[0].id
            if 0 <= guess < len(melds) and melds[guess].id == meld_id:
                return melds[guess]
        for m in melds:
            if m.id == meld_id:
                return m
        return None


class Table(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A Burraco table: a match of hands to the target (rule 27)."""

    options: Options
    raw_options: dict[str, Any]
    seed: int
    decks: tuple[tuple[str, ...], ...]
    seats: tuple[Seat | None, ...]
    status: str = WAITING
    round: Round | None = None
    results: tuple[HandScored, ...] = ()
    totals: tuple[int, ...] = (0, 0)
    winner: int | None = None
    next_meld: int = 1
    ended_reason: str | None = None
    secret: str = ""  # the key of the table's random stream (domain.table.deck)
    fixed_deals: bool = False
    bots: tuple[int, ...] = ()  # seats a server-side bot holds (they agree to close at once)
    sat_out: tuple[int, ...] = ()  # seats sat out by the turn clock (they do not block closing)
    close_asked: tuple[int, ...] = ()  # seats that asked to end the match this hand
    # people who left for a bot (SeatLeft): (seat, name, the hand in play when they left)
    departures: tuple[tuple[int, str, int], ...] = ()

    @property
    def deals(self) -> DealSource:
        """Where this table's hands come from (seed, secret, stacked decks)."""
        return DealSource(self.seed, self.secret, self.decks, self.fixed_deals)

    @property
    def players(self) -> int:
        return self.options.players


def seating(table: Table) -> Seating:
    """The kernel's facts: seats, names, status, the hand in play."""
    return Seating(
        seats=table.players,
        names=tuple([s.name if s else None for s in table.seats]),
        status=table.status,
        hand=table.round.number if table.round else 0,
    )


def seat_for_token(table: Table | None, token_hash: str) -> int | None:
    if table is None:
        return None
    return seat_holding((s.token_hash if s is not None else None for s in table.seats), token_hash)
