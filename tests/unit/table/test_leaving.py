"""Leaving a table (domain/table/leaving.py, issue 21): a seat left while the table waits is
free again; a seat left in play is taken over by a bot; the token no longer holds the seat;
an ended table and an empty seat refuse it."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import IllegalCommand, TableClosed
from domain.games import game_named
from domain.table import CloseTable, OpenTable, TakeSeat
from domain.table.leaving import TAKEOVER_BOT, LeaveSeat, SeatLeft


def opened(game_name: str, seats: int, seated: int) -> tuple[Any, Any]:
    game = game_named(game_name)
    state: Any = None
    commands: list[Any] = [OpenTable(game=game_name, options={"seats": seats}, seed=5)]
    commands += [TakeSeat(name=f"p{s}", token_hash=f"t{s}", seat=s) for s in range(seated)]
    for command in commands:
        _, state = game.decision(state, command)
    return game, state


@pytest.mark.parametrize("game_name", ["bourre", "burraco"])
def test_a_seat_left_while_the_table_waits_is_free_again(game_name: str) -> None:
    game, state = opened(game_name, 4, 2)
    events, after = game.decision(state, LeaveSeat(seat=1))
    assert events == [SeatLeft(seat=1, name="p1", bot=None)]
    assert game.seating(after).names[:2] == ("p0", None)
    assert game.seat_for_token(after, "t1") is None
    _, again = game.decision(after, TakeSeat(name="Ann", token_hash="t9", seat=1))
    assert game.seating(again).names[1] == "Ann"


@pytest.mark.parametrize("game_name", ["bourre", "burraco"])
def test_a_seat_left_in_play_is_played_by_a_bot_and_the_token_no_longer_holds_it(
    game_name: str,
) -> None:
    game, state = opened(game_name, 2, 2)
    to_act = set(game.to_act(state))
    events, after = game.decision(state, LeaveSeat(seat=0))
    assert events == [SeatLeft(seat=0, name="p0", bot=TAKEOVER_BOT)]
    assert game.seating(after).names[0] == f"Bot 0 ({TAKEOVER_BOT})"
    assert game.seating(after).status == "playing"
    assert game.seat_for_token(after, "t0") is None
    assert game.seat_for_token(after, "") is None  # an empty hash matches no token
    assert set(game.to_act(after)) == to_act  # the hand goes on: the bot owes the same move
    ledger = game.house.ledger(game, after)
    assert ledger["left"] == [{"seat": 0, "name": "p0", "hand": 1}]


@pytest.mark.parametrize("game_name", ["bourre", "burraco"])
def test_an_empty_seat_or_an_ended_table_refuses_a_leave(game_name: str) -> None:
    game, state = opened(game_name, 4, 1)
    with pytest.raises(IllegalCommand, match="only a seated player may leave"):
        game.decision(state, LeaveSeat(seat=3))
    _, ended = game.decision(state, CloseTable(seat=0))
    with pytest.raises(TableClosed):
        game.decision(ended, LeaveSeat(seat=0))


def test_the_event_decodes_as_every_game_s_event() -> None:
    import msgspec

    for name in ("bourre", "burraco"):
        game = game_named(name)
        raw = msgspec.json.encode(SeatLeft(seat=2, name="Ann", bot="basic"))
        assert msgspec.json.decode(raw, type=game.event_type) == SeatLeft(
            seat=2, name="Ann", bot="basic"
        )
