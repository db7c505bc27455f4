"""HTTP command path (design §6): commands/s through ``POST /tables/{id}/commands`` ÷ bare
eventsourcing single-event appends/s on the same kind of store, measured in one run.

The server is the real ``cardroom serve`` in its own process (SQLite in a temp dir, Redis at
``CARDROOM_BENCH_REDIS`` or 127.0.0.1:6379; the projection runs elsewhere, so this is the
command path alone). Random legal bots play 7-seat Bourré: their command sequences are worked
out first with the pure domain (same seeds, so the same deals), then fired over keep-alive
HTTP connections, one client thread per table.

Bare appends use the same SQLite directory and settings (``BareAppender``: eventsourcing's
defaults, WAL) and are timed in the same run, interleaved: after every round of ``--chunk``
commands per table the server idles while as many bare appends are timed. Timed in a
separate window (as before), the ratio mostly measured how busy the shared disk was then.

``python bench/http_commands.py [--tables 4] [--hands 20] [--chunk 50]``
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from command_path import BareAppender  # noqa: E402  (the write side's bare-append baseline)

from api.commands import command_object  # noqa: E402
from domain.games import game_named  # noqa: E402
from domain.table import OpenTable, TakeSeat, hash_token  # noqa: E402

SEATS = 7
REDIS = os.environ.get("CARDROOM_BENCH_REDIS", "redis://127.0.0.1:6379/0")


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


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(directory: Path, port: int) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARDROOM_")}
    env.update(
        CARDROOM_EVENT_STORE=f"sqlite:///{directory}/cardroom.db",
        CARDROOM_REDIS_URL=REDIS,
        CARDROOM_REDIS_PREFIX=f"bench-{uuid.uuid4().hex[:8]}:",
        CARDROOM_VAR_DIR=str(directory),
        CARDROOM_RATE_LIMITS="off",  # a load test from one address, on purpose
    )
    script = Path(sys.executable).parent / "cardroom"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "api.cli"]
    process = subprocess.Popen(
        [*command, "serve", "--port", str(port)],
        env=env,
        cwd=directory,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                return process
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("cardroom serve did not start")


def prepare_table(base: str, seed: int) -> tuple[str, dict[int, str]]:
    with httpx.Client(base_url=base) as http:
        body = {"game": "bourre", "options": {"seats": SEATS}, "seed": seed}
        table = http.post("/tables", json=body).json()["tableId"]
        tokens = {}
        for seat in range(SEATS):
            taken = http.post(f"/tables/{table}/seats", json={"name": f"bot{seat}", "seat": seat})
            tokens[seat] = taken.json()["token"]
    return table, tokens


class Client:
    """One table's bots over one keep-alive connection (the standard library's client keeps
    the client's own CPU small, so the figure is the server's: both share the machine)."""

    def __init__(self, base: str, table: str, tokens: dict[int, str], plan: list[Any]) -> None:
        host, port = base.removeprefix("http://").split(":")
        self.connection = http.client.HTTPConnection(host, int(port), timeout=30)
        self.headers = {
            seat: {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
            for seat, token in tokens.items()
        }
        self.path = f"/tables/{table}/commands"
        self.plan = plan
        self.sent = 0
        self.latencies: list[float] = []

    def fire(self, count: int) -> None:
        """Post the plan's next ``count`` commands in order; record their latencies."""
        for seat, command in self.plan[self.sent : self.sent + count]:
            body = json.dumps(command)
            started = time.perf_counter()
            self.connection.request("POST", self.path, body=body, headers=self.headers[seat])
            response = self.connection.getresponse()
            answer = response.read()
            self.latencies.append(time.perf_counter() - started)
            if response.status != 200:
                raise SystemExit(f"command refused: {command} -> {answer.decode()}")
        self.sent += count

    def close(self) -> None:
        self.connection.close()


