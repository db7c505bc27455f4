"""Accounts' seats (design §2.2, "Players who exist"): the statistics and recent tables of the
seats taken by an account, not of a typed name (:mod:`projections.players` counts those).

A seat is an account's when its ``PlayerSeated`` names an account (``account``: a person signed
in, ``player`` or ``guest``) or a server bot (``bot``): :func:`projections.ratings.seat_kind`.
A name typed without signing in counts for nobody here, so an account's statistics are its own
even when someone typed its name at a table before it was registered.

==========================================  =====  ==========================================
key (this shard's part)                      type   holds
==========================================  =====  ==========================================
``{p}shard:{<i>}:account-seats``            hash   table id -> ``{seat: name}`` of its
                                                   accounts' seats (until the table ends)
``{p}shard:{<i>}:account-player:{name}``    hash   ``{game}:{counter}`` -> int, as
                                                   :mod:`projections.players` counts
``{p}shard:{<i>}:account-players``          zset   every name an account sat under (score 0)
``{p}shard:{<i>}:account-tables:{name}``    zset   table id -> log position of the name's
                                                   first seat there (newest: highest)
==========================================  =====  ==========================================

Counted as :mod:`projections.players` counts, over the seating at the batch's end, but with
every seat not an account's left out. An account that changes its name (a guest claiming one)
keeps the keys of each name it sat under: a read names them all (``api/stats.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from uuid import UUID

from domain.table import PlayerSeated, TableEnded
from projections.model import CountingModel, Outcome, decode, encode
from projections.players import _fields, _tally, read_counters
from projections.ratings import seat_kind
from projections.tracking import Batch

TABLES_KEPT = 100_000  # tables' account seats remembered in memory at most


class AccountStats(CountingModel):
    """Each account name's statistics over its own seats, and the tables it sat at."""

    def __init__(self, redis: Any, keys: Any) -> None:
        super().__init__(redis, keys)
        self._seats: dict[str, dict[str, str] | None] = {}  # table id -> seat -> name

    def forget(self) -> None:
        super().forget()
        self._seats.clear()

    def flushed(self) -> None:
        super().flushed()
        self._seats.clear()

    # -- keys ------------------------------------------------------------------------------------
    def seats_key(self) -> str:
        return self.keys.named("account-seats")

    def key(self, name: str) -> str:
        return self.keys.named(f"account-player:{name}")

    def index(self) -> str:
        return self.keys.named("account-players")

    def tables_key(self, name: str) -> str:
        return self.keys.named(f"account-tables:{name}")

    def flush_keys(self) -> Iterable[str]:
        names: list[bytes] = self._redis.zrange(self.index(), 0, -1)  # type: ignore[assignment]
        keys = [self.index(), self.seats_key()]
        for raw in names:
            keys += [self.key(raw.decode()), self.tables_key(raw.decode())]
        return keys

    # -- the write side --------------------------------------------------------------------------
    def write(self, batch: Batch, outcome: Outcome) -> None:
        if len(self._seats) >= TABLES_KEPT:
            self._seats.clear()  # bounded: re-read from Redis when next needed
        changed: dict[str, dict[str, str] | None] = {}
        for table, run in outcome.runs:
            table_id = str(table.table_id)
            for note in run:
                event = note.event
                if isinstance(event, PlayerSeated):
                    seats = dict(self._entry(table_id) or {})
                    if seat_kind(event) is None:
                        seats.pop(str(event.seat), None)
                    else:
                        seats[str(event.seat)] = event.name
                        batch.zadd(self.tables_key(event.name), table_id, note.position)
                        batch.zadd(self.index(), event.name, 0)
                    self._seats[table_id] = changed[table_id] = seats
                elif isinstance(event, TableEnded):
                    changed[table_id] = None  # counted below with its seating, then forgotten
        seated_by: dict[UUID, list[str | None]] = {}
        for table in outcome.tables:
            table_id = str(table.table_id)
            entry = changed[table_id] if table_id in changed else self._entry(table_id)
            if entry is None and table_id in changed:
                entry = self._entry(table_id)  # ended in this batch: its last seating
            names = table.game.seating(table.state).names
            seated_by[table.table_id] = [
                name if entry is not None and entry.get(str(seat)) == name else None
                for seat, name in enumerate(names)
            ]
        # a batch of typed names' tables only counts nothing here: not tallied at all
        counted = any(name is not None for names in seated_by.values() for name in names)
        players = _tally(outcome, seated_by)[0] if counted else {}
        for name in sorted(players):
            batch.zadd(self.index(), name, 0)
        increments = {self.key(name): _fields(players[name]) for name in sorted(players)}
        self._totals.add(batch, {key: fields for key, fields in increments.items() if fields})
        for table_id in sorted(changed):
            kept = changed[table_id]
            if kept is None:
                self._seats.pop(table_id, None)
                batch.hdel(self.seats_key(), table_id)
            else:
                batch.hset(self.seats_key(), table_id, encode(kept))

    def _entry(self, table_id: str) -> dict[str, str] | None:
        if table_id not in self._seats:
            raw = self._redis.hget(self.seats_key(), table_id)
            self._seats[table_id] = decode(raw) if raw else None
        return self._seats[table_id]

    # -- reads -----------------------------------------------------------------------------------
    def read(self, names: Iterable[str]) -> dict[str, dict[str, int]] | None:
        """The counters per game of the seats taken under any of ``names`` (one account's);
        None when it never sat."""
        parts = [part for name in names for part in self.keys.parts(f"account-player:{name}")]
        return read_counters(self._redis, parts)

    def recent_tables(self, names: Iterable[str], limit: int) -> list[str]:
        """The ids of the last ``limit`` tables sat at under any of ``names``, newest first."""
        found: dict[str, float] = {}
        for name in names:
            for part in self.keys.parts(f"account-tables:{name}"):
                pairs: list[tuple[bytes, float]] = self._redis.zrevrange(  # type: ignore[assignment]
                    part, 0, limit - 1, withscores=True
                )
                for member, score in pairs:
                    table_id = member.decode()
                    found[table_id] = max(score, found.get(table_id, score))
        newest = sorted(found, key=lambda table_id: (-found[table_id], table_id))
        return newest[:limit]
