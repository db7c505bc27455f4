"""A tournament's Decider (docs/rules/tournaments.md): ``decide(state, command) -> events``
and ``evolve(state, event) -> state``, pure like a table's. The write side draws the secret
and the table ids and hands them in with the commands.

* ``create_tournament`` (T1): a known game, format and bot kind; 1–50 rounds, 1–50 tables,
  1–20 boards a round; the tables' options checked by the game; a duplicate event's movement
  checked (T4); a Sit & Go is one table and one round.
* ``enter`` (T1): while it waits, a free place; one name a seat of a side, each by the rule of
  names (:func:`domain.names.check_name`), none twice in the event. The entry that fills a
  Sit & Go starts it.
* ``start``: while it waits; the organiser's bots fill every free place (none: at least one
  full table of entries); the boards' commitments are published (T2).
* ``fill_with_bots`` (the process manager, T1): a Sit & Go whose organiser allowed it
  (``botsAfterSeconds``, with ``bots``) starts as ``start`` does once it has waited that long
  since it was created and someone has entered; the wait is an input (``waited_seconds``,
  from the stored creation time and the manager's clock), so the rule stays pure.
* ``pair_round`` (T4, T5): the next round, once the previous one ended.
* ``record_table`` (T3): a table of the current round ended; when it is the round's last,
  every board of the round opens (``BoardOpened``: deck, salt), the round ends and, after the
  last round, the event ends.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from domain.errors import IllegalCommand
from domain.games import game_named
from domain.names import check_name, name_key
from domain.tournament import movement, swiss
from domain.tournament.boards import board
from domain.tournament.errors import InvalidField
from domain.tournament.events import (
    DUPLICATE,
    ENDED,
    FORMATS,
    PLAYING,
    SIT_AND_GO,
    SWISS,
    WAITING,
    BoardOpened,
    CreateTournament,
    Enter,
    EntryAccepted,
    FillWithBots,
    PairRound,
    RecordTable,
    RoundEnded,
    RoundPaired,
    Start,
    TableFinished,
    TablePlan,
    TournamentCreated,
    TournamentEnded,
    TournamentStarted,
)
from domain.tournament.formats import scoring_of, sides_of, table_options
from domain.tournament.scoring import MATCH, TableResult, pairs_met, standings

MAX_ROUNDS, MAX_TABLES, MAX_BOARDS = 50, 50, 20
MAX_BOTS_AFTER = 86_400.0  # a Sit & Go waits at most a day before bots fill it
_SECRET = re.compile(r"[0-9a-f]{32,128}")


class TournamentError(IllegalCommand):
    """A command the tournament refuses now (409 at the API)."""

    status = 409


@dataclass(frozen=True)
class Tournament:
    """A tournament as its events tell it."""

    created: TournamentCreated
    status: str = WAITING
    entries: dict[int, EntryAccepted] = field(default_factory=dict)
    commitments: tuple[str, ...] = ()
    rounds: dict[int, RoundPaired] = field(default_factory=dict)
    finished: dict[str, TableFinished] = field(default_factory=dict)
    opened: dict[int, BoardOpened] = field(default_factory=dict)
    ended_rounds: frozenset[int] = frozenset()

    @property
    def capacity(self) -> int:
        return self.created.tables * len(self.created.sides)

    @property
    def current_round(self) -> int:
        return max(self.rounds, default=0)

    def round_of(self, table_id: str) -> int | None:
        for number, paired in self.rounds.items():
            if any(plan.table_id == table_id for plan in paired.tables):
                return number
        return None

    def plan_of(self, table_id: str) -> TablePlan | None:
        for paired in self.rounds.values():
            for plan in paired.tables:
                if plan.table_id == table_id:
                    return plan
        return None

    def results(self, rounds: frozenset[int] | None = None) -> list[TableResult]:
        """The finished tables of ``rounds`` (default: the ended rounds: T3)."""
        chosen = self.ended_rounds if rounds is None else rounds
        found = []
        for number in sorted(chosen):
            for plan in self.rounds[number].tables:
                done = self.finished.get(plan.table_id)
                if done is not None:
                    found.append(
                        TableResult(plan.table_id, number, plan.boards, plan.seats, done.hands)
                    )
        return found

    def byes(self) -> dict[int, int]:
        """Byes had in ended rounds, per entry."""
        had: dict[int, int] = {}
        for number in self.ended_rounds:
            for entry in self.rounds[number].byes:
                had[entry] = had.get(entry, 0) + 1
        return had

    def standings(self) -> list[dict[str, Any]]:
        """The standings of the ended rounds (T6–T9)."""
        names = {n: e.names for n, e in self.entries.items()}
        size = len(self.created.sides)
        return standings(self.created.scoring, names, self.results(), self.byes(), size)

    def tables_needed(self) -> int:
        """How many tables the next round seats."""
        return len(self.entries) // len(self.created.sides)


def decide(state: Tournament | None, command: Any) -> list[Any]:
    if state is None:
        if not isinstance(command, CreateTournament):
            raise TournamentError("no such tournament")
        return [create(command)]
    if isinstance(command, CreateTournament):
        raise TournamentError("the tournament exists already")
    if state.status == ENDED:
        raise TournamentError("the tournament has ended")
    if isinstance(command, Enter):
        accepted = enter(state, command)
        if state.created.format == SIT_AND_GO and len(state.entries) + 1 == state.capacity:
            return [accepted, *start(evolve(state, accepted))]  # full: a Sit & Go starts
        return [accepted]
    if isinstance(command, Start):
        return start(state)
    if isinstance(command, FillWithBots):
        return fill_with_bots(state, command)
    if isinstance(command, PairRound):
        return [pair_round(state, command)]
    if isinstance(command, RecordTable):
        return record_table(state, command)
    raise IllegalCommand(f"unknown command {type(command).__name__}")


def _count(key: str, value: Any, most: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= most:
        raise InvalidField(key, f"must be an integer from 1 to {most}")
    return value


def create(command: CreateTournament) -> TournamentCreated:
    game = game_named(command.game)
    if command.format not in FORMATS:
        raise InvalidField("format", f"must be one of {', '.join(FORMATS)}")
    rounds = _count("rounds", command.rounds, MAX_ROUNDS)
    tables = _count("tables", command.tables, MAX_TABLES)
    boards = _count("boardsPerRound", command.boards_per_round, MAX_BOARDS)
    if command.bots is not None and command.bots not in {k.name for k in game.house.bots.kinds}:
        kinds = ", ".join(k.name for k in game.house.bots.kinds)
        raise InvalidField("bots", f"{command.bots!r} is no bot of {game.title}; kinds: {kinds}")
    if not _SECRET.fullmatch(command.secret):
        raise InvalidField("secret", "must be 32 or more lowercase hex digits")
    if command.format == SIT_AND_GO and (tables != 1 or rounds != 1):
        raise InvalidField("tables", "a Sit & Go is one table and one round")
    wait = command.bots_after_seconds
    if wait is not None:
        if command.format != SIT_AND_GO or command.bots is None:
            raise InvalidField("botsAfterSeconds", "only a Sit & Go with `bots` fills with bots")
        if isinstance(wait, bool) or not isinstance(wait, int | float):
            raise InvalidField("botsAfterSeconds", "must be a number of seconds")
        if not 0 < wait <= MAX_BOTS_AFTER:
            most = f"{MAX_BOTS_AFTER:g}"
            raise InvalidField("botsAfterSeconds", f"must be above 0 and at most {most}")
    options, seats = table_options(command.game, command.format, command.options, boards)
    sides = sides_of(command.game, seats)
    if command.format == DUPLICATE:
        if tables < 2:
            raise InvalidField("tables", "a duplicate event compares at least two tables")
        movement.check(movement.mitchell(tables, rounds, len(sides), boards), tables * len(sides))
    return TournamentCreated(
        game=command.game,
        format=command.format,
        options=options,
        rounds=rounds,
        boards_per_round=boards if command.format == DUPLICATE else 0,
        tables=tables,
        seats=seats,
        sides=sides,
        scoring=scoring_of(command.format, len(sides)),
        bots=command.bots,
        secret=command.secret,
        name=command.name.strip()[:80],
        bots_after_seconds=None if wait is None else float(wait),
    )


def enter(state: Tournament, command: Enter) -> EntryAccepted:
    if state.status != WAITING:
        raise TournamentError("the tournament has started: entries are closed")
    if len(state.entries) >= state.capacity:
        raise TournamentError(f"the tournament is full ({state.capacity} entries)")
    size = len(state.created.sides[0])
    if len(command.names) != size or len(command.token_hashes) != size:
        raise InvalidField("names", f"an entry is {size} name{'s' if size > 1 else ''}")
    names = tuple(check_name(name) for name in command.names)
    taken = {name_key(n) for e in state.entries.values() for n in e.names}
    for name in names:
        if name_key(name) in taken:
            raise InvalidField("names", f"{name!r} has entered already")
        taken.add(name_key(name))
    if command.account is not None and size != 1:
        raise InvalidField("names", "an account enters alone: a pair enters by its names")
    return EntryAccepted(
        entry=len(state.entries),
        names=names,
        token_hashes=command.token_hashes,
        account=command.account,
    )


def start(state: Tournament) -> list[Any]:
    if state.status != WAITING:
        raise TournamentError("the tournament has started already")
    created = state.created
    size = len(created.sides)
    events: list[Any] = []
    if created.bots is not None:
        per = len(created.sides[0])
        for entry in range(len(state.entries), state.capacity):
            names = tuple(f"Bot {entry * per + m + 1} ({created.bots})" for m in range(per))
            events.append(
                EntryAccepted(entry=entry, names=names, token_hashes=("",) * per, bot=created.bots)
            )
    count = len(state.entries) + len(events)
    full = count == state.capacity if created.format != SWISS else count >= size
    if not full:
        raise TournamentError(
            f"{count} of {state.capacity} entries: fill every place or let bots fill them"
        )
    pack = game_named(created.game).table.pack
    commitments = tuple(
        board(created.secret, pack, n).commitment
        for n in range(1, created.rounds * created.boards_per_round + 1)
    )
    return [*events, TournamentStarted(commitments=commitments)]


def fill_with_bots(state: Tournament, command: FillWithBots) -> list[Any]:
    """The organiser's bots fill a waiting Sit & Go (module docstring)."""
    wait = state.created.bots_after_seconds
    if wait is None or state.created.bots is None:
        raise TournamentError("the organiser did not let bots fill this event")
    if state.status != WAITING:
        raise TournamentError("the tournament has started already")
    if not state.entries:
        raise TournamentError("nobody has entered yet: bots fill a table someone waits at")
    if not command.waited_seconds >= wait:
        raise TournamentError(f"the event has waited {command.waited_seconds:g}s of {wait:g}s")
    return start(state)


