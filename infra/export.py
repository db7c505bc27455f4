"""``cardroom export``: the store's public record as three datasets an analyst loads in one line
(``docs/analytics.md`` has the schema and example queries).

* ``events`` — the public feed (:mod:`infra.feed`): one row per event a spectator may see;
* ``hands`` — one row per settled hand (:mod:`infra.handrows`);
* ``results`` — one row per seat per settled hand.

Each dataset is partitioned by game, Hive style: ``DIR/<dataset>/game=<name>/data.<ext>``,
one partition for every game asked for (all registered games by default), so an empty store
still writes every dataset with its schema. Exports are reproducible: rows are sorted (events
by log position, hands and results by table, hand and seat), nothing depends on the clock or the
machine, and Parquet is written by DuckDB on one thread, so the same store gives byte-identical
files. ``since``/``until`` keep the events stored, and the hands settled, in ``[since, until)``.
"""

from __future__ import annotations

import contextlib
import shutil
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import msgspec

from domain.games import game_names
from infra.feed import EventFeed
from infra.handrows import HAND_FACTS, SEAT_FACTS, TableSummary
from infra.queries import TableQueries
from infra.store import TableStore

FORMATS = ("ndjson", "parquet")
DATASETS = ("events", "hands", "results")

# Column types (DuckDB), in order; the ``game`` partition column is the directory.
EVENT_COLUMNS = {
    "position": "BIGINT", "table_id": "VARCHAR", "version": "BIGINT", "type": "VARCHAR",
    "at": "TIMESTAMPTZ", "hand": "INTEGER", "seat": "INTEGER", "data": "JSON",
}  # fmt: skip
_HAND_TYPES = {
    "dealer": "INTEGER", "trump": "VARCHAR", "trump_card": "VARCHAR",
    "first_declarer": "INTEGER", "players_in": "INTEGER", "pot": "DECIMAL(38,0)",
    "winners": "INTEGER[]", "bourre": "INTEGER[]", "tied": "INTEGER[]",
    "first_discard": "VARCHAR", "pozzetto_first_team": "INTEGER", "pozzetti": "INTEGER",
    "ending": "VARCHAR", "closer": "INTEGER", "scores": "INTEGER[]",
    "clean_burracos": "INTEGER", "dirty_burracos": "INTEGER", "match_winner": "INTEGER",
}  # fmt: skip
HAND_COLUMNS = {
    "table_id": "VARCHAR", "hand": "INTEGER", "seats": "INTEGER",
    **{name: _HAND_TYPES[name] for name in HAND_FACTS},
    "started_at": "TIMESTAMPTZ", "settled_at": "TIMESTAMPTZ", "commands": "INTEGER",
}  # fmt: skip
_SEAT_TYPES = {
    "team": "INTEGER", "won": "BOOLEAN", "played": "BOOLEAN", "bourre": "BOOLEAN",
    "chips": "DECIMAL(38,0)", "points": "INTEGER",
}  # fmt: skip
RESULT_COLUMNS = {
    "table_id": "VARCHAR", "hand": "INTEGER", "seat": "INTEGER", "name": "VARCHAR",
    "bot": "VARCHAR", **{name: _SEAT_TYPES[name] for name in SEAT_FACTS},
}  # fmt: skip
SCHEMAS = {"events": EVENT_COLUMNS, "hands": HAND_COLUMNS, "results": RESULT_COLUMNS}

_encode_lines = msgspec.json.Encoder().encode_lines


class ExportError(ValueError):
    """A bad export request (format, game, window); ``parameter`` names the option."""

    def __init__(self, message: str, parameter: str) -> None:
        super().__init__(message)
        self.parameter = parameter


@dataclass
class ExportReport:
    """What an export wrote: rows per dataset and game."""

    rows: dict[str, dict[str, int]] = field(default_factory=dict)
    events_read: int = 0

    def total(self, dataset: str) -> int:
        return sum(self.rows.get(dataset, {}).values())


@dataclass
class _Window:
    since: datetime | None
    until: datetime | None

    def admits(self, at: str) -> bool:
        if self.since is None and self.until is None:
            return True
        moment = datetime.fromisoformat(at)
        return (self.since is None or moment >= self.since) and (
            self.until is None or moment < self.until
        )


