"""The analytics counters add up a batch a type of event at a time (``FIELD_COUNTED``): an
event whose type is not listed there for its game must add exactly what any other event of its
type adds. Random games of both games are played out with the rules alone, and every event's
increments are compared with the first of its type."""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain.game import Game
from domain.games import game_named
from domain.table import OpenTable, TakeSeat
from projections.analytics import FIELD_COUNTED, counters_of, tag_of


def played_events(game: Game, seats: int, seed: int, moves: int = 600) -> list[Any]:
    """The events of a table of ``seats`` played by random legal commands (rules only)."""
    rng = random.Random(seed)
    options = {**game.bot_options(3), "seats": seats}
    events: list[Any] = []
    state = None

    def run(command: Any) -> None:
        nonlocal state
        for event in game.decide(state, command):
            state = game.evolve(state, event)
            events.append(event)

    run(OpenTable(game=game.name, options=options, seed=seed))
    for seat in range(seats):
        run(TakeSeat(name=f"p{seat}", token_hash=f"h{seat}", seat=seat))
    for _ in range(moves):
        acting = sorted(game.to_act(state))
        if not acting:
            break
        seat = rng.choice(acting)
        run(rng.choice(game.legal_commands(state, seat)))
    return events


@pytest.mark.parametrize(("name", "seats"), [("bourre", 2), ("bourre", 7), ("burraco", 4)])
def test_events_of_a_type_counted_by_type_all_add_the_same(name: str, seats: int) -> None:
    game = game_named(name)
    first: dict[str, dict[str, int]] = {}
    seen = 0
    for seed in range(3):
        for event in played_events(game, seats, seed):
            tag = tag_of(event)
            if tag in FIELD_COUNTED[name]:
                continue
            seen += 1
            assert counters_of(game, event) == first.setdefault(tag, counters_of(game, event)), tag
    assert seen and len(first) >= 5  # many types, many events of each
