"""Bots playing a table in memory, through the game's pure Decider only (no store): the
quick way to measure a strategy (the strength tests) and the loop a determinised playout
would use. ``cardroom simulate`` plays the same bots through the real write side.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bots import decide, rng_for
from bots.tally import Tally
from domain.cards import derive_seed
from domain.games import game_named
from domain.table import OpenTable, TakeSeat

MAX_COMMANDS = 200_000


def seat_kinds(kinds: Sequence[str], seats: int, shift: int = 0) -> list[str]:
    """Kinds seated alternately (``basic,random`` → basic, random, basic, …), starting
    ``shift`` places along so every kind sits everywhere over several tables."""
    return [kinds[(seat + shift) % len(kinds)] for seat in range(seats)]


def bot_turn(game: Any, state: Any, seat: int, kind: str, *labels: object) -> Any | None:
    """The command a bot of ``kind`` at ``seat`` issues, from what the seat may see only."""
    legal = game.legal_commands(state, seat)
    return decide(game, kind, state, seat, legal, rng_for(*labels, seat))


def play(
    game_name: str,
    kinds: Sequence[str],
    hands: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    tally: Tally | None = None,
) -> Tally:
    """Play ``hands`` hands with one bot per seat (``kinds[seat]``); returns the figures."""
    game = game_named(game_name)
    tally = tally if tally is not None else Tally()
    table_options = {**game.bot_options(hands), **(options or {})}
    table_options["seats"] = len(kinds)
    state: Any = None
    seed = derive_seed(seed, "arena") % 2**63
    commands: list[Any] = [OpenTable(game=game_name, options=table_options, seed=seed)]
    commands += [TakeSeat(name=f"{kind}-{s}", token_hash=f"{s}", seat=s) for s, kind in
                 enumerate(kinds)]  # fmt: skip
    for command in commands:
        _, state = game.decision(state, command)
    settled = 0
    for step in range(MAX_COMMANDS):
        waiting = sorted(game.to_act(state))
        if not waiting or settled >= hands:
            break
        seat = waiting[0]
        command = bot_turn(game, state, seat, kinds[seat], seed, step)
        events, state = game.decision(state, command)
        for event in events:
            if game.settles_hand(event):
                settled += 1
                tally.hand(game, event, kinds)
    tally.chips(game, game.view(state, None), kinds)
    return tally
