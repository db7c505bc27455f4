"""The state of a Bourré table, as :func:`domain.bourre.evolve.evolve` builds it from events.

Immutable msgspec Structs holding tuples and frozensets, so ``evolve`` copies only what an
event changes (``msgspec.structs.replace``) and never deep-copies a table. Beside the cards
(``holdings``, in the order received, for views), a hand keeps what the rules read as bit
masks (:mod:`domain.bourre.codes`): each seat's cards, the cards played, and the trick's suit
led and heading card, so legal plays and the cinch take a few mask operations.

``Hand`` and ``Table`` are not tracked by the cyclic garbage collector (``gc=False``): a state
is a frozen tree built from events (tuples, strings, ints, cards, the options' dict) and can
hold no reference cycle, and every command makes a new ``Hand`` and ``Table``.
"""

from __future__ import annotations

from typing import Final

import msgspec

from domain.bourre.options import Options
from domain.cards import Card, Suit
from domain.table import ENDED, PLAYING, WAITING, Seating, seat_holding
from domain.table.deck import DealSource

__all__ = ["ENDED", "PLAYING", "WAITING"]  # the kernel's table status, the same for every game

# Hand phases
DECLARE: Final = "declare"  # rule 11 (and round 1 of two_round, the sealed round of simultaneous)
DRAW: Final = "draw"  # round 2 of two_round; the draw after simultaneous decisions (rule 31)
SECOND_CHANCE: Final = "second_chance"  # rule 33, four_card
PLAY: Final = "play"  # rules 17–22
SETTLING: Final = "settling"  # all tricks played, or one player left (rule 16): settlement follows
SETTLED: Final = "settled"


class HandRecord(msgspec.Struct, frozen=True):
    """One settled hand, for the ledger (design §5)."""

    hand: int
    pot: int
    winner: int | None
    bourre: tuple[int, ...]
    tied: tuple[int, ...]


class Hand(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One hand in progress (or the last one, settled)."""

    number: int
    dealer: int
    deck: tuple[str, ...]
    salt: str
    commitment: str
    trump: Suit
    trump_suit: int  # the trump's suit index (codes.SUIT_INDEX)
    trump_card: Card
    trump_card_owner: int | None  # the dealer (rule 8 / taken, rule 32) or nobody
    holdings: tuple[tuple[Card, ...], ...]  # per seat, in the order received
    held: tuple[int, ...]  # per seat, the same cards as a mask
    stock: tuple[Card, ...]  # top first (rule 10)
    discards: tuple[tuple[Card, ...], ...]  # per seat, this hand
    gathered: frozenset[Card] = frozenset()  # discards already reshuffled into the stock
    reshuffles: int = 0
    phase: str = DECLARE
    decisions: tuple[bool | None, ...]  # play / pass per seat (rule 11)
    revealed: bool = True  # False while simultaneous decisions are sealed
    served: tuple[bool, ...]  # has drawn (rule 13)
    second: tuple[bool | None, ...]  # four_card second chance (rule 33)
    turn: int | None = None  # the seat to act in turn-based phases
    playing: tuple[int, ...] = ()  # active seats, clockwise from the dealer's left (rule 17)
    leader_index: int = 0  # index into ``playing`` of the current trick's leader
    trick: tuple[tuple[int, Card], ...] = ()
    led: int = -1  # the suit led to the trick (-1: none yet)
    best: int = -1  # the bit index of the card heading the trick (rule 18)
    tricks: tuple[int, ...]  # tricks won per seat
    tricks_played: int = 0
    played: tuple[Card, ...] = ()  # every card played so far this hand, in order
    gone: int = 0  # the same cards as a mask
    last_trick: tuple[tuple[int, Card], ...] = ()
    settlement: HandRecord | None = None
    order: tuple[int, ...] = ()  # seats clockwise from the dealer's left, the dealer last

    def rotation(self) -> tuple[int, ...]:
        """Seats clockwise from the dealer's left, the dealer last (rules 4, 11)."""
        return self.order

    def active(self, seat: int) -> bool:
        """Still in the hand: declared play and did not pass at the second chance."""
        return bool(self.decisions[seat]) and self.second[seat] is not False


class Table(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A Bourré table: seats, chips, the pot, the current hand and the ledger history."""

    options: Options
    raw_options: dict[str, object]
    seed: int
    decks: tuple[tuple[str, ...], ...]
    names: tuple[str | None, ...]
    token_hashes: tuple[str | None, ...]
    nets: tuple[int, ...]
    pot: int = 0
    status: str = WAITING
    hand: Hand | None = None
    history: tuple[HandRecord, ...] = ()
    exempt: frozenset[int] = frozenset()  # seats that skip the next ante (rule 6)
    close_requested: bool = False
    end_reason: str | None = None
    secret: str = ""  # the key of the table's random stream (domain.table.deck)
    fixed_deals: bool = False
    # people who left for a bot (SeatLeft): (seat, name, the hand in play when they left)
    departures: tuple[tuple[int, str, int], ...] = ()

    @property
    def deals(self) -> DealSource:
        """Where this table's hands come from (seed, secret, stacked decks)."""
        return DealSource(self.seed, self.secret, self.decks, self.fixed_deals)

    @property
    def seats(self) -> int:
        return self.options.seats


def seating(table: Table) -> Seating:
    """The kernel's facts: seats, names, status, the hand in play."""
    return Seating(
        seats=table.seats,
        names=table.names,
        status=table.status,
        hand=table.hand.number if table.hand else 0,
    )


def seat_for_token(table: Table | None, token_hash: str) -> int | None:
    return None if table is None else seat_holding(table.token_hashes, token_hash)
