"""``cardroom export``: the store's public record as three datasets an analyst loads in one line
(``docs/analytics.md`` has the schema and example queries).

* ``events`` — the public feed (:mod:`infra.feed`): one row per event a spectator may see;
* ``hands`` — one row per settled hand (:mod:`infra.handrows`);
* ``results`` — one row per seat per settled hand;
* ``accounts`` — one row per account (name, kind, when it was opened), when the export is
  handed the account store: nothing secret (no password hash, seat key or session).

Each game dataset is partitioned by game, Hive style: ``DIR/<dataset>/game=<name>/data.<ext>``,
one partition for every game asked for (all registered games by default), so an empty store
still writes every dataset with its schema; ``accounts`` is one file, ``DIR/accounts/data.<ext>``
(a game or a window does not narrow it). Exports are reproducible: rows are sorted (events
by log position, hands and results by table, hand and seat), nothing depends on the clock or the
machine, and Parquet is written by pyarrow from typed Arrow columns, so the same store gives
byte-identical files.
``since``/``until`` keep the events stored, and the hands settled, in ``[since, until)``.
"""

from __future__ import annotations

import contextlib
import gc
import os
import shutil
from collections.abc import Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from domain.games import game_names
from infra import handrows
from infra.exportevents import EventColumns, read_events
from infra.store import TableStore

if TYPE_CHECKING:
    from infra.accounts import AccountStore

FORMATS = ("ndjson", "parquet")
DATASETS = ("events", "hands", "results")  # each partitioned by game
ACCOUNTS = "accounts"  # one file, not partitioned

# Column types (as DuckDB reads them), in order; the ``game`` partition column is the directory.
EVENT_COLUMNS = {
    "position": "BIGINT", "table_id": "VARCHAR", "version": "BIGINT", "type": "VARCHAR",
    "at": "TIMESTAMPTZ", "hand": "INTEGER", "seat": "INTEGER", "data": "JSON",
}  # fmt: skip
ACCOUNT_COLUMNS = {"name": "VARCHAR", "kind": "VARCHAR", "created": "TIMESTAMPTZ"}


def hand_columns() -> dict[str, str]:
    """The ``hands`` columns: the table's, then every registered game's facts
    (:func:`infra.handrows.hand_columns`), then the hand's times and commands."""
    return {
        "table_id": "VARCHAR", "hand": "INTEGER", "seats": "INTEGER", **handrows.hand_columns(),
        "started_at": "TIMESTAMPTZ", "settled_at": "TIMESTAMPTZ", "commands": "INTEGER",
    }  # fmt: skip


def result_columns() -> dict[str, str]:
    """The ``results`` columns: the seat's, then every registered game's seat facts."""
    return {
        "table_id": "VARCHAR", "hand": "INTEGER", "seat": "INTEGER", "name": "VARCHAR",
        "bot": "VARCHAR", **handrows.seat_columns(),
    }  # fmt: skip


class _Schemas(Mapping[str, dict[str, str]]):
    """Each dataset's columns (iterating: the game datasets; ``accounts`` is looked up too),
    as of the games registered when asked (a game registered later
    adds its columns to ``hands`` and ``results``)."""

    def __getitem__(self, dataset: str) -> dict[str, str]:
        if dataset == "events":
            return EVENT_COLUMNS
        if dataset == "hands":
            return hand_columns()
        if dataset == "results":
            return result_columns()
        if dataset == ACCOUNTS:
            return ACCOUNT_COLUMNS
        raise KeyError(dataset)

    def __iter__(self) -> Iterator[str]:
        return iter(DATASETS)

    def __len__(self) -> int:
        return len(DATASETS)


SCHEMAS: Mapping[str, dict[str, str]] = _Schemas()

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
    accounts: AccountStore | None = None,
) -> ExportReport:
    """Write the three datasets of ``store`` under ``out`` (replacing earlier ones there), and
    the ``accounts`` dataset of ``accounts`` when given."""
    if fmt not in FORMATS:
        raise ExportError(f"format must be one of {', '.join(FORMATS)}, not {fmt!r}", "format")
    games = list(game_names())
    if game is not None and game not in games:
        raise ExportError(f"game must be one of {', '.join(games)}, not {game!r}", "game")
    wanted = [game] if game else games
    # The rows live until written and hold no cycles: the collector's passes over them as
    # they pile up would be wasted work (as for a projection rebuild's batch). It is back on
    # only once they are gone: turned on while they live, its first pass would go over them all.
    with _collection_deferred():
        report = _export(store, out, fmt, wanted, _Window(since, until))
        if accounts is not None:
            _write_accounts(out, accounts, fmt, report)
        return report


