"""Rules engine benchmark (design §6): random-bot Bourré hands per second, pure domain.

Seven players, default options (sequential declaration, dealer's card for trump, cinch with
equivalent trumps, carry on ties, no pot limit). Each bot picks uniformly among
``legal_commands`` for the seat the table waits for (as ``cardroom simulate`` does); every
command goes through ``decide`` and every event through ``evolve``, as the write side would
apply them. A table is played for ``--per-table`` hands, then a fresh table is opened (with
random bots nearly everyone plays and is bourré often, so pots compound quickly).

Printed: hands/s and commands/s for the full loop (bot + ``legal_commands`` + ``decide`` +
``evolve``), and for ``decide`` + ``evolve`` alone (replaying the recorded commands), per
second of this process's CPU time (``time.process_time``: steady on a loaded machine) and,
in brackets, per second of wall time.

``--compiled`` runs the same on the optional mypyc build of the rules (design §6; see
``engine_loop.compiled_domain``): the pure-Python package stays the reference.

``python bench/bourre_engine.py [--hands 2000] [--seats 7] [--per-table 25] [--seed 1]
[--compiled]``
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from math import floor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
# a mypyc build of the domain (engine_loop.COMPILED_DOMAIN), when --compiled asked for one
sys.path.insert(0, os.environ.get("CARDROOM_COMPILED_DOMAIN") or sys.path[0])

from engine_loop import COMPILED_DOMAIN, compiled_domain, replay, seated_table

from domain.bourre.events import HandSettled
from domain.games import game_named

GAME = game_named("bourre")
ROOT = Path(__file__).resolve().parent.parent
# the modules of the hot paths, for --compiled: Bourré's rules, and the kernel's deal (the
# shuffle of every hand's deck, a Python loop over the pack)
COMPILED = [
    *(
        f"domain/bourre/{name}.py"
        for name in (
            "codes", "tricks", "cinch", "playing", "declaring", "deal", "settlement", "evolve",
            "legal", "decide",
        )
    ),
    "domain/cards.py",
    "domain/table/deck.py",
]  # fmt: skip


def play_hands(
    hands: int, seats: int, per_table: int, seed: int
) -> tuple[list[list[Any]], dict[str, int]]:
    """Bot-played tables until ``hands`` hands are settled; returns each table's commands."""
    rng = random.Random(seed)
    tables: list[list[Any]] = []
    settled = 0
    outcomes = {"won": 0, "tied": 0, "solo": 0, "bourre_players": 0}
    table_seed = seed
    # bound once: the loop below is the bot (pick a seat, pick a legal command) and the engine.
    # A pick is ``items[floor(uniform() * len(items))]``: uniform like ``rng.choice`` (to within
    # 2**-53), with one ``random()`` call where ``choice`` draws bits until they fall in range
    # (floor is int() for these non-negative floats, one C call rather than a type's constructor)
    uniform, to_act, legal, decision = rng.random, GAME.to_act, GAME.legal_commands, GAME.decision
    while settled < hands:
        table_seed += 1
        state, commands = seated_table(GAME, {"seats": seats}, seats, table_seed)
        in_table = 0
        while in_table < per_table and settled < hands:
            waiting = to_act(state)  # one seat, but in simultaneous declaration's sealed round
            if len(waiting) == 1:
                (seat,) = waiting
            else:
                ordered = sorted(waiting)
                seat = ordered[floor(uniform() * len(ordered))]
            moves = legal(state, seat)
            command = moves[floor(uniform() * len(moves))]
            commands.append(command)
            events, state = decision(state, command)
            for event in events:
                if type(event) is HandSettled:  # (it has no subclasses)
                    settled += 1
                    in_table += 1
                    outcome = (
                        "solo" if event.solo else "won" if event.winner is not None else "tied"
                    )
                    outcomes[outcome] += 1
                    outcomes["bourre_players"] += len(event.bourre)
        tables.append(commands)
    return tables, outcomes


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seats", type=int, default=7, choices=range(2, 9))
    parser.add_argument("--per-table", type=int, default=25)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--compiled", action="store_true", help="time the mypyc build")
    args = parser.parse_args()
    if args.compiled:
        build = compiled_domain(ROOT, COMPILED)
        argv = [a for a in sys.argv[1:] if a != "--compiled"]
        env = {**os.environ, COMPILED_DOMAIN: str(build)}
        sys.exit(subprocess.run([sys.executable, __file__, *argv], env=env).returncode)

    cpu, wall = time.process_time(), time.perf_counter()
    tables, outcomes = play_hands(args.hands, args.seats, args.per_table, args.seed)
    full_cpu, full_wall = time.process_time() - cpu, time.perf_counter() - wall
    commands = sum(len(t) for t in tables)

    cpu, wall = time.process_time(), time.perf_counter()
    events = replay(GAME, tables)
    engine_cpu, engine_wall = time.process_time() - cpu, time.perf_counter() - wall

    label = " (mypyc build)" if os.environ.get(COMPILED_DOMAIN) else ""
    print(f"Bourré engine{label}, {args.seats} seats, default options, {args.hands} hands")
    print(f"  outcomes: {outcomes}")
    print(
        f"  full loop (bot + legal_commands + decide + evolve): "
        f"{args.hands / full_cpu:,.0f} hands/s, {commands / full_cpu:,.0f} commands/s "
        f"per CPU second ({args.hands / full_wall:,.0f} hands/s wall)"
    )
    print(
        f"  decide + evolve only: {args.hands / engine_cpu:,.0f} hands/s, "
        f"{commands / engine_cpu:,.0f} commands/s, {events / engine_cpu:,.0f} events/s "
        f"per CPU second ({args.hands / engine_wall:,.0f} hands/s wall)"
    )


if __name__ == "__main__":
    main()
