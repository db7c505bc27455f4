"""The deployed topology on loopback (docs/scaling.md, compose.yaml): a Redis Cluster of real
``redis-server --cluster-enabled yes`` processes, API processes and sharded projectors, each
a real ``cardroom`` process. compose.yaml runs the same commands with the same variables; the
compose test checks that against the names here."""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import redis
from redis.cluster import RedisCluster

from tests.waiting import wait_until

SHARDS = 2
API_PROCESSES = 2
# Each cardroom process's PostgreSQL pool (CARDROOM_DB_POOL_SIZE / _MAX_OVERFLOW): small, so the
# topology fits a server other clients already use.
DB_POOL_SIZE = 1
DB_MAX_OVERFLOW = 2
# The variables every cardroom process of the topology gets (compose.yaml's x-cardroom-env).
ENV_NAMES = (
    "CARDROOM_EVENT_STORE",
    "CARDROOM_REDIS_URL",
    "CARDROOM_REDIS_CLUSTER",
    "CARDROOM_REDIS_PREFIX",
    "CARDROOM_PROJECTION_SHARDS",
    "CARDROOM_LOG_FORMAT",
    "CARDROOM_DB_POOL_SIZE",
    "CARDROOM_DB_MAX_OVERFLOW",
)


def connections_needed(api_workers: int) -> int:
    """PostgreSQL connections the topology may hold at once: every pool full, in each API
    worker and projector, one more API and projector for the restart after a kill (a killed
    process's workers drain while the new ones start), the test's own store and one CLI run."""
    processes = (API_PROCESSES + 1) * api_workers + (SHARDS + 1) + 2
    return processes * (DB_POOL_SIZE + DB_MAX_OVERFLOW)


def free_connections(url: str) -> tuple[int, int, int]:
    """The PostgreSQL server's connections free to ordinary clients, its ``max_connections``
    and how many client connections it has open now."""
    import psycopg

    with psycopg.connect(url, autocommit=True, connect_timeout=5) as conn:
        row = conn.execute(
            "SELECT current_setting('max_connections')::int, "
            "current_setting('superuser_reserved_connections')::int, "
            "(SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend')"
        ).fetchone()
    assert row is not None
    limit, reserved, used = (int(value) for value in row)
    return limit - reserved - used, limit, used


def require_free_connections(url: str, needed: int) -> None:
    """Fail (not skip) before starting anything when the server cannot take ``needed`` more
    connections: the processes would time out waiting for one, far from the cause."""
    free, limit, used = free_connections(url)
    if free < needed:
        raise AssertionError(
            f"PostgreSQL has {free} connections free ({used} of max_connections={limit} in use, "
            f"less the superuser reserve); the deployed topology needs {needed} "
            f"(pools of {DB_POOL_SIZE}+{DB_MAX_OVERFLOW} per process). Close other clients or "
            "raise max_connections."
        )


def api_command(port: int, host: str = "127.0.0.1") -> list[str]:
    return ["cardroom", "serve", "--host", host, "--port", str(port)]


def projector_command(shard: int) -> list[str]:
    return ["cardroom", "project", "--shard", str(shard), "--shards", str(SHARDS)]


def status_command() -> list[str]:
    """The projectors' health check: exits non-zero when a shard lags or is fenced."""
    return ["cardroom", "status", "--max-lag", "1000"]


def free_ports(count: int) -> list[int]:
    sockets = []
    try:
        for _ in range(count):
            sock = socket.socket()
            sock.bind(("127.0.0.1", 0))
            sockets.append(sock)
        return [sock.getsockname()[1] for sock in sockets]
    finally:
        for sock in sockets:
            sock.close()