def export(
    store: TableStore,
    out: Path,
    fmt: str,
    *,
    game: str | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
) -> ExportReport:
    """Write the three datasets of ``store`` under ``out`` (replacing earlier ones there)."""
    if fmt not in FORMATS:
        raise ExportError(f"format must be one of {', '.join(FORMATS)}, not {fmt!r}", "format")
    games = list(game_names())
    if game is not None and game not in games:
        raise ExportError(f"game must be one of {', '.join(games)}, not {game!r}", "game")
    window = _Window(since, until)
    wanted = [game] if game else games
    rows: dict[str, dict[str, list[dict[str, Any]]]] = {
        name: {g: [] for g in wanted} for name in DATASETS
    }
    summaries: dict[str, TableSummary] = {}
    settling: set[tuple[str, int]] = set()
    report = ExportReport()
    # DuckDB opens, and each file converts, on a thread of its own while the export goes on.
    everything = since is None and until is None
    with _Parquet() if fmt == "parquet" else contextlib.nullcontext() as parquet:
        read = 0
        table = ""
        for note, facts, shown, _ in EventFeed(store, TableQueries(store)).walk_log():
            read += 1
            if shown is None or facts.game.name not in wanted:
                continue
            if shown["tableId"] != table:  # a command's events are consecutive: look up once
                table = shown["tableId"]
                summary = summaries.get(table)
                if summary is None:
                    summary = summaries[table] = TableSummary(table, shown["game"])
                add, settles = summary.add, facts.game.settles_hand
                events = rows["events"][shown["game"]]
            add(shown)
            if settles(note.event):
                settling.add((table, shown["version"]))
            if everything or window.admits(shown["at"]):
                events.append(shown)
        report.events_read = read
        _write_dataset(out, "events", rows["events"], fmt, parquet, report)
        for summary in sorted(summaries.values(), key=lambda s: s.table_id):
            hands, results = summary.rows(lambda e: (e["tableId"], e["version"]) in settling)
            kept = {row["hand"] for row in hands if window.admits(row["settled_at"])}
            rows["hands"][summary.game].extend(row for row in hands if row["hand"] in kept)
            rows["results"][summary.game].extend(row for row in results if row["hand"] in kept)
        for name in DATASETS[1:]:
            _write_dataset(out, name, rows[name], fmt, parquet, report)
    return report


def _write_dataset(
    out: Path,
    name: str,
    by_game: dict[str, list[dict[str, Any]]],
    fmt: str,
    parquet: _Parquet | None,
    report: ExportReport,
) -> None:
    """One dataset's partitions under ``out/name`` (replacing what was there)."""
    folder = out / name
    if folder.exists():
        shutil.rmtree(folder)
    for game_name, found in by_game.items():
        lines = _event_lines(found, fmt) if name == "events" else found
        _write(folder / f"game={game_name}", name, lines, parquet)
        report.rows.setdefault(name, {})[game_name] = len(found)


def _event_lines(events: list[dict[str, Any]], fmt: str) -> list[dict[str, Any]]:
    """Events as the feed shows them (NDJSON), or in the Parquet columns with the event's
    public fields as a JSON ``data`` column."""
    if fmt == "ndjson":
        return events
    return [
        {
            "position": e["position"],
            "table_id": e["tableId"],
            "version": e["version"],
            "type": e["type"],
            "at": e["at"],
            "hand": e.get("hand"),
            "seat": e.get("seat") if isinstance(e.get("seat"), int) else None,
            "data": e,
        }
        for e in events
    ]


def _write(
    folder: Path, dataset: str, rows: list[dict[str, Any]], parquet: _Parquet | None
) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    ndjson = folder / "data.ndjson"
    ndjson.write_bytes(_encode_lines(rows))
    if parquet is not None:
        parquet.convert(ndjson, folder / "data.parquet", SCHEMAS[dataset])


class _Parquet:
    """NDJSON to Parquet through one DuckDB connection on one thread (reproducible files).

    The connection opens, and each file converts (in the order asked, then its NDJSON is
    removed), on a worker thread of its own: DuckDB works while the export reads on. Leaving
    the block waits for every file and raises the first failure."""

    def __enter__(self) -> _Parquet:
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="export-parquet")
        self._db = self._worker.submit(_connect)
        self._jobs: list[Future[None]] = []
        return self

    def __exit__(self, *exc: object) -> None:
        self._worker.shutdown(wait=True)
        if self._db.exception() is None:
            self._db.result().close()
        failed = [job.exception() for job in self._jobs if job.exception() is not None]
        if failed and exc[0] is None:
            raise failed[0]  # type: ignore[misc]

    def convert(self, source: Path, target: Path, columns: dict[str, str]) -> None:
        """``source`` (NDJSON) as Parquet with exactly ``columns``, then ``source`` removed."""
        self._jobs.append(self._worker.submit(self._convert, source, target, columns))

    def _convert(self, source: Path, target: Path, columns: dict[str, str]) -> None:
        spec = ", ".join(f"'{name}': '{kind}'" for name, kind in columns.items())
        names = ", ".join(f'"{name}"' for name in columns)
        self._db.result().execute(
            f"COPY (SELECT {names} FROM read_json('{source}', format = 'newline_delimited', "
            f"columns = {{{spec}}})) TO '{target}' (FORMAT parquet, COMPRESSION zstd)"
        )
        source.unlink()


def _connect() -> Any:
    import duckdb

    return duckdb.connect(config={"threads": 1})
