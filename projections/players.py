"""Player statistics and per-game totals (design §8, "Analytics"): read models kept exactly
once like the others (:mod:`projections.model`).

==============================  =====  ===================================================
key                             type   holds
==============================  =====  ===================================================
``{p}shard:{<i>}:player:{name}`` hash ``{game}:{counter}`` -> int, summed over the tables
``{p}shard:{<i>}:players``      zset   every name with statistics (score 0)
``{p}shard:{<i>}:stats``        hash   ``{game}:{counter}`` -> int, per game
==============================  =====  ===================================================

Each shard keeps its tables' part (:mod:`projections.keys`); a read sums the parts.

Names are not identities: a name is what a player typed when taking a seat, so two people may
share one and one person may use many (the API's answers say so in a ``note``).

What is counted, per player and per game, is the game's: its ``house.statistics``
(:mod:`domain.house`) counts the events it reads (hands, wins, chips or points, its own
feats) for the names seated at the table and for the game's totals, and lists every counter a
name has. A game without its own counts ``hands`` settled per game.

Counted when stored, as the counters of :mod:`projections.analytics` are, and written whole as
they are (:mod:`projections.totals`: chip sums outgrow Redis's 64-bit integers).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any
from uuid import UUID

from domain.errors import InvalidOption
from domain.games import game_named
from domain.house import PlayerCounter
from projections.analytics import tag_of_class
from projections.forks import forked_tables
from projections.model import CountingModel, Outcome
from projections.table_projection import ProjectionError
from projections.tracking import Batch

Counts = defaultdict[str, int]


def _counts() -> Counts:
    return defaultdict(int)


Tally = tuple[dict[str, dict[str, Counts]], dict[str, Counts]]
# The last batch tallied: both read models of this module ask for the same batch in turn.
_last: tuple[Outcome | None, Tally | None] = (None, None)


def tally(outcome: Outcome) -> Tally:
    """The batch's increments: per name per game, and per game (counted once per batch)."""
    global _last
    seen, counted = _last
    if seen is outcome and counted is not None:
        return counted
    counted = _tally(outcome)
    _last = (outcome, counted)
    return counted


def _tally(outcome: Outcome, seated_by: dict[UUID, list[str | None]] | None = None) -> Tally:
    """The batch's increments for the names seated at its tables as of its end (or as
    ``seated_by`` names them: :mod:`projections.accountstats` counts accounts' seats only)."""
    names: dict[UUID, list[str | None]] = (
        {table.table_id: list(table.game.seating(table.state).names) for table in outcome.tables}
        if seated_by is None
        else seated_by
    )
    players: dict[str, dict[str, Counts]] = defaultdict(lambda: defaultdict(_counts))
    games: dict[str, Counts] = defaultdict(_counts)

    def seat_counter(game: str, seated: list[str | None]) -> PlayerCounter:
        mine: list[Counts | None] = [None] * len(seated)  # each seat's counts, once needed

        def player(seat: int, counter: str, amount: int) -> None:
            if seat >= len(seated):
                return
            counts = mine[seat]
            if counts is None:
                name = seated[seat]
                if name is None:
                    return
                counts = mine[seat] = players[name][game]
            counts[counter] += amount

        return player

    counters: dict[UUID, PlayerCounter] = {}
    forks = forked_tables(outcome)  # sandboxes: never in statistics (projections.forks)
    for (game, kind), notes in outcome.by_kind().items():
        if forks:
            notes = [note for note in notes if note.table_id not in forks]
        statistics = game.house.statistics
        count, tag = statistics.count, tag_of_class(kind)
        if statistics.events is not None and tag not in statistics.events:
            continue  # most events (cards played, draws) count for nobody's statistics
        totals = games[game.name]
        table_id: UUID | None = None
        for note in notes:
            try:
                if note.table_id is not table_id:  # a group holds each table's events together
                    table_id = note.table_id
                    seated = names.get(table_id, [])
                    known = counters.get(table_id)
                    if known is None:
                        known = counters[table_id] = seat_counter(game.name, seated)
                    player = known
                count(game, tag, note.event, seated, player, totals)
            except Exception as error:  # name the event an operator must look at
                raise ProjectionError(
                    f"position {note.position} (table {note.table_id} version {note.version}): "
                    f"cannot count its player statistics: {error!r}"
                ) from error
    return players, games


def _fields(increments: dict[str, Counts]) -> dict[str, int]:
    """A hash's increments (game -> counter -> amount) by field ``{game}:{counter}``."""
    return {
        f"{game}:{counter}": amount for game, counts in increments.items()
        for counter, amount in counts.items()
    }  # fmt: skip


def read_counters(redis: Any, parts: list[str]) -> dict[str, dict[str, int]] | None:
    """A name's counters per game summed over ``parts`` (every counter its games list, zero
    when not counted); None when there are none."""
    games = _read(redis, parts)
    if not games:
        return None
    for game, counts in games.items():
        for counter in _player_counters(game):
            counts.setdefault(counter, 0)
    return {game: dict(sorted(counts.items())) for game, counts in games.items()}


def _read(redis: Any, parts: list[str]) -> dict[str, dict[str, int]]:
    """The counters of every shard's part (:meth:`projections.keys.Keys.parts`), summed."""
    games: dict[str, dict[str, int]] = {}
    for part in parts:
        raw: dict[bytes, bytes] = redis.hgetall(part)
        for field, value in sorted(raw.items()):
            game, _, counter = field.decode().partition(":")
            counts = games.setdefault(game, {})
            counts[counter] = counts.get(counter, 0) + int(value)
    return games


def _player_counters(name: str) -> tuple[str, ...]:
    """Every counter a name has in the game called ``name`` (none for a game not known)."""
    try:
        return game_named(name).house.statistics.player_counters
    except InvalidOption:
        return ()


class PlayerStats(CountingModel):
    """Each name's statistics over every table."""

    def key(self, name: str) -> str:
        return self.keys.named(f"player:{name}")

    def index(self) -> str:
        return self.keys.named("players")

    def write(self, batch: Batch, outcome: Outcome) -> None:
        players, _ = tally(outcome)
        for name in sorted(players):
            batch.zadd(self.index(), name, 0)
        increments = {self.key(name): _fields(players[name]) for name in sorted(players)}
        self._totals.add(batch, {key: fields for key, fields in increments.items() if fields})

    def flush_keys(self) -> Iterable[str]:
        names: list[bytes] = self._redis.zrange(self.index(), 0, -1)  # type: ignore[assignment]
        return [self.index(), *(self.key(name.decode()) for name in names)]

    def read(self, name: str) -> dict[str, dict[str, int]] | None:
        """Counters per game for ``name``; None for a name never seated."""
        return read_counters(self._redis, self.keys.parts(f"player:{name}"))


class GameTotals(CountingModel):
    """Per-game totals (hands, and what each game's statistics add: pots, scores…)."""

    def key(self) -> str:
        return self.keys.named("stats")

    def write(self, batch: Batch, outcome: Outcome) -> None:
        _, games = tally(outcome)
        fields = _fields(games)
        if fields:
            self._totals.add(batch, {self.key(): fields})

    def flush_keys(self) -> Iterable[str]:
        return (self.key(),)

    def read(self) -> dict[str, dict[str, int]]:
        return _read(self._redis, self.keys.parts("stats"))
