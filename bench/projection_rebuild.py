"""Read-side benchmark (design §6), measured side by side in one run per store.

(c) Rebuild: events/s projected into Redis by ``Projector.rebuild()`` (flush, replay from
    position 0: decode, evolve, compute every view/ledger/lobby line, Lua commit with the
    position) ÷ the raw notification-log read rate of the same store (the recorder's
    ``select_notifications`` in pages of 500, no decoding). Also printed: the decoded read
    rate (``TableStore.notifications``), for where the time goes.
    The three are measured interleaved, best of ``--repeat`` each; (c) is also printed per
    CPU second of the bench process (a busy machine's waits left out; Redis's own work too).
Lag: projection lag under a load of commands — writer threads play bot tables through
    ``TableStore.execute`` while a projection worker *process* (``run_forever``, as deployed)
    follows; lag = time from ``execute`` returning until the worker announces a position
    covering it (the pub/sub channel its commit script publishes on). p50/p99/max printed.
    Then the lag when idle: one command every ``--gap`` seconds or so, the worker idling in
    between (its wake-up on a store write against its fallback poll).

Cluster (``--cluster``): a 3-node Redis Cluster of real ``redis-server`` processes (as the
    deployed test starts it); rebuild events/s with 1 shard and with 2 shards rebuilding at
    once in two processes (each reads the whole log, projects its half): the log's events
    divided by the wall time until both are done, and each shard's own rate.

The store is filled with random-bot tables of both games (``infra.simulate.play_table``).
Runs on SQLite (a file in a temp dir) and, when reachable, PostgreSQL (a fresh database that is
dropped afterwards); Redis at ``CARDROOM_TEST_REDIS_URL`` (default 127.0.0.1:6379) under a
unique prefix, removed afterwards — or a private embedded Redis when none answers.

``python bench/projection_rebuild.py [--tables 6] [--hands 8] [--writers 4] [--load 6]
[--poll 0.05] [--repeat 3] [--gap 0.1] [--idle-commands 60] [--sqlite-only] [--cluster]``
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import redis
from projection_lag import lag_under_load, lag_when_idle, lags_of, play_until
from scratch import postgres_url, sqlite_url

from infra.settings import Settings
from infra.simulate import play_table
from infra.store import TableStore
from projections.runner import Projector

REDIS = os.environ.get("CARDROOM_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
PAGE = 500


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
        client, where = handle.client, handle.url
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


def rate_of(run: Any) -> tuple[float, int]:
    """(events/s, events) of one run of ``run()``, which returns how many events it handled."""
    started = time.perf_counter()
    count = run()
    return count / (time.perf_counter() - started), count


def rates_of(run: Any) -> tuple[float, float, int]:
    """(events per wall second, events per CPU second of this process, events) of one run of
    ``run()``; the CPU figure leaves out time spent waiting (for Redis, for a busy machine)."""
    cpu = time.process_time()
    rate, count = rate_of(run)
    return rate, count / max(time.process_time() - cpu, 1e-9), count


def clear(client: redis.Redis, prefix: str) -> None:
    for key in client.scan_iter(match=f"{prefix}*", count=1000):
        client.delete(key)


def bench(
    label: str, store: TableStore, client: redis.Redis, redis_url: str, args: argparse.Namespace
) -> None:
    prefix = f"cardroom-bench:{uuid.uuid4().hex[:8]}:"
    try:
        events = fill(store, args.tables, args.hands, args.seed)
        projector = Projector(store, client, prefix)
        # Interleaved, best of N each: a busy machine slows all three alike.
        raw_rate = decoded_rate = rebuild_rate = raw_cpu = rebuild_cpu = 0.0
        for _ in range(args.repeat):
            rate, cpu, raw_count = rates_of(lambda: raw_read(store))
            raw_rate, raw_cpu = max(raw_rate, rate), max(raw_cpu, cpu)
            rate, _ = rate_of(lambda: decoded_read(store))
            decoded_rate = max(decoded_rate, rate)
            rate, cpu, rebuilt = rates_of(projector.rebuild)
            rebuild_rate, rebuild_cpu = max(rebuild_rate, rate), max(rebuild_cpu, cpu)
        assert rebuilt == raw_count == events, (rebuilt, raw_count, events)
        keys = sum(1 for _ in client.scan_iter(match=f"{prefix}*", count=1000))
        print(f"\n== {label}: {events} events in {args.tables * 2} tables; {keys} read-model keys")
        print(f"raw notification-log read   {raw_rate:>12,.0f} events/s")
        print(f"decoded notifications        {decoded_rate:>12,.0f} events/s")
        print(f"rebuild into Redis           {rebuild_rate:>12,.0f} events/s")
        print(f"ratio (c) rebuild / raw read            {rebuild_rate / raw_rate:.3f}")
        print(f"ratio     rebuild / decoded read        {rebuild_rate / decoded_rate:.3f}")
        print(f"ratio (c) per CPU second (this process) {rebuild_cpu / raw_cpu:.3f}")
        lag = lag_under_load(store, client, redis_url, prefix, args)
        print(
            f"lag under load ({args.writers} writers, {lag['commands_per_s']:,.0f} commands/s, "
            f"poll {args.poll}s): p50 {lag['p50_ms']:.1f} ms, p99 {lag['p99_ms']:.1f} ms, "
            f"max {lag['max_ms']:.1f} ms over {lag['commands']:.0f} commands"
        )
        if lag["unseen"]:
            print(f"  ({lag['unseen']:.0f} commands never seen projected within 30 s)")
        idle = lag_when_idle(store, client, redis_url, prefix, args)
        print(
            f"lag when idle (one command every ~{1000 * args.gap:.0f} ms, poll {args.poll}s): "
            f"p50 {idle['p50_ms']:.1f} ms, p90 {idle['p90_ms']:.1f} ms, "
            f"max {idle['max_ms']:.1f} ms over {idle['commands']:.0f} commands"
        )
    finally:
        clear(client, prefix)


def rebuild_shard(
    event_store: str, redis_url: str, prefix: str, shard: int, shards: int, start: Any, out: Any
) -> None:
    """One shard's rebuild in its own process (as ``cardroom rebuild --shard``), timed."""
    from tests.deployed.topology import cluster_client

    store = TableStore(Settings(event_store=event_store))
    client = cluster_client(redis_url)
    projector = Projector(store, client, prefix, shard=shard, shards=shards)
    start.wait()
    began = time.perf_counter()
    projected = projector.rebuild()
    out.put((shard, projected, began, time.perf_counter()))
    client.close()
    store.close()


