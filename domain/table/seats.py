"""Taking a seat (design §2): the player's name, the seat chosen or the first free one, and
one seat per token.

A name is 1 to 32 characters once surrounding spaces are stripped, with no control characters
and no bidirectional overrides (U+202A–U+202E, U+2066–U+2069), which could make one name read
as another. Two players at a table never share a name.
"""

from __future__ import annotations

import unicodedata

from domain.errors import IllegalCommand, InvalidName, NameTaken, SeatUnavailable
from domain.table import WAITING, PlayerSeated, Seating, TakeSeat

MAX_NAME = 32
BIDI_OVERRIDES = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def check_name(raw: object) -> str:
    """The name as it will be shown; raises :class:`InvalidName` (field ``name``)."""
    name = raw.strip() if isinstance(raw, str) else ""
    if not 1 <= len(name) <= MAX_NAME:
        raise InvalidName(f"a player's name must have 1 to {MAX_NAME} characters")
    for ch in name:
        if ch in BIDI_OVERRIDES:
            raise InvalidName(
                f"a player's name may not hold the bidirectional override U+{ord(ch):04X}"
            )
        if unicodedata.category(ch) == "Cc":
            raise InvalidName(f"a player's name may not hold the control character U+{ord(ch):04X}")
    return name


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
    if name in seating.names:
        raise NameTaken(f"{name!r} is already seated at this table: choose another name")
    n = seating.seats
    seat = command.seat
    if seat is None:
        seat = seating.names.index(None)
    elif isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise SeatUnavailable(f"there is no seat {seat!r}: seats are 0 to {n - 1}")
    elif seating.names[seat] is not None:
        raise SeatUnavailable(f"seat {seat} is taken")
    return PlayerSeated(seat=seat, name=name, token_hash=command.token_hash, bot=command.bot)


def is_seated(seating: Seating, seat: object) -> bool:
    """Whether ``seat`` is a seat of this table with a player in it."""
    return (
        isinstance(seat, int)
        and not isinstance(seat, bool)
        and 0 <= seat < seating.seats
        and seating.names[seat] is not None
    )
