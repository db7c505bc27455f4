"""Spectators at scale (design §5, live stream): SSE delivery to many spectators of one table,
and what idle streams cost the server.

Starts the real ``cardroom serve`` in its own process (SQLite in a temp dir, Redis at
``CARDROOM_BENCH_REDIS`` or 127.0.0.1:6379 under a fresh prefix, the projector in the same
process, rate limits off; one API process per core, as its default), opens ``--streams``
spectator streams on one Bourré table over raw connections, then:

1. plays ``--commands`` commands, one at a time, each after every stream has received the
   previous one's events, and prints the delivery latency (command sent → event read by a
   spectator) p50/p99 over every (stream, event) pair — target p99 < 100 ms — and the p50 of
   the first stream to get each command's events (the wake-up, before the fan-out);
2. with the streams still open and the table idle, prints the server's CPU use (all its
   processes) over ``--idle`` seconds (from ``/proc/<pid>/stat``) — target < 5 % of a core —
   and ``/health`` p50 over 200 sequential requests — target < 10 ms.

The spectators are ``--client-processes`` processes (plain asyncio protocols, on uvloop when
it is installed), each reading its share of the streams and stamping each event with
``time.perf_counter()`` (the system-wide monotonic clock) as its bytes arrive: one process
reading a thousand sockets measured its own queue as much as the server's. The server and the
clients share the machine's cores; the clients' CPU is printed beside the server's.

``python bench/sse_fanout.py [--streams 1000] [--commands 20] [--idle 10]
[--client-processes 2]``
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import re
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any, cast

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from proc_cpu import cpu_seconds
from served import free_port, start_server

EVENT_ID = re.compile(rb"(?m)^id: ?(\d+)")


# -- the spectators (client processes) ---------------------------------------------------------
class Progress:
    """How far a client process's streams have all got: the lowest last event id, sent to the
    bench's main process whenever it moves."""

    def __init__(self, streams: int, report: Callable[[Any], None]) -> None:
        self.at: dict[int, int] = {0: streams}  # last event id -> streams there
        self.low = 0
        self.opened = 0
        self.started = time.perf_counter()  # when the streams started to connect
        self._report = report
        self._streams = streams

    def open(self) -> None:
        self.opened += 1
        if self.opened == self._streams:
            self._report(("opened", time.perf_counter() - self.started))

    def moved(self, before: int, after: int) -> None:
        self.at[before] -= 1
        self.at[after] = self.at.get(after, 0) + 1
        if before == self.low and not self.at[before]:
            del self.at[before]
            self.low = min(self.at)
            self._report(("reached", self.low))


class Spectator(asyncio.Protocol):
    """One SSE stream: when each event id first arrived."""

    def __init__(self, request: bytes, progress: Progress) -> None:
        self.seen: dict[int, float] = {}
        self.last = 0
        self._request = request
        self._progress = progress
        self._tail = b""
        self._opened = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        cast(asyncio.WriteTransport, transport).write(self._request)

    def data_received(self, data: bytes) -> None:
        now = time.perf_counter()
        if not self._opened:
            self._opened = True
            self._progress.open()
        text = self._tail + data
        cut = text.rfind(b"\n") + 1
        self._tail = text[cut:]
        last = self.last
        for found in EVENT_ID.finditer(text, 0, cut):
            version = int(found.group(1))
            self.seen.setdefault(version, now)
            last = max(last, version)
        if last != self.last:
            self._progress.moved(self.last, last)
            self.last = last


async def _spectate(connection: Connection, port: int, table: str, streams: int) -> None:
    loop = asyncio.get_running_loop()
    request = (
        f"GET /tables/{table}/stream HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n"
    ).encode()
    progress = Progress(streams, connection.send)
    spectators: list[Spectator] = []
    transports = []
    for _ in range(streams):
        transport, spectator = await loop.create_connection(
            lambda: Spectator(request, progress), "127.0.0.1", port
        )
        transports.append(transport)
        spectators.append(spectator)
    await loop.run_in_executor(None, connection.recv)  # the bench asks for the report
    connection.send(("seen", [spectator.seen for spectator in spectators]))
    for transport in transports:
        transport.close()


def spectator_process(connection: Connection, port: int, table: str, streams: int) -> None:
    """A client process: ``streams`` spectator streams, reporting to ``connection``."""
    try:
        try:
            import uvloop
        except ImportError:
            asyncio.run(_spectate(connection, port, table, streams))
        else:
            uvloop.run(_spectate(connection, port, table, streams))
    except BaseException:
        connection.send(("error", traceback.format_exc()))
        raise


