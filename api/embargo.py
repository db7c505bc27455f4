"""The embargo of a tournament's boards (design §10, docs/rules/tournaments.md rule T3): the
one check every read of a table asks.

A table that plays a tournament's boards (``TableFacts.withheld``, from its ``tournament``
option: :func:`domain.tournament.embargo.withheld`) shows nothing — view, timeline, replay,
ledger, hand history, fair check, live stream — to anyone but its own seats until the
tournament's process manager has recorded ``BoardReleased`` on it (once its round ended:
every table of the round finished the round's boards). Until then a spectator gets 403
``board-embargoed``. The gate is :func:`domain.tournament.embargo.shows`, the one the feed,
the export and the projector's lobby and statistics ask at the same event of the log. A table
once released stays released (nothing follows ``BoardReleased``), so an open table is
remembered by the process. Nobody but the tournament seats anyone at a tournament's table.
"""

from __future__ import annotations

import threading
from uuid import UUID

from api.problems import ApiProblem
from api.services import Services
from domain.table import TableOpened
from domain.tournament.embargo import Placement, placement, releases, shows

_OPENED: set[UUID] = set()  # withheld tables whose round has ended (it never closes again)
_LOCK = threading.Lock()
MAX_REMEMBERED = 100_000


def placement_of(services: Services, table_id: UUID) -> Placement | None:
    """The table's tournament placement (None: no tournament's table)."""
    first = services.store.events(table_id, 1, 1)
    opened = first[0].event if first else None
    return placement(opened.options) if isinstance(opened, TableOpened) else None


def released(services: Services, table_id: UUID) -> bool:
    """Whether the table's last event is ``BoardReleased`` (nothing follows it)."""
    head = services.store.get(table_id).version
    last = services.store.events(table_id, head, head)
    return bool(last) and releases(last[-1].event)


def require_open(services: Services, table_id: UUID) -> None:
    """403 ``board-embargoed`` while a spectator may not see the table (module docstring).
    Synchronous: call it from a worker thread."""
    if table_id in _OPENED:
        return
    withheld = services.queries.facts(table_id).withheld
    if not withheld:
        return
    if shows(withheld, released(services, table_id)):
        with _LOCK:
            if len(_OPENED) >= MAX_REMEMBERED:
                _OPENED.clear()
            _OPENED.add(table_id)
        return
    placed = placement_of(services, table_id)
    where = f"tournament {placed.id}, round {placed.round}" if placed else "a tournament"
    raise ApiProblem(
        403,
        "board-embargoed",
        f"this table plays boards of {where}: nothing of "
        "it is shown until every table of the round has finished (only its own seats see it)",
    )


def refuse_seats(services: Services, table_id: UUID) -> None:
    """409 ``tournament-table``: a tournament seats its tables itself."""
    if placement_of(services, table_id) is not None:
        raise ApiProblem(
            409,
            "tournament-table",
            "a tournament's table is seated by the tournament: enter the tournament instead",
            field="seat",
        )
