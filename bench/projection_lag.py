"""Projection lag (design §6; printed by ``bench/projection_rebuild.py``): a projection worker
*process* (``run_forever``, as deployed) follows the store while commands are written; lag = time
from ``execute`` returning until the worker announces a position covering it (the pub/sub
channel its commit script publishes on).

* :func:`lag_under_load` — writer threads play bot tables for ``--load`` seconds;
* :func:`lag_when_idle` — one command every ``--gap`` seconds or so, the worker idling in
  between (its wake-up on a store write against its fallback poll).
"""

from __future__ import annotations

import argparse
import bisect
import multiprocessing
import random
import statistics
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import redis

from infra.settings import Settings
from infra.store import TableStore
from projections.keys import Keys
from projections.runner import Projector


def project_in_process(
    event_store: str, redis_url: str, prefix: str, poll: float, stop: Any
) -> None:
    """The projection worker as its own process (as deployed): ``run_forever`` until ``stop``."""
    store = TableStore(Settings(event_store=event_store))
    client = redis.Redis.from_url(redis_url)
    halt = threading.Event()

    def relay_stop() -> None:
        stop.wait()
        halt.set()

    watcher = threading.Thread(target=relay_stop, daemon=True)
    watcher.start()
    try:
        Projector(store, client, prefix).run_forever(halt, poll)
    finally:
        client.close()
        store.close()


class BotTable:
    """A 5-seat Bourré table of random bots; :meth:`move` plays one command and returns
    (its position, when ``execute`` returned)."""

    def __init__(self, store: TableStore, seed: int) -> None:
        self.store = store
        self.rng = random.Random(seed)
        self.table_id = store.create_table("bourre", {"seats": 5}, seed=seed).table_id
        for seat in range(5):
            store.take_seat(self.table_id, f"bot-{seat}", seat)

    def move(self) -> tuple[int, float]:
        table = self.store.get(self.table_id)
        seat = self.rng.choice(sorted(table.game.to_act(table.state)))
        command = self.rng.choice(table.game.legal_commands(table.state, seat))
        result = self.store.execute(self.table_id, command)
        return result.position, time.perf_counter()


def play_until(
    store: TableStore, seed: int, deadline: float, written: list[tuple[int, float]]
) -> None:
    """A bot table played until ``deadline``; each command's (position, when ``execute``
    returned) appended to ``written``."""
    table = BotTable(store, seed)
    while time.perf_counter() < deadline:
        written.append(table.move())


def lags_of(written: list[tuple[int, float]], reached: list[tuple[int, float]]) -> list[float]:
    """Per command: when a reached position first covered it − when it was written."""
    positions = [position for position, _ in reached]
    lags = []
    for position, at in written:
        index = bisect.bisect_left(positions, position)
        if index < len(reached):
            lags.append(max(0.0, reached[index][1] - at))
    return sorted(lags)


@contextmanager
def followed_projector(
    store: TableStore, client: redis.Redis, redis_url: str, prefix: str, poll: float
) -> Iterator[tuple[list[tuple[int, float]], Any]]:
    """A projector process following ``store`` from a caught-up read side, and the commits it
    announces as ``(position, when)``; yields that list and ``settle(final)``, which waits
    (up to 30 s) for the commit covering ``final``. ``time.perf_counter`` is CLOCK_MONOTONIC on
    Linux: comparable across processes."""
    Projector(store, client, prefix).run_once(limit=100_000)
    announced: list[tuple[int, float]] = []
    listening = threading.Event()
    stop_listening = threading.Event()

    def listen() -> None:
        pubsub = client.pubsub(ignore_subscribe_messages=True)
        pubsub.subscribe(Keys(prefix).position_channel())
        listening.set()
        while not stop_listening.is_set():
            message = pubsub.get_message(timeout=0.05)
            if message is not None:
                announced.append((int(message["data"]), time.perf_counter()))
        pubsub.close()

    def settle(final: int) -> None:
        wait_until = time.perf_counter() + 30
        while (not announced or announced[-1][0] < final) and time.perf_counter() < wait_until:
            time.sleep(0.01)

    context = multiprocessing.get_context("spawn")
    stop = context.Event()
    worker = context.Process(
        target=project_in_process, args=(store.settings.event_store, redis_url, prefix, poll, stop)
    )
    worker.start()
    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    listening.wait(5)
    time.sleep(1.0)  # let the worker process start
    try:
        yield announced, settle
    finally:
        stop.set()
        worker.join(timeout=10)
        stop_listening.set()
        listener.join()


def lag_under_load(
    store: TableStore,
    client: redis.Redis,
    redis_url: str,
    prefix: str,
    args: argparse.Namespace,
) -> dict[str, float]:
    """Writer threads play bot tables for ``args.load`` seconds while a projector process
    follows; lag = announce time of the first commit covering a command − its return time."""
    written: list[tuple[int, float]] = []  # (position, when execute returned)

    def write(seed: int) -> None:
        play_until(store, seed, deadline, written)

    with followed_projector(store, client, redis_url, prefix, args.poll) as (announced, settle):
        threads = [threading.Thread(target=write, args=(7000 + i,)) for i in range(args.writers)]
        started = time.perf_counter()
        deadline = started + args.load  # from now: the worker's start-up is not load time
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - started
        settle(max(position for position, _ in written))
    lags = lags_of(written, announced)
    return {
        "commands": len(written),
        "commands_per_s": len(written) / elapsed,
        "p50_ms": 1000 * statistics.median(lags),
        "p99_ms": 1000 * lags[min(len(lags) - 1, int(0.99 * len(lags)))],
        "max_ms": 1000 * lags[-1],
        "unseen": len(written) - len(lags),
    }


def lag_when_idle(
    store: TableStore,
    client: redis.Redis,
    redis_url: str,
    prefix: str,
    args: argparse.Namespace,
) -> dict[str, float]:
    """One command at a time, ``args.gap`` seconds apart on average (the projector idles in
    between, as a quiet table's would), while a projector process follows: lag = announce
    time of the first commit covering a command − its return time. Shows the idle wake-up
    (a SQLite write or a PostgreSQL NOTIFY) against the projector's fallback poll."""
    written: list[tuple[int, float]] = []
    with followed_projector(store, client, redis_url, prefix, args.poll) as (announced, settle):
        table = BotTable(store, args.seed)
        for _ in range(args.idle_commands):
            time.sleep(table.rng.uniform(0.5, 1.5) * args.gap)
            written.append(table.move())
        settle(written[-1][0])
    lags = lags_of(written, announced)
    return {
        "p50_ms": 1000 * statistics.median(lags),
        "p90_ms": 1000 * lags[min(len(lags) - 1, int(0.9 * len(lags)))],
        "max_ms": 1000 * lags[-1],
        "commands": len(written),
    }