class Spectators:
    """The client processes, seen from the bench's main process."""

    def __init__(self, port: int, table: str, streams: int, processes: int) -> None:
        context = multiprocessing.get_context("spawn")
        self.pipes: list[Connection] = []
        self.workers: list[Any] = []
        shares = [streams // processes + (i < streams % processes) for i in range(processes)]
        for share in (s for s in shares if s):
            mine, theirs = context.Pipe()
            worker = context.Process(
                target=spectator_process, args=(theirs, port, table, share), daemon=True
            )
            worker.start()
            theirs.close()
            self.pipes.append(mine)
            self.workers.append(worker)
        self.reached = [0] * len(self.pipes)
        self.opened: list[float | None] = [None] * len(self.pipes)  # seconds to open
        self.seen: list[dict[int, float]] = []
        self.reports = 0

    def _pump(self, done: Callable[[], bool], timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while not done():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            for pipe in wait(self.pipes, remaining):
                assert isinstance(pipe, Connection)
                self._take(self.pipes.index(pipe), pipe.recv())
        return True

    def _take(self, index: int, message: tuple[Any, ...]) -> None:
        if message[0] == "opened":
            self.opened[index] = message[1]
        elif message[0] == "reached":
            self.reached[index] = message[1]
        elif message[0] == "seen":
            self.seen.extend(message[1])
            self.reports += 1
        else:
            raise SystemExit(f"a spectator process failed:\n{message[1]}")

    def _all_opened(self) -> bool:
        return all(seconds is not None for seconds in self.opened)

    async def until_opened(self, timeout: float) -> float:
        """Seconds the slowest client process took to open its streams."""
        if not await asyncio.to_thread(self._pump, self._all_opened, timeout):
            raise SystemExit("the spectators' streams did not open in time")
        return max(o for o in self.opened if o is not None)

    async def until_reached(self, version: int, timeout: float) -> bool:
        """Whether every stream got ``version`` within ``timeout`` seconds."""

        def done() -> bool:
            return min(self.reached) >= version

        return await asyncio.to_thread(self._pump, done, timeout)

    async def report(self) -> list[dict[int, float]]:
        """Each stream's event arrival times; the client processes then close their streams."""
        for pipe in self.pipes:
            pipe.send("report")
        if not await asyncio.to_thread(self._pump, lambda: self.reports == len(self.pipes), 120):
            raise SystemExit("a spectator process did not report")
        return self.seen

    def close(self) -> None:
        for worker in self.workers:
            worker.join(timeout=10)
            if worker.is_alive():
                worker.kill()


# -- the bench (main process) ------------------------------------------------------------------
async def play(
    base: str, table: str, tokens: dict[int, str], spectators: Spectators, commands: int
) -> dict[int, tuple[float, float]]:
    """Each event version played: (when its command was sent, when the bench stopped waiting
    for it — the arrival time charged to a stream that never got it)."""
    played: dict[int, tuple[float, float]] = {}
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
            await spectators.until_reached(versions[-1], 60)
            for version in versions:
                played[version] = (sent, time.perf_counter())
    return played


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


def _percentile(values: list[float], fraction: float) -> float:
    return values[min(int(len(values) * fraction), len(values) - 1)] if values else float("nan")


async def run(
    port: int, pid: int, streams: int, commands: int, idle: float, processes: int
) -> dict[str, Any]:
    base = f"http://127.0.0.1:{port}"
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        table = await http.post("/tables", json={"game": "bourre", "options": {"seats": 2}})
        table_id = table.json()["tableId"]
        tokens = {}
        for name in ("Ann", "Bob"):
            seat = (await http.post(f"/tables/{table_id}/seats", json={"name": name})).json()
            tokens[seat["seat"]] = seat["token"]
    spectators = Spectators(port, table_id, streams, processes)
    try:
        opened_in = await spectators.until_opened(120)
        clients = [worker.pid for worker in spectators.workers]
        client_cpu = sum(cpu_seconds(p) for p in clients)
        server_cpu = cpu_seconds(pid)
        played = await play(base, table_id, tokens, spectators, commands)
        client_cpu = sum(cpu_seconds(p) for p in clients) - client_cpu
        server_cpu = cpu_seconds(pid) - server_cpu
        cpu, health = await idle_costs(base, pid, idle)
        seen = await spectators.report()
    finally:
        spectators.close()
    latencies = sorted(
        stream.get(version, gave_up) - sent
        for stream in seen
        for version, (sent, gave_up) in played.items()
    )
    firsts = sorted(
        min(stream.get(version, gave_up) for stream in seen) - sent
        for version, (sent, gave_up) in played.items()
    )
    return {
        "opened_in": opened_in,
        "deliveries": len(latencies),
        "p50": _percentile(latencies, 0.5),
        "p99": _percentile(latencies, 0.99),
        "first": _percentile(firsts, 0.5),
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
    parser.add_argument("--client-processes", type=int, default=2, help="spectator processes")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cardroom-sse-bench-") as tmp:
        port = free_port()
        server = start_server(Path(tmp), port, projector=True)
        try:
            found = asyncio.run(
                run(
                    port,
                    server.pid,
                    args.streams,
                    args.commands,
                    args.idle,
                    max(args.client_processes, 1),
                )
            )
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
    print(f"first stream's delivery p50  {found['first'] * 1000:8.1f} ms   (the wake-up)")
    print(f"server CPU during play       {found['server_cpu']:8.2f} s   (all its processes)")
    print(
        f"spectators' CPU during play  {found['client_cpu']:8.2f} s   "
        f"({args.client_processes} processes; they share the cores)"
    )
    print(f"idle streams: server CPU     {found['cpu'] * 100:8.1f} % of a core   (target < 5 %)")
    print(f"idle streams: /health p50    {found['health'] * 1000:8.1f} ms   (target < 10 ms)")


if __name__ == "__main__":
    main()
