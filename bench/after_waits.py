"""Waiting holds no thread (design §5): ``/legal`` latency while readers wait on ``?after=``.

Starts the real ``cardroom serve`` (as ``bench/sse_fanout.py`` does) without a projector, so a
read with ``?after=<the latest position>`` waits its full 5 s and answers 503. Measures
``GET /tables/{id}/legal`` p50 over ``--samples`` sequential requests with nobody waiting,
then again while ``--readers`` such readers wait, and prints both and their ratio (the target
is about 1: waiting readers hold no worker thread).

``python bench/after_waits.py [--readers 120] [--samples 20]``
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from served import free_port, start_server


async def legal_p50(
    http: httpx.AsyncClient, path: str, token: str, samples: int
) -> tuple[float, float]:
    """``/legal``'s p50 and slowest answer (seconds) over ``samples`` sequential requests."""
    timings = []
    for _ in range(samples):
        asked = time.perf_counter()
        answer = await http.get(path, headers={"Authorization": f"Bearer {token}"})
        answer.raise_for_status()
        timings.append(time.perf_counter() - asked)
    return statistics.median(timings), max(timings)


Timing = tuple[float, float]


async def run(port: int, readers: int, samples: int) -> tuple[Timing, Timing, dict[int, int]]:
    limits = httpx.Limits(max_connections=readers + 10)
    async with httpx.AsyncClient(
        base_url=f"http://127.0.0.1:{port}", timeout=60, limits=limits
    ) as http:
        table = await http.post("/tables", json={"game": "bourre", "options": {"seats": 2}})
        table_id = table.json()["tableId"]
        seats = [
            (await http.post(f"/tables/{table_id}/seats", json={"name": name})).json()
            for name in ("Ann", "Bob")
        ]
        position, token = seats[-1]["position"], seats[0]["token"]
        legal = f"/tables/{table_id}/legal"
        idle = await legal_p50(http, legal, token, samples)
        waiting = [
            asyncio.create_task(http.get(f"/tables/{table_id}", params={"after": position}))
            for _ in range(readers)
        ]
        await asyncio.sleep(2.0)  # let the readers reach the server and start waiting
        loaded = await legal_p50(http, legal, token, samples)
        statuses: dict[int, int] = {}
        for answer in await asyncio.gather(*waiting):
            statuses[answer.status_code] = statuses.get(answer.status_code, 0) + 1
    return idle, loaded, statuses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--readers", type=int, default=120)
    parser.add_argument("--samples", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cardroom-wait-bench-") as tmp:
        port = free_port()
        server = start_server(Path(tmp), port, projector=False)
        try:
            idle, loaded, statuses = asyncio.run(run(port, args.readers, args.samples))
        finally:
            server.terminate()
            server.wait(timeout=30)
    print(f"[/legal while {args.readers} readers wait on ?after= for a stopped projector]")
    for label, (p50, slowest) in (("nobody waiting ", idle), ("readers waiting", loaded)):
        print(f"/legal p50, {label}    {p50 * 1000:8.1f} ms (slowest {slowest * 1000:.1f} ms)")
    print(f"ratio of the p50s              {loaded[0] / idle[0]:8.1f}   (target about 1)")
    print(f"the readers' answers           {statuses}   (503: projection behind)")


if __name__ == "__main__":
    main()
