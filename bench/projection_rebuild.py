"""Read-side benchmark (design §6, issue 4 (c)), measured side by side in one run per store.

(c) Rebuild: events/s projected into Redis by ``Projector.rebuild()`` (flush, replay from
    position 0: decode, evolve, compute every view/ledger/lobby line, Lua commit with the
    position) ÷ the raw notification-log read rate of the same store (the recorder's
    ``select_notifications`` in pages of 500, no decoding). Also printed: the decoded read
    rate (``TableStore.notifications``), for where the time goes.
Lag: projection lag under a load of commands — writer threads play bot tables through
    ``TableStore.execute`` while ``run_forever`` projects; lag = time from ``execute``
    returning until the projector announces a position covering it (the pub/sub channel the
    commit script publishes on). p50/p99/max are printed.

The store is filled with random-bot tables of both games (``infra.simulate.play_table``).
Runs on SQLite (a file in a temp dir) and, when reachable, PostgreSQL (a fresh database that is
dropped afterwards); Redis at ``CARDROOM_TEST_REDIS_URL`` (default 127.0.0.1:6379) under a
unique prefix, removed afterwards — or a private embedded Redis when none answers.

``python bench/projection_rebuild.py [--tables 6] [--hands 8] [--writers 4] [--load 6]
[--poll 0.05] [--repeat 3] [--sqlite-only]``
"""

from __future__ import annotations

import argparse
import bisect
import os
import random
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import redis

from infra.settings import Settings
from infra.simulate import play_table
from infra.store import TableStore
from projections.runner import Projector

