"""Which tournament, round and board a table plays (docs/rules/tournaments.md rule T3): the
one fact every reader asks before showing a table.

A tournament's table carries its placement in its options under ``tournament`` (set only by
the tournament's process manager; ``POST /tables`` refuses the key): the event, the round,
the table's number and the round's table count, the board each hand plays, the entry at each
seat and the format. Nothing of such a table — cards, results, timeline, ledger, fair check —
is shown to anyone but its own seats until its round has ended (every table of the round
finished its boards) and the tournament's process manager has recorded ``BoardReleased`` on
the table (``domain.table``; it follows ``TableEnded``). That event is the opening, in the
tables' log, for every reader alike: the API (``api.embargo``), the feed and the export
(``infra.feed``, ``infra.exportevents``: the table's events are released at its place) and the
projector's read models (the lobby, the statistics: ``projections.runner``) ask :func:`shows`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from domain.errors import InvalidOption
from domain.table import BoardReleased

OPTION = "tournament"


class Placement(msgspec.Struct, frozen=True, rename="camel"):
    """A tournament table's place in its event (the ``tournament`` option)."""

    id: str
    round: int
    table: int
    tables: int
    boards: tuple[int, ...]
    seats: tuple[int, ...]
    format: str
    scoring: str
    byes: tuple[int, ...] = ()  # the entries sitting the round out (Swiss)


def check(raw: Any) -> dict[str, Any]:
    """The ``tournament`` option as stored (a :class:`Placement` as JSON); refused naming it."""
    try:
        placed = msgspec.convert(raw, Placement)
    except (msgspec.ValidationError, TypeError) as error:
        raise InvalidOption(OPTION, f"is not a tournament placement: {error}") from error
    built: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(placed))  # lists, as stored
    return built


def placement(options: Mapping[str, Any] | None) -> Placement | None:
    """The table's placement, ``None`` for a table outside any tournament."""
    raw = (options or {}).get(OPTION)
    if raw is None:
        return None
    return msgspec.convert(raw, Placement)


def board_of(placed: Placement, hand: int) -> int | None:
    """The board hand ``hand`` plays (the first before any hand; None: its own deals)."""
    if not placed.boards:
        return None
    return placed.boards[min(max(hand, 1), len(placed.boards)) - 1]


def view_fields(view: Mapping[str, Any]) -> dict[str, Any]:
    """``tournamentId`` and ``board`` for a tournament table's view (nothing otherwise)."""
    placed = placement(view.get("options"))
    if placed is None:
        return {}
    return {"tournamentId": placed.id, "board": board_of(placed, int(view.get("hand") or 0))}


def withheld(options: Mapping[str, Any] | None) -> bool:
    """Whether the table plays a tournament's boards: its cards and results are withheld from
    everyone but its own seats, and from the public feed, the export, the lobby and the
    statistics, until its ``BoardReleased`` (rule T3; :func:`shows`)."""
    placed = placement(options)
    return placed is not None and bool(placed.boards)


def releases(event: Any) -> bool:
    """Whether ``event`` opens its board table (``BoardReleased``: the round has ended)."""
    return event.__class__ is BoardReleased


def shows(withheld: bool, released: bool) -> bool:
    """The one gate (rule T3): a table shows to everyone but its seats — views, timelines,
    the feed, the export, the lobby, the statistics — unless it plays a tournament's boards
    (``withheld``) and its ``BoardReleased`` is not stored yet (``released``)."""
    return not withheld or released
