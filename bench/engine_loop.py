"""What the engine benchmarks (``bourre_engine.py``, ``burraco_engine.py``) share: bots
seated at a fresh table, one command applied as the write side applies it (``decision``:
the events and the state after them), and the replay of recorded commands that times the
engine alone. Games are found through the registry (``domain.games``).
"""

from __future__ import annotations

from typing import Any

from domain.game import Game
from domain.table import OpenTable, TakeSeat


def apply(game: Game, state: Any, command: Any) -> tuple[Any, list[Any]]:
    """One command's ``decision``: the new state and the events."""
    events, state = game.decision(state, command)
    return state, events


def seated_table(
    game: Game, options: dict[str, Any], seats: int, seed: int
) -> tuple[Any, list[Any]]:
    """A table opened with ``options`` and ``seed`` whose ``seats`` bots have all sat down
    (which deals the first hand); its state and the commands that made it."""
    commands: list[Any] = [OpenTable(game=game.name, options=options, seed=seed)]
    commands += [TakeSeat(name=f"bot{s}", token_hash=f"t{s}") for s in range(seats)]
    state: Any = None
    for command in commands:
        state, _ = apply(game, state, command)
    return state, commands


def replay(game: Game, tables: list[list[Any]]) -> int:
    """``decision`` only (decide + evolve), for the recorded commands; returns events applied."""
    applied = 0
    for commands in tables:
        state: Any = None
        for command in commands:
            state, events = apply(game, state, command)
            applied += len(events)
    return applied
