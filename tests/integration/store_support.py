"""Helpers for the write-side store tests (no tests here)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any
from uuid import UUID

from domain.games import game_named
from infra.store import TableStore


def decoded_events(store: TableStore) -> list[int]:
    """Record the versions of the events ``store`` decodes from now on (the list fills as it
    decodes), to show which history a command or a cold load reads."""
    seen: list[int] = []
    mapper = store.app.mapper
    original = mapper.to_domain_event

    def counting(stored: Any) -> Any:
        seen.append(stored.originator_version)
        return original(stored)

    mapper.to_domain_event = counting  # type: ignore[method-assign,assignment]
    return seen


def bot_moves(store: TableStore, table_id: UUID, seed: int) -> Iterator[int]:
    """Random legal bots' commands on ``table_id`` (a seeded choice of waiting seat, then of
    that seat's legal command) until it waits for nobody; yields each command's position."""
    rng = random.Random(seed)
    while True:
        table = store.get(table_id)
        waiting = sorted(table.game.to_act(table.state))
        if not waiting:
            return
        seat = rng.choice(waiting)
        result = store.execute(table_id, rng.choice(table.game.legal_commands(table.state, seat)))
        yield result.position


class StatesByVersion:
    """The table's state after every version, folded with the game's own ``evolve``;
    ``refresh()`` folds only the events stored since the last call."""

    def __init__(self, store: TableStore, table_id: UUID) -> None:
        self._store, self._table_id = store, table_id
        self._state: Any = None
        self._game: Any = None
        self.states: dict[int, Any] = {}

    def refresh(self) -> dict[int, Any]:
        for recorded in self._store.events(self._table_id, len(self.states) + 1):
            if self._game is None:
                self._game = game_named(recorded.event.game)
            self._state = self._game.evolve(self._state, recorded.event)
            self.states[recorded.version] = self._state
        return self.states


def states_by_version(store: TableStore, table_id: UUID) -> dict[int, Any]:
    """The table's state after every version (see :class:`StatesByVersion`)."""
    return StatesByVersion(store, table_id).refresh()
