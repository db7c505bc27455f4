"""Spectators at scale (design §5, live stream): SSE delivery to many spectators of one table,
and what idle streams cost the server.

Starts the real ``cardroom serve`` in its own process (SQLite in a temp dir, Redis at
``CARDROOM_BENCH_REDIS`` or 127.0.0.1:6379 under a fresh prefix, the projector in the same
process, rate limits off), opens ``--streams`` spectator streams on one Bourré table over raw
asyncio connections, then:

1. plays ``--commands`` commands, one at a time, each after every stream has received the
   previous one's events, and prints the delivery latency (command sent → event read by a
   spectator) p50/p99 over every (stream, event) pair — target p99 < 100 ms;
2. with the streams still open and the table idle, prints the server process's CPU use over
   ``--idle`` seconds (from ``/proc/<pid>/stat``) — target < 5 % of a core — and ``/health``
   p50 over 200 sequential requests — target < 10 ms.

``python bench/sse_fanout.py [--streams 1000] [--commands 20] [--idle 10]``
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from http_commands import free_port, start_server

EVENT_ID = re.compile(rb"(?m)^id: ?(\d+)")
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` (all its threads), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


class Spectator:
    """One SSE stream over a raw connection: when each event id arrived."""

    def __init__(self) -> None:
        self.seen: dict[int, float] = {}
        self.opened = asyncio.Event()
        self.last = 0
        self.moved = asyncio.Event()

    async def watch(self, port: int, table: str) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(
            f"GET /tables/{table}/stream HTTP/1.1\r\nHost: bench\r\n"
            "Accept: text/event-stream\r\n\r\n".encode()
        )
        await writer.drain()
        tail = b""
        try:
            while True:
                chunk = await reader.read(65536)
                if not chunk:
                    return
                now = time.perf_counter()
                self.opened.set()
                text = tail + chunk
                cut = text.rfind(b"\n")
                tail = text[cut + 1 :] if cut >= 0 else text
                for found in EVENT_ID.finditer(text[: cut + 1] if cut >= 0 else b""):
                    version = int(found.group(1))
                    self.seen.setdefault(version, now)
                    self.last = max(self.last, version)
                self.moved.set()
        finally:
            writer.close()


async def play(
    base: str, table: str, tokens: dict[int, str], spectators: list[Spectator], commands: int
) -> list[float]:
    """Latencies (seconds) of every event's delivery to every spectator."""
    latencies: list[float] = []
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        for _ in range(commands):
            command = None
            for _seat, token in tokens.items():
                headers = {"Authorization": f"Bearer {token}"}
                legal = await http.get(f"/tables/{table}/legal", headers=headers)
                if legal.status_code == 200 and legal.json():
                    command = (headers, legal.json()[0])
                    break
            if command is None:
                break
            sent = time.perf_counter()
            answer = await http.post(
                f"/tables/{table}/commands", json=command[1], headers=command[0]
            )
            answer.raise_for_status()
            versions = [event["version"] for event in answer.json()["events"]]
            deadline = time.monotonic() + 60
            for spectator in spectators:
                while spectator.last < versions[-1] and time.monotonic() < deadline:
                    spectator.moved.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(spectator.moved.wait(), 1)
                latencies += [spectator.seen.get(v, time.perf_counter()) - sent for v in versions]
    return latencies


async def idle_costs(base: str, pid: int, seconds: float) -> tuple[float, float]:
    """The server's CPU use (share of one core) over ``seconds`` of idle streams, then the
    ``/health`` p50 (seconds) over 200 sequential requests."""
    before, start = cpu_seconds(pid), time.monotonic()
    await asyncio.sleep(seconds)
    cpu = (cpu_seconds(pid) - before) / (time.monotonic() - start)
    timings = []
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        for _ in range(200):
            asked = time.perf_counter()
            (await http.get("/health")).raise_for_status()
            timings.append(time.perf_counter() - asked)
    return cpu, statistics.median(timings)


async def run(port: int, pid: int, streams: int, commands: int, idle: float) -> dict[str, Any]:
    base = f"http://127.0.0.1:{port}"
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        table = await http.post("/tables", json={"game": "bourre", "options": {"seats": 2}})
        table_id = table.json()["tableId"]
        tokens = {}
        for name in ("Ann", "Bob"):
            seat = (await http.post(f"/tables/{table_id}/seats", json={"name": name})).json()
            tokens[seat["seat"]] = seat["token"]
    spectators = [Spectator() for _ in range(streams)]
    tasks = [asyncio.create_task(s.watch(port, table_id)) for s in spectators]
    opening = time.monotonic()
    await asyncio.wait_for(asyncio.gather(*(s.opened.wait() for s in spectators)), 120)
    opened_in = time.monotonic() - opening
    client_cpu, server_cpu = time.process_time(), cpu_seconds(pid)
    latencies = await play(base, table_id, tokens, spectators, commands)
    client_cpu, server_cpu = time.process_time() - client_cpu, cpu_seconds(pid) - server_cpu
    cpu, health = await idle_costs(base, pid, idle)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    latencies.sort()
    return {
        "opened_in": opened_in,
        "deliveries": len(latencies),
        "p50": latencies[len(latencies) // 2] if latencies else float("nan"),
        "p99": latencies[int(len(latencies) * 0.99)] if latencies else float("nan"),
        "cpu": cpu,
        "client_cpu": client_cpu,
        "server_cpu": server_cpu,
        "health": health,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--commands", type=int, default=20)
    parser.add_argument("--idle", type=float, default=10.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cardroom-sse-bench-") as tmp:
        port = free_port()
        server = start_server(Path(tmp), port, projector=True)
        try:
            found = asyncio.run(run(port, server.pid, args.streams, args.commands, args.idle))
        finally:
            server.terminate()
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
    print(f"[{args.streams} spectators of one table, real HTTP to cardroom serve]")
    print(f"streams opened in            {found['opened_in']:8.2f} s")
    print(f"deliveries measured          {found['deliveries']:8d}")
    print(f"delivery p50                 {found['p50'] * 1000:8.1f} ms")
    print(f"delivery p99                 {found['p99'] * 1000:8.1f} ms   (target < 100 ms)")
    print(f"server CPU during play       {found['server_cpu']:8.2f} s")
    print(f"this client's CPU during play {found['client_cpu']:7.2f} s (it shares the cores)")
    print(f"idle streams: server CPU     {found['cpu'] * 100:8.1f} % of a core   (target < 5 %)")
    print(f"idle streams: /health p50    {found['health'] * 1000:8.1f} ms   (target < 10 ms)")


if __name__ == "__main__":
    main()