def pair_round(state: Tournament, command: PairRound) -> RoundPaired:
    if state.status != PLAYING:
        raise TournamentError("the tournament has not started")
    number = state.current_round + 1
    if command.round != number:
        raise TournamentError(f"round {number} is the next to pair, not {command.round}")
    if number > state.created.rounds:
        raise TournamentError("every round has been played")
    if number > 1 and number - 1 not in state.ended_rounds:
        raise TournamentError(f"round {number - 1} has not ended")
    created = state.created
    needed = state.tables_needed()
    if len(command.table_ids) != needed:
        raise InvalidField("tableIds", f"round {number} seats {needed} tables")
    sides = created.sides
    if created.format == SWISS:
        seated, byes = swiss_round(state)
        boards: list[tuple[int, ...]] = [()] * len(seated)
    elif created.format == DUPLICATE:
        moved = movement.mitchell(
            created.tables, created.rounds, len(sides), created.boards_per_round
        )
        boards = [b for b, _ in moved[number - 1]]
        seated, byes = [list(s) for _, s in moved[number - 1]], []
    else:
        seated, byes, boards = [sorted(state.entries)], [], [()]
    plans = tuple(
        TablePlan(table_id, t, boards[t], movement.seats_of(sides, seated[t], created.seats))
        for t, table_id in enumerate(command.table_ids)
    )
    return RoundPaired(round=number, tables=plans, byes=tuple(byes))