def cluster_rates(store: TableStore, redis_url: str, shards: int, repeat: int) -> None:
    """Rebuild with ``shards`` processes at once into the cluster; best of ``repeat``."""
    context = multiprocessing.get_context("spawn")
    events = store.max_position()
    best: tuple[float, list[tuple[int, int, float, float]]] | None = None
    prefix = f"cardroom-bench:{uuid.uuid4().hex[:8]}:"
    for _ in range(repeat):
        start, out = context.Event(), context.Queue()
        workers = [
            context.Process(
                target=rebuild_shard,
                args=(store.settings.event_store, redis_url, prefix, shard, shards, start, out),
            )
            for shard in range(shards)
        ]
        for worker in workers:
            worker.start()
        time.sleep(3.0)  # the processes import and connect before the clock starts
        start.set()
        results = sorted(out.get(timeout=600) for _ in workers)
        for worker in workers:
            worker.join()
        wall = max(end for *_, end in results) - min(began for _, _, began, _ in results)
        rate = events / wall
        if best is None or rate > best[0]:
            best = (rate, results)
    assert best is not None
    rate, results = best
    print(f"{shards} shard(s) at once: {rate:>12,.0f} events/s of the log")
    for shard, projected, began, end in results:
        print(
            f"  shard {shard}: projected {projected} of {events} events in {end - began:.2f}s "
            f"({events / (end - began):,.0f} log events/s examined)"
        )


def project_shard(
    event_store: str, redis_url: str, prefix: str, shard: int, shards: int, stop: Any
) -> None:
    """``cardroom project --shard`` as its own process, on the cluster, until ``stop``."""
    from tests.deployed.topology import cluster_client

    store = TableStore(Settings(event_store=event_store))
    client = cluster_client(redis_url)
    halt = threading.Event()

    def relay_stop() -> None:
        stop.wait()
        halt.set()

    threading.Thread(target=relay_stop, daemon=True).start()
    try:
        Projector(store, client, prefix, shard=shard, shards=shards).run_forever(halt, 0.05)
    finally:
        client.close()
        store.close()


