"""Export benchmark (design §6, analytics), measured side by side in one run per store.

``cardroom export`` events/s (read the public feed — the query service's spectator redaction
and the hand index — fold the hands and results, write Parquet or NDJSON partitioned by game)
÷ the raw notification-log read rate of the same store (the recorder's
``select_notifications`` in pages of 500, no decoding: as ``bench/projection_rebuild.py``
times it). Target ≥ 0.5. Also printed: the decoded read rate (``TableStore.notifications``,
which every reader of events pays), for where the time goes. Interleaved, best of
``--repeat`` each.

``python bench/export.py [--tables 6] [--hands 8] [--repeat 3] [--format parquet]
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


def rate_of(run: Any) -> tuple[float, int]:
    started = time.perf_counter()
    count = run()
    return count / (time.perf_counter() - started), count


def bench(label: str, store: TableStore, args: argparse.Namespace) -> None:
    events = fill(store, args.tables, args.hands, args.seed)
    raw_rate = decoded_rate = export_rate = 0.0
    with tempfile.TemporaryDirectory() as out:
        for _ in range(args.repeat):
            rate, raw_count = rate_of(lambda: raw_read(store))
            raw_rate = max(raw_rate, rate)
            rate, _ = rate_of(lambda: decoded_read(store))
            decoded_rate = max(decoded_rate, rate)
            rate, exported = rate_of(lambda: export(store, Path(out), args.format).events_read)
            export_rate = max(export_rate, rate)
    assert raw_count == exported == events, (raw_count, exported, events)
    print(f"\n== {label}: {events} events in {args.tables * 2} tables")
    print(f"raw notification-log read   {raw_rate:>12,.0f} events/s")
    print(f"decoded notifications        {decoded_rate:>12,.0f} events/s")
    print(f"export ({args.format:>7})            {export_rate:>12,.0f} events/s")
    print(f"ratio export / raw read                 {export_rate / raw_rate:.3f}  (target >= 0.5)")
    print(f"ratio export / decoded read             {export_rate / decoded_rate:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=6, help="tables per game to fill")
    parser.add_argument("--hands", type=int, default=8, help="Bourré hands per table")
    parser.add_argument("--repeat", type=int, default=3, help="best of N for the rates")
    parser.add_argument("--format", choices=["parquet", "ndjson"], default="parquet")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sqlite-only", action="store_true")
    args = parser.parse_args()
    with sqlite_url() as url, TableStore(Settings(event_store=url)) as store:
        bench("SQLite", store, args)
    if args.sqlite_only:
        return
    with postgres_url() as database:
        if database is not None:
            with TableStore(Settings(event_store=database)) as store:
                bench("PostgreSQL", store, args)


if __name__ == "__main__":
    main()
