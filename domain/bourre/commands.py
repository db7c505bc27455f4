"""Bourré player commands (design §5), each with the acting ``seat`` the server fills in.

Wire tags are snake_case, fields camelCase (``takeTrump``). The shared table commands
(``open_table``, ``take_seat``, ``close_table``) live in :mod:`domain.table`.

Commands are not tracked by the cyclic garbage collector (``gc=False``): frozen, holding
ints, booleans and lists of codes, they can hold no reference cycle, and ``legal_commands``
lists every discard a declaring seat may name (33 commands with five cards).
"""

from __future__ import annotations

import msgspec

from domain.table import Command


class Declare(Command, frozen=True, tag="declare", gc=False):
    """Rule 11: play or pass. In ``sequential`` declaration a player who plays names the
    discards at the same time (rule 13); in ``two_round`` and ``simultaneous`` declaration
    ``discard`` stays empty and the discards come with :class:`Draw`.

    ``take_trump`` (option ``trump_card: separate_dealer_may_take``, rule 32): the dealer
    takes the turned card into hand and receives one replacement fewer.
    """

    seat: int
    play: bool
    discard: list[str] = msgspec.field(default_factory=list)
    take_trump: bool = False


class Draw(Command, frozen=True, tag="draw", gc=False):
    """Rules 13 and 31: the draw of a player who stays, when discards are named after the
    declarations (``two_round`` round 2, or after ``simultaneous`` decisions are revealed)."""

    seat: int
    discard: list[str] = msgspec.field(default_factory=list)
    take_trump: bool = False


class SecondChance(Command, frozen=True, tag="second_chance", gc=False):
    """Rule 33 (``four_card``): after the draw each player who stays may still pass;
    ``play=True`` continues and pays one more ante."""

    seat: int
    play: bool


class PlayCard(Command, frozen=True, tag="play_card", gc=False):
    """Rules 17–22: play one card to the current trick."""

    seat: int
    card: str


PlayerCommand = Declare | Draw | SecondChance | PlayCard
