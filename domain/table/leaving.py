"""Leaving a table (design §2, issue 21): a seated person's ``leave_seat``, decided once for
every game as the turn clock's commands are.

* While the table waits for players, the seat is freed: ``SeatLeft`` with no ``bot``; the
  seat's token no longer holds it and anyone may take it.
* While the table is in play, a server-side bot of kind :data:`TAKEOVER_BOT` takes the seat
  over for the rest of the table (BoardGameArena's "zombie" mode): ``SeatLeft`` names the
  person who left and the bot's kind; the token no longer holds the seat, and the seat's name
  becomes :func:`takeover_name`'s. Once every person has left, only bots remain and the
  service's bot worker (``managers/bot_worker.py``) closes the table as for seats sat out by
  the turn clock: it ends when the hand in play is over.
* An ended table refuses it (``TableClosed``), as every command; so does a seat nobody holds.

Each game says what ``SeatLeft`` does to its state (``TableRules.vacate``), the only part that
depends on how the game keeps its seats.
"""

from __future__ import annotations

from domain.errors import IllegalCommand
from domain.table import PLAYING, WAITING, Command, Event, Seating

TAKEOVER_BOT = "basic"  # the bot kind that plays a seat its person left


class LeaveSeat(Command, frozen=True, tag="leave_seat"):
    seat: int


class SeatLeft(Event, frozen=True, tag="SeatLeft"):
    """``name``: the person who left; ``bot``: the kind of the bot that plays the seat from now
    on (``None``: the seat is free again, the table still waiting for players)."""

    seat: int
    name: str
    bot: str | None = None


def takeover_name(kind: str, seat: int) -> str:
    """The name a seat's bot plays under once its person has left: it says it is a bot (as
    every server-side bot's seat name does)."""
    return f"Bot {seat} ({kind})"


def leave_seat(seating: Seating, command: LeaveSeat) -> list[Event]:
    """The events of ``leave_seat`` (module docstring)."""
    seat = command.seat
    if not (0 <= seat < seating.seats and seating.names[seat] is not None):
        raise IllegalCommand("only a seated player may leave the table")
    name = seating.names[seat] or ""
    if seating.status == WAITING:
        return [SeatLeft(seat=seat, name=name)]
    if seating.status != PLAYING:
        raise IllegalCommand("the table is not in play")
    return [SeatLeft(seat=seat, name=name, bot=TAKEOVER_BOT)]