def _write_accounts(out: Path, accounts: AccountStore, fmt: str, report: ExportReport) -> None:
    """The ``accounts`` dataset: ``out/accounts/data.<fmt>``, one row per account, by when it
    was opened then name (what :meth:`infra.accounts.AccountStore.listing` shows: no secret)."""
    rows = [
        {"name": row.name, "kind": row.kind, "created": row.created.isoformat()}
        for row in accounts.listing()
    ]
    folder = out / ACCOUNTS
    _clear(folder, set())
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"data.{fmt}"
    if fmt == "parquet":
        _write_parquet(rows, target, ACCOUNTS)
    else:
        target.write_bytes(_encode_lines(rows))
    report.rows[ACCOUNTS] = {"all": len(rows)}


def _export(
    store: TableStore, out: Path, fmt: str, wanted: list[str], window: _Window
) -> ExportReport:
    """:func:`export`'s work, once its request is checked: read, fold, write."""
    rows: dict[str, dict[str, list[dict[str, Any]]]] = {
        name: {g: [] for g in wanted} for name in DATASETS[1:]
    }
    report = ExportReport()
    everything = window.since is None and window.until is None
    with _Parquet() if fmt == "parquet" else contextlib.nullcontext() as parquet:
        found = read_events(store, wanted, None if everything else window.admits)
        report.events_read = found.read
        # Each Parquet file is written on a thread of its own while the export goes on.
        _write_dataset(out, "events", found.events, fmt, parquet, report)
        for summary in sorted(found.summaries.values(), key=lambda s: s.table_id):
            hands, results = summary.rows()
            kept = {row["hand"] for row in hands if window.admits(row["settled_at"])}
            rows["hands"][summary.game].extend(row for row in hands if row["hand"] in kept)
            rows["results"][summary.game].extend(row for row in results if row["hand"] in kept)
        for name in DATASETS[1:]:
            _write_dataset(out, name, rows[name], fmt, parquet, report)
    return report


