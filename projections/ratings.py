"""Ratings (design §2.2, "Ratings as a projection"): each account's skill per game, rebuilt
from the log like every read model (:mod:`projections.model`).

Ratings are openskill's Plackett–Luce model (μ, σ; the displayed figure is the ordinal
μ − 3σ). A game's ``house.ranking`` says how a settled hand ranks its sides (seats or
partnerships, by the chips or points of the hand); the hand is then rated, in log order:

* in the ``players`` pool when every seat is a registered account (a seat taken signed in,
  ``PlayerSeated.account == "player"``): no guest, no name typed without signing in, no bot;
* in the ``bots`` pool when every seat is a server-side bot (``bot:<kind>`` accounts), so a
  bot is never rated against people;
* never at a table with fixed deals (a chosen seed or stacked decks), nor at a fork (a
  sandbox from another table's position, :mod:`domain.table.fork`).

=====================================  ======  =============================================
key (this shard's part)                type    holds
=====================================  ======  =============================================
``{p}shard:{<i>}:ratings:tables``      hash    table id -> its seats' names and kinds, and
                                               whether it may be rated (until it ends)
``{p}shard:{<i>}:ratings:{g}:{pool}``  hash    name -> ``{"mu", "sigma", "hands"}``
``{p}shard:{<i>}:ratings:{g}:{pool}:board``  zset  name -> ordinal (the leaderboard)
``{p}shard:{<i>}:ratings:kinds``       hash    rated name -> its kind
=====================================  ======  =============================================

A rating depends on the order of every table's hands, so hands are rated in log-position
order within a batch, whatever tables they belong to; with one projection shard (the
default) that is the log's order, and a rebuild reproduces every byte. (With several shards
each shard rates its own tables: see docs/scaling.md.)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec
from openskill.models import PlackettLuce

from domain.games import games
from domain.table import PlayerSeated, TableEnded, TableOpened
from domain.table.fork import is_fork
from projections.model import Outcome, ReadModel, decode, encode
from projections.table_projection import NotificationLike, TableProjection
from projections.tracking import Batch

POOLS = ("players", "bots")
TABLES_KEPT = 100_000  # tables' seatings remembered at most
PLAYER = "player"
BOT_PREFIX = "bot:"

# A rating as stored: μ, σ and the hands rated.
Rated = tuple[float, float, int]


class Rating(msgspec.Struct, frozen=True):
    mu: float
    sigma: float
    hands: int


def model() -> PlackettLuce:
    """The rating model (openskill's defaults: μ 25, σ 25/3, β 25/6, τ 25/300)."""
    return PlackettLuce()


def ordinal(mu: float, sigma: float) -> float:
    """The displayed rating: μ − 3σ (openskill's ``ordinal``)."""
    return mu - 3 * sigma


def ranks(scores: list[int]) -> list[float]:
    """Each side's rank, 1 the best: how many sides scored more, plus one (ties share)."""
    return [float(1 + sum(other > score for other in scores)) for score in scores]


def seat_kind(event: PlayerSeated) -> str | None:
    """The kind of account at a seat (``player``, ``guest``, ``bot:<kind>``; None: a name
    typed without signing in)."""
    if event.bot is not None:
        return BOT_PREFIX + event.bot
    return event.account


def pool_of(kinds: list[str | None]) -> str | None:
    """Where a hand of these seats is rated (module docstring), None: not rated."""
    if kinds and all(kind == PLAYER for kind in kinds):
        return "players"
    if kinds and all(kind is not None and kind.startswith(BOT_PREFIX) for kind in kinds):
        return "bots"
    return None


class Ratings(ReadModel):
    """Every rated account's μ, σ and hands per game and pool, and the leaderboards."""

    def __init__(self, redis: Any, keys: Any) -> None:
        super().__init__(redis, keys)
        self._model = model()
        self._tables: dict[str, dict[str, Any] | None] = {}  # table id -> entry (None: none)
        self._ratings: dict[tuple[str, str, str], Rated | None] = {}  # (game, pool, name)

    # -- keys ------------------------------------------------------------------------------------
    def tables_key(self) -> str:
        return self.keys.named("ratings:tables")

    def kinds_key(self) -> str:
        return self.keys.named("ratings:kinds")

    def ratings_key(self, game: str, pool: str) -> str:
        return self.keys.named(f"ratings:{game}:{pool}")

    def board_key(self, game: str, pool: str) -> str:
        return self.keys.named(f"ratings:{game}:{pool}:board")

    def flush_keys(self) -> Iterable[str]:
        keys = [self.tables_key(), self.kinds_key()]
        for game in games():
            for pool in POOLS:
                keys += [self.ratings_key(game.name, pool), self.board_key(game.name, pool)]
        return keys

    def forget(self) -> None:
        self._tables.clear()
        self._ratings.clear()

    # -- the write side --------------------------------------------------------------------------
    def write(self, batch: Batch, outcome: Outcome) -> None:
        notes: list[tuple[int, TableProjection, NotificationLike]] = [
            (note.position, table, note) for table, run in outcome.runs for note in run
        ]
        notes.sort(key=lambda found: found[0])  # the log's order across tables
        if len(self._tables) >= TABLES_KEPT:
            self._tables.clear()  # crude but bounded: between batches, re-read from Redis
        tables: dict[str, dict[str, Any] | None] = {}
        rated: dict[tuple[str, str, str], Rated] = {}
        kinds: dict[str, str] = {}
        for _, table, note in notes:
            event = note.event
            table_id = str(note.table_id)
            if isinstance(event, TableOpened):
                open_to_rating = not event.fixed_deals and not is_fork(event.options)
                entry: dict[str, Any] | None = {"rated": open_to_rating, "seats": {}}
                self._tables[table_id] = tables[table_id] = entry
                continue
            if isinstance(event, PlayerSeated):
                entry = self._table(table_id)
                if entry is not None:
                    entry["seats"][str(event.seat)] = [event.name, seat_kind(event)]
                    tables[table_id] = entry
                continue
            if isinstance(event, TableEnded):  # no event follows: forgotten, its entry deleted
                self._tables.pop(table_id, None)
                tables[table_id] = None
                continue
            seats = table.game.seating(table.state).seats
            ranking = table.game.house.ranking(event, seats)
            if ranking is None:
                continue
            entry = self._table(table_id)
            if entry is None or not entry["rated"]:
                continue
            seated = [entry["seats"].get(str(seat)) for seat in range(seats)]
            if any(found is None for found in seated):
                continue
            pool = pool_of([found[1] for found in seated])
            if pool is None:
                continue
            self._rate(table.game.name, pool, ranking, seated, rated, kinds)
        self._write(batch, tables, rated, kinds)

    def _rate(
        self,
        game: str,
        pool: str,
        ranking: list[tuple[tuple[int, ...], int]],
        seated: list[Any],
        rated: dict[tuple[str, str, str], Rated],
        kinds: dict[str, str],
    ) -> None:
        teams = []
        for seats, _ in ranking:
            team = []
            for seat in seats:
                name = seated[seat][0]
                mu, sigma, _ = self._rating(game, pool, name) or (None, None, 0)
                team.append(self._model.rating(mu=mu, sigma=sigma, name=name))
            teams.append(team)
        after = self._model.rate(teams, ranks=ranks([score for _, score in ranking]))
        for (seats, _), team in zip(ranking, after, strict=True):
            for seat, new in zip(seats, team, strict=True):
                name, kind = seated[seat]
                hands = (self._rating(game, pool, name) or (0.0, 0.0, 0))[2] + 1
                found = (float(new.mu), float(new.sigma), hands)
                self._ratings[(game, pool, name)] = rated[(game, pool, name)] = found
                kinds[name] = kind

    def _write(
        self,
        batch: Batch,
        tables: dict[str, dict[str, Any] | None],
        rated: dict[tuple[str, str, str], Rated],
        kinds: dict[str, str],
    ) -> None:
        for table_id in sorted(tables):
            entry = tables[table_id]
            if entry is None:
                batch.hdel(self.tables_key(), table_id)
            else:
                batch.hset(self.tables_key(), table_id, encode(entry))
        for (game, pool, name), (mu, sigma, hands) in sorted(rated.items()):
            batch.hset(self.ratings_key(game, pool), name, encode(Rating(mu, sigma, hands)))
            batch.zadd(self.board_key(game, pool), name, ordinal(mu, sigma))
        for name in sorted(kinds):
            batch.hset(self.kinds_key(), name, kinds[name])

    def _table(self, table_id: str) -> dict[str, Any] | None:
        if table_id not in self._tables:
            raw = self._redis.hget(self.tables_key(), table_id)
            self._tables[table_id] = decode(raw) if raw else None
        return self._tables[table_id]

    def _rating(self, game: str, pool: str, name: str) -> Rated | None:
        key = (game, pool, name)
        if key not in self._ratings:
            raw = self._redis.hget(self.ratings_key(game, pool), name)
            if raw:
                found = msgspec.json.decode(raw, type=Rating)
                self._ratings[key] = (found.mu, found.sigma, found.hands)
            else:
                self._ratings[key] = None
        return self._ratings[key]

    # -- reads -----------------------------------------------------------------------------------
    def player(self, name: str) -> tuple[str | None, dict[str, dict[str, Any]]]:
        """``name``'s kind (None: never rated) and ratings per game (its pool's)."""
        raw_kind = self._redis.hget(self.kinds_key(), name)
        kind = raw_kind.decode() if isinstance(raw_kind, bytes) else None
        found: dict[str, dict[str, Any]] = {}
        for game in games():
            for pool in POOLS:
                raw = self._redis.hget(self.ratings_key(game.name, pool), name)
                if raw:
                    rating = msgspec.json.decode(raw, type=Rating)
                    found[game.name] = shown(rating) | {"pool": pool}
        return kind, found

    def board(self, game: str, pool: str, offset: int, limit: int) -> list[dict[str, Any]]:
        """One page of ``game``'s leaderboard in ``pool``, highest ordinal first."""
        names: list[bytes] = self._redis.zrevrange(  # type: ignore[assignment]
            self.board_key(game, pool), offset, offset + limit - 1
        )
        if not names:
            return []
        raws: list[bytes | None] = self._redis.hmget(  # type: ignore[assignment]
            self.ratings_key(game, pool), names
        )
        page = []
        for name, raw in zip(names, raws, strict=True):
            if raw:
                rating = msgspec.json.decode(raw, type=Rating)
                page.append({"name": name.decode()} | shown(rating))
        return page


def shown(rating: Rating) -> dict[str, Any]:
    return {
        "mu": rating.mu,
        "sigma": rating.sigma,
        "ordinal": ordinal(rating.mu, rating.sigma),
        "hands": rating.hands,
    }
