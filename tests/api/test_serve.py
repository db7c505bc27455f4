"""``cardroom serve`` on embedded defaults (design §4): one process runs the API, a
private Redis server under ``./var/`` and the projector; SIGTERM stops all of it cleanly."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import redis

from tests.api.conftest import free_port
from tests.waiting import wait_until

START_TIMEOUT = 40.0


def cardroom_command() -> list[str]:
    script = Path(sys.executable).parent / "cardroom"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from api.cli import main; main()"]


def test_cardroom_serve_on_embedded_defaults_answers_and_stops_cleanly(tmp_path: Path) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARDROOM_")}
    process = subprocess.Popen(
        [*cardroom_command(), "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=tmp_path,  # embedded defaults: ./var/cardroom.db and ./var/redis
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"

    def healthy() -> bool:
        assert process.poll() is None, process.stdout.read().decode() if process.stdout else ""
        try:
            return httpx.get(f"{base}/health", timeout=2).status_code == 200
        except httpx.TransportError:
            return False

    try:
        wait_until(healthy, START_TIMEOUT, "cardroom serve did not answer /health")
        created = httpx.post(f"{base}/tables", json={"game": "bourre", "options": {"seats": 2}})
        assert created.status_code == 201, created.text
        table = created.json()["tableId"]
        seat = httpx.post(f"{base}/tables/{table}/seats", json={"name": "Ann"}).json()
        # The projector thread of the same process serves read-your-writes.
        response = httpx.get(f"{base}/tables/{table}?after={seat['position']}", timeout=10)
        assert response.status_code == 200
        assert response.headers["x-cardroom-source"] == "read-model"
        assert response.json()["seats"][0]["name"] == "Ann"
        lobby = httpx.get(f"{base}/tables").json()
        assert [line["tableId"] for line in lobby] == [table]
        assert (tmp_path / "var" / "cardroom.db").exists()
        redis_url = (tmp_path / "var" / "redis" / "redis.url").read_text().strip()
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            code = process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            raise
    assert code == 0
    # The private Redis server stopped with the service.
    stopped = redis.Redis.from_url(redis_url, socket_connect_timeout=1)
    try:
        stopped.ping()
        raise AssertionError("the embedded Redis server is still running")
    except redis.RedisError:
        pass
    finally:
        stopped.close()
