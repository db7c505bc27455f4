"""``cardroom serve --workers 2`` spreads connections over its workers (design §5, "Several
processes"): each worker listens on a socket of its own (``SO_REUSEPORT``), so the kernel hands
every worker its share of the connections instead of whichever worker wakes first taking them;
a worker that dies is replaced on its socket and the connections that came meanwhile are
served, none refused; SIGHUP replaces every worker on its socket while the port answers."""

from __future__ import annotations

import http.client
import os
import signal
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from tests.api.served import Served, cardroom_serve
from tests.api.test_serve_workers import Connection
from tests.waiting import wait_until

CONNECTIONS = 32
FAIR_SHARE_AT_LEAST = CONNECTIONS // 8  # a quarter of each worker's half: the kernel's hash
# gives fewer with a chance of about 3 in a million; one shared socket gave 3 of 16 under load


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    env = {
        "CARDROOM_EVENT_STORE": f"sqlite:///{tmp_path}/var/cardroom.db",
        "CARDROOM_VAR_DIR": str(tmp_path / "var"),
    }
    with cardroom_serve(tmp_path, env, "--workers", "2") as server:
        yield server


def listening_sockets(served: Served) -> dict[int, set[str]]:
    """Each worker process (pid) → the listening sockets on the port it holds (inodes)."""
    held: dict[int, set[str]] = {}
    for child in psutil.Process(served.process.pid).children(recursive=True):
        try:
            connections = child.net_connections(kind="tcp")
        except (psutil.ZombieProcess, psutil.NoSuchProcess):
            continue
        for connection in connections:
            if connection.status == psutil.CONN_LISTEN and connection.laddr.port == served.port:
                try:
                    inode = os.readlink(f"/proc/{child.pid}/fd/{connection.fd}")
                except OSError:
                    continue  # the child has just ended
                held.setdefault(child.pid, set()).add(inode)
    return held


def connections_per_worker(served: Served, connections: list[Connection]) -> Counter[int]:
    """How many of ``connections`` each worker process holds."""
    ports = {c.port for c in connections}
    counts: Counter[int] = Counter()
    for child in psutil.Process(served.process.pid).children(recursive=True):
        try:
            held_by_child = child.net_connections(kind="tcp")
        except (psutil.ZombieProcess, psutil.NoSuchProcess):
            continue
        for held in held_by_child:
            if held.raddr and held.laddr.port == served.port and held.raddr.port in ports:
                counts[child.pid] += 1
    return counts


def both_workers_listen(served: Served) -> bool:
    held = listening_sockets(served)
    return len(held) == 2 and all(len(sockets) == 1 for sockets in held.values())


def test_each_worker_listens_on_a_socket_of_its_own(served: Served) -> None:
    wait_until(lambda: both_workers_listen(served), 60, "both workers to listen")
    first, second = listening_sockets(served).values()
    assert first != second


def test_connections_spread_over_both_workers(served: Served) -> None:
    wait_until(lambda: both_workers_listen(served), 60, "both workers to listen")
    connections = [Connection(served) for _ in range(CONNECTIONS)]
    for connection in connections:
        assert connection.call("GET", "/health")[0] == 200
    counts = connections_per_worker(served, connections)
    assert sum(counts.values()) == CONNECTIONS
    assert len(counts) == 2, counts
    assert min(counts.values()) >= FAIR_SHARE_AT_LEAST, counts


def test_a_killed_worker_is_replaced_and_the_connections_meanwhile_are_served(
    served: Served,
) -> None:
    wait_until(lambda: both_workers_listen(served), 60, "both workers to listen")
    killed = next(iter(listening_sockets(served)))
    os.kill(killed, signal.SIGKILL)
    # Connections the kernel gives the dead worker's socket wait in its queue for the
    # replacement: every one is answered.
    connections = [Connection(served) for _ in range(CONNECTIONS)]
    for connection in connections:
        assert connection.call("GET", "/health")[0] == 200
    held = listening_sockets(served)
    assert killed not in held
    assert len(held) == 2
    assert len(connections_per_worker(served, connections)) == 2


def test_sighup_replaces_every_worker_on_its_socket_and_the_port_keeps_answering(
    served: Served,
) -> None:
    wait_until(lambda: both_workers_listen(served), 60, "both workers to listen")
    before = listening_sockets(served)
    served.process.send_signal(signal.SIGHUP)

    def health() -> int:
        """``GET /health`` on a new connection, retried once where the connection was closed
        before any answer: a connection the old worker accepted in the instant it stops,
        carrying no request yet, is closed as idle by uvicorn's graceful shutdown, and an
        HTTP client retries an idempotent request so closed (RFC 9110 §9.2.2)."""
        try:
            return Connection(served).call("GET", "/health")[0]
        except http.client.RemoteDisconnected:
            return Connection(served).call("GET", "/health")[0]

    def replaced() -> bool:
        assert health() == 200  # answered throughout
        now = listening_sockets(served)
        return both_workers_listen(served) and not set(now) & set(before)

    wait_until(replaced, 120, "both workers to be replaced")
    sockets = sorted(inode for held in listening_sockets(served).values() for inode in held)
    assert sockets == sorted(inode for held in before.values() for inode in held)
