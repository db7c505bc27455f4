"""Forks (design §9.3): a sandbox table that starts at another table's position, as one viewer
saw it.

A fork is opened like any table (``TableOpened``), with the options of the table it forks plus
``fork_of`` (that table's id) and ``fork_at`` (the version it starts from), recorded only when
given (:func:`check_fork_options`; ``POST /tables`` refuses them: only the fork service sets
them). Its first command is :class:`ForkTable`, decided here for every game, whose events are

* :class:`TableForked` — the starting position: the whole game state as JSON (``state``),
  already *determinized* by the game (``house.bots.search.fork``: every card the forking viewer
  could not see dealt anew), never shown to anyone (:func:`public`: a viewer sees ``forkOf``,
  ``at`` and ``seat`` only); the state replaces the table's state wholesale;
* one ``PlayerSeated`` per seat: the person at ``seat`` (the token the fork service hands
  back), a server-side bot everywhere else.

A forked table is marked in its views (``forkOf``, ``at``: :class:`domain.game.Game` adds them
from the options), never rated and never counted in statistics, leaderboards or the feed's
player figures (:func:`is_fork` of its options).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from domain.errors import IllegalCommand, InvalidOption
from domain.table import WAITING, Command, Event, PlayerSeated, Seating

FORK_OPTIONS = ("fork_of", "fork_at")
MAX_FORK_STATE = 1_000_000  # characters of JSON: a table's state is a few kilobytes


class ForkSeat(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """Who sits where in a fork: a name and its token's hash, and the bot kind if a bot."""

    seat: int
    name: str
    token_hash: str
    bot: str | None = None


class ForkTable(Command, frozen=True, tag="fork_table"):
    """Start a fork opened with ``fork_of``/``fork_at`` at ``state`` (JSON of the game's
    state), the person at ``seat`` and ``seats`` taken as given."""

    fork_of: str
    at: int
    seat: int
    state: str
    seats: list[ForkSeat]


class TableForked(Event, frozen=True, tag="TableForked"):
    """The fork's starting position (see the module docstring): ``state`` is hidden."""

    fork_of: str
    at: int
    seat: int
    state: str


def check_fork_options(raw: Mapping[str, Any]) -> dict[str, Any]:
    """The fork's marks given (checked); absent ones are left out."""
    out: dict[str, Any] = {}
    if "fork_of" in raw:
        value = raw["fork_of"]
        if not isinstance(value, str) or not 0 < len(value) <= 64:
            raise InvalidOption("fork_of", "must be the id of the table forked")
        out["fork_of"] = value
    if "fork_at" in raw:
        value = raw["fork_at"]
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise InvalidOption("fork_at", "must be the version the fork starts from")
        out["fork_at"] = value
    return out


def is_fork(options: Mapping[str, Any] | None) -> bool:
    """Whether a table's recorded options mark it as a fork."""
    return bool(options) and "fork_of" in options  # type: ignore[operator]


def fork_marks(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """``{"forkOf", "at"}`` for a fork's view (empty for any other table)."""
    if not options or "fork_of" not in options:
        return {}
    return {"forkOf": options["fork_of"], "at": options.get("fork_at")}


def decide_fork(seating: Seating, options: Mapping[str, Any], command: ForkTable) -> list[Event]:
    """Rule: only a table opened as this fork (its options name ``fork_of`` and ``fork_at``),
    still waiting with every seat free, starts at a forked position; every seat is filled."""
    if options.get("fork_of") != command.fork_of or options.get("fork_at") != command.at:
        raise IllegalCommand("this table was not opened as that fork")
    if seating.status != WAITING or any(name is not None for name in seating.names):
        raise IllegalCommand("a fork starts once, before anyone sits")
    if len(command.state) > MAX_FORK_STATE:
        raise IllegalCommand("the forked state is too large")
    taken = sorted(entry.seat for entry in command.seats)
    if taken != list(range(seating.seats)) or not 0 <= command.seat < seating.seats:
        raise IllegalCommand("a fork seats every seat once")
    events: list[Event] = [
        TableForked(fork_of=command.fork_of, at=command.at, seat=command.seat, state=command.state)
    ]
    events += [
        PlayerSeated(seat=entry.seat, name=entry.name, token_hash=entry.token_hash, bot=entry.bot)
        for entry in sorted(command.seats, key=lambda entry: entry.seat)
    ]
    return events


def public(event: TableForked) -> dict[str, Any]:
    """What anyone sees of a fork's start: never its state."""
    return {"type": "TableForked", "forkOf": event.fork_of, "at": event.at, "seat": event.seat}


def forked(state: Any) -> bool:
    """Whether a game's state is a fork's (its recorded options, ``raw_options``, are marked;
    a game that can be forked keeps its options there)."""
    return is_fork(getattr(state, "raw_options", None))
