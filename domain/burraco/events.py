"""Burraco events (past tense). Every event carries ``hand`` (0 for table-level facts).

Hidden facts: ``Dealt.deck``/``salt`` and each seat's dealt cards, ``CardDrawn.card``,
``PozzettoTaken.cards`` and ``PozzettoOpened.cards`` (the taker's only). Everything else is
public. ``HandScored`` repeats ``deck`` and ``salt`` so a scored hand can be verified against
``Dealt.commitment``.

Events are not tracked by the cyclic garbage collector (``gc=False``): frozen, holding ints,
strings and lists of them, they can hold no reference cycle.
"""

from __future__ import annotations

import msgspec

from domain.table import CloseAsked, Event, PlayerSeated, TableEnded, TableOpened


class Dealt(Event, frozen=True, tag="Dealt", gc=False):
    """Rules 4–6: the deck order of this hand; evolve deals it by rule 6."""

    hand: int
    dealer: int
    deck: list[str]
    salt: str
    commitment: str
    first_discard: str
    players: int = 4


class CardDrawn(Event, frozen=True, tag="CardDrawn", gc=False):
    """Rule 12a: the top card of the stock went to ``seat``."""

    hand: int
    seat: int
    card: str
    stock_left: int = 0


class PileTaken(Event, frozen=True, tag="PileTaken", gc=False):
    """Rule 12a: ``seat`` took the whole discard pile (public)."""

    hand: int
    seat: int
    cards: list[str]


class Melded(Event, frozen=True, tag="Melded", gc=False):
    """Rules 7–11: a new meld of ``team`` laid out as ``cards`` (table order)."""

    hand: int
    seat: int
    team: int
    meld: int
    kind: str
    cards: list[str]
    suit: str | None = None
    rank: str | None = None
    low: int = 0
    wild: int = -1


class MeldExtended(Event, frozen=True, tag="MeldExtended", gc=False):
    """Rules 7–10: ``added`` joined meld ``meld``; ``cards`` is its new layout."""

    hand: int
    seat: int
    team: int
    meld: int
    added: list[str]
    cards: list[str]
    low: int = 0
    wild: int = -1


class Discarded(Event, frozen=True, tag="Discarded", gc=False):
    """Rule 12c: ``seat`` discarded ``card``, ending the turn."""

    hand: int
    seat: int
    card: str


class PozzettoTaken(Event, frozen=True, tag="PozzettoTaken", gc=False):
    """Rules 15–17: ``seat`` took pozzetto ``pozzetto`` (0 or 1) for ``team``.

    ``direct``: taken at once to play on (rule 16); otherwise taken on the discard and sealed
    until the seat's next turn (rule 17), when ``PozzettoOpened`` follows.
    """

    hand: int
    seat: int
    team: int
    pozzetto: int
    cards: list[str]
    direct: bool


class PozzettoOpened(Event, frozen=True, tag="PozzettoOpened", gc=False):
    """Rule 17: the seat's turn came round; the pozzetto taken on the discard joins its hand."""

    hand: int
    seat: int
    cards: list[str]


class HandClosed(Event, frozen=True, tag="HandClosed", gc=False):
    """Rules 18, 20, 21: the hand ended — ``closed`` by ``seat``, ``stock`` exhausted or
    ``stalemate``."""

    hand: int
    reason: str
    seat: int | None = None
    team: int | None = None


class TeamScore(msgspec.Struct, frozen=True, kw_only=True, rename="camel", gc=False):
    """One team's score for one hand, by rule (22–26)."""

    melds: int  # rule 22
    in_hand: int  # rule 23 (a negative number)
    burracos: int  # rule 24 (with the FITAB option, its bonuses too)
    closing: int  # rule 25
    pozzetto: int  # rule 26 (0 or -100)
    total: int
    clean_burracos: int = 0
    dirty_burracos: int = 0


class HandScored(Event, frozen=True, tag="HandScored", gc=False):
    """Rules 22–27: each team's score for the hand and the running totals; deck and salt are
    revealed for verification."""

    hand: int
    scores: list[TeamScore]
    totals: list[int]
    deck: list[str]
    salt: str


class HandAbandoned(Event, frozen=True, tag="HandAbandoned", gc=False):
    """A seated player closed the table mid-hand: the hand is not scored; deck and salt are
    revealed so the deal can still be verified."""

    hand: int
    deck: list[str]
    salt: str


class MatchWon(Event, frozen=True, tag="MatchWon", gc=False):
    """Rule 27: ``team`` reached the target with the higher total."""

    hand: int
    team: int
    totals: list[int]


BurracoEvent = (
    TableOpened
    | PlayerSeated
    | TableEnded
    | Dealt
    | CardDrawn
    | PileTaken
    | Melded
    | MeldExtended
    | Discarded
    | PozzettoTaken
    | PozzettoOpened
    | HandClosed
    | HandScored
    | HandAbandoned
    | MatchWon
    | CloseAsked
)
