"""Rules engine benchmark (design §6): random-bot Burraco hands per second, pure domain.

Four players (two partnerships) play whole matches with the random legal bot of
``domain.burraco.bot`` — it draws or takes the pile, melds and extends from the listed
legal commands, goes to the pozzetto and closes. Every command goes through ``decide`` and
every event through ``evolve``, exactly as the write side would apply them; the bot's own
``legal_commands`` calls are part of the cost (as in ``cardroom simulate``).

Printed: hands/s and commands/s for the full loop, and ``decide``+``evolve`` alone (replaying
the recorded commands), so the cost of the engine and of the bot are visible separately. Rates
are given per wall-clock second and per CPU second of this process (the latter is steadier on
a shared, busy machine). The rules remember how melds read (``domain.burraco.melds``,
``domain.burraco.candidates``); both timings start with nothing remembered
(``candidates.forget``), so the replay does not find the readings the play left behind.

``--compiled`` runs the same on the optional mypyc build of the rules (design §6; see
``engine_loop.compiled_domain``): the pure-Python package stays the reference.

``python bench/burraco_engine.py [--hands 300] [--players 4] [--seed 1] [--compiled]``
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
# a mypyc build of the domain (engine_loop.COMPILED_DOMAIN), when --compiled asked for one
sys.path.insert(0, os.environ.get("CARDROOM_COMPILED_DOMAIN") or sys.path[0])

from engine_loop import COMPILED_DOMAIN, compiled_domain, replay, seated_table

from domain.burraco.bot import choose
from domain.burraco.candidates import forget
from domain.burraco.events import HandClosed, HandScored
from domain.games import game_named

GAME = game_named("burraco")
ROOT = Path(__file__).resolve().parent.parent
# the modules of the hot paths, for --compiled
COMPILED = [
    f"domain/burraco/{name}.py"
    for name in (
        "values", "sequences", "meld_shortcuts", "melds", "candidates", "deal", "scoring", "evolve",
        "turn", "closing", "decide", "legal", "bot",
    )
]  # fmt: skip


def play_hands(hands: int, players: int, seed: int) -> tuple[list[list[Any]], dict[str, int]]:
    """Bot-played tables until ``hands`` hands are scored; returns each table's commands."""
    rng = random.Random(seed)
    tables: list[list[Any]] = []
    scored = 0
    endings: dict[str, int] = {}
    table_seed = seed
    decision, to_act = GAME.decision, GAME.to_act  # what ``engine_loop.apply`` calls, bound once
    while scored < hands:
        table_seed += 1
        state, commands = seated_table(GAME, {"players": players}, players, table_seed)
        while state.status == "playing" and scored < hands:
            (seat,) = to_act(state)
            command = choose(state, seat, rng)
            commands.append(command)
            events, state = decision(state, command)
            for event in events:
                kind = type(event)
                if kind is HandScored:
                    scored += 1
                elif kind is HandClosed:
                    endings[event.reason] = endings.get(event.reason, 0) + 1
        tables.append(commands)
    return tables, endings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--players", type=int, default=4, choices=(2, 4))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--compiled", action="store_true", help="time the mypyc build")
    args = parser.parse_args()
    if args.compiled:
        build = compiled_domain(ROOT, COMPILED)
        argv = [a for a in sys.argv[1:] if a != "--compiled"]
        env = {**os.environ, COMPILED_DOMAIN: str(build)}
        sys.exit(subprocess.run([sys.executable, __file__, *argv], env=env).returncode)

    forget()
    wall, cpu = time.perf_counter(), time.process_time()
    tables, endings = play_hands(args.hands, args.players, args.seed)
    played = (time.perf_counter() - wall, time.process_time() - cpu)
    commands = sum(len(t) for t in tables)

    forget()  # the replay meets every meld anew, as the play did
    wall, cpu = time.perf_counter(), time.process_time()
    events = replay(GAME, tables)
    engine = (time.perf_counter() - wall, time.process_time() - cpu)

    kind = " (mypyc build)" if os.environ.get(COMPILED_DOMAIN) else ""
    print(f"burraco engine{kind}, {args.players} players, {args.hands} hands", end="")
    print(f" ({len(tables)} tables)")
    print(f"  hand endings: {endings}")
    for label, (wall_s, cpu_s), extra in (
        ("bot play (legal_commands + decide + evolve)", played, None),
        ("engine only (decide + evolve)", engine, events),
    ):
        print(f"  {label}:")
        for clock, seconds in (("wall", wall_s), ("cpu", cpu_s)):
            line = (
                f"    per {clock:4} second: {args.hands / seconds:8.1f} hands/s"
                f"  {commands / seconds:9.0f} commands/s"
            )
            if extra is not None:
                line += f"  {extra / seconds:9.0f} events/s"
            print(line)


if __name__ == "__main__":
    main()
