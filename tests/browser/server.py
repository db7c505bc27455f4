"""A real ``cardroom serve`` for the browser tests, and an API client for the seats the
browser does not play (design §5)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import TracebackType
from typing import Any

import httpx

START_TIMEOUT = 40.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def cardroom_command() -> list[str]:
    script = Path(sys.executable).parent / "cardroom"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from api.cli import main; main()"]


class CardroomServer:
    """``cardroom serve`` on embedded defaults in ``directory`` (its own SQLite store and
    private Redis), stacked decks allowed, server bots acting without think time (a table of
    bots plays a hand in moments: the tests wait on what the page shows, never on a bot's
    pause); stopped with SIGTERM on exit."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.http = httpx.Client(base_url=self.base, timeout=15)
        self.position = 0  # the last log position a command answered (read-your-writes)

    def __enter__(self) -> CardroomServer:
        env = {k: v for k, v in os.environ.items() if not k.startswith("CARDROOM_")}
        env["CARDROOM_ALLOW_STACKED_DECKS"] = "1"
        env["CARDROOM_BOT_THINK_SECONDS"] = "0"
        self.process = subprocess.Popen(
            [*cardroom_command(), "serve", "--host", "127.0.0.1", "--port", str(self.port)],
            cwd=self.directory,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            assert self.process.poll() is None, "cardroom serve exited at start-up"
            try:
                if self.http.get("/health", timeout=2).status_code == 200:
                    return self
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "cardroom serve did not answer /health"
            time.sleep(0.2)

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.http.close()
        if self.process is None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    # --- the API, for the seats the browser does not play --------------------------------

    def open_table(
        self,
        game: str,
        options: dict[str, Any],
        *,
        seed: int = 7,
        decks: list[list[str]] | None = None,
    ) -> str:
        body: dict[str, Any] = {"game": game, "options": options, "seed": seed}
        if decks is not None:
            body["decks"] = decks
        answer = self.http.post("/tables", json=body)
        assert answer.status_code == 201, answer.text
        return str(answer.json()["tableId"])

    def sit(self, table: str, name: str, seat: int | None = None) -> str:
        body: dict[str, Any] = {"name": name} if seat is None else {"name": name, "seat": seat}
        answer = self.http.post(f"/tables/{table}/seats", json=body)
        assert answer.status_code == 201, answer.text
        self.position = max(self.position, int(answer.json()["position"]))
        return str(answer.json()["token"])

    def view(self, table: str, token: str | None = None) -> dict[str, Any]:
        answer = self.http.get(
            f"/tables/{table}", params={"after": self.head()}, headers=_auth(token)
        )
        assert answer.status_code == 200, answer.text
        return dict(answer.json())

    def head(self) -> int:
        """The event log's last position (commands the browser sent included), so a read
        given ``?after=`` it is never stale."""
        health = self.http.get("/health").json()
        return max(self.position, int(health["projection"]["head"] or 0))

    def legal(self, table: str, token: str) -> list[dict[str, Any]]:
        answer = self.http.get(f"/tables/{table}/legal", headers=_auth(token))
        assert answer.status_code == 200, answer.text
        return list(answer.json())

    def act(self, table: str, token: str, command: dict[str, Any]) -> dict[str, Any]:
        answer = self.http.post(f"/tables/{table}/commands", json=command, headers=_auth(token))
        assert answer.status_code == 200, answer.text
        self.position = max(self.position, int(answer.json()["position"]))
        return dict(answer.json())

    def replay(self, table: str, at: int) -> dict[str, Any]:
        answer = self.http.get(f"/tables/{table}/replay", params={"at": at})
        assert answer.status_code == 200, answer.text
        return dict(answer.json())

    def timeline(self, table: str, token: str | None = None) -> list[dict[str, Any]]:
        answer = self.http.get(f"/tables/{table}/timeline", headers=_auth(token))
        assert answer.status_code == 200, answer.text
        return list(answer.json())

    def ledger(self, table: str) -> dict[str, Any]:
        answer = self.http.get(f"/tables/{table}/ledger", params={"after": self.head()})
        assert answer.status_code == 200, answer.text
        return dict(answer.json())

    def play(self, table: str, tokens: dict[int, str], moves: int) -> None:
        """Whoever is to act plays, ``moves`` times: a Bourré seat plays keeping its cards,
        then its first legal card; a Burraco seat draws, then discards."""
        for _ in range(moves):
            seat = self.view(table)["toAct"][0]
            legal = self.legal(table, tokens[seat])
            wanted = [
                m
                for m in legal
                if (m["type"] == "declare" and m["play"] and not m["discard"])
                or m["type"] in ("play_card", "draw", "discard")
            ]
            self.act(table, tokens[seat], (wanted or legal)[0])


def _auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}
