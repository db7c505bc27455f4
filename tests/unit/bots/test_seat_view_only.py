"""Bots see only what their seat sees: a state with every other hand blanked (and the
undealt cards gone) yields the same decision at every turn of whole hands."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from bots import kinds
from bots.arena import bot_turn
from domain.games import game_named
from domain.table import OpenTable, TakeSeat


def _blank_bourre(state: Any, seat: int) -> Any:
    hand = state.hand
    holdings = tuple(h if s == seat else () for s, h in enumerate(hand.holdings))
    return msgspec.structs.replace(
        state, hand=msgspec.structs.replace(hand, holdings=holdings, stock=())
    )


def _blank_burraco(state: Any, seat: int) -> Any:
    r = state.round
    hands = tuple(h if s == seat else () for s, h in enumerate(r.hands))
    sealed = tuple(() for _ in r.sealed)
    pozzetti = tuple(() for _ in r.pozzetti)
    return msgspec.structs.replace(
        state, round=msgspec.structs.replace(r, hands=hands, sealed=sealed, pozzetti=pozzetti)
    )


BLANK = {"bourre": _blank_bourre, "burraco": _blank_burraco}
SEATS = {"bourre": 5, "burraco": 4}


@pytest.mark.parametrize("game_name", ["bourre", "burraco"])
@pytest.mark.parametrize("kind", ["basic", "random"])
def test_a_bot_decides_the_same_with_the_other_hands_blanked(game_name: str, kind: str) -> None:
    game = game_named(game_name)
    seats = SEATS[game_name]
    state: Any = None
    opening: list[Any] = [OpenTable(game=game_name, options={"seats": seats}, seed=2024)]
    opening += [TakeSeat(name=f"p{s}", token_hash=str(s), seat=s) for s in range(seats)]
    for command in opening:
        _, state = game.decision(state, command)
    compared = 0
    for step in range(400):
        waiting = sorted(game.to_act(state))
        if not waiting:
            break
        seat = waiting[0]
        real = bot_turn(game, state, seat, kind, "blank", step)
        blanked_state = BLANK[game_name](state, seat)
        assert bot_turn(game, blanked_state, seat, kind, "blank", step) == real
        compared += 1
        _, state = game.decision(state, real)
    assert compared >= 100


def test_every_game_lists_random_and_basic_with_a_description() -> None:
    for game_name in ("bourre", "burraco"):
        listed = kinds(game_name)
        assert {"random", "basic"} <= set(listed)
        assert all(description.endswith(".") for description in listed.values())
