"""What the rules remember of meld readings changes no answer: forgetting it
(``candidates.forget``, as the engine benchmark does before each timing) lists the same
commands at every step of a bot-played match."""

from __future__ import annotations

from typing import Any

from domain.burraco.candidates import forget
from domain.burraco.legal import legal_commands
from domain.burraco.state import Table

from .playouts import play_match


def test_burraco_listing_is_the_same_after_forgetting_what_was_remembered() -> None:
    steps: list[tuple[Table, int, list[Any]]] = []

    def record(table: Table, _events: list[Any]) -> None:
        if table.round is not None and table.status == "playing":
            seat = table.round.turn
            steps.append((table, seat, legal_commands(table, seat)))

    play_match(3, {"target": 600}, check=record)
    assert len(steps) > 100
    forget()
    for table, seat, listed in steps:
        assert legal_commands(table, seat) == listed