class Figures:
    """Seconds and counts of both sides, accumulated round by round."""

    def __init__(self) -> None:
        self.commands = 0
        self.command_seconds = 0.0
        self.appends = 0
        self.append_seconds = 0.0
        self.latencies: list[float] = []


def run(
    base: str, tables: int, hands: int, first_seed: int, bare: BareAppender, chunk: int
) -> Figures:
    """``tables`` tables played concurrently, ``chunk`` commands per table at a time; after
    each round the server idles while the same number of bare appends is timed, so both
    sides see the same machine load (it is shared and noisy)."""
    plans = [planned_commands(first_seed + i, hands) for i in range(tables)]
    clients = [
        Client(base, *prepare_table(base, first_seed + i), plan) for i, plan in enumerate(plans)
    ]
    figures = Figures()
    try:
        while any(c.sent < len(c.plan) for c in clients):
            due = sum(min(chunk, len(c.plan) - c.sent) for c in clients)
            threads = [threading.Thread(target=c.fire, args=(chunk,)) for c in clients]
            started = time.perf_counter()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            figures.command_seconds += time.perf_counter() - started
            figures.commands += due
            figures.append_seconds += bare.append(due)
            figures.appends += due
    finally:
        for client in clients:
            client.close()
    if figures.commands != sum(len(c.latencies) for c in clients):
        raise SystemExit("a client thread stopped early (see the error above)")
    figures.latencies = sorted(x for c in clients for x in c.latencies)
    return figures


def percentile(latencies: list[float], fraction: float) -> float:
    return latencies[min(int(len(latencies) * fraction), len(latencies) - 1)] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=4, help="concurrent clients (one table each)")
    parser.add_argument("--hands", type=int, default=20, help="hands per table")
    parser.add_argument("--chunk", type=int, default=50, help="commands per table per round")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cardroom-http-bench-") as tmp:
        directory = Path(tmp)
        port = free_port()
        server = start_server(directory, port)
        base = f"http://127.0.0.1:{port}"
        # Same directory, same eventsourcing SQLite settings (WAL, default synchronous) as the
        # server's store; its own file so the two never share a write lock.
        bare = BareAppender(f"sqlite:///{directory}/cardroom.db")
        try:
            bare.append(100)  # warm up
            run(base, 1, 1, 1, bare, args.chunk)  # warm up the server
            one = run(base, 1, args.hands, 100, bare, args.chunk)
            many = run(base, args.tables, args.hands, 200, bare, args.chunk)
        finally:
            bare.close()
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)
    appends_per_second = (one.appends + many.appends) / (one.append_seconds + many.append_seconds)
    sequential = one.commands / one.command_seconds
    concurrent = many.commands / many.command_seconds
    one_appends = one.appends / one.append_seconds
    print("[sqlite, real HTTP to cardroom serve; bare appends timed between rounds]")
    print(f"  bare eventsourcing appends/s      {appends_per_second:10,.0f}")
    print(f"  HTTP commands/s, 1 client         {sequential:10,.0f}  ({one.commands} commands)")
    print(
        f"  HTTP commands/s, {args.tables} clients       {concurrent:10,.0f}  "
        f"({many.commands} commands)"
    )
    print(
        f"  latency p50 / p99 (ms), 1 client  {percentile(one.latencies, 0.5):10.2f} / "
        f"{percentile(one.latencies, 0.99):.2f}"
    )
    print(
        f"  latency p50 / p99 (ms), {args.tables} clients "
        f"{percentile(many.latencies, 0.5):10.2f} / {percentile(many.latencies, 0.99):.2f}"
    )
    best = max(sequential, concurrent)
    verdict = "ok" if best / appends_per_second >= 0.5 else "BELOW TARGET"
    print(
        f"  => HTTP commands/s ÷ bare appends/s = {best / appends_per_second:.2f} "
        f"(1 client {sequential / one_appends:.2f}; target ≥ 0.5: {verdict})"
    )


if __name__ == "__main__":
    main()
