"""Taking a seat (design §2): the player's name, the seat chosen or the first free one, and
one seat per token.

A name follows the one rule of names (:mod:`domain.names`): 1 to 32 characters once
surrounding spaces are stripped, none invisible or ignorable (control and format characters,
bidirectional overrides, zero-width spaces, fillers), a letter or a digit among them. Two
players at a table never share a name, and names that read alike are one name: "Bob", "BOB",
"B0b" and "Вob" (Cyrillic В) cannot all sit at one table (:func:`domain.names.name_key`).
"""

from __future__ import annotations

from domain.errors import IllegalCommand, NameTaken, SeatUnavailable
from domain.names import check_name, name_key
from domain.table import WAITING, PlayerSeated, Seating, TakeSeat

__all__ = ["check_name", "is_seated", "seat_taken"]


def seat_taken(seating: Seating, holder: int | None, command: TakeSeat) -> PlayerSeated:
    """The ``PlayerSeated`` a ``take_seat`` command earns. ``holder`` is the seat the command's
    token already holds, if any: a token holds one seat. A malformed name is refused first,
    whatever the table's state."""
    name = check_name(command.name)
    if seating.status != WAITING:
        raise SeatUnavailable("the table is full")
    if not command.token_hash:
        raise IllegalCommand("a seat needs a token")
    if holder is not None:
        raise SeatUnavailable(f"this token already holds seat {holder}")
    key = name_key(name)
    alike = next((n for n in seating.names if n is not None and name_key(n) == key), None)
    if alike is not None:
        if alike == name:
            raise NameTaken(f"{name!r} is already seated at this table: choose another name")
        raise NameTaken(
            f"{name!r} reads as {alike!r}, already seated at this table: choose another name"
        )
    n = seating.seats
    seat = command.seat
    if seat is None:
        seat = seating.names.index(None)
    elif isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise SeatUnavailable(f"there is no seat {seat!r}: seats are 0 to {n - 1}")
    elif seating.names[seat] is not None:
        raise SeatUnavailable(f"seat {seat} is taken")
    return PlayerSeated(
        seat=seat,
        name=name,
        token_hash=command.token_hash,
        bot=command.bot,
        account=command.account,
    )


def is_seated(seating: Seating, seat: object) -> bool:
    """Whether ``seat`` is a seat of this table with a player in it."""
    return (
        isinstance(seat, int)
        and not isinstance(seat, bool)
        and 0 <= seat < seating.seats
        and seating.names[seat] is not None
    )
