"""``decision`` (the state the rules reach while deciding) is exactly the fold of its events
with ``evolve``, for every command of random games of both kinds: the write side may keep it
instead of evolving the events again."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.errors import DomainError
from domain.games import game_named
from domain.table import CloseTable, OpenTable, TakeSeat

OPTIONS = {"bourre": {"seats": 4, "hands": 3}, "burraco": {"seats": 2, "target": 300}}


def play(name: str, seed: int, commands: int) -> None:
    game = game_named(name)
    rng = random.Random(seed)
    sits = [TakeSeat(name=f"p{s}", token_hash=f"t{s}") for s in range(OPTIONS[name]["seats"])]
    script: list[Any] = [OpenTable(game=name, options=OPTIONS[name], seed=seed), *sits]
    state: Any = None
    for step in range(commands):
        if step < len(script):
            command = script[step]
        else:
            waiting = sorted(game.to_act(state))
            if not waiting:
                break
            seat = rng.choice(waiting)
            command = rng.choice([*game.legal_commands(state, seat), CloseTable(seat=seat)])
            if isinstance(command, CloseTable) and rng.random() < 0.97:
                continue
        try:
            events, after = game.decision(state, command)
        except DomainError:
            assert isinstance(command, CloseTable)  # e.g. closing already requested
            continue
        folded = state
        for event in events:
            folded = game.evolve(folded, event)
        assert after == folded, (name, step, command)
        state = after


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_bourre_decision_is_the_fold_of_its_events(seed: int) -> None:
    play("bourre", seed, 400)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_burraco_decision_is_the_fold_of_its_events(seed: int) -> None:
    play("burraco", seed, 400)
