"""``legal_commands`` and ``decide`` agree (design §3): at every step of a hand, for every
seat, the commands listed are exactly the commands ``decide`` accepts out of every command
of the right shape — pass, play with any discard (rules 11–13, 34), the turned card (rule
32), the draw (rule 31), the second chance (rule 33) and every card held (5.1, rules 19–22).
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import msgspec
import pytest

from domain.bourre import GAME
from domain.bourre.commands import Declare, Draw, PlayCard, SecondChance
from domain.bourre.decide import decide_and_evolve
from domain.bourre.state import PLAYING, Table
from domain.errors import DomainError
from domain.table import Command
from tests.unit.bourre.support import open_table

# Every value of every rule option appears at least once.
OPTION_SETS: list[dict[str, Any]] = [
    {"seats": 3},
    {"seats": 2, "ace_forces_dealer": False, "cinch": "strict", "max_discard": 2},
    {"seats": 5, "declaration": "two_round", "trump_card": "separate_dealer_may_take"},
    {"seats": 4, "declaration": "simultaneous", "double_ante": True, "trump_card": "separate"},
    {"seats": 8, "reshuffle_pool": "all_discards", "cinch": "off", "tie": "split"},
    {"seats": 6, "four_card": True, "declaration": "two_round", "max_discard": 3},
    {"seats": 7, "max_discard": 0, "pot_limit": 2},
]


def every_shaped_command(state: Table, seat: int) -> list[Command]:
    """Every command ``seat`` could send now, whatever the rules say about it."""
    assert state.hand is not None
    held = [c.code for c in state.hand.holdings[seat]]
    shaped: list[Command] = [SecondChance(seat=seat, play=p) for p in (True, False)]
    shaped += [PlayCard(seat=seat, card=code) for code in held]
    shaped += [Declare(seat=seat, play=False), Declare(seat=seat, play=False, take_trump=True)]
    for size in range(len(held) + 1):
        for combo in itertools.combinations(held, size):
            for take in (False, True):
                shaped.append(Declare(seat=seat, play=True, discard=list(combo), take_trump=take))
                shaped.append(Draw(seat=seat, discard=list(combo), take_trump=take))
    return shaped


def accepted(state: Table, command: Command) -> bool:
    try:
        decide_and_evolve(state, command)
    except DomainError as error:
        assert error.message
        return False
    return True


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "-".join(map(str, o.values())))
def test_legal_commands_list_exactly_the_commands_decide_accepts(options: dict[str, Any]) -> None:
    rng = random.Random(str(options))
    state, _ = open_table({**options, "hands": 6}, seed=rng.randrange(2**32))
    phases: set[str] = set()
    while state.status == PLAYING:
        assert state.hand is not None
        phases.add(state.hand.phase)
        for seat in range(state.seats):
            listed = {msgspec.json.encode(c) for c in GAME.legal_commands(state, seat)}
            allowed = {
                msgspec.json.encode(c)
                for c in every_shaped_command(state, seat)
                if accepted(state, c)
            }
            assert listed == allowed, f"seat {seat} in the {state.hand.phase} phase"
        seat = rng.choice(sorted(GAME.to_act(state)))
        commands = GAME.legal_commands(state, seat)
        stays = [c for c in commands if getattr(c, "play", True)]  # mostly play the hand out
        state, _ = decide_and_evolve(state, rng.choice(stays if rng.random() < 0.6 else commands))
    assert len(state.history) == 6 and "play" in phases
