"""Burraco player commands (design §5 wire tags). ``seat`` is filled in by the server from the
caller's token. The pozzetto and closing follow from the rules; they need no command.

Commands are not tracked by the cyclic garbage collector (``gc=False``): frozen, holding ints
and lists of codes, they can hold no reference cycle, and every listing makes a dozen.
"""

from __future__ import annotations

from domain.table import CloseTable, Command, OpenTable, TakeSeat


class Draw(Command, frozen=True, tag="draw", gc=False):
    """Rule 12a: draw the top card of the stock."""

    seat: int


class TakePile(Command, frozen=True, tag="take_pile", gc=False):
    """Rule 12a: take the whole discard pile into hand."""

    seat: int


class Meld(Command, frozen=True, tag="meld", gc=False):
    """Rule 12b: lay a new meld. ``wild_rank`` says what an end wild stands for (a rank
    symbol); ``ace`` (``"low"``/``"high"``) where the natural ace goes when either end fits."""

    seat: int
    cards: list[str]
    wild_rank: str | None = None
    ace: str | None = None


class AddToMeld(Command, frozen=True, tag="add_to_meld", gc=False):
    """Rule 12b: add cards to one of the team's melds (by its id)."""

    seat: int
    meld: int
    cards: list[str]
    wild_rank: str | None = None
    ace: str | None = None


class Discard(Command, frozen=True, tag="discard", gc=False):
    """Rule 12c: discard one card, ending the turn."""

    seat: int
    card: str


PlayerCommand = Draw | TakePile | Meld | AddToMeld | Discard
BurracoCommand = OpenTable | TakeSeat | CloseTable | Draw | TakePile | Meld | AddToMeld | Discard
