"""The real service for a benchmark run: its event store (a SQLite file, or a PostgreSQL
database of its own, dropped after) and a real ``cardroom serve`` started on it, waited for
until every worker serves. Used by bench/http_commands.py, http_replay.py, sse_fanout.py."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from proc_cpu import connections_per_process  # noqa: E402
from scratch import POSTGRES  # noqa: E402

REDIS = os.environ.get("CARDROOM_BENCH_REDIS", "redis://127.0.0.1:6379/0")
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


@contextlib.contextmanager
def event_store(kind: str, directory: Path) -> Iterator[str]:
    """The run's store URL: a SQLite file in ``directory``, or a PostgreSQL database of its
    own (the server ``CARDROOM_EVENT_STORE`` names, else the test server), dropped after."""
    if kind == "sqlite":
        yield f"sqlite:///{directory}/cardroom.db"
        return
    import psycopg

    named = os.environ.get("CARDROOM_EVENT_STORE", "")
    server = named if named.startswith(POSTGRES_SCHEMES) else POSTGRES
    name = f"cardroom_http_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(server, autocommit=True, connect_timeout=5) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield urlunsplit(urlsplit(server)._replace(path=f"/{name}"))
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(
    directory: Path,
    port: int,
    workers: int | None = None,
    *,
    projector: bool | None = None,
    store: str | None = None,
) -> subprocess.Popen[bytes]:
    """A real ``cardroom serve`` on a scratch store (``store``, else a SQLite file in
    ``directory``) and the benchmark Redis (rate limits off: one client address, on purpose);
    ``projector`` None: the server's default (none)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARDROOM_")}
    env.update(
        CARDROOM_EVENT_STORE=store or f"sqlite:///{directory}/cardroom.db",
        CARDROOM_REDIS_URL=REDIS,
        CARDROOM_REDIS_PREFIX=f"bench-{uuid.uuid4().hex[:8]}:",
        CARDROOM_VAR_DIR=str(directory),
        CARDROOM_ALLOW_STACKED_DECKS="1",  # the bench fixes its deals with seeds
        CARDROOM_RATE_LIMITS="off",  # a load test from one address
    )
    # The CLI of the checkout on PYTHONPATH (else this one's), started the way its worker
    # processes can start again (a script without a main guard would run once more in each).
    env.setdefault("PYTHONPATH", str(ROOT))
    command = [sys.executable, "-c", "from api.cli import main; main()"]
    options = [] if workers is None else ["--workers", str(workers)]
    if projector is not None:
        options.append("--projector" if projector else "--no-projector")
    process = subprocess.Popen(
        [*command, "serve", "--port", str(port), *options],
        env=env,
        cwd=directory,
        stdout=subprocess.DEVNULL,
        stderr=(directory / "serve.log").open("wb"),
    )
    deadline = time.monotonic() + 60
    serving: set[int] = set()
    while time.monotonic() < deadline:
        try:
            # a fresh connection each time: which process answered it
            with httpx.Client(timeout=1) as http:
                if http.get(f"http://127.0.0.1:{port}/health").status_code == 200:
                    serving.update(pid for pid, _ in connections_per_process(process.pid, port))
        except httpx.TransportError:
            pass
        if serving and len(serving) >= (workers or 1):
            return process  # every worker serves: none takes all the clients while it waits
        time.sleep(0.1)
    process.kill()
    raise SystemExit(f"cardroom serve did not start ({len(serving)} workers answered)")
