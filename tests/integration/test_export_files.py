"""Exports as files (design §8): the Parquet ``events`` rows are the feed's events value for value
(the NDJSON export), and an export into a folder that held an earlier one leaves exactly its own
files there, the same bytes as an export into an empty folder."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import duckdb

from infra.export import DATASETS, export
from infra.simulate import play_table
from infra.store import TableStore


def played(store: TableStore) -> None:
    play_table(store, "bourre", 3, 11, options={"seats": 3})
    play_table(store, "burraco", 1, 12, options={"seats": 2})


def files_of(out: Path) -> dict[Path, bytes]:
    return {p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def test_parquet_events_are_the_feed_value_for_value(
    sqlite_store: TableStore, tmp_path: Path
) -> None:
    played(sqlite_store)
    export(sqlite_store, tmp_path / "ndjson", "ndjson")
    export(sqlite_store, tmp_path / "parquet", "parquet")
    for game in ("bourre", "burraco"):  # the games played (a test may have registered more)
        partition = tmp_path / "ndjson" / "events" / f"game={game}"
        feed = [json.loads(line) for line in (partition / "data.ndjson").read_text().splitlines()]
        rows = (
            duckdb.connect()
            .execute(
                'SELECT position, table_id, version, type, "at", hand, seat, data::VARCHAR '
                f"FROM '{tmp_path / 'parquet' / 'events' / partition.name / 'data.parquet'}'"
            )
            .fetchall()
        )
        assert len(rows) == len(feed) > 0
        for row, event in zip(rows, feed, strict=True):
            seat = event.get("seat")
            assert row[:4] == (event["position"], event["tableId"], event["version"], event["type"])
            assert row[4] == datetime.fromisoformat(event["at"])
            assert row[5:7] == (event.get("hand"), seat if isinstance(seat, int) else None)
            assert json.loads(row[7]) == event


def test_an_export_over_an_earlier_one_leaves_only_its_own_files(
    sqlite_store: TableStore, tmp_path: Path
) -> None:
    played(sqlite_store)
    out, fresh = tmp_path / "out", tmp_path / "fresh"
    export(sqlite_store, out, "ndjson")
    (out / "events" / "game=bourre" / "stray.txt").write_text("left by hand")
    (out / "hands" / "game=whist").mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text("not the export's")
    (out / "results" / "game=whist").symlink_to(elsewhere, target_is_directory=True)
    export(sqlite_store, out, "parquet", game="bourre")
    assert (elsewhere / "keep.txt").read_text() == "not the export's"  # the link went, not this
    export(sqlite_store, fresh, "parquet", game="bourre")
    expected = {Path(name, "game=bourre", "data.parquet") for name in DATASETS}
    assert set(files_of(out)) == expected
    assert files_of(out) == files_of(fresh)
    assert {p.relative_to(out) for p in out.rglob("*") if p.is_dir()} == {
        *(Path(name) for name in DATASETS),
        *(path.parent for path in expected),
    }