@contextlib.contextmanager
def _collection_deferred() -> Iterator[None]:
    """The cyclic garbage collector paused for one export (it runs again, if it was on, once
    the files are written and the rows freed)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _write_dataset(
    out: Path,
    name: str,
    by_game: Mapping[str, list[dict[str, Any]] | EventColumns],
    fmt: str,
    parquet: _Parquet | None,
    report: ExportReport,
) -> None:
    """One dataset's partitions under ``out/name``, replacing what was there: the partition
    folders stay, everything in them and anything else in the folder is removed."""
    folder = out / name
    target = f"data.{fmt}"
    _clear(folder, {f"game={game_name}" for game_name in by_game})
    for game_name, found in by_game.items():
        partition = folder / f"game={game_name}"
        partition.mkdir(parents=True, exist_ok=True)
        if parquet is not None:
            parquet.write(found, partition / target, name)
        elif isinstance(found, EventColumns):
            (partition / target).write_bytes(found.ndjson())
        else:
            (partition / target).write_bytes(_encode_lines(found))
        report.rows.setdefault(name, {})[game_name] = len(found)


def _clear(folder: Path, partitions: set[str]) -> None:
    """Empty ``folder`` but for the (emptied) folders of ``partitions``: cheaper than removing
    the tree and making it again. An earlier file is removed rather than overwritten: a file
    truncated and written again costs ext4 twice the CPU of a new one, and makes it flush the
    file on close. (``os.scandir``: an entry's kind comes with the listing, without a ``stat``
    each.)"""
    try:
        entries = list(os.scandir(folder))
    except (FileNotFoundError, NotADirectoryError):
        return
    for entry in entries:
        if entry.name not in partitions or not entry.is_dir(follow_symlinks=False):
            _remove(entry)
            continue
        with os.scandir(entry.path) as inner_entries:
            for inner in inner_entries:
                _remove(inner)


def _remove(entry: os.DirEntry[str]) -> None:
    if entry.is_dir(follow_symlinks=False):
        shutil.rmtree(entry.path)
    else:
        os.unlink(entry.path)


def _arrow_table(rows: list[dict[str, Any]] | EventColumns, dataset: str) -> Any:
    """``rows`` of ``dataset`` as an Arrow table of the dataset's columns, each in the Arrow
    type its values are handed over in (a missing field is null); the events come as columns
    (:class:`~infra.exportevents.EventColumns`), each handed to Arrow as it is."""
    import pyarrow as pa

    columns = SCHEMAS[dataset]
    if isinstance(rows, EventColumns):
        arrays = {
            name: pa.array(getattr(rows, name), _arrow_type(kind, handed=True))
            for name, kind in columns.items()
            if name != "data"
        }
        arrays["data"] = rows.data_array(arrays)
        return pa.table({name: arrays[name] for name in columns})
    struct = pa.struct([(name, _arrow_type(kind, handed=True)) for name, kind in columns.items()])
    return pa.table(dict(zip(columns, pa.array(rows, type=struct).flatten(), strict=True)))


class _Parquet:
    """Rows to Parquet through pyarrow (reproducible files: the same table, the same bytes).

    Each dataset's rows become an Arrow table of the schema's types (``JSON`` and
    ``TIMESTAMPTZ`` handed over as the feed's text, then cast), written with snappy. Each file is
    written (in the order asked) on the writer thread (:func:`_writer`), so the writer works
    while the export reads on. Leaving the block waits for every file and raises the first
    failure."""

    def __enter__(self) -> _Parquet:
        self._jobs: list[Future[None]] = []
        return self

    def __exit__(self, *exc: object) -> None:
        wait(self._jobs)
        failed = [job.exception() for job in self._jobs if job.exception() is not None]
        if failed and exc[0] is None:
            raise failed[0]  # type: ignore[misc]

    def write(self, rows: list[dict[str, Any]] | EventColumns, target: Path, dataset: str) -> None:
        """``rows`` of ``dataset`` (the events as columns) as Parquet at ``target`` with
        exactly the dataset's columns."""
        self._jobs.append(_writer().submit(_write_parquet, rows, target, dataset))


@cache
def _writer() -> ThreadPoolExecutor:
    """The thread Parquet files are written on: one for the process, started by the first
    export, so its allocator's heap is warm for the next (docs/decisions/0007)."""
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="export-parquet")


def _write_parquet(rows: list[dict[str, Any]] | EventColumns, target: Path, dataset: str) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    handed = _arrow_table(rows, dataset)
    columns = {}
    for name, kind in SCHEMAS[dataset].items():
        column, wanted = handed[name], _arrow_type(kind)
        columns[name] = column if column.type == wanted else column.cast(wanted)
    # Written to memory, then to the file in one write: the same bytes as writing to the
    # path, without the many small writes (and the path's filesystem lookup) pyarrow makes.
    sink = pa.BufferOutputStream()
    pq.write_table(
        pa.table(columns), sink, write_statistics=_with_statistics(dataset), **_WRITER_OPTIONS
    )
    target.write_bytes(memoryview(sink.getvalue()))


# How the files are written (docs/decisions/0007): snappy, Parquet's usual codec; no dictionary
# pages; no Arrow schema in the metadata (DuckDB reads the same types from Parquet's own logical
# types); statistics for every column but the events' ``data`` (a min/max of JSON texts serves
# no filter).
_WRITER_OPTIONS: dict[str, Any] = {
    "compression": "snappy",
    "use_dictionary": False,
    "store_schema": False,
}


def _with_statistics(dataset: str) -> list[str]:
    return [name for name in SCHEMAS[dataset] if name != "data"]


@cache
def _arrow_type(kind: str, *, handed: bool = False) -> Any:
    """A column's Arrow type in the file, or (``handed``) the type its Python values convert
    into first: the feed's text for ``JSON`` and ``TIMESTAMPTZ`` (remembered: asked for every
    column of every file)."""
    import pyarrow as pa

    if kind.endswith("[]"):
        return pa.list_(_arrow_type(kind[:-2], handed=handed))
    if handed and kind in ("JSON", "TIMESTAMPTZ"):
        return pa.string()
    return {
        "BIGINT": pa.int64(), "INTEGER": pa.int32(), "BOOLEAN": pa.bool_(),
        "DECIMAL(38,0)": pa.decimal128(38, 0), "VARCHAR": pa.string(), "JSON": pa.json_(),
        "TIMESTAMPTZ": pa.timestamp("us", tz="UTC"),
    }[kind]  # fmt: skip
