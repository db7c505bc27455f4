"""Bots playing through the real write side (``cardroom simulate``).

Each seat holds a bot of a kind (:mod:`bots`; ``random`` by default, kinds seated
alternately, shifted by one seat per table; its ``PlayerSeated`` names the kind, as a server
bot's does) that decides from its seat's view and legal
commands — the same legality the API enforces — and sends the command through
:meth:`TableStore.execute`, so a simulation exercises the store, its concurrency control and
(when a projector runs) the read side exactly as real clients would. Every table it opens is
ended before it returns (``close_table`` once the hands asked for are played); the report
holds each table's seats and figures per bot kind (:class:`bots.tally.Tally`).
"""

from __future__ import annotations

import random
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from bots.arena import bot_turn, seat_kinds
from bots.strength import Strength
from bots.tally import Tally
from domain.cards import derive_seed
from domain.game import Game
from domain.games import game_named
from domain.table import ENDED, CloseAsked, CloseTable, TakeSeat, hash_token
from infra.errors import VersionConflict
from infra.store import TableStore

# A hand with random bots is long but finite; this guards against a rules bug looping forever.
MAX_COMMANDS_PER_HAND = 20_000


class SimulationStuck(RuntimeError):
    """A table stopped making progress (a rules bug: someone to act but nothing legal)."""


@dataclass
class SimulationReport:
    """What a simulation did, for the CLI's summary."""

    tables: int = 0
    hands: int = 0
    commands: int = 0
    events: int = 0
    seconds: float = 0.0
    last_position: int = 0
    table_ids: list[UUID] = field(default_factory=list)
    tally: Tally = field(default_factory=Tally)
    strength: Strength = field(default_factory=Strength)  # per-hand figures, for intervals
    # per table: the seats' names, bots and final view figures (chips or team scores)
    results: list[dict[str, Any]] = field(default_factory=list)

    @property
    def commands_per_second(self) -> float:
        return self.commands / self.seconds if self.seconds > 0 else 0.0


def play_table(
    store: TableStore,
    game: str,
    hands: int,
    seed: int,
    *,
    options: Mapping[str, Any] | None = None,
    on_hand: Callable[[], None] | None = None,
    report: SimulationReport | None = None,
    bots: tuple[str, ...] = ("random",),
    shift: int = 0,
) -> SimulationReport:
    """Open a table, seat bots (``bots`` alternately from seat ``shift``), play until
    ``hands`` hands settle or the table ends, then end the table."""
    report = report if report is not None else SimulationReport()
    rng = random.Random(derive_seed(seed, "bots"))
    bot_seed = derive_seed(seed, "bot-turns")
    # The game's options for a table of bots (e.g. tables that end themselves after ``hands``
    # hands, so the lobby then shows them ended), overridden by the caller's.
    table_options = {**game_named(game).bot_options(hands), **(options or {})}
    started = time.perf_counter()
    result = store.create_table(game, table_options, seed=derive_seed(seed, "table") % 2**63)
    table_id = result.table_id
    report.table_ids.append(table_id)
    report.events += len(result.events)
    opened = store.get(table_id)
    kinds = seat_kinds(bots, opened.game.seating(opened.state).seats, shift)
    for seat, kind in enumerate(kinds):
        result = _seat_bot(store, table_id, kind, seat)
        report.commands += 1
        report.events += len(result.events)
    settled = 0
    since_settle = 0
    chips = _chips(store, table_id)
    while settled < hands:
        table = store.get(table_id)
        rules = table.game
        waiting = sorted(rules.to_act(table.state))
        if not waiting:
            break  # the table ended (hand limit, match won) or waits for nobody
        seat = rng.choice(waiting)
        command = bot_turn(rules, table.state, seat, kinds[seat], bot_seed, table.version)
        if command is None:
            raise SimulationStuck(
                f"table {table_id} version {table.version}: seat {seat} is to act "
                "but has no legal command"
            )
        try:
            result = store.execute(table_id, command, expected_version=table.version)
        except VersionConflict:
            # A server's bot worker beside us (``--no-project`` next to ``cardroom serve``)
            # played the seat first: its events count as ours did, and we decide again.
            recorded_events = store.events(table_id, table.version + 1)
        else:
            report.commands += 1
            report.events += len(result.events)
            report.last_position = max(report.last_position, result.position)
            recorded_events = list(result.events)
        since_settle += 1
        for recorded in recorded_events:
            if rules.settles_hand(recorded.event):
                report.tally.hand(rules, recorded.event, kinds)
                now = _chips(store, table_id)
                report.strength.hand(rules, recorded.event, kinds, chips, now)
                chips = now
                settled += 1
                since_settle = 0
                report.hands += 1
                if on_hand is not None:
                    on_hand()
        if since_settle > MAX_COMMANDS_PER_HAND:
            raise SimulationStuck(
                f"table {table_id}: no hand settled in {MAX_COMMANDS_PER_HAND} commands"
            )
    _end(store, table_id, report, bot_seed, kinds)
    final = store.get(table_id)
    view = final.game.view(final.state, None)
    report.tally.chips(final.game, view, kinds)
    report.results.append(_result(final.game, table_id, view, kinds))
    report.tables += 1
    report.seconds += time.perf_counter() - started
    return report


