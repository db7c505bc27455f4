"""``cardroom serve`` killed with SIGKILL leaves its embedded redis-server running; the next
``cardroom serve`` on the same var dir adopts it (one server per var dir, never two) and stops
it on a clean stop (design §4)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from pathlib import Path

import httpx
import redis

from tests.api.conftest import free_port
from tests.api.test_serve import START_TIMEOUT, cardroom_command
from tests.waiting import wait_until


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (not gone, not a zombie)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def serve(directory: Path) -> tuple[subprocess.Popen[bytes], str]:
    """A real ``cardroom serve`` on embedded defaults in ``directory``, answering /health."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARDROOM_")}
    process = subprocess.Popen(
        [*cardroom_command(), "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=directory,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"

    def healthy() -> bool:
        assert process.poll() is None, "cardroom serve exited"
        try:
            return httpx.get(f"{base}/health", timeout=2).status_code == 200
        except httpx.TransportError:
            return False

    wait_until(healthy, START_TIMEOUT, "cardroom serve did not answer /health")
    return process, base


def redis_pid(directory: Path) -> int:
    """The pid of the server the var dir's ``redis.url`` leads to."""
    url = (directory / "var" / "redis" / "redis.url").read_text().strip()
    client = redis.Redis.from_url(url, socket_connect_timeout=1)
    try:
        return int(client.info("server")["process_id"])
    finally:
        client.close()


def redis_servers_of(directory: Path) -> list[int]:
    """The redis-server processes working in this var dir (redis runs in its ``dir``)."""
    home = (directory / "var" / "redis").resolve()
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                redis_server = b"redis-server" in (entry / "cmdline").read_bytes()
                if redis_server and (entry / "cwd").resolve() == home:
                    found.append(int(entry.name))
    return [pid for pid in found if alive(pid)]


def test_a_killed_serves_redis_is_adopted_by_the_next_and_stopped_by_its_clean_stop(
    tmp_path: Path,
) -> None:
    first, _ = serve(tmp_path)
    orphan = redis_pid(tmp_path)
    try:
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=20)
        assert alive(orphan)  # the server outlived its owner
        second, base = serve(tmp_path)
        try:
            created = httpx.post(f"{base}/tables", json={"game": "bourre", "options": {"seats": 2}})
            assert created.status_code == 201, created.text
            assert redis_servers_of(tmp_path) == [redis_pid(tmp_path)]  # one server, never two
        finally:
            second.send_signal(signal.SIGTERM)
            assert second.wait(timeout=30) == 0
        wait_until(lambda: not redis_servers_of(tmp_path), 20, "a redis-server outlived serve")
    finally:
        for pid in redis_servers_of(tmp_path):
            os.kill(pid, signal.SIGKILL)
