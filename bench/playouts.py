"""Playout benchmark (issue 25): random playouts per second on the playout path of each game
(``domain/<game>/playout.py``), side by side with OpenSpiel's ``hearts`` and ``gin_rummy``
random games driven from Python, in the same process and run, alternating.

Bourré: 7 seats, default options; Burraco: 4 players, default options. Each playout starts
from the position right after a deal (the deals are made beforehand by the reference engine,
``--deals`` of them, cycled) and plays the hand out with uniformly random legal moves
(``random_playout``); the position is copied first, as a search copies its root. An OpenSpiel
game starts from the initial state, so it also deals (uniform chance outcomes) and plays with
uniformly random legal actions (``legal_actions``, ``apply_action``). Slices of ``--seconds``
alternate between the four loops ``--rounds`` times; rates are wall-clock, over the slices
summed (a last line gives the same per CPU second of the process, steadier on a loaded
machine). OpenSpiel is optional (``pip install .[bench]``, the PyPI wheel ``open_spiel``):
without it only the playout lines are printed.

Before timing, every deal is played out ``--warmup`` times (Burraco's meld readings are
remembered, bounded, as they are for a search playing thousands of playouts from one position)
and each OpenSpiel game runs briefly.

``python bench/playouts.py [--seconds 2] [--rounds 3] [--deals 64] [--warmup 3] [--seed 1]``
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain.bourre import playout as bourre
from domain.bourre.decide import decide_and_evolve as bourre_decide
from domain.burraco import playout as burraco
from domain.burraco.decide import decision as burraco_decision
from domain.table import OpenTable, TakeSeat

try:
    import pyspiel  # type: ignore[import-not-found,unused-ignore]
except ImportError:  # optional: the bench extra
    pyspiel = None


def bourre_deals(count: int, seed: int) -> list[bourre.Position]:
    """The positions after ``count`` deals of 7-seat default tables (reference engine)."""
    found = []
    for k in range(count):
        state, _ = bourre_decide(
            None, OpenTable(game="bourre", options={"seats": 7}, seed=seed * 1000 + k)
        )
        for seat in range(7):
            state, _ = bourre_decide(state, TakeSeat(name=f"b{seat}", token_hash=f"h{seat}"))
        found.append(bourre.from_state(state))
    return found


def burraco_deals(count: int, seed: int) -> list[burraco.Position]:
    """The positions after ``count`` deals of 4-player default tables (reference engine)."""
    found = []
    for k in range(count):
        _, state = burraco_decision(
            None, OpenTable(game="burraco", options={"seats": 4}, seed=seed * 1000 + k)
        )
        for seat in range(4):
            _, state = burraco_decision(state, TakeSeat(name=f"b{seat}", token_hash=f"h{seat}"))
        found.append(burraco.from_state(state))
    return found


def playouts(game: Any, deals: list[Any], rng: random.Random) -> Callable[[float], int]:
    """A loop of random playouts from the deals, for ``seconds``; returns the count."""

    def run(seconds: float) -> int:
        played = 0
        count = len(deals)
        playout = game.random_playout
        clock = time.perf_counter
        end = clock() + seconds
        while clock() < end:
            for _ in range(16):
                playout(deals[played % count], rng)
                played += 1
        return played

    return run


def spiel_games(name: str, rng: random.Random) -> Callable[[float], int]:
    """A loop of OpenSpiel random games of ``name`` from Python, for ``seconds``."""
    game = pyspiel.load_game(name)
    choice = rng.choice

    def run(seconds: float) -> int:
        played = 0
        clock = time.perf_counter
        end = clock() + seconds
        while clock() < end:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(choice(state.chance_outcomes())[0])
                else:
                    state.apply_action(choice(state.legal_actions()))
            played += 1
        return played

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per slice")
    parser.add_argument("--rounds", type=int, default=3, help="alternations of the four loops")
    parser.add_argument("--deals", type=int, default=64, help="deals cycled by the playouts")
    parser.add_argument("--warmup", type=int, default=3, help="playouts per deal before timing")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    bourre_positions = bourre_deals(args.deals, args.seed)
    burraco_positions = burraco_deals(args.deals, args.seed)
    loops: dict[str, Callable[[float], int]] = {
        "bourre playouts/s": playouts(bourre, bourre_positions, rng),
        "burraco playouts/s": playouts(burraco, burraco_positions, rng),
    }
    if pyspiel is not None:
        loops["hearts games/s"] = spiel_games("hearts", rng)
        loops["gin_rummy games/s"] = spiel_games("gin_rummy", rng)
    # warm up: every deal played out a few times (Burraco's meld readings are remembered, as
    # in a search playing thousands of playouts from one position), a few OpenSpiel games
    for game, deals in ((bourre, bourre_positions), (burraco, burraco_positions)):
        for _ in range(args.warmup):
            for pos in deals:
                game.random_playout(pos, rng)
    for name in loops:
        if "games" in name:
            loops[name](0.2)
    done = dict.fromkeys(loops, 0)
    spent = dict.fromkeys(loops, 0.0)
    cpu = dict.fromkeys(loops, 0.0)
    for _ in range(args.rounds):
        for name, run in loops.items():
            start, start_cpu = time.perf_counter(), time.process_time()
            done[name] += run(args.seconds)
            spent[name] += time.perf_counter() - start
            cpu[name] += time.process_time() - start_cpu
    rate = {name: done[name] / spent[name] for name in loops}
    for name in loops:
        print(f"{name} {rate[name]:.0f}")
    # the same per CPU second of this process (steadier on a loaded machine)
    print("per CPU second: " + ", ".join(f"{n.split()[0]} {done[n] / cpu[n]:.0f}" for n in loops))
    if pyspiel is not None:
        print(f"bourre/hearts {rate['bourre playouts/s'] / rate['hearts games/s']:.2f}x (target 3)")
        gin = rate["gin_rummy games/s"]
        print(f"burraco/gin_rummy {rate['burraco playouts/s'] / gin:.2f}x (target 2)")
    else:
        print("OpenSpiel is not installed (pip install .[bench]): no ratios")


if __name__ == "__main__":
    main()
