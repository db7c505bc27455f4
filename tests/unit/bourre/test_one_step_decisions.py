"""``decision`` applies ``play_card`` (with the trick it completes) and a sequential
``declare`` in one step instead of folding their events with ``evolve``: for every option
set, at every step of random games, the state it reaches is exactly the fold of its events;
cards a seat may not play are refused as before."""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain.bourre import GAME
from domain.bourre.commands import Declare, PlayCard
from domain.bourre.evolve import evolve
from domain.errors import DomainError
from domain.table import OpenTable, TakeSeat
from tests.unit.bourre.test_legal_agrees_with_decide import OPTION_SETS


def _fold(state: Any, events: list[Any]) -> Any:
    for event in events:
        state = evolve(state, event)
    return state


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "-".join(map(str, o.values())))
def test_one_step_decisions_reach_the_fold_of_their_events(options: dict[str, Any]) -> None:
    rng = random.Random(11)
    seats = options["seats"]
    state: Any = None
    opening: list[Any] = [OpenTable(game="bourre", options={**options, "hands": 6}, seed=5)]
    opening += [TakeSeat(name=f"p{s}", token_hash=f"t{s}") for s in range(seats)]
    for command in opening:
        _, state = GAME.decision(state, command)
    one_step = 0
    while state.status == "playing":
        seat = rng.choice(sorted(GAME.to_act(state)))
        held = state.hand.holdings[seat]
        # now and then a card the seat may not play, or holds not: refused the same way
        if state.hand.phase == "play" and held and rng.random() < 0.2:
            stray = PlayCard(seat=seat, card=rng.choice(held).code)
            if stray not in GAME.legal_commands(state, seat):
                with pytest.raises(DomainError):
                    GAME.decision(state, stray)
        command = rng.choice(GAME.legal_commands(state, seat))
        events, after = GAME.decision(state, command)
        assert after == _fold(state, events), command
        one_step += isinstance(command, PlayCard | Declare)
        state = after
    assert one_step > 20
