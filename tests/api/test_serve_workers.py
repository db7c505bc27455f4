"""``cardroom serve --workers 2`` (design §5, "Several processes"): two API processes behind
one port, on SQLite and on PostgreSQL, answer as one process would — read-your-writes with
``?after=``, idempotent retries and 409s — whichever worker each request reaches; on embedded
defaults Redis and the projector run once, in the supervisor."""

from __future__ import annotations

import contextlib
import http.client
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest

from tests.api.served import Served, cardroom_serve
from tests.waiting import wait_until

CONNECTIONS_AT_MOST = 200


class Connection:
    """One keep-alive connection (so one worker) and the local port that identifies it."""

    def __init__(self, served: Served) -> None:
        self.http = http.client.HTTPConnection("127.0.0.1", served.port, timeout=30)
        self.http.connect()
        assert self.http.sock is not None
        self.port = self.http.sock.getsockname()[1]

    def call(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, Any, http.client.HTTPResponse]:
        data = None if body is None else json.dumps(body)
        self.http.request(method, path, body=data, headers=headers or {})
        response = self.http.getresponse()
        raw = response.read()
        return response.status, json.loads(raw) if raw else None, response


@pytest.fixture(params=["sqlite", "postgresql"])
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Served]:
    """Embedded defaults but for the store: private Redis and projector in the supervisor."""
    store = (
        f"sqlite:///{tmp_path}/var/cardroom.db"
        if request.param == "sqlite"
        else request.getfixturevalue("postgres_url")
    )
    env = {"CARDROOM_EVENT_STORE": store, "CARDROOM_VAR_DIR": str(tmp_path / "var")}
    with cardroom_serve(tmp_path, env, "--workers", "2") as server:
        yield server


def workers_holding(served: Served, connections: list[Connection]) -> set[int]:
    """The processes that accepted ``connections`` (each connection is one worker's)."""
    ports = {c.port for c in connections}
    holders = set()
    for child in psutil.Process(served.process.pid).children(recursive=True):
        try:
            held_by_child = child.net_connections(kind="tcp")
        except (psutil.ZombieProcess, psutil.NoSuchProcess):
            continue  # a child that has just ended holds nothing
        for held in held_by_child:
            if held.raddr and held.laddr.port == served.port and held.raddr.port in ports:
                holders.add(child.pid)
    return holders


def connections_to_both_workers(served: Served) -> list[Connection]:
    connections: list[Connection] = []

    def both_reached() -> bool:
        assert len(connections) < CONNECTIONS_AT_MOST, "one worker accepted every connection"
        connections.append(Connection(served))
        assert connections[-1].call("GET", "/health")[0] == 200
        return len(connections) >= 8 and len(workers_holding(served, connections)) == 2

    wait_until(both_reached, 60, "the connections never reached both workers")
    return connections


def test_two_workers_answer_as_one_process(served: Served) -> None:
    connections = connections_to_both_workers(served)
    status, created, _ = connections[0].call(
        "POST", "/tables", {"game": "bourre", "options": {"seats": 2}}
    )
    assert status == 201, created
    table = created["tableId"]
    tokens = []
    for n, name in enumerate(["Ann", "Bob"]):
        status, seated, _ = connections[n + 1].call(
            "POST", f"/tables/{table}/seats", {"name": name}
        )
        assert status == 201, seated
        tokens.append(seated["token"])

    # Commands rotate over the connections, so each worker's cached table is often stale.
    for turn in range(12):
        sender = connections[turn % len(connections)]
        reader = connections[(turn + 1) % len(connections)]
        posted = None
        for token in tokens:
            auth = {"Authorization": f"Bearer {token}"}
            _, legal, response = reader.call("GET", f"/tables/{table}/legal", headers=auth)
            if legal:
                command = {**legal[0], "expectedVersion": int(response.headers["X-Table-Version"])}
                status, posted, _ = sender.call(
                    "POST", f"/tables/{table}/commands", command, headers=auth
                )
                assert status == 200, posted
                break
        assert posted is not None, "nobody could act"
        status, view, response = reader.call("GET", f"/tables/{table}?after={posted['position']}")
        assert status == 200, view
        assert response.headers["x-cardroom-source"] == "read-model"
        assert view["version"] >= posted["version"]

    # A stale expectedVersion is a 409 on every worker, and writes nothing.
    auth = {"Authorization": f"Bearer {tokens[0]}"}
    for connection in connections:
        _, legal, response = connection.call("GET", f"/tables/{table}/legal", headers=auth)
        if not legal:
            auth = {"Authorization": f"Bearer {tokens[1]}"}
            _, legal, response = connection.call("GET", f"/tables/{table}/legal", headers=auth)
        version = int(response.headers["X-Table-Version"])
        stale = {**legal[0], "expectedVersion": version - 1}
        status, problem, _ = connection.call(
            "POST", f"/tables/{table}/commands", stale, headers=auth
        )
        assert status == 409, problem

    # An idempotent retry gets the first answer from every worker, and writes nothing more.
    keyed = {**auth, "Idempotency-Key": "once"}
    first_status, first, _ = connections[0].call(
        "POST", f"/tables/{table}/commands", legal[0], headers=keyed
    )
    assert first_status == 200, first
    for connection in connections:
        status, again, _ = connection.call(
            "POST", f"/tables/{table}/commands", legal[0], headers=keyed
        )
        assert (status, again) == (200, first)
    status, view, _ = connections[-1].call("GET", f"/tables/{table}?after={first['position']}")
    assert view["version"] == first["version"]


def command_line(process: psutil.Process) -> list[str]:
    """A child's command line; none for one that has just ended (gone, or a zombie not yet
    reaped by its parent)."""
    try:
        return process.cmdline()
    except (psutil.ZombieProcess, psutil.NoSuchProcess):
        return []


def test_embedded_redis_and_projector_run_once(served: Served) -> None:
    supervisor = psutil.Process(served.process.pid)
    children = supervisor.children(recursive=True)
    redis_servers = [c for c in children if "redis-server" in " ".join(command_line(c))]
    assert [r.ppid() for r in redis_servers] == [supervisor.pid]
    started = [line for line in served.log.splitlines() if "projection runner started" in line]
    assert len(started) == 1, served.log
    assert started[0].endswith(f"in process {supervisor.pid}")


def test_workers_stop_when_their_supervisor_is_killed(served: Served) -> None:
    # A killed supervisor cannot stop its workers: they stop on their own (gracefully), so
    # none goes on serving the port with nobody to stop it.
    children = psutil.Process(served.process.pid).children(recursive=True)
    workers = [c for c in children if "multiprocessing" in " ".join(command_line(c))]
    assert len(workers) >= 2
    served.process.kill()
    served.process.wait()

    def stopped(process: psutil.Process) -> bool:
        try:
            return process.status() == psutil.STATUS_ZOMBIE
        except psutil.NoSuchProcess:
            return True

    try:
        wait_until(lambda: all(stopped(w) for w in workers), 30, "the workers to stop")
    finally:  # the embedded Redis outlives a kill by design (the next serve adopts it)
        for child in children:
            with contextlib.suppress(psutil.NoSuchProcess):
                child.terminate()
