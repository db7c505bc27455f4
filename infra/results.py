"""What the write side returns (the interface the API and projections use): a command's
result, a stored event, a loaded table, a notification of the log.

Re-exported by :mod:`infra.store`; what it raises is :mod:`infra.errors`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple
from uuid import UUID

from domain.game import Game


@dataclass(frozen=True)
class RecordedEvent:
    version: int  # 1-based version of the table after this event
    at: datetime  # when it was stored (UTC, tz-aware)
    event: Any  # the domain event


@dataclass(frozen=True)
class CommandResult:
    table_id: UUID
    version: int  # table version after the command
    position: int  # notification-log position of the last event written (read-your-writes)
    events: list[RecordedEvent]  # what this command wrote (on an idempotent retry: the first)


@dataclass(frozen=True)
class LoadedTable:
    table_id: UUID
    game: Game
    state: Any
    version: int


class Notification(NamedTuple):
    """One event of the notification log. A named tuple: readers of the log make one per
    event (:mod:`infra.logread`), and it is cheaper to make than a frozen dataclass."""

    position: int  # notification id in the application's log
    table_id: UUID
    version: int
    at: datetime
    event: Any
