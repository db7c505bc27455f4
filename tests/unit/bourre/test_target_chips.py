"""Option ``target_chips`` (docs/rules/bourre.md §9): the table ends after the hand that
takes a player's net to the target; without it nothing changes in what a table records."""

from __future__ import annotations

from typing import Any

import pytest

from bots.arena import bot_turn
from domain.errors import InvalidOption
from domain.games import game_named
from domain.table import OpenTable, TableEnded, TakeSeat


def play_out(options: dict[str, Any]) -> tuple[Any, list[Any]]:
    game = game_named("bourre")
    state: Any = None
    commands: list[Any] = [OpenTable(game="bourre", options=options, seed=12)]
    commands += [TakeSeat(name=f"p{s}", token_hash=str(s), seat=s) for s in range(options["seats"])]
    events: list[Any] = []
    for command in commands:
        _, state = game.decision(state, command)
    for step in range(20_000):
        waiting = sorted(game.to_act(state))
        if not waiting:
            break
        more, state = game.decision(state, bot_turn(game, state, waiting[0], "basic", step))
        events += more
    return state, events


def test_the_table_ends_after_the_hand_that_reaches_the_target() -> None:
    state, events = play_out({"seats": 4, "target_chips": 5})
    assert events[-1] == TableEnded(reason="target_chips")
    assert max(state.nets) >= 5
    assert state.raw_options["target_chips"] == 5
    settled = [e for e in events if type(e).__name__ == "HandSettled"]
    assert len(settled) == state.hand.number  # it ended after a whole hand


def test_without_a_target_the_recorded_options_are_as_before() -> None:
    state, _ = play_out({"seats": 3, "hands": 2})
    assert "target_chips" not in state.raw_options


@pytest.mark.parametrize("bad", [0, -1, "10", True])
def test_a_target_is_a_positive_number_of_chips(bad: Any) -> None:
    with pytest.raises(InvalidOption) as refused:
        play_out({"seats": 3, "target_chips": bad})
    assert refused.value.key == "target_chips"
