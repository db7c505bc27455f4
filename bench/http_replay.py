"""Replay over HTTP (design §6): full-table timeline and ``replay?at=`` p50 for a 200-hand table.

A 7-seat Bourré table is played for ``--hands`` hands by random legal bots straight through
the ``TableStore`` (fast), then the real ``cardroom serve`` is started on the same SQLite file
and timed: ``GET /tables/{id}/timeline`` (the whole history, redacted for a spectator),
``GET /tables/{id}/replay?at=N`` at random versions, and the live view for contrast.

``python bench/http_replay.py [--hands 200] [--samples 40]``
"""

from __future__ import annotations

import argparse
import random
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from command_path import Bots  # noqa: E402  (random legal bots through TableStore)
from served import free_port, start_server  # noqa: E402

from infra.settings import Settings  # noqa: E402
from infra.store import TableStore  # noqa: E402


def p50_ms(call: Callable[[], httpx.Response], samples: int) -> tuple[float, int]:
    """Median latency in ms of ``call`` and the size of its last answer."""
    timings = []
    size = 0
    for _ in range(samples):
        started = time.perf_counter()
        response = call()
        timings.append(time.perf_counter() - started)
        if response.status_code != 200:
            raise SystemExit(f"{response.request.url}: {response.status_code} {response.text}")
        size = len(response.content)
    return statistics.median(timings) * 1000, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--samples", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cardroom-replay-bench-") as tmp:
        directory = Path(tmp)
        started = time.perf_counter()
        with TableStore(Settings(event_store=f"sqlite:///{directory}/cardroom.db")) as store:
            bots = Bots(store, seed=20261129)
            while bots.hand <= args.hands:
                bots.play_hand()
            table = str(bots.table_id)
            events = store.get(bots.table_id).version
        print(f"built {args.hands} hands ({events} events) in {time.perf_counter() - started:.0f}s")
        port = free_port()
        server = start_server(directory, port)
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
                warm = http.post("/tables", json={"game": "bourre", "options": {"seats": 2}})
                assert warm.status_code == 201
                rng = random.Random(1)
                timeline, timeline_size = p50_ms(
                    lambda: http.get(f"/tables/{table}/timeline"), max(5, args.samples // 4)
                )
                page, _ = p50_ms(
                    lambda: http.get(f"/tables/{table}/timeline?from={events - 50}"), args.samples
                )
                replay, _ = p50_ms(
                    lambda: http.get(f"/tables/{table}/replay?at={rng.randint(1, events)}"),
                    args.samples,
                )
                late, _ = p50_ms(
                    lambda: http.get(f"/tables/{table}/replay?at={events - rng.randint(0, 40)}"),
                    args.samples,
                )
                live, _ = p50_ms(lambda: http.get(f"/tables/{table}"), args.samples)
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)
    print(f"[sqlite, real HTTP, {args.hands}-hand 7-seat Bourré table, {events} events]")
    print(f"  full timeline p50            {timeline:9.1f} ms  ({timeline_size / 1e6:.1f} MB)")
    print(f"  last 50 events p50           {page:9.1f} ms")
    print(f"  replay?at=<random> p50       {replay:9.1f} ms")
    print(f"  replay?at=<recent> p50       {late:9.1f} ms")
    print(f"  live view p50 (from store)   {live:9.1f} ms")


if __name__ == "__main__":
    main()
