"""A real ``cardroom serve`` in a child process for tests (no tests here): started on a free
loopback port with the given environment, waited for with ``/health``, stopped with SIGTERM;
its log is kept for the test to read."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from tests.api.conftest import free_port
from tests.waiting import wait_until

START_TIMEOUT = 60.0


def cardroom_command() -> list[str]:
    script = Path(sys.executable).parent / "cardroom"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from api.cli import main; main()"]


@dataclass
class Served:
    base: str
    port: int
    process: subprocess.Popen[bytes]
    log_path: Path

    @property
    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


@contextmanager
def cardroom_serve(directory: Path, env: Mapping[str, str], *options: str) -> Iterator[Served]:
    """``cardroom serve --port <free> *options`` with ``CARDROOM_*`` taken only from ``env``."""
    port = free_port()
    environment = {k: v for k, v in os.environ.items() if not k.startswith("CARDROOM_")}
    environment.update(env)
    log_path = directory / "serve.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [*cardroom_command(), "serve", "--host", "127.0.0.1", "--port", str(port), *options],
            cwd=directory,
            env=environment,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    served = Served(f"http://127.0.0.1:{port}", port, process, log_path)

    def healthy() -> bool:
        assert process.poll() is None, served.log
        try:
            return httpx.get(f"{served.base}/health", timeout=2).status_code == 200
        except httpx.TransportError:
            return False

    try:
        wait_until(healthy, START_TIMEOUT, "cardroom serve did not answer /health")
        yield served
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            raise
