"""One table in the projector's memory (projections/table_projection.py): evolve, spectator
delay, and loading a table from the event store — with an in-memory event source, no I/O."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

import pytest

from domain.bourre import GAME as BOURRE
from domain.table import CloseTable, OpenTable, TableEnded, TableOpened, TakeSeat
from projections.table_projection import ProjectionError, TableProjection

TABLE = UUID("00000000-0000-0000-0000-00000000000a")


@dataclass(frozen=True)
class Stored:
    version: int
    event: Any


@dataclass(frozen=True)
class Loaded:
    game: Any
    state: Any
    version: int


class MemorySource:
    """The EventSource protocol over a list of events of one table."""

    def __init__(self, events: list[Any]) -> None:
        self.stored = [Stored(version, event) for version, event in enumerate(events, start=1)]
        self.reads: list[tuple[int, int | None]] = []

    def events(self, table_id: UUID, from_version: int = 1, to_version: int | None = None):
        self.reads.append((from_version, to_version))
        last = len(self.stored) if to_version is None else to_version
        return self.stored[from_version - 1 : last]

    def get(self, table_id: UUID, version: int | None = None) -> Loaded:
        state = None
        for stored in self.stored[: version or len(self.stored)]:
            state = BOURRE.evolve(state, stored.event)
        return Loaded(BOURRE, state, version or len(self.stored))

    def notifications(self, start: int, limit: int) -> list[Any]:
        return []

    def max_position(self) -> int:
        return len(self.stored)


def bourre_events(seats: int = 3, delay: int = 0, close: bool = False) -> list[Any]:
    """A Bourré table opened and every seat taken, so the first hand is dealt — or, with
    ``close``, closed by its first player while still waiting for the others."""
    options = {"seats": seats, "spectator_delay": delay}
    events: list[Any] = []
    state = None
    commands: list[Any] = [OpenTable(game="bourre", options=options, seed=42)]
    for seat in range(1 if close else seats):
        commands.append(TakeSeat(name=f"p{seat}", token_hash=f"h{seat}", seat=seat))
    if close:
        commands.append(CloseTable(seat=0))
    for command in commands:
        for event in BOURRE.decide(state, command):
            state = BOURRE.evolve(state, event)
            events.append(event)
    return events


def replayed(events: list[Any]) -> TableProjection:
    assert isinstance(events[0], TableOpened)
    table = TableProjection.opened(TABLE, events[0])
    for version, event in enumerate(events[1:], start=2):
        table.apply(event, version)
    return table


def test_a_table_evolves_with_the_games_own_evolve_and_knows_its_seats() -> None:
    events = bourre_events(seats=3)
    table = replayed(events)
    assert table.version == len(events)
    assert table.seats == {0, 1, 2}
    assert table.state == MemorySource(events).get(TABLE).state
    assert table.public() == (table.state, table.version)  # no delay: spectators see live


def test_spectators_see_the_state_delay_versions_behind_live() -> None:
    events = bourre_events(seats=3, delay=2)
    table = replayed(events)
    state, version = table.public()
    assert version == len(events) - 2
    assert state == MemorySource(events).get(TABLE, version).state


def test_a_young_table_shows_spectators_its_first_version() -> None:
    events = bourre_events(seats=2, delay=50)
    table = replayed(events)
    assert table.public()[1] == 1


def test_an_ended_table_still_holds_spectators_delay_events_behind() -> None:
    events = bourre_events(seats=3, delay=1, close=True)
    assert isinstance(events[-1], TableEnded)
    table = replayed(events)
    assert table.ended
    assert table.public() == (MemorySource(events).get(TABLE, len(events) - 1).state, 2)


@pytest.mark.parametrize("delay", [0, 3])
def test_a_table_loaded_from_the_store_equals_the_one_evolved_in_memory(delay: int) -> None:
    events = bourre_events(seats=4, delay=delay)
    source = MemorySource(events)
    for version in range(1, len(events) + 1):
        loaded = TableProjection.load(source, TABLE, version)
        evolved = replayed(events[:version])
        assert (loaded.version, loaded.seats, loaded.ended) == (
            evolved.version,
            evolved.seats,
            evolved.ended,
        )
        assert loaded.public() == evolved.public()
        assert loaded.state == evolved.state


def test_loading_an_ended_table_knows_it_ended() -> None:
    events = bourre_events(seats=3, close=True)
    assert TableProjection.load(MemorySource(events), TABLE, len(events)).ended


def test_a_stream_without_table_opened_is_a_projection_error() -> None:
    events = bourre_events(seats=2)[1:]
    with pytest.raises(ProjectionError, match="does not start with TableOpened"):
        TableProjection.load(MemorySource(events), TABLE, len(events))