def _chips(store: TableStore, table_id: UUID) -> dict[int, int]:
    """Each seat's chips in the table's spectator view (a game that keeps chips), else {}."""
    table = store.get(table_id)
    return dict(table.game.house.bots.table(table.game.view(table.state, None)))


def _seat_bot(store: TableStore, table_id: UUID, kind: str, seat: int) -> Any:
    """Seat a bot of ``kind`` at ``seat``: its ``PlayerSeated`` names the kind (as a server
    bot's does, so the export's results and ``GET /players`` know which bot played), under
    the name ``"{kind} bot {seat}"``; its token is drawn and forgotten."""
    token_hash = hash_token(secrets.token_urlsafe(24))
    command = TakeSeat(name=f"{kind} bot {seat}", token_hash=token_hash, seat=seat, bot=kind)
    return store.execute(table_id, command)


def _end(
    store: TableStore, table_id: UUID, report: SimulationReport, seed: int, kinds: list[str]
) -> None:
    """End the table: ``close_table`` by every seat while the table asks for agreement (a game
    whose players must all agree, ``CloseAsked``), then play out the hand in progress (a game
    that settles it before ending) with the same bots."""
    table = store.get(table_id)
    if table.game.seating(table.state).status == ENDED:
        return
    for seat in range(len(kinds)):
        closed = store.execute(table_id, CloseTable(seat=seat)).events
        report.events += len(closed)
        report.commands += 1
        if not isinstance(closed[-1].event, CloseAsked):
            break
    for _ in range(MAX_COMMANDS_PER_HAND):
        table = store.get(table_id)
        waiting = sorted(table.game.to_act(table.state))
        if not waiting:
            return
        command = bot_turn(table.game, table.state, waiting[0], kinds[waiting[0]], seed,
                           table.version)  # fmt: skip
        try:
            report.events += len(
                store.execute(table_id, command, expected_version=table.version).events
            )
        except VersionConflict:
            continue  # played meanwhile by a server's bot worker: decide again
        report.commands += 1
    raise SimulationStuck(f"table {table_id}: the last hand did not end after close_table")


def _result(game: Game, table_id: UUID, view: dict[str, Any], kinds: list[str]) -> dict[str, Any]:
    """One table's outcome for the summary: seats with bot, score (the game's
    ``house.bots.scores``: chips, a team's points…; null if it keeps none), winners."""
    scores = game.house.bots.scores(view)
    seats = [
        {"seat": seat, "bot": kind, "score": scores.get(seat)} for seat, kind in enumerate(kinds)
    ]
    scored = [s["score"] for s in seats if s["score"] is not None]
    best = max(scored) if scored else None
    winners = [s["seat"] for s in seats if best is not None and s["score"] == best]
    return {"table": str(table_id), "status": view.get("status"), "seats": seats,
            "winners": winners}  # fmt: skip


def simulate(
    store: TableStore,
    game: str,
    tables: int,
    hands: int,
    seed: int,
    *,
    options: Mapping[str, Any] | None = None,
    on_hand: Callable[[], None] | None = None,
    workers: int = 1,
    bots: tuple[str, ...] = ("random",),
) -> SimulationReport:
    """Play ``tables`` tables of ``hands`` hands each from one seed, ``workers`` at a time
    (threads sharing the store, as API workers do). ``seconds`` is the wall-clock time."""
    lock = threading.Lock()

    def hand_done() -> None:
        if on_hand is not None:
            with lock:  # progress callbacks (a click progress bar) are not thread-safe
                on_hand()

    def one(index: int) -> SimulationReport:
        return play_table(
            store, game, hands, derive_seed(seed, "simulate", index), options=options,
            on_hand=hand_done, bots=bots, shift=index,
        )  # fmt: skip

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        parts = list(pool.map(one, range(tables)))
    report = SimulationReport(seconds=time.perf_counter() - started)
    report.strength.kinds = list(dict.fromkeys(bots))
    for part in parts:
        report.tables += part.tables
        report.hands += part.hands
        report.commands += part.commands
        report.events += part.events
        report.last_position = max(report.last_position, part.last_position)
        report.table_ids += part.table_ids
        report.tally.add(part.tally)
        report.strength.add(part.strength)
        report.results += part.results
    return report