def swiss_round(state: Tournament) -> tuple[list[list[int]], list[int]]:
    """The next Swiss round's tables (each side position's entry) and byes (T5)."""
    results = state.results()
    rows = state.standings()
    ranked = [int(row["entry"]) for row in rows]
    score = {int(row["entry"]): float(row["score"]) for row in rows}
    sides = state.created.sides
    positions: dict[int, list[int]] = {}
    for result in results:
        for position, side in enumerate(sides):
            entry = result.seats[side[0]]
            positions.setdefault(entry, [0] * len(sides))[position] += 1
    return swiss.pair(ranked, len(sides), pairs_met(results), score, state.byes(), positions)


def record_table(state: Tournament, command: RecordTable) -> list[Any]:
    number = state.round_of(command.table_id)
    if number is None or number != state.current_round or number in state.ended_rounds:
        raise TournamentError(f"table {command.table_id} is not playing in this round")
    if command.table_id in state.finished:
        raise TournamentError(f"table {command.table_id} has finished already")
    events: list[Any] = [TableFinished(table_id=command.table_id, hands=command.hands)]
    paired = state.rounds[number]
    done = {t for t in state.finished} | {command.table_id}
    if all(plan.table_id in done for plan in paired.tables):
        created = state.created
        pack = game_named(created.game).table.pack
        for n in sorted({b for plan in paired.tables for b in plan.boards}):
            drawn = board(created.secret, pack, n)
            events.append(
                BoardOpened(board=n, deck=drawn.deck, salt=drawn.salt, commitment=drawn.commitment)
            )
        events.append(RoundEnded(round=number))
        if number == created.rounds:
            events.append(TournamentEnded())
    return events


def evolve(state: Tournament | None, event: Any) -> Tournament:
    if isinstance(event, TournamentCreated):
        return Tournament(created=event)
    assert state is not None, "a tournament starts with TournamentCreated"
    if isinstance(event, EntryAccepted):
        return replace(state, entries={**state.entries, event.entry: event})
    if isinstance(event, TournamentStarted):
        return replace(state, status=PLAYING, commitments=event.commitments)
    if isinstance(event, RoundPaired):
        return replace(state, rounds={**state.rounds, event.round: event})
    if isinstance(event, TableFinished):
        return replace(state, finished={**state.finished, event.table_id: event})
    if isinstance(event, BoardOpened):
        return replace(state, opened={**state.opened, event.board: event})
    if isinstance(event, RoundEnded):
        return replace(state, ended_rounds=state.ended_rounds | {event.round})
    if isinstance(event, TournamentEnded):
        return replace(state, status=ENDED)
    return state


def fold(events: Any) -> Tournament | None:
    state: Tournament | None = None
    for event in events:
        state = evolve(state, event)
    return state


__all__ = ["MATCH", "Tournament", "TournamentError", "decide", "evolve", "fold"]