POSTGRES = os.environ.get("CARDROOM_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
REDIS = os.environ.get("CARDROOM_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
PAGE = 500


@contextmanager
def sqlite_store() -> Iterator[TableStore]:
    with tempfile.TemporaryDirectory() as directory:
        store = TableStore(Settings(event_store=f"sqlite:///{directory}/bench.db"))
        try:
            yield store
        finally:
            store.close()


@contextmanager
def postgres_store() -> Iterator[TableStore]:
    import psycopg

    name = f"cardroom_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(POSTGRES, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    store = TableStore(
        Settings(event_store=urlunsplit(urlsplit(POSTGRES)._replace(path=f"/{name}")))
    )
    try:
        yield store
    finally:
        store.close()
        with psycopg.connect(POSTGRES, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def redis_client() -> Iterator[tuple[redis.Redis, str]]:
    try:
        client = redis.Redis.from_url(REDIS, socket_connect_timeout=2)
        client.ping()
        where = REDIS
        handle = None
    except redis.RedisError:
        from infra.redis import open_redis

        directory = tempfile.mkdtemp()
        handle = open_redis(Settings(redis_url=None, var_dir=Path(directory)))
        client, where = handle.client, f"embedded ({handle.url})"
    try:
        yield client, where
    finally:
        if handle is not None:
            handle.close()
        else:
            client.close()


def fill(store: TableStore, tables: int, hands: int, seed: int) -> int:
    """Bot tables of both games; returns the number of events stored."""
    for index in range(tables):
        play_table(store, "bourre", hands, seed + index, options={"seats": 7})
        play_table(store, "burraco", max(1, hands // 4), seed + 1000 + index)
    return store.max_position()


def raw_read(store: TableStore) -> int:
    """The bare notification log: recorder rows, pages of 500, no decoding."""
    count, start = 0, 1
    while rows := store.app.recorder.select_notifications(start=start, limit=PAGE):
        count += len(rows)
        start = rows[-1].id + 1
    return count


def decoded_read(store: TableStore) -> int:
    count, start = 0, 1
    while notes := store.notifications(start, PAGE):
        count += len(notes)
        start = notes[-1].position + 1
    return count


def best_rate(run: Any, repeat: int) -> tuple[float, int]:
    """(events/s of the fastest of ``repeat`` runs, events per run)."""
    best, count = float("inf"), 0
    for _ in range(repeat):
        started = time.perf_counter()
        count = run()
        best = min(best, time.perf_counter() - started)
    return count / best, count


def clear(client: redis.Redis, prefix: str) -> None:
    for key in client.scan_iter(match=f"{prefix}*", count=1000):
        client.delete(key)


def lag_under_load(
    store: TableStore, client: redis.Redis, prefix: str, writers: int, seconds: float, poll: float
) -> dict[str, float]:
    """Writers play bot tables for ``seconds`` while ``run_forever`` projects them."""
    projector = Projector(store, client, prefix)
    projector.run_once(limit=100_000)  # start from a caught-up read side
    announced: list[tuple[int, float]] = []  # (position, when the commit was announced)
    listening = threading.Event()
    stop_listening = threading.Event()

    def listen() -> None:
        pubsub = client.pubsub(ignore_subscribe_messages=True)
        pubsub.subscribe(projector.keys.position_channel())
        listening.set()
        while not stop_listening.is_set():
            message = pubsub.get_message(timeout=0.05)
            if message is not None:
                announced.append((int(message["data"]), time.perf_counter()))
        pubsub.close()

    written: list[tuple[int, float]] = []  # (position, when execute returned)
    deadline = time.perf_counter() + seconds

    def write(seed: int) -> None:
        rng = random.Random(seed)
        table_id = store.create_table("bourre", {"seats": 5}, seed=seed).table_id
        for seat in range(5):
            store.take_seat(table_id, f"bot-{seat}", seat)
        while time.perf_counter() < deadline:
            table = store.get(table_id)
            seat = rng.choice(sorted(table.game.to_act(table.state)))
            result = store.execute(
                table_id, rng.choice(table.game.legal_commands(table.state, seat))
            )
            written.append((result.position, time.perf_counter()))

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    listening.wait(5)
    stop = threading.Event()
    worker = threading.Thread(target=projector.run_forever, args=(stop, poll), daemon=True)
    worker.start()
    threads = [threading.Thread(target=write, args=(7000 + i,)) for i in range(writers)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    final = max(position for position, _ in written)
    wait_until = time.perf_counter() + 30
    while (not announced or announced[-1][0] < final) and time.perf_counter() < wait_until:
        time.sleep(0.01)
    stop.set()
    worker.join()
    stop_listening.set()
    listener.join()

    positions = [position for position, _ in announced]
    lags = []
    for position, at in written:
        index = bisect.bisect_left(positions, position)
        if index < len(announced):
            lags.append(max(0.0, announced[index][1] - at))
    lags.sort()
    return {
        "commands": len(written),
        "commands_per_s": len(written) / elapsed,
        "p50_ms": 1000 * statistics.median(lags),
        "p99_ms": 1000 * lags[min(len(lags) - 1, int(0.99 * len(lags)))],
        "max_ms": 1000 * lags[-1],
        "unseen": len(written) - len(lags),
    }


def bench(label: str, store: TableStore, client: redis.Redis, args: argparse.Namespace) -> None:
    prefix = f"cardroom-bench:{uuid.uuid4().hex[:8]}:"
    try:
        events = fill(store, args.tables, args.hands, args.seed)
        raw_rate, raw_count = best_rate(lambda: raw_read(store), args.repeat)
        decoded_rate, _ = best_rate(lambda: decoded_read(store), args.repeat)
        projector = Projector(store, client, prefix)
        rebuild_rate, rebuilt = best_rate(projector.rebuild, args.repeat)
        assert rebuilt == raw_count == events, (rebuilt, raw_count, events)
        keys = sum(1 for _ in client.scan_iter(match=f"{prefix}*", count=1000))
        print(f"\n== {label}: {events} events in {args.tables * 2} tables; {keys} read-model keys")
        print(f"raw notification-log read   {raw_rate:>12,.0f} events/s")
        print(f"decoded notifications        {decoded_rate:>12,.0f} events/s")
        print(f"rebuild into Redis           {rebuild_rate:>12,.0f} events/s")
        print(f"ratio (c) rebuild / raw read            {rebuild_rate / raw_rate:.3f}")
        print(f"ratio     rebuild / decoded read        {rebuild_rate / decoded_rate:.3f}")
        lag = lag_under_load(store, client, prefix, args.writers, args.load, args.poll)
        print(
            f"lag under load ({args.writers} writers, {lag['commands_per_s']:,.0f} commands/s, "
            f"poll {args.poll}s): p50 {lag['p50_ms']:.1f} ms, p99 {lag['p99_ms']:.1f} ms, "
            f"max {lag['max_ms']:.1f} ms over {lag['commands']:.0f} commands"
        )
        if lag["unseen"]:
            print(f"  ({lag['unseen']:.0f} commands never seen projected within 30 s)")
    finally:
        clear(client, prefix)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=6, help="tables per game to fill")
    parser.add_argument("--hands", type=int, default=8, help="Bourré hands per table")
    parser.add_argument("--writers", type=int, default=4, help="writer threads for the lag")
    parser.add_argument("--load", type=float, default=6.0, help="seconds of load for the lag")
    parser.add_argument("--poll", type=float, default=0.05, help="projector poll interval")
    parser.add_argument("--repeat", type=int, default=3, help="best of N for the rates")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sqlite-only", action="store_true")
    args = parser.parse_args()
    with redis_client() as (client, where):
        print(f"Redis: {where}")
        with sqlite_store() as store:
            bench("SQLite", store, client, args)
        if args.sqlite_only:
            return
        try:
            import psycopg

            psycopg.connect(POSTGRES, connect_timeout=3).close()
        except Exception as error:
            print(f"\n(PostgreSQL skipped: {error})")
            return
        with postgres_store() as store:
            bench("PostgreSQL", store, client, args)


if __name__ == "__main__":
    main()
