"""Random legal bots playing through the real write side (``cardroom simulate``).

Each bot picks uniformly among ``game.legal_commands(state, seat)`` for a seat the table waits
for — the same legality the API enforces — and sends it through :meth:`TableStore.execute`,
so a simulation exercises the store, its concurrency control and (when a projector runs) the
read side exactly as real clients would.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from domain.cards import derive_seed
from domain.games import game_named
from domain.table import CloseTable
from infra.store import TableStore

# A hand with random bots is long but finite; this guards against a rules bug looping forever.
MAX_COMMANDS_PER_HAND = 20_000


class SimulationStuck(RuntimeError):
    """A table stopped making progress (a rules bug: someone to act but nothing legal)."""


@dataclass
class SimulationReport:
    """What a simulation did, for the CLI's summary."""

    tables: int = 0
    hands: int = 0
    commands: int = 0
    events: int = 0
    seconds: float = 0.0
    last_position: int = 0
    table_ids: list[UUID] = field(default_factory=list)

    @property
    def commands_per_second(self) -> float:
        return self.commands / self.seconds if self.seconds > 0 else 0.0


def play_table(
    store: TableStore,
    game: str,
    hands: int,
    seed: int,
    *,
    options: Mapping[str, Any] | None = None,
    on_hand: Callable[[], None] | None = None,
    report: SimulationReport | None = None,
) -> SimulationReport:
    """Open a table, seat bots, and play until ``hands`` hands settle or the table ends."""
    report = report if report is not None else SimulationReport()
    rng = random.Random(derive_seed(seed, "bots"))
    # The game's options for a table of bots (e.g. Bourré's end themselves after ``hands``
    # hands, so the lobby then shows them ended), overridden by the caller's.
    table_options = {**game_named(game).bot_options(hands), **(options or {})}
    started = time.perf_counter()
    result = store.create_table(game, table_options, seed=derive_seed(seed, "table") % 2**63)
    table_id = result.table_id
    report.table_ids.append(table_id)
    report.events += len(result.events)
    opened = store.get(table_id)
    for seat in range(opened.game.seating(opened.state).seats):
        _, _, result = store.take_seat(table_id, f"bot-{seat}", seat)
        report.commands += 1
        report.events += len(result.events)
    settled = 0
    since_settle = 0
    while settled < hands:
        table = store.get(table_id)
        rules = table.game
        waiting = sorted(rules.to_act(table.state))
        if not waiting:
            break  # the table ended (hand limit, match won) or waits for nobody
        seat = rng.choice(waiting)
        legal = rules.legal_commands(table.state, seat)
        if not legal:
            raise SimulationStuck(
                f"table {table_id} version {table.version}: seat {seat} is to act "
                "but has no legal command"
            )
        result = store.execute(table_id, rng.choice(legal))
        report.commands += 1
        report.events += len(result.events)
        report.last_position = max(report.last_position, result.position)
        since_settle += 1
        for recorded in result.events:
            if rules.settles_hand(recorded.event):
                settled += 1
                since_settle = 0
                report.hands += 1
                if on_hand is not None:
                    on_hand()
        if since_settle > MAX_COMMANDS_PER_HAND:
            raise SimulationStuck(
                f"table {table_id}: no hand settled in {MAX_COMMANDS_PER_HAND} commands"
            )
    _close(store, table_id, rng, report)
    report.tables += 1
    report.seconds += time.perf_counter() - started
    return report


def _close(store: TableStore, table_id: UUID, rng: random.Random, report: SimulationReport) -> None:
    """End a table that is still open (a Burraco match short of its target): seat 0 closes it,
    and the bots finish whatever the game plays out first, so no simulated table stays
    "playing" (the lobby then shows it ended, its replay complete)."""
    table = store.get(table_id)
    if table.game.seating(table.state).status == "ended":
        return
    result = store.execute(table_id, CloseTable(seat=0))
    report.commands += 1
    report.events += len(result.events)
    for _ in range(MAX_COMMANDS_PER_HAND):
        table = store.get(table_id)
        waiting = sorted(table.game.to_act(table.state))
        if not waiting or table.game.seating(table.state).status == "ended":
            break
        seat = rng.choice(waiting)
        result = store.execute(table_id, rng.choice(table.game.legal_commands(table.state, seat)))
        report.commands += 1
        report.events += len(result.events)
    report.last_position = max(report.last_position, result.position)


def simulate(
    store: TableStore,
    game: str,
    tables: int,
    hands: int,
    seed: int,
    *,
    options: Mapping[str, Any] | None = None,
    on_hand: Callable[[], None] | None = None,
    workers: int = 1,
) -> SimulationReport:
    """Play ``tables`` tables of ``hands`` hands each from one seed, ``workers`` at a time
    (threads sharing the store, as API workers do). ``seconds`` is the wall-clock time."""
    lock = threading.Lock()

    def hand_done() -> None:
        if on_hand is not None:
            with lock:  # progress callbacks (a click progress bar) are not thread-safe
                on_hand()

    def one(index: int) -> SimulationReport:
        return play_table(
            store, game, hands, derive_seed(seed, "simulate", index), options=options,
            on_hand=hand_done,
        )  # fmt: skip

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        parts = list(pool.map(one, range(tables)))
    report = SimulationReport(seconds=time.perf_counter() - started)
    for part in parts:
        report.tables += part.tables
        report.hands += part.hands
        report.commands += part.commands
        report.events += part.events
        report.last_position = max(report.last_position, part.last_position)
        report.table_ids += part.table_ids
    return report
