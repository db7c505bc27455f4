"""One table as the projector holds it in memory: live state, seats, and the spectators' lag.

The projector evolves each table's state from the notification log with the game's own
``evolve`` (design §2), so read models are computed by the same pure functions as the rules.
A table the projector has not seen since it started (restart, resynchronisation, eviction) is
loaded from the event store at the version the log has reached — never from Redis.

``spectator_delay`` (design §5): the public view shows the table ``delay`` events behind live,
so the projection keeps the states of the last ``delay + 1`` versions. The rule holds after
the table has ended too, as in the API's timelines and replays: spectators never see the last
``delay`` events.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol
from uuid import UUID

from domain.game import Game
from domain.games import game_named
from domain.table import BoardReleased, PlayerSeated, TableEnded, TableOpened
from domain.tournament.embargo import withheld as plays_boards


class StoredEvent(Protocol):
    @property
    def version(self) -> int: ...
    @property
    def event(self) -> Any: ...


class LoadedState(Protocol):
    @property
    def game(self) -> Game: ...
    @property
    def state(self) -> Any: ...
    @property
    def version(self) -> int: ...


class NotificationLike(Protocol):
    @property
    def position(self) -> int: ...
    @property
    def table_id(self) -> UUID: ...
    @property
    def version(self) -> int: ...
    @property
    def event(self) -> Any: ...


class EventSource(Protocol):
    """What the projector needs from ``infra.store.TableStore``."""

    def notifications(self, start: int, limit: int) -> Sequence[NotificationLike]: ...

    def get(self, table_id: UUID, version: int | None = None) -> LoadedState: ...

    def events(
        self, table_id: UUID, from_version: int = 1, to_version: int | None = None
    ) -> Sequence[StoredEvent]: ...

    def max_position(self) -> int: ...


class ReleaseSource(EventSource, Protocol):
    """The projector's store, which also reads one table's notifications (a board table's
    log at its ``BoardReleased``: ``projections.runner.withheld_out``)."""

    def table_notifications(
        self, table_id: UUID, first: int, last: int
    ) -> Sequence[NotificationLike]: ...


class ProjectionError(Exception):
    """The event store holds something the read side cannot project (names the table)."""


# Seats are taken before the first deal; reading this many events from the top of a stream
# finds them all (2–8 seats) in one query when a table is loaded.
_HEAD_CHUNK = 12


@dataclass
class TableProjection:
    table_id: UUID
    game: Game
    state: Any
    version: int
    delay: int  # the table's ``spectator_delay`` option
    seats: set[int] = field(default_factory=set)
    # States of the last ``delay + 1`` versions, oldest first (only kept when delay > 0).
    recent: deque[Any] = field(default_factory=deque)
    ended: bool = False
    last_at: datetime | None = None  # when the last event was stored (turn deadlines)
    # when the last hand settled, as this projection saw it (the result pause of turn deadlines)
    settled_at: datetime | None = None
    opened_at: float = 0.0  # when ``TableOpened`` was stored (POSIX seconds; the lobby's order)
    # a tournament's board table (domain.tournament.embargo.withheld): only the read models
    # that are gated per table (views, ledger) and the tournaments' standings see it
    withheld: bool = False

    @classmethod
    def opened(cls, table_id: UUID, event: TableOpened, at: Any = None) -> TableProjection:
        """A table starting at its first event (stored at ``at``, a datetime)."""
        game = game_named(event.game)
        table = cls(
            table_id=table_id,
            game=game,
            state=game.evolve(None, event),
            version=1,
            delay=_delay_of(event),
            opened_at=_seconds(at),
            withheld=plays_boards(event.options),
        )
        table.recent = deque([table.state], maxlen=table.delay + 1) if table.delay else deque()
        return table

    @classmethod
    def load(cls, source: EventSource, table_id: UUID, version: int) -> TableProjection:
        """The table as of ``version``, from the event store (a table not in memory)."""
        opened, seats, opened_at = _head_of(source, table_id, version)
        delay = _delay_of(opened)
        oldest = max(1, version - delay)  # the oldest state spectators may still be shown
        loaded = source.get(table_id, oldest)
        if loaded.version != oldest:
            raise ProjectionError(
                f"table {table_id}: the store returned version {loaded.version}, expected {oldest}"
            )
        table = cls(
            table_id=table_id,
            game=loaded.game,
            state=loaded.state,
            version=oldest,
            delay=delay,
            seats=seats,
            opened_at=opened_at,
            withheld=plays_boards(opened.options),
        )
        table.recent = deque([loaded.state], maxlen=delay + 1) if delay else deque()
        if version > oldest:
            table.fold(source.events(table_id, oldest + 1, version))
        if version == oldest:
            last = source.events(table_id, version, version)
            # (a board table's BoardReleased follows its TableEnded: design §10)
            table.ended = bool(last) and isinstance(last[-1].event, TableEnded | BoardReleased)
            table.last_at = getattr(last[-1], "at", None) if last else None
        if table.version != version:
            raise ProjectionError(f"table {table_id}: could not load version {version}")
        return table

    def apply(self, event: Any, version: int, at: datetime | None = None) -> None:
        """Evolve by one event (the game's ``evolve``; facts only) to ``version``; ``at``: when
        it was stored."""
        self.state = state = self.game.evolve(self.state, event)
        self.version = version
        self.last_at = at
        if self.game.settles_hand(event):
            self.settled_at = at
        if self.delay:
            self.recent.append(state)
        mark = _MARKS.get(type(event))
        if mark is None:
            mark = _mark(type(event))
        if mark == _SEATED:
            self.seats.add(event.seat)
        elif mark == _ENDED:
            self.ended = True

    def fold(self, notes: Sequence[StoredEvent], start: int = 0) -> int:
        """:meth:`apply` the events of ``notes[start:]`` (one table's, in log order) while each
        is the next version; returns the index of the first one not applied (``len(notes)``
        when all were). One loop per table and batch; a failing event raises
        :class:`ProjectionError` naming it."""
        apply, index, end = self.apply, start, len(notes)
        try:
            while index < end:
                note = notes[index]
                version = note.version
                if version != self.version + 1:
                    break
                apply(note.event, version, getattr(note, "at", None))
                index += 1
        except Exception as error:
            raise event_error(notes[index], error) from error
        return index

    def public(self) -> tuple[Any, int]:
        """The state spectators may see and its version: ``delay`` behind live."""
        if not self.delay:
            return self.state, self.version
        return self.recent[0], self.version - len(self.recent) + 1


_SEATED, _ENDED = 1, 2
# Event class -> what :meth:`TableProjection.fold` notes of it (0: nothing), filled as met.
_MARKS: dict[type, int] = {}


def _mark(kind: type) -> int:
    mark = _MARKS[kind] = (
        _SEATED
        if issubclass(kind, PlayerSeated)
        else _ENDED
        if issubclass(kind, TableEnded | BoardReleased)
        else 0
    )
    return mark


def event_error(note: StoredEvent, error: BaseException) -> ProjectionError:
    """A :class:`ProjectionError` naming the event an operator must look at (a notification,
    or a table's stored event)."""
    where = getattr(note, "position", None)
    table = getattr(note, "table_id", None)
    head = f"position {where} (table {table} version" if where is not None else "(version"
    return ProjectionError(f"{head} {note.version}, {type(note.event).__name__}): {error!r}")


def _delay_of(opened: TableOpened) -> int:
    delay = opened.options.get("spectator_delay", 0)
    return delay if isinstance(delay, int) and delay > 0 else 0


def _seconds(at: Any) -> float:
    """A stored time (a datetime) as POSIX seconds; 0 when unknown."""
    return float(at.timestamp()) if at is not None else 0.0


def _head_of(
    source: EventSource, table_id: UUID, version: int
) -> tuple[TableOpened, set[int], float]:
    """The table's ``TableOpened``, its seated seats and when it opened, read from the top of
    its stream."""
    seats: set[int] = set()
    opened: TableOpened | None = None
    opened_at = 0.0
    start = 1
    while start <= version:
        chunk = source.events(table_id, start, min(version, start + _HEAD_CHUNK - 1))
        if not chunk:
            break
        for stored in chunk:
            if isinstance(stored.event, TableOpened):
                opened = stored.event
                opened_at = _seconds(getattr(stored, "at", None))
            elif isinstance(stored.event, PlayerSeated):
                seats.add(stored.event.seat)
            elif opened is not None:
                return opened, seats, opened_at  # play has started: every seat is known
        start = chunk[-1].version + 1
    if opened is None:
        raise ProjectionError(f"table {table_id}: its stream does not start with TableOpened")
    return opened, seats, opened_at