def _bindable(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_cluster_ports(count: int) -> list[int]:
    """Free ports for cluster nodes: each node also listens on its port + 10000 (the cluster
    bus), so ports stay at most 55535 and both must be free."""
    chooser = random.Random()
    ports: list[int] = []
    while len(ports) < count:
        port = chooser.randrange(20_000, 55_535)
        if port not in ports and _bindable(port) and _bindable(port + 10_000):
            ports.append(port)
    return ports


def executable(name: str) -> str:
    """A binary beside this Python (the venv's console scripts), else on PATH."""
    beside = Path(sys.executable).with_name(name)
    if beside.exists():
        return str(beside)
    found = shutil.which(name)
    if found is None:
        raise RuntimeError(f"{name} is not installed (Debian: apt-get install redis-server)")
    return found


def stop(process: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    if process.poll() is None:
        process.send_signal(sig)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextlib.contextmanager
def redis_cluster(directory: Path, nodes: int = 3) -> Iterator[str]:
    """A Redis Cluster of ``nodes`` primaries on free loopback ports; yields one node's URL."""
    ports = free_cluster_ports(nodes)
    processes = []
    try:
        for port in ports:
            home = directory / f"redis-{port}"
            home.mkdir()
            processes.append(
                subprocess.Popen(
                    [
                        executable("redis-server"),
                        "--port",
                        str(port),
                        "--bind",
                        "127.0.0.1",
                        "--cluster-enabled",
                        "yes",
                        "--cluster-config-file",
                        "nodes.conf",
                        "--dir",
                        str(home),
                        "--save",
                        "",
                        "--appendonly",
                        "no",
                        "--logfile",
                        str(home / "redis.log"),
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
        for port in ports:
            node = redis.Redis(port=port)
            wait_until(partial(_pings, node), 20, f"redis-server on {port} did not start")
            node.close()
        subprocess.run(
            [
                executable("redis-cli"),
                "--cluster",
                "create",
                *(f"127.0.0.1:{port}" for port in ports),
                "--cluster-replicas",
                "0",
                "--cluster-yes",
            ],
            check=True,
            capture_output=True,
            timeout=60,
        )
        for port in ports:
            node = redis.Redis(port=port)
            wait_until(
                partial(_cluster_ok, node),
                30,
                f"the cluster node on {port} did not reach cluster_state:ok",
            )
            node.close()
        yield f"redis://127.0.0.1:{ports[0]}/0"
    finally:
        for process in processes:
            stop(process)


def _cluster_ok(node: redis.Redis) -> bool:
    info: dict[str, Any] = node.cluster("info")
    return info.get("cluster_state") == "ok"


def _pings(node: redis.Redis) -> bool:
    try:
        return bool(node.ping())
    except redis.ConnectionError:
        return False


def cluster_client(url: str) -> redis.Redis:
    return RedisCluster.from_url(url, decode_responses=False)  # type: ignore[return-value]


@dataclass
class Cardroom:
    """``cardroom`` processes sharing one environment; each keeps its command for restarts."""

    env: dict[str, str]
    logs: Path
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    commands: dict[str, list[str]] = field(default_factory=dict)

    def start(self, name: str, command: list[str]) -> subprocess.Popen[bytes]:
        self.commands[name] = command
        log = open(self.logs / f"{name}.log", "ab")  # noqa: SIM115 - the child holds it
        process = subprocess.Popen(
            [executable(command[0]), *command[1:]],
            env={**os.environ, **self.env},
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        self.processes[name] = process
        return process

    def kill(self, name: str) -> None:
        """SIGKILL: no shutdown, no cleanup, as a crashed machine would."""
        stop(self.processes[name], signal.SIGKILL)

    def restart(self, name: str) -> subprocess.Popen[bytes]:
        return self.start(name, self.commands[name])

    def run(self, command: list[str]) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [executable(command[0]), *command[1:]],
            env={**os.environ, **self.env},
            capture_output=True,
            text=True,
            timeout=300,
        )

    def log_of(self, name: str) -> str:
        return (self.logs / f"{name}.log").read_text(errors="replace")

    def stop_all(self) -> None:
        for process in self.processes.values():
            stop(process)
