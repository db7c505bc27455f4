"""The embargo of a tournament's boards (design §10, docs/rules/tournaments.md rule T3): the
one check every read of a table asks.

A table that plays a tournament's boards (``TableFacts.withheld``, from its ``tournament``
option: :func:`domain.tournament.embargo.withheld`) shows nothing — view, timeline, replay,
ledger, hand history, fair check, live stream — to anyone but its own seats until its round
has ended in the tournament's stream (``RoundEnded``: every table of the round finished the
round's boards). Until then a spectator gets 403 ``board-embargoed``. A round once ended stays
ended, so an open table is remembered by the process. The public feed, the export, the lobby
and the statistics never hold such a table at all (``TableFacts.withheld`` in the feed and the
export, ``ReadModel.sees_withheld`` in the projector). Nobody but the tournament seats anyone
at a tournament's table.
"""

from __future__ import annotations

import threading
from uuid import UUID

from api.problems import ApiProblem
from api.services import Services
from domain.table import TableOpened
from domain.tournament.embargo import Placement, placement

_OPENED: set[UUID] = set()  # withheld tables whose round has ended (it never closes again)
_LOCK = threading.Lock()
MAX_REMEMBERED = 100_000


def placement_of(services: Services, table_id: UUID) -> Placement | None:
    """The table's tournament placement (None: no tournament's table)."""
    first = services.store.events(table_id, 1, 1)
    opened = first[0].event if first else None
    return placement(opened.options) if isinstance(opened, TableOpened) else None


def round_ended(services: Services, placed: Placement) -> bool:
    """Whether the placement's round has ended in its tournament's stream."""
    try:
        loaded = services.tournaments.load(UUID(placed.id))
    except Exception:  # no such tournament (a table of another deployment's): keep it closed
        return False
    return placed.round in loaded.state.ended_rounds


def require_open(services: Services, table_id: UUID) -> None:
    """403 ``board-embargoed`` while a spectator may not see the table (module docstring).
    Synchronous: call it from a worker thread."""
    if table_id in _OPENED or not services.queries.facts(table_id).withheld:
        return
    placed = placement_of(services, table_id)
    if placed is None or round_ended(services, placed):
        with _LOCK:
            if len(_OPENED) >= MAX_REMEMBERED:
                _OPENED.clear()
            _OPENED.add(table_id)
        return
    raise ApiProblem(
        403,
        "board-embargoed",
        f"this table plays boards of tournament {placed.id}, round {placed.round}: nothing of "
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
