"""HTTP command path (design §6): commands/s through ``POST /tables/{id}/commands`` ÷ bare
eventsourcing single-event appends/s on the same kind of store, measured in one run.

The server is the real ``cardroom serve`` in its own process (SQLite in a temp dir, or with
``--store postgresql`` a database of its own on the PostgreSQL server that
``CARDROOM_EVENT_STORE`` names — else ``CARDROOM_TEST_POSTGRES`` or the local test server —
created for the run and dropped after it; Redis at ``CARDROOM_BENCH_REDIS`` or 127.0.0.1:6379;
the projection runs elsewhere, so this is the command path alone). Random legal bots play
7-seat Bourré: their command sequences are worked out first with the pure domain (same seeds,
so the same deals) and built into raw HTTP/1.1 requests, then fired over keep-alive
connections, one per table, by ``--client-processes`` processes each running an asyncio loop
(so the client is not the bottleneck). The first error in any client stops the run and is
printed.

Printed: commands/s at ``--tables`` clients, their p99 latency, and that figure ÷ bare
appends/s (design §6 targets: ≥ 2,000/s, ≤ 20 ms, ≥ 1; issue 23's at 16 tables: SQLite
≥ 8,500/s at p99 ≤ 6.5 ms, PostgreSQL with two API processes ≥ 2,800/s at p99 ≤ 13.5 ms), and
how the clients' connections sat on the server's processes. Also the CPU time the server's
processes and the client processes spent per command while commands were timed (from
``/proc``, so the figure does not drift with the machine's load as wall time does): the
server's is what bounds commands/s on a busy machine; the clients' must stay well below it.

Bare appends use the same store (SQLite: the same directory and settings, ``BareAppender``:
eventsourcing's defaults, WAL; PostgreSQL: the same database, one connection) and are timed in
the same run, interleaved: after every round of ``--chunk`` commands per table the server
idles while as many bare appends are timed. Timed in a separate window (as before), the ratio
mostly measured how busy the shared disk was then.

``python bench/http_commands.py [--store sqlite|postgresql] [--tables 4] [--hands 20]
[--chunk 50] [--client-processes 2] [--workers N] [--projector]`` (``--projector``: the
projection runs in the server, as on embedded defaults, and its CPU is counted with the
server's).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import multiprocessing
import random
import signal
import sys
import tempfile
import time
import traceback
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import httpx
import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from command_path import BareApp, BareAppender  # noqa: E402  (the bare-append baseline)
from command_path import Counter as CountingAggregate  # noqa: E402
from proc_cpu import (  # noqa: E402
    DatabaseBackends,
    connections_per_process,
    cpu_seconds,
)
from served import event_store, free_port, start_server  # noqa: E402

from api.command_bodies import command_object  # noqa: E402
from domain.games import game_named  # noqa: E402
from domain.table import OpenTable, TakeSeat, hash_token  # noqa: E402
from infra.eventstore_env import eventsourcing_env  # noqa: E402

SEATS = 7
KEEP_ALIVE_SAFE = 2.5  # seconds idle after which a client reconnects (uvicorn closes at 5)
TARGETS = {  # store -> (commands/s at least, p99 ms at most): issue 23 at 16 tables
    "sqlite": (8500, 6.5),
    "postgresql": (2800, 13.5),
}


class OneConnectionAppender(BareAppender):
    """Bare appends on PostgreSQL through one connection (the server is shared)."""

    def __init__(self, url: str) -> None:
        env = {**eventsourcing_env(url), "POSTGRES_POOL_SIZE": "1", "POSTGRES_MAX_OVERFLOW": "0"}
        self.app = BareApp(env=env)
        self.counter = CountingAggregate()
        self.app.save(self.counter)


def planned_commands(seed: int, hands: int) -> list[tuple[int, dict[str, Any]]]:
    """The (seat, wire command) sequence random bots play at a seeded table for ``hands``."""
    game = game_named("bourre")
    rng = random.Random(seed)
    state = None
    for event in game.decide(None, OpenTable(game="bourre", options={"seats": SEATS}, seed=seed)):
        state = game.evolve(state, event)
    for seat in range(SEATS):
        sit = TakeSeat(name=f"bot{seat}", token_hash=hash_token(f"t{seat}"), seat=seat)
        for event in game.decide(state, sit):
            state = game.evolve(state, event)
    plan: list[tuple[int, dict[str, Any]]] = []
    played = 0
    while played < hands:
        seat = rng.choice(sorted(game.to_act(state)))
        command = rng.choice(game.legal_commands(state, seat))
        plan.append((seat, command_object(command)))
        for event in game.decide(state, command):
            state = game.evolve(state, event)
            played += 1 if game.settles_hand(event) else 0
    return plan


def prepare_table(base: str, seed: int) -> tuple[str, dict[int, str]]:
    with httpx.Client(base_url=base) as http:
        body = {"game": "bourre", "options": {"seats": SEATS}, "seed": seed}
        table = http.post("/tables", json=body).json()["tableId"]
        tokens = {}
        for seat in range(SEATS):
            taken = http.post(f"/tables/{table}/seats", json={"name": f"bot{seat}", "seat": seat})
            tokens[seat] = taken.json()["token"]
    return table, tokens


def prepared_requests(
    host: str, table: str, tokens: dict[int, str], plan: list[Any]
) -> list[bytes]:
    """The plan as ready-to-send HTTP/1.1 requests (built before anything is timed)."""
    path = f"/tables/{table}/commands"
    requests = []
    for seat, command in plan:
        body = json.dumps(command).encode()
        head = (
            f"POST {path} HTTP/1.1\r\nHost: {host}\r\n"
            f"Authorization: Bearer {tokens[seat]}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        )
        requests.append(head.encode() + body)
    return requests


async def _post(
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    requests: list[bytes],
    latencies: list[float],
) -> None:
    """Post ``requests`` in order over one keep-alive connection, timing each answer."""
    for request in requests:
        started = time.perf_counter()
        writer.write(request)
        head = await reader.readuntil(b"\r\n\r\n")
        status = int(head[9:12])
        length = 0
        for line in head.split(b"\r\n"):
            if line[:15].lower() == b"content-length:":
                length = int(line[15:])
        answer = await reader.readexactly(length)
        latencies.append(time.perf_counter() - started)
        if status != 200:
            raise RuntimeError(
                f"command refused ({status}): {request.decode(errors='replace')!r} "
                f"-> {answer.decode(errors='replace')}"
            )


async def _client_main(
    connection: Connection, host: str, port: int, tables: list[list[bytes]]
) -> None:
    """Each round: every table posts its next ``count`` commands concurrently; the answer to
    the parent is the round's latencies (or the first error, raised). After a pause near the
    server's keep-alive timeout (5 s; the bare appends between rounds take that long on a slow
    disk) every connection is opened again before the round: the server could close one
    just as a request goes out."""
    loop = asyncio.get_running_loop()
    streams = [await asyncio.open_connection(host, port) for _ in tables]
    sent = 0
    last = time.monotonic()
    try:
        while (count := await loop.run_in_executor(None, connection.recv)) is not None:
            stale = time.monotonic() - last > KEEP_ALIVE_SAFE
            for i, (reader, writer) in enumerate(streams):
                if stale or reader.at_eof():
                    writer.close()
                    streams[i] = await asyncio.open_connection(host, port)
            latencies: list[float] = []
            await asyncio.gather(
                *(
                    _post(reader, writer, requests[sent : sent + count], latencies)
                    for (reader, writer), requests in zip(streams, tables, strict=True)
                )
            )
            sent += count
            last = time.monotonic()
            connection.send(latencies)
    finally:
        for _, writer in streams:
            writer.close()


def client_process(connection: Connection, host: str, port: int, tables: list[Any]) -> None:
    """A client process: its tables' connections on one event loop; any error goes back to
    the parent, which stops the run and shows it. Its prepared requests live as long as it
    does: frozen, the collector no longer walks them (it took a fifth of a client's CPU)."""
    gc.freeze()
    try:
        asyncio.run(_client_main(connection, host, port, tables))
    except BaseException:
        connection.send(traceback.format_exc())
    finally:
        connection.close()


class Figures:
    """Seconds and counts of both sides, accumulated round by round."""

    def __init__(self) -> None:
        self.commands = 0
        self.command_seconds = 0.0
        self.server_cpu = 0.0  # CPU seconds of the server's processes while commands ran
        self.client_cpu = 0.0  # and of the client processes
        self.database_cpu = 0.0  # and of the PostgreSQL backends (PostgreSQL only)
        self.appends = 0
        self.append_seconds = 0.0
        self.latencies: list[float] = []
        self.append_latencies: list[float] = []
        self.per_worker: list[int] = []  # clients' connections per server process, most first


def run(
    base: str,
    tables: int,
    hands: int,
    first_seed: int,
    bare: BareAppender,
    chunk: int,
    processes: int,
    server: int,
    database: DatabaseBackends | None = None,
) -> Figures:
    """``tables`` tables played concurrently by ``processes`` client processes (asyncio, one
    connection per table), ``chunk`` commands per table at a time; after each round the
    server idles while the same number of bare appends is timed, so both sides see the same
    machine load (it is shared and noisy)."""
    host, port = base.removeprefix("http://").split(":")
    plans = [planned_commands(first_seed + i, hands) for i in range(tables)]
    requests = [
        prepared_requests(host, *prepare_table(base, first_seed + i), plan)
        for i, plan in enumerate(plans)
    ]
    context = multiprocessing.get_context("spawn")
    shares = [requests[i::processes] for i in range(min(processes, tables))]
    pipes = []
    workers = []
    for share in shares:
        mine, theirs = context.Pipe()
        worker = context.Process(target=client_process, args=(theirs, host, int(port), share))
        worker.start()
        theirs.close()
        pipes.append(mine)
        workers.append(worker)
    figures = Figures()
    sent = [0] * tables
    try:
        while any(s < len(r) for s, r in zip(sent, requests, strict=True)):
            due = sum(min(chunk, len(r) - s) for s, r in zip(sent, requests, strict=True))
            server_cpu = cpu_seconds(server)
            database_cpu = database.cpu_seconds() if database else 0.0
            client_cpu = sum(cpu_seconds(w.pid or 0) for w in workers)
            started = time.perf_counter()
            for pipe in pipes:
                pipe.send(chunk)
            for pipe in pipes:
                answer = pipe.recv()
                if isinstance(answer, str):
                    log = Path(base_directory(server), "serve.log").read_text(errors="replace")
                    raise SystemExit(
                        f"a client failed:\n{answer}\nserver log (end):\n{log[-3000:]}"
                    )
                figures.latencies.extend(answer)
            figures.command_seconds += time.perf_counter() - started
            figures.server_cpu += cpu_seconds(server) - server_cpu
            if database:
                figures.database_cpu += database.cpu_seconds() - database_cpu
            figures.client_cpu += sum(cpu_seconds(w.pid or 0) for w in workers) - client_cpu
            figures.commands += due
            if not figures.per_worker:  # every client is connected by the end of a round
                held = connections_per_process(server, int(port))
                figures.per_worker = [count for _, count in held]
            sent = [min(s + chunk, len(r)) for s, r in zip(sent, requests, strict=True)]
            for _ in range(due):  # one by one, to see the disk's own tail latency too
                seconds = bare.append(1)
                figures.append_seconds += seconds
                figures.append_latencies.append(seconds)
            figures.appends += due
        for pipe in pipes:
            pipe.send(None)
    finally:
        for worker in workers:
            worker.join(timeout=10)
            if worker.is_alive():
                worker.kill()
    if figures.commands != len(figures.latencies):
        raise SystemExit(f"{figures.commands} commands due but {len(figures.latencies)} answered")
    figures.latencies.sort()
    figures.append_latencies.sort()
    return figures


def base_directory(server: int) -> str:
    """The server's working directory (where its log is)."""
    return psutil.Process(server).cwd()


def percentile(latencies: list[float], fraction: float) -> float:
    return latencies[min(int(len(latencies) * fraction), len(latencies) - 1)] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--store",
        choices=("sqlite", "postgresql"),
        default="sqlite",
        help="event store (postgresql: a database of its own on the CARDROOM_EVENT_STORE server)",
    )
    parser.add_argument("--tables", type=int, default=4, help="concurrent clients (one table each)")
    parser.add_argument("--hands", type=int, default=20, help="hands per table")
    parser.add_argument("--chunk", type=int, default=50, help="commands per table per round")
    parser.add_argument("--client-processes", type=int, default=2, help="processes posting")
    parser.add_argument(
        "--workers", type=int, default=None, help="cardroom serve --workers (default: its own)"
    )
    parser.add_argument(
        "--projector",
        action="store_true",
        help="run the projection in the server (as on embedded defaults): its CPU counts too",
    )
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        directory = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="cardroom-http-")))
        store = stack.enter_context(event_store(args.store, directory))
        port = free_port()
        server = start_server(
            directory, port, args.workers, projector=args.projector or None, store=store
        )
        base = f"http://127.0.0.1:{port}"
        # SQLite: same directory, same eventsourcing settings (WAL, default synchronous) as the
        # server's store; its own file so the two never share a write lock. PostgreSQL: the
        # same database (the bare appends have tables of their own), one connection.
        bare = BareAppender(store) if args.store == "sqlite" else OneConnectionAppender(store)
        try:
            bare.append(100)  # warm up
            timed = (bare, args.chunk)
            run(base, 1, 1, 1, *timed, 1, server.pid)  # warm up the server
            one = run(base, 1, args.hands, 100, *timed, 1, server.pid)
            clients = args.client_processes
            database = None if args.store == "sqlite" else DatabaseBackends(store)
            try:
                many = run(
                    base, args.tables, args.hands, 200, *timed, clients, server.pid, database
                )
            finally:
                if database:
                    database.close()
        finally:
            bare.close()
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)
    appends_per_second = (one.appends + many.appends) / (one.append_seconds + many.append_seconds)
    sequential = one.commands / one.command_seconds
    concurrent = many.commands / many.command_seconds
    p99 = percentile(many.latencies, 0.99)
    ratio = concurrent / appends_per_second
    workers = "its default" if args.workers is None else str(args.workers)
    projection = "projector in the server" if args.projector else "no projector"
    print(
        f"[{args.store}, real HTTP to cardroom serve, workers: {workers}, {projection}; "
        "bare appends between rounds]"
    )
    print(
        f"  bare eventsourcing appends/s      {appends_per_second:10,.0f}  "
        f"(p99 {percentile(many.append_latencies, 0.99):.2f} ms: the disk's own tail)"
    )
    print(f"  HTTP commands/s, 1 client         {sequential:10,.0f}  ({one.commands} commands)")
    print(
        f"  HTTP commands/s, {args.tables} clients       {concurrent:10,.0f}  "
        f"({many.commands} commands; target ≥ 2,000: {_verdict(concurrent >= 2000)})"
    )
    print(
        f"  latency p50 / p99 (ms), 1 client  {percentile(one.latencies, 0.5):10.2f} / "
        f"{percentile(one.latencies, 0.99):.2f}"
    )
    print(
        f"  latency p50 / p99 (ms), {args.tables} clients "
        f"{percentile(many.latencies, 0.5):10.2f} / {p99:.2f}  "
        f"(p99 target ≤ 20 ms: {_verdict(p99 <= 20)})"
    )
    rate_target, p99_target = TARGETS[args.store]
    print(
        f"  issue 23 target at 16 tables: ≥ {rate_target:,} commands/s "
        f"({_verdict(concurrent >= rate_target)}), p99 ≤ {p99_target} ms "
        f"({_verdict(p99 <= p99_target)})"
    )
    print(
        f"  clients' connections per server process, {args.tables} clients: "
        + " / ".join(str(n) for n in many.per_worker)
    )
    print(
        f"  CPU ms per command, {args.tables} clients: server "
        f"{1000 * many.server_cpu / many.commands:.3f}, clients "
        f"{1000 * many.client_cpu / many.commands:.3f}"
        + (
            f", PostgreSQL backends {1000 * many.database_cpu / many.commands:.3f}"
            if args.store == "postgresql"
            else ""
        )
        + "  (1 client: server "
        f"{1000 * one.server_cpu / one.commands:.3f})"
    )
    print(
        f"  => HTTP commands/s ({args.tables} clients) ÷ bare appends/s = {ratio:.2f} "
        f"(1 client {sequential / appends_per_second:.2f}; target ≥ 1: {_verdict(ratio >= 1)})"
    )


def _verdict(met: bool) -> str:
    return "ok" if met else "BELOW TARGET"


if __name__ == "__main__":
    main()
