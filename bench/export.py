"""Export benchmark (design §6, analytics), measured side by side in one run per store.

``cardroom export`` events/s (read the public feed — the query service's spectator redaction
and the hand index — fold the hands and results, write Parquet or NDJSON partitioned by game)
÷ the raw notification-log read rate of the same store (the recorder's
``select_notifications`` in pages of 500, no decoding: as ``bench/projection_rebuild.py``
times it). Target ≥ 0.5. Also printed: the decoded read rate (``TableStore.notifications``,
which every reader of events pays), for where the time goes. Interleaved, best of
``--repeat`` each, by wall clock and by this process's CPU time (the figure to trust on a loaded
machine; on PostgreSQL it leaves out the server's share of both reads).

Two store sizes by default: 6 tables per game (~4.6k events) and 24 (~18k). On the small one an
export's fixed costs (six files written and closed) weigh against a raw read of a few tens of
milliseconds; the larger one shows the per-event rate a real store is exported at.

``python bench/export.py [--tables 6,24] [--hands 8] [--repeat 5] [--format parquet]
[--sqlite-only]``
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from projection_rebuild import decoded_read, fill, raw_read
from scratch import postgres_url, sqlite_url

from infra.export import export
from infra.settings import Settings
from infra.store import TableStore


def rates_of(run: Any) -> tuple[float, float, int]:
    """Events per second of ``run`` by wall clock and by process CPU time, and the count."""
    wall, cpu = time.perf_counter(), time.process_time()
    count = run()
    return count / (time.perf_counter() - wall), count / (time.process_time() - cpu), count


def bench(label: str, store: TableStore, tables: int, args: argparse.Namespace) -> None:
    events = fill(store, tables, args.hands, args.seed)
    best: dict[str, tuple[float, float]] = {}
    counts: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as out:
        runs = {
            "raw": lambda: raw_read(store),
            "decoded": lambda: decoded_read(store),
            "export": lambda: export(store, Path(out), args.format).events_read,
        }
        for _ in range(args.repeat):
            for name, run in runs.items():
                wall, cpu, counts[name] = rates_of(run)
                before = best.get(name, (0.0, 0.0))
                best[name] = (max(before[0], wall), max(before[1], cpu))
    assert counts["raw"] == counts["export"] == events, (counts, events)
    (raw, raw_cpu), (decoded, decoded_cpu) = best["raw"], best["decoded"]
    exported, exported_cpu = best["export"]
    print(f"\n== {label}: {events} events in {tables * 2} tables           wall      CPU")
    print(f"raw notification-log read   {raw:>12,.0f} {raw_cpu:>12,.0f} events/s")
    print(f"decoded notifications        {decoded:>12,.0f} {decoded_cpu:>12,.0f} events/s")
    print(
        f"export ({args.format:>7})            {exported:>12,.0f} {exported_cpu:>12,.0f} events/s"
    )
    print(
        f"ratio export / raw read           {exported / raw:>9.3f} {exported_cpu / raw_cpu:>9.3f}"
        "  (target >= 0.5)"
    )
    by_decoded = f"{exported / decoded:>9.3f} {exported_cpu / decoded_cpu:>9.3f}"
    print(f"ratio export / decoded read       {by_decoded}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--tables", default="6,24", help="tables per game to fill, one store per size (6,24)"
    )
    parser.add_argument("--hands", type=int, default=8, help="Bourré hands per table")
    parser.add_argument("--repeat", type=int, default=5, help="best of N for the rates")
    parser.add_argument("--format", choices=["parquet", "ndjson"], default="parquet")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sqlite-only", action="store_true")
    args = parser.parse_args()
    for tables in [int(size) for size in args.tables.split(",")]:
        with sqlite_url() as url, TableStore(Settings(event_store=url)) as store:
            bench("SQLite", store, tables, args)
        if args.sqlite_only:
            continue
        with postgres_url() as database:
            if database is not None:
                with TableStore(Settings(event_store=database)) as store:
                    bench("PostgreSQL", store, tables, args)


if __name__ == "__main__":
    main()