def cluster_lag(store: TableStore, redis_url: str, shards: int, args: argparse.Namespace) -> None:
    """Lag with ``shards`` projector processes on the cluster while writers play: the time
    until every shard's position (polled every millisecond, as ``?after=`` needs) covers a
    command."""
    from projections.reader import ReadModels
    from tests.deployed.topology import cluster_client

    prefix = f"cardroom-bench:{uuid.uuid4().hex[:8]}:"
    context = multiprocessing.get_context("spawn")
    stop = context.Event()
    workers = [
        context.Process(
            target=project_shard,
            args=(store.settings.event_store, redis_url, prefix, shard, shards, stop),
        )
        for shard in range(shards)
    ]
    for worker in workers:
        worker.start()
    client = cluster_client(redis_url)
    reader = ReadModels(client, prefix, shards=shards)
    head = store.max_position()
    while reader.position() < head:  # caught up before the load starts
        time.sleep(0.05)
    reached: list[tuple[int, float]] = []
    watching = threading.Event()

    def watch() -> None:
        last = -1
        while not watching.is_set():
            position = reader.position()
            if position != last:
                reached.append((position, time.perf_counter()))
                last = position
            time.sleep(0.001)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    written: list[tuple[int, float]] = []
    deadline = time.perf_counter() + args.load
    writers = [
        threading.Thread(target=play_until, args=(store, 9000 + i, deadline, written))
        for i in range(args.writers)
    ]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join()
    final = max(position for position, _ in written)
    until = time.perf_counter() + 30
    while (not reached or reached[-1][0] < final) and time.perf_counter() < until:
        time.sleep(0.01)
    watching.set()
    watcher.join()
    stop.set()
    for worker in workers:
        worker.join(timeout=10)
    client.close()
    lags = lags_of(written, reached)
    print(
        f"lag, {shards} shard(s), {args.writers} writers, {len(written) / args.load:,.0f} "
        f"commands/s: p50 {1000 * statistics.median(lags):.1f} ms, "
        f"p99 {1000 * lags[min(len(lags) - 1, int(0.99 * len(lags)))]:.1f} ms over "
        f"{len(lags)} commands"
    )


def bench_cluster(args: argparse.Namespace) -> None:
    from tests.deployed.topology import redis_cluster

    with tempfile.TemporaryDirectory() as directory, redis_cluster(Path(directory)) as url:
        print(f"Redis Cluster: 3 primaries, {url}")
        with sqlite_url() as event_store, TableStore(Settings(event_store=event_store)) as store:
            events = fill(store, args.tables, args.hands, args.seed)
            print(f"\n== SQLite: {events} events in {args.tables * 2} tables")
            with redis_client() as (client, where):
                prefix = f"cardroom-bench:{uuid.uuid4().hex[:8]}:"
                single = Projector(store, client, prefix)
                rate = max(rate_of(single.rebuild)[0] for _ in range(args.repeat))
                clear(client, prefix)
                print(f"1 shard, one Redis ({where}): {rate:>12,.0f} events/s")
            for shards in (1, 2):
                cluster_rates(store, url, shards, args.repeat)
            for shards in (1, 2):
                cluster_lag(store, url, shards, args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=6, help="tables per game to fill")
    parser.add_argument("--hands", type=int, default=8, help="Bourré hands per table")
    parser.add_argument("--writers", type=int, default=4, help="writer threads for the lag")
    parser.add_argument("--load", type=float, default=6.0, help="seconds of load for the lag")
    parser.add_argument("--poll", type=float, default=0.05, help="projector poll interval")
    parser.add_argument("--repeat", type=int, default=5, help="best of N for the rates")
    parser.add_argument("--gap", type=float, default=0.1, help="seconds between idle commands")
    parser.add_argument("--idle-commands", type=int, default=60, help="commands for idle lag")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sqlite-only", action="store_true")
    parser.add_argument("--cluster", action="store_true", help="rebuild into a Redis Cluster")
    args = parser.parse_args()
    if args.cluster:
        bench_cluster(args)
        return
    sys.setswitchinterval(0.0005)  # timestamps taken by threads: keep GIL hand-offs short
    with redis_client() as (client, where):
        print(f"Redis: {where}")
        with sqlite_url() as url, TableStore(Settings(event_store=url)) as store:
            bench("SQLite", store, client, where, args)
        if args.sqlite_only:
            return
        with postgres_url() as database:
            if database is not None:
                with TableStore(Settings(event_store=database)) as store:
                    bench("PostgreSQL", store, client, where, args)


if __name__ == "__main__":
    main()
