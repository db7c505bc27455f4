"""Turn clocks in the domain (design §9): a timeout's events record the forced move, the
clock's events leave the game's state alone, sitting back in, and the clock's options."""

from __future__ import annotations

from typing import Any

import pytest

from domain.bourre.commands import Declare, PlayCard
from domain.burraco.events import CardDrawn, Discarded
from domain.errors import DomainError, InvalidOption, NotYourTurn
from domain.games import game_named
from domain.table import OpenTable, TakeSeat
from domain.table.clock import SatIn, SitIn, TimeOut, TurnTimedOut


def started(game_name: str, seats: int, **options: Any) -> Any:
    game = game_named(game_name)
    state: Any = None
    commands: list[Any] = [OpenTable(game=game_name, options={"seats": seats, **options}, seed=5)]
    commands += [TakeSeat(name=f"p{s}", token_hash=str(s), seat=s) for s in range(seats)]
    for command in commands:
        _, state = game.decision(state, command)
    return game, state


def test_a_bourre_seat_that_times_out_while_declaring_passes() -> None:
    game, state = started("bourre", 3, turn_seconds=30)
    seat = min(game.to_act(state))
    events, after = game.decision(state, TimeOut(seat=seat, timeouts=1))
    assert events[0] == TurnTimedOut(seat=seat, timeouts=1, sat_out=False)
    assert type(events[1]).__name__ == "Declared" and events[1].play is False
    assert seat not in game.to_act(after)


def test_a_bourre_seat_that_times_out_in_trick_play_plays_its_lowest_legal_card() -> None:
    game, state = started("bourre", 2)
    while state.hand.phase != "play":
        seat = min(game.to_act(state))
        stay = next(c for c in game.legal_commands(state, seat)
                    if isinstance(c, Declare) and c.play)  # fmt: skip
        _, state = game.decision(state, stay)
    seat = min(game.to_act(state))
    legal = [c.card for c in game.legal_commands(state, seat) if isinstance(c, PlayCard)]
    trump = state.hand.trump.value
    ranks = "23456789TJQKA"

    def lowness(code: str) -> tuple[bool, int]:
        return (code.endswith(trump), ranks.index(code[:-1].replace("10", "T")))

    events, _ = game.decision(state, TimeOut(seat=seat))
    assert events[1].card == min(legal, key=lowness)


def test_a_burraco_seat_that_times_out_draws_and_discards_the_card_it_drew() -> None:
    game, state = started("burraco", 4)
    seat = min(game.to_act(state))
    events, after = game.decision(state, TimeOut(seat=seat, timeouts=3, sat_out=True))
    assert events[0] == TurnTimedOut(seat=seat, timeouts=3, sat_out=True)
    drawn = next(e for e in events if isinstance(e, CardDrawn))
    discarded = next(e for e in events if isinstance(e, Discarded))
    assert discarded.card == drawn.card
    assert game.to_act(after) == {(seat + 1) % 4}


def test_only_the_seat_to_act_can_time_out() -> None:
    game, state = started("burraco", 4)
    idle = (min(game.to_act(state)) + 1) % 4
    with pytest.raises(NotYourTurn):
        game.decision(state, TimeOut(seat=idle))


def test_a_seated_player_sits_in_and_the_state_is_unchanged() -> None:
    game, state = started("bourre", 3)
    events, after = game.decision(state, SitIn(seat=2))
    assert events == [SatIn(seat=2)]
    assert after is state
    assert game.evolve(state, TurnTimedOut(seat=0, timeouts=1, sat_out=False)) is state
    with pytest.raises(DomainError):
        game.decision(state, SitIn(seat=7))


def test_the_clock_options_are_recorded_only_when_given() -> None:
    _, plain = started("burraco", 4)
    assert "turn_seconds" not in plain.raw_options
    _, timed = started("burraco", 4, turn_seconds=0.5, timeouts_to_sit_out=2)
    assert (timed.raw_options["turn_seconds"], timed.raw_options["timeouts_to_sit_out"]) == (0.5, 2)
    for bad in ({"turn_seconds": 0}, {"turn_seconds": "30"}, {"timeouts_to_sit_out": 0}):
        with pytest.raises(InvalidOption):
            started("bourre", 3, **bad)
