"""Playing whole Burraco matches with the random legal bot (shared by tests)."""

from __future__ import annotations

import random
from typing import Any

from domain.burraco import GAME
from domain.burraco.bot import choose
from domain.burraco.state import Table
from domain.table import OpenTable, TakeSeat


def play_match(
    seed: int,
    options: dict[str, Any] | None = None,
    *,
    max_events: int = 50_000,
    check: Any = None,
) -> tuple[Table, list[Any]]:
    """Open a table, seat everyone and let bots play until the match ends.

    ``check(table, events_of_the_command)`` runs after every command (for invariants).
    """
    options = dict(options or {})
    rng = random.Random(seed)
    events: list[Any] = []
    table: Any = None

    def run(command: Any) -> None:
        nonlocal table
        new = GAME.decide(table, command)
        for event in new:
            table = GAME.evolve(table, event)
        events.extend(new)
        if check is not None:
            check(table, new)

    run(OpenTable(game="burraco", options=options, seed=seed))
    for seat in range(table.players):
        run(TakeSeat(name=f"bot{seat}", token_hash=f"token{seat}"))
    while table.status == "playing":
        assert len(events) < max_events, "the match did not end"
        (seat,) = GAME.to_act(table)
        command = choose(table, seat, rng)
        assert command is not None, f"seat {seat} is to act but has no legal command"
        run(command)
    return table, events
