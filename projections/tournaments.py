"""The tournaments' standings (design §10): a read model of the tables' log alone, rebuilt
byte for byte by ``cardroom rebuild``.

Each tournament table carries its placement in its options (:mod:`domain.tournament.embargo`:
the event, the round and its table count, its boards, the entry at each seat), so the tables'
events say everything the standings need: who sat where (``PlayerSeated``), each settled
hand's sides (the game's ``house.ranking``) and when the table ended. A round counts once
every table of it has ended — before that nothing of it is written where a reader looks
(rule T3) — and the standings are then the same function of the results the tournament itself
uses (:func:`domain.tournament.scoring.standings`).

==========================================  ====  ==============================================
key (this shard's part)                     type  holds
==========================================  ====  ==============================================
``{p}shard:{<i>}:tournament:index``         hash  table id -> its tournament
``{p}shard:{<i>}:tournament:tables``        hash  tournament id -> its tables: placement, seat
                                                  names, hands' sides, ended (internal)
``{p}shard:{<i>}:tournament:standings``     hash  tournament id -> ``{"tournamentId", "rounds",
                                                  "standings"}`` of the ended rounds
==========================================  ====  ==============================================

With several projection shards each shard holds its own tables' part: read shard 0 and run
one shard for tournaments, as for ratings (docs/scaling.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from domain.table import PlayerSeated, TableEnded, TableOpened
from domain.tournament.embargo import Placement, placement
from domain.tournament.events import Side
from domain.tournament.scoring import TableResult, standings
from projections.model import Outcome, ReadModel, decode, encode
from projections.tracking import Batch

TOURNAMENTS_KEPT = 1_000
INDEX_KEPT = 100_000  # tables whose tournament (or none) is remembered


class Tournaments(ReadModel):
    """Every tournament's standings, from its tables' events."""

    sees_withheld = True  # it writes nothing of a round before every table of it ended

    def __init__(self, redis: Any, keys: Any) -> None:
        super().__init__(redis, keys)
        self._tables: dict[str, dict[str, dict[str, Any]]] = {}  # tournament -> table -> entry
        self._index: dict[str, str | None] = {}  # table -> its tournament (None: none)

    def index_key(self) -> str:
        return self.keys.named("tournament:index")

    def tables_key(self) -> str:
        return self.keys.named("tournament:tables")

    def standings_key(self) -> str:
        return self.keys.named("tournament:standings")

    def flush_keys(self) -> Iterable[str]:
        return (self.tables_key(), self.standings_key(), self.index_key())

    def forget(self) -> None:
        self._tables.clear()
        self._index.clear()

    def _of(self, tournament_id: str) -> dict[str, dict[str, Any]]:
        known = self._tables.get(tournament_id)
        if known is None:
            if len(self._tables) >= TOURNAMENTS_KEPT:
                self._tables.clear()
                self._index.clear()
            raw = self._redis.hget(self.tables_key(), tournament_id)
            known = self._tables[tournament_id] = decode(raw) if raw else {}
        return known

    def write(self, batch: Batch, outcome: Outcome) -> None:
        touched: dict[str, set[str]] = {}
        for table, notes in outcome.runs:
            entry: dict[str, Any] | None = None
            tournament_id = ""
            table_id = str(table.table_id)
            for note in notes:
                event = note.event
                if isinstance(event, TableOpened):
                    placed = placement(event.options)
                    if placed is None:
                        self._index[table_id] = None  # no tournament's: never asked again
                        break
                    tournament_id = placed.id
                    seats = table.game.seating(table.state).seats
                    entry = {"placement": msgspec.to_builtins(placed), "names": [None] * seats,
                             "hands": [], "ended": False}  # fmt: skip
                    self._of(tournament_id)[table_id] = entry
                    self._index[table_id] = tournament_id
                    batch.hset(self.index_key(), table_id, tournament_id)
                    continue
                if entry is None:
                    found = self._find(table)
                    if found is None:
                        break  # not a tournament's table
                    tournament_id, entry = found
                if isinstance(event, PlayerSeated):
                    entry["names"][event.seat] = event.name
                elif isinstance(event, TableEnded):
                    entry["ended"] = True
                else:
                    seats = len(entry["names"])
                    ranking = table.game.house.ranking(event, seats)
                    if ranking is not None:
                        entry["hands"].append([[list(s), int(score)] for s, score in ranking])
            if entry is not None:
                touched.setdefault(tournament_id, set()).add(table_id)
        for tournament_id in sorted(touched):
            tables = self._of(tournament_id)
            batch.hset(self.tables_key(), tournament_id, encode(tables))
            batch.hset(self.standings_key(), tournament_id, encode(summary(tournament_id, tables)))

    def _find(self, table: Any) -> tuple[str, dict[str, Any]] | None:
        """A tournament table first opened in an earlier batch (None: no tournament's)."""
        table_id = str(table.table_id)
        if len(self._index) >= INDEX_KEPT:
            self._index.clear()
        if table_id not in self._index:
            raw = self._redis.hget(self.index_key(), table_id)
            self._index[table_id] = raw.decode() if isinstance(raw, bytes) else None
        tournament_id = self._index[table_id]
        if tournament_id is None:
            return None
        found = self._of(tournament_id).get(table_id)
        return (tournament_id, found) if found is not None else None

    # -- reads -------------------------------------------------------------------------------
    def read(self, tournament_id: str) -> bytes | None:
        """The stored standings JSON (None: no table of it has been projected)."""
        return self._redis.hget(self.standings_key(), tournament_id)  # type: ignore[return-value]


def results_of(
    tables: dict[str, dict[str, Any]],
) -> tuple[list[int], list[TableResult], dict[int, list[str]], dict[int, int]]:
    """The ended rounds, their tables' results, every seated entry's names and the byes."""
    rounds: dict[int, list[tuple[str, dict[str, Any], Placement]]] = {}
    names: dict[int, list[str]] = {}
    for table_id, entry in tables.items():
        placed = msgspec.convert(entry["placement"], Placement)
        rounds.setdefault(placed.round, []).append((table_id, entry, placed))
        for seat, entry_no in enumerate(placed.seats):
            name = entry["names"][seat]
            if name is not None:
                members = names.setdefault(entry_no, [])
                if name not in members:
                    members.append(name)
    byes: dict[int, int] = {}
    ended = sorted(
        number for number, found in rounds.items()
        if len(found) == found[0][2].tables and all(e["ended"] for _, e, _ in found)
    )  # fmt: skip
    for number in ended:
        for entry_no in rounds[number][0][2].byes:
            byes[entry_no] = byes.get(entry_no, 0) + 1
            names.setdefault(entry_no, [])
    results = [
        TableResult(
            table_id, number, placed.boards, placed.seats,
            tuple(tuple(Side(tuple(s), score) for s, score in hand) for hand in entry["hands"]),
        )
        for number in ended
        for table_id, entry, placed in sorted(rounds[number], key=lambda f: f[2].table)
    ]  # fmt: skip
    return ended, results, names, byes


def summary(tournament_id: str, tables: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The standings document of a tournament's tables."""
    ended, results, names, byes = results_of(tables)
    scoring = next(iter(tables.values()))["placement"]["scoring"] if tables else "total"
    size = len(set(next(iter(tables.values()))["placement"]["seats"])) if tables else 1
    rows = standings(scoring, names, results, byes, size)
    return {"tournamentId": tournament_id, "rounds": ended, "standings": rows}
