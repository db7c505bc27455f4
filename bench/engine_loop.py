"""What the engine benchmarks (``bourre_engine.py``, ``burraco_engine.py``) share: bots
seated at a fresh table, one command applied as the write side applies it (``decision``:
the events and the state after them), and the replay of recorded commands that times the
engine alone. Games are found through the registry (``domain.games``).

``compiled_domain`` makes the optional mypyc build of the pure domain (design §6): the
pure-Python package stays the reference; a benchmark run with ``--compiled`` times the same
code compiled.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from domain.game import Game
from domain.table import OpenTable, TakeSeat

COMPILED_DOMAIN = "CARDROOM_COMPILED_DOMAIN"  # the environment variable naming a build


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
    decision = game.decision  # what ``apply`` calls, bound once
    for commands in tables:
        state: Any = None
        for command in commands:
            events, state = decision(state, command)
            applied += len(events)
    return applied


def compiled_domain(root: Path, modules: Sequence[str]) -> Path:
    """A copy of ``root/domain`` under ``root/build/mypyc`` with ``modules`` (paths such as
    ``domain/bourre/evolve.py``) compiled by mypyc; rebuilt when a source is newer than the
    build. Needs mypy (a dev dependency) and a C compiler."""
    out = root / "build" / "mypyc"
    stamp = out / "built.txt"
    wanted = " ".join(modules)
    sources = list((root / "domain").rglob("*.py"))
    if stamp.exists() and stamp.read_text() == wanted:
        built = stamp.stat().st_mtime
        if all(source.stat().st_mtime <= built for source in sources):
            return out
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(root / "domain", out / "domain", ignore=shutil.ignore_patterns("__pycache__"))
    print(f"building {len(modules)} modules with mypyc into {out} …", file=sys.stderr)
    subprocess.run(
        [sys.executable, "-m", "mypyc", *modules], cwd=out, check=True, stdout=subprocess.DEVNULL
    )
    stamp.write_text(wanted)
    return out
