"""Write-side benchmarks (design §6), printed as ratios measured side by side in one run.

(a) Command path: Bourré commands/s through ``TableStore.execute`` ÷ bare eventsourcing
    single-event appends/s (an ``Aggregate`` event saved per call) on the same kind of store.
    Each hand played is followed by as many bare appends, so both sides see the same load.
    Target ≥ 0.5.
(b) History independence: p50 ``execute`` latency during hand 200 of a table ÷ during hand 1,
    alternating hand 1 of fresh tables with hands 200, 201, … of the long table. Target ≤ 1.2.

Runs on SQLite (a file in a temp dir) and, when reachable, PostgreSQL (a fresh database that
is dropped afterwards). ``python bench/command_path.py [--hands 200] [--rounds 5] [--sqlite-only]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event
from scratch import postgres_url, sqlite_url

from infra.eventstore_env import eventsourcing_env
from infra.settings import Settings
from infra.store import TableStore


class Counter(Aggregate):
    """The smallest useful aggregate: one event per call."""

    @event("Counted")
    def count(self, amount: int) -> None:
        self.total = getattr(self, "total", 0) + amount


class BareApp(Application[uuid.UUID]):
    name = "BareAppend"


class BareAppender:
    """Single-event appends with eventsourcing's defaults (JSON transcoder, no reads)."""

    def __init__(self, url: str) -> None:
        if url.startswith("sqlite:///"):
            url = url.replace("cardroom.db", "bare.db")  # same directory, its own file
        self.app = BareApp(env=eventsourcing_env(url))
        self.counter = Counter()
        self.app.save(self.counter)

    def append(self, count: int) -> float:
        """Append ``count`` events one by one; returns the seconds spent."""
        started = time.perf_counter()
        for i in range(count):
            self.counter.count(i)
            self.app.save(self.counter)
        return time.perf_counter() - started

    def close(self) -> None:
        self.app.close()


class Bots:
    """Random legal bots at one 7-seat Bourré table; times every ``execute``."""

    def __init__(self, store: TableStore, seed: int) -> None:
        self.store = store
        self.rng = random.Random(seed)
        self.table_id = store.create_table("bourre", {"seats": 7}, seed=seed).table_id
        for seat in range(7):
            store.take_seat(self.table_id, f"bot{seat}", seat)
        self.hand = 1

    def play_hand(self) -> list[float]:
        """Play until the current hand settles; the latency of each command, in seconds."""
        latencies: list[float] = []
        store, hand = self.store, self.hand
        while self.hand == hand:
            table = store.get(self.table_id)
            rules = table.game
            seat = self.rng.choice(sorted(rules.to_act(table.state)))
            command = self.rng.choice(rules.legal_commands(table.state, seat))
            started = time.perf_counter()
            result = store.execute(self.table_id, command)
            latencies.append(time.perf_counter() - started)
            self.hand += sum(1 for e in result.events if rules.settles_hand(e.event))
        return latencies


def measure(url: str, hands: int, rounds: int) -> dict[str, Any]:
    """Both ratios, each side measured interleaved with the other so load affects both."""
    bare = BareAppender(url)
    try:
        with TableStore(Settings(event_store=url)) as store:
            old = Bots(store, seed=20261129)
            # (a) play the long table hand by hand, each hand followed by as many bare appends.
            command_seconds = append_seconds = 0.0
            commands = 0
            while old.hand < hands:
                latencies = old.play_hand()
                commands += len(latencies)
                command_seconds += sum(latencies)
                append_seconds += bare.append(len(latencies))
            # (b) alternate hand 1 of fresh tables with hands 200, 201, ... of the long one.
            first_hands: list[float] = []
            late_hands: list[float] = []
            late_from = old.hand
            for index in range(rounds):
                first_hands += Bots(store, seed=index).play_hand()
                late_hands += old.play_hand()
            # For information: a cold process loads the long table once, then it is cached.
            with TableStore(Settings(event_store=url)) as cold:
                started = time.perf_counter()
                events = cold.get(old.table_id).version
                cold_load = time.perf_counter() - started
    finally:
        bare.close()
    p50_first, p50_late = statistics.median(first_hands), statistics.median(late_hands)
    return {
        "bare appends/s": commands / append_seconds,
        "commands/s": commands / command_seconds,
        "ratio (a)": (commands / command_seconds) / (commands / append_seconds),
        "p50 hand 1 (ms)": p50_first * 1000,
        f"p50 hand {late_from}+ (ms)": p50_late * 1000,
        "ratio (b)": p50_late / p50_first,
        "commands timed": commands + len(first_hands) + len(late_hands),
        "long table events": events,
        "cold load (ms)": cold_load * 1000,
    }


def report(store: str, figures: dict[str, Any]) -> None:
    print(f"\n[{store}]")
    for key, value in figures.items():
        print(
            f"  {key:<22} {value:>12,.3f}"
            if isinstance(value, float)
            else f"  {key:<22} {value:>12}"
        )
    ok_a = "ok" if figures["ratio (a)"] >= 0.5 else "BELOW TARGET"
    ok_b = "ok" if figures["ratio (b)"] <= 1.2 else "ABOVE TARGET"
    print(
        f"  => (a) commands/s ÷ bare appends/s = {figures['ratio (a)']:.2f} (target ≥ 0.5: {ok_a})"
    )
    print(
        f"  => (b) p50 at hand N ÷ at hand 1    = {figures['ratio (b)']:.2f} (target ≤ 1.2: {ok_b})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5, help="hands sampled for (b)")
    parser.add_argument("--sqlite-only", action="store_true")
    args = parser.parse_args()
    with sqlite_url() as url:
        report("sqlite", measure(url, args.hands, args.rounds))
    if not args.sqlite_only:
        with postgres_url() as url:
            if url is not None:
                report("postgresql", measure(url, args.hands, args.rounds))


if __name__ == "__main__":
    main()
