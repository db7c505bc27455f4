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

Per player — Bourré: ``hands`` dealt in and settled, ``won`` (the pot alone), ``split`` (a tied
share), ``chips`` net (antes, payouts and bourré payments, rules 5–7 and 23–27), ``bourres``
(rule 24), ``played`` and ``passed`` (rules 11–12); Burraco (rules 15–27; a team's facts count
for both partners): ``hands``, ``won`` (the higher score of the hand), ``matches``,
``clean_burracos``, ``dirty_burracos``, ``closings``, ``pozzetti_first`` (pozzetto 0: the first
taken in the hand). Per game — Bourré: ``hands``, ``pot_chips`` (summed pots),
``hands_seats_{n}`` and ``bourre_hands_seats_{n}`` (hands with a bourré, by seat count);
Burraco: ``hands``, ``team_hands`` and ``score_points`` (summed team scores of each hand),
``clean_burracos``, ``dirty_burracos``, ``matches``. Any other game: ``hands`` settled.

Counted when stored, as the counters of :mod:`projections.analytics` are, and written whole as
they are (:mod:`projections.totals`: chip sums outgrow Redis's 64-bit integers).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any
from uuid import UUID

from domain.game import Game
from projections.analytics import tag_of_class
from projections.model import CountingModel, Outcome
from projections.table_projection import ProjectionError
from projections.tracking import Batch

Counts = defaultdict[str, int]


def _counts() -> Counts:
    return defaultdict(int)


def _bourre(tag: str, event: Any, names: list[str | None], player: Any, game: Counts) -> None:
    if tag == "Anted":
        for seat in event.seats:
            player(seat, "chips", -event.amount)
    elif tag == "Declared" and not event.sealed:
        player(event.seat, "played" if event.play else "passed", 1)
    elif tag == "DecisionsRevealed":
        for seat, play in enumerate(event.plays):
            player(seat, "played" if play else "passed", 1)
    elif tag == "HandSettled":
        seats = len(names)
        game["hands"] += 1
        game["pot_chips"] += event.pot
        game[f"hands_seats_{seats}"] += 1
        game[f"bourre_hands_seats_{seats}"] += 1 if event.bourre else 0
        for seat in range(seats):
            player(seat, "hands", 1)
            player(seat, "won", 1 if seat == event.winner else 0)
            player(seat, "split", 1 if seat in event.tied else 0)
            player(seat, "bourres", 1 if seat in event.bourre else 0)
            paid = event.bourre_payment if seat in event.bourre else 0
            player(seat, "chips", event.payouts[seat] - paid)


def _burraco(tag: str, event: Any, names: list[str | None], player: Any, game: Counts) -> None:
    def team(team: int, counter: str, amount: int) -> None:
        for seat in range(len(names)):
            if seat % 2 == team:  # partners sit opposite; heads-up each seat is a team
                player(seat, counter, amount)

    if tag == "HandScored":
        totals = [score.total for score in event.scores]
        game["hands"] += 1
        game["team_hands"] += len(totals)
        game["score_points"] += sum(totals)
        for index, score in enumerate(event.scores):
            game["clean_burracos"] += score.clean_burracos
            game["dirty_burracos"] += score.dirty_burracos
            team(index, "hands", 1)
            team(
                index, "won", 1 if totals[index] > max(totals[:index] + totals[index + 1 :]) else 0
            )
            team(index, "clean_burracos", score.clean_burracos)
            team(index, "dirty_burracos", score.dirty_burracos)
    elif tag == "MatchWon":
        game["matches"] += 1
        team(event.team, "matches", 1)
    elif tag == "HandClosed" and event.reason == "closed" and event.seat is not None:
        player(event.seat, "closings", 1)
    elif tag == "PozzettoTaken":
        player(event.seat, "pozzetti_first", 1 if event.pozzetto == 0 else 0)


def _other(game_rules: Game, event: Any, game: Counts) -> None:
    if game_rules.settles_hand(event):
        game["hands"] += 1


_GAMES = {"bourre": _bourre, "burraco": _burraco}
# The event types each game's statistics read (the others are passed over quickly).
_COUNTED = {
    "bourre": frozenset({"Anted", "Declared", "DecisionsRevealed", "HandSettled"}),
    "burraco": frozenset({"HandScored", "MatchWon", "HandClosed", "PozzettoTaken"}),
}

# Every counter a name has in each game (those never counted yet read as 0).
PLAYER_COUNTERS = {
    "bourre": ("hands", "won", "split", "chips", "bourres", "played", "passed"),
    "burraco": (
        "hands", "won", "matches", "clean_burracos", "dirty_burracos", "closings",
        "pozzetti_first",
    ),
}  # fmt: skip


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


def _tally(outcome: Outcome) -> Tally:
    names: dict[UUID, list[str | None]] = {
        table.table_id: list(table.game.seating(table.state).names) for table in outcome.tables
    }
    players: dict[str, dict[str, Counts]] = defaultdict(lambda: defaultdict(_counts))
    games: dict[str, Counts] = defaultdict(_counts)

    def seat_counter(game: str, seated: list[str | None]) -> Any:
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

    counters: dict[UUID, Any] = {}
    for (game, kind), notes in outcome.by_kind().items():
        count = _GAMES.get(game.name)
        tag = tag_of_class(kind)
        if count is not None and tag not in _COUNTED[game.name]:
            continue  # most events (cards played, draws) count for nobody's statistics
        totals = games[game.name]
        table_id: UUID | None = None
        for note in notes:
            try:
                if count is None:
                    _other(game, note.event, totals)
                    continue
                if note.table_id is not table_id:  # a group holds each table's events together
                    table_id = note.table_id
                    seated = names.get(table_id, [])
                    player = counters.get(table_id)
                    if player is None:
                        player = counters[table_id] = seat_counter(game.name, seated)
                count(tag, note.event, seated, player, totals)
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
        games = _read(self._redis, self.keys.parts(f"player:{name}"))
        if not games:
            return None
        for game, counts in games.items():
            for counter in PLAYER_COUNTERS.get(game, ()):
                counts.setdefault(counter, 0)
        return {game: dict(sorted(counts.items())) for game, counts in games.items()}


class GameTotals(CountingModel):
    """Per-game totals (hands, pots, bourrés by seat count, Burraco scores)."""

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
