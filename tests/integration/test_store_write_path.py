"""The write path evolves each event once (design §3): a command is decided with the game's
``decision``, and the state it returns is the state the store keeps — the store evolves
nothing again, also when a command crosses a checkpoint or snapshot boundary."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

import pytest

from domain.game import Game
from domain.games import game_named
from domain.table import TakeSeat
from infra.settings import Settings
from infra.store import TableStore
from tests.integration.store_support import states_by_version

pytestmark = pytest.mark.integration

EVERY = 16  # checkpoints and snapshots this often here, so commands cross boundaries


INSIDE: list[bool] = []
OUTSIDE: list[Any] = []


def watched(name: str) -> Game[Any, Any, Any]:
    """The game, counting the events evolved outside its own ``decision``."""
    game = copy.copy(game_named(name))
    evolve, decision = game.evolve, game.decision

    def counting(state: Any, event: Any) -> Any:
        if not INSIDE:
            OUTSIDE.append(event)
        return evolve(state, event)

    def deciding(state: Any, command: Any) -> tuple[list[Any], Any]:
        INSIDE.append(True)
        try:
            return decision(state, command)
        finally:
            INSIDE.pop()

    game.evolve, game.decision = counting, deciding
    return game


@pytest.fixture
def store(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[TableStore]:
    monkeypatch.setattr("infra.table_cache.CHECKPOINT_EVERY", EVERY)
    monkeypatch.setattr("infra.store.SNAPSHOT_EVERY", EVERY)
    monkeypatch.setattr("infra.command_service.game_named", watched)
    monkeypatch.setattr("infra.table_cache.game_named", watched)
    with TableStore(settings) as opened:
        yield opened


@pytest.mark.parametrize("game", ["bourre", "burraco"])
def test_no_event_is_evolved_again_after_its_decision(store: TableStore, game: str) -> None:
    table_id = store.create_table(game, {"seats": 2} if game == "bourre" else {}, seed=5).table_id
    seats = 2 if game == "bourre" else 4
    for seat in range(seats):
        store.execute(table_id, TakeSeat(name=f"p{seat}", token_hash=f"h{seat}", seat=seat))
    rng = random.Random(9)
    OUTSIDE.clear()
    for _ in range(6 * EVERY):
        table = store.cached(table_id)
        assert table is not None
        waiting = sorted(table.game.to_act(table.state))
        if not waiting:
            break
        seat = rng.choice(waiting)
        store.execute(table_id, rng.choice(table.game.legal_commands(table.state, seat)))
    assert OUTSIDE == []  # every event was evolved once, inside decision
    version = store.get(table_id).version
    assert version > 4 * EVERY
    # The states kept (the cache, checkpoints and snapshots) are those of a plain fold.
    states = states_by_version(store, table_id)
    assert store.get(table_id).state == states[version]
    for probe in (EVERY + 1, 2 * EVERY + 3, version - 1):
        assert store.get(table_id, version=probe).state == states[probe]
    assert store.app.snapshots is not None
    snapshots = store.app.snapshots.recorder.select_events(table_id)
    assert snapshots
    with TableStore(store.settings) as cold:
        assert cold.get(table_id).state == states[version]
