"""The service tested as deployed (docs/scaling.md): PostgreSQL, a 3-node Redis Cluster, two
API processes and two sharded projectors, all real processes on loopback. Bots play 20 tables
over HTTP across both APIs; one API process and one projector are SIGKILLed mid-play and
restarted. Afterwards every acknowledged command is in the store, every table's views and
ledger equal a replay of its events, and a rebuild reproduces the live read models exactly."""

from __future__ import annotations

import json
import random
import threading
import uuid
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import pytest

from api.serve import default_workers
from domain.games import game_named
from domain.table import TableEnded
from infra.settings import Settings
from infra.store import TableStore
from projections.analytics import tag_of
from projections.digest import snapshot
from projections.ledger import Ledger
from projections.lobby import Lobby
from projections.reader import ReadModels
from projections.views import table_view
from tests.deployed.topology import (
    API_PROCESSES,
    DB_MAX_OVERFLOW,
    DB_POOL_SIZE,
    SHARDS,
    Cardroom,
    api_command,
    cluster_client,
    connections_needed,
    free_ports,
    projector_command,
    redis_cluster,
    require_free_connections,
    status_command,
)
from tests.waiting import wait_until

pytestmark = [pytest.mark.deployed, pytest.mark.integration]

TABLES = 20
COMMANDS_PER_TABLE = 15
PREFIX = "cardroom:"
BOT_THREADS = 4


@pytest.fixture
def topology(postgres_url: str, tmp_path: Path) -> Iterator[tuple[Cardroom, list[str]]]:
    require_free_connections(postgres_url, connections_needed(default_workers()))
    with redis_cluster(tmp_path) as redis_url:
        env = {
            "CARDROOM_EVENT_STORE": postgres_url,
            "CARDROOM_REDIS_URL": redis_url,
            "CARDROOM_REDIS_CLUSTER": "1",
            "CARDROOM_REDIS_PREFIX": PREFIX,
            "CARDROOM_PROJECTION_SHARDS": str(SHARDS),
            "CARDROOM_LOG_FORMAT": "json",
            "CARDROOM_VAR_DIR": str(tmp_path / "var"),
            "CARDROOM_DB_POOL_SIZE": str(DB_POOL_SIZE),
            "CARDROOM_DB_MAX_OVERFLOW": str(DB_MAX_OVERFLOW),
        }
        room = Cardroom(env, tmp_path)
        try:
            apis = []
            for index, port in enumerate(free_ports(API_PROCESSES)):
                room.start(f"api-{index}", api_command(port))
                apis.append(f"http://127.0.0.1:{port}")
                # one at a time: the first creates the event store's tables
                wait_until(partial(_healthy, apis[-1]), 60, f"{apis[-1]} did not start")
            for shard in range(SHARDS):
                room.start(f"projector-{shard}", projector_command(shard))
            yield room, apis
        finally:
            room.stop_all()


def _read_after(url: str) -> dict[str, Any] | None:
    """The view read with ``?after=``; None while the projection is behind (a 503 saying so,
    with Retry-After: the client retries)."""
    answer = httpx.get(url, timeout=15)
    if answer.status_code == 503 and answer.json()["type"].endswith(":projection-behind"):
        return None
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def _healthy(url: str) -> bool:
    try:
        return httpx.get(f"{url}/health", timeout=5).status_code == 200
    except httpx.TransportError:
        return False


class Bots:
    """Random legal commands over HTTP; any request may go to any API process, and one that
    finds its process dead is retried on another with the same Idempotency-Key."""

    def __init__(self, apis: list[str], seed: int) -> None:
        self.apis = apis
        self.random = random.Random(seed)
        self.lock = threading.Lock()
        self.acknowledged: list[tuple[str, dict[str, Any]]] = []
        self.errors: list[str] = []
        self.local = threading.local()  # keep-alive connections, per thread and API

    def call(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        clients: list[httpx.Client] | None = getattr(self.local, "clients", None)
        if clients is None:
            clients = self.local.clients = [
                httpx.Client(base_url=api, timeout=15) for api in self.apis
            ]
        first = self.random.randrange(len(clients))
        for attempt in range(200):
            try:
                return clients[(first + attempt) % len(clients)].request(method, path, **kwargs)
            except httpx.TransportError:
                continue  # that process is down (killed, restarting): another one answers
        raise AssertionError(f"no API process answered {method} {path}")

    def open_table(self, index: int) -> tuple[str, dict[int, str]]:
        game, options = ("bourre", {"seats": 2}) if index % 2 else ("burraco", {"players": 2})
        body = {"game": game, "options": options}
        created = self.call("POST", "/tables", json=body)
        assert created.status_code == 201, created.text
        table_id = created.json()["tableId"]
        tokens = {}
        for name in ("Ann", "Bob"):
            seated = self.call("POST", f"/tables/{table_id}/seats", json={"name": name})
            assert seated.status_code == 201, seated.text
            tokens[seated.json()["seat"]] = seated.json()["token"]
        return table_id, tokens

    def play(self, table_id: str, tokens: dict[int, str], rng: random.Random) -> None:
        for _ in range(COMMANDS_PER_TABLE):
            if not self.step(table_id, tokens, rng):
                return

    def step(self, table_id: str, tokens: dict[int, str], rng: random.Random) -> bool:
        """One command by a seat that has one; False when nobody has (the table ended)."""
        for seat, token in tokens.items():
            auth = {"Authorization": f"Bearer {token}"}
            legal = self.call("GET", f"/tables/{table_id}/legal", headers=auth)
            assert legal.status_code == 200, legal.text
            commands = legal.json()
            if not commands:
                continue
            command = {
                **rng.choice(commands),
                "expectedVersion": int(legal.headers["X-Table-Version"]),
            }
            headers = {**auth, "Idempotency-Key": uuid.uuid4().hex}
            answer = self.call(
                "POST", f"/tables/{table_id}/commands", json=command, headers=headers
            )
            if answer.status_code == 200:
                with self.lock:
                    self.acknowledged.append((table_id, answer.json()))
            elif answer.status_code != 409:  # a race with the other seat is a 409, nothing else
                self.errors.append(f"{seat} {command}: {answer.status_code} {answer.text}")
            return True
        return False


def test_bots_play_through_kills_and_the_read_side_equals_the_events(
    topology: tuple[Cardroom, list[str]], postgres_url: str
) -> None:
    room, apis = topology
    bots = Bots(apis, seed=11)
    tables = [bots.open_table(index) for index in range(TABLES)]

    def play(chunk: list[tuple[str, dict[int, str]]], seed: int) -> None:
        rng = random.Random(seed)
        try:
            for _ in range(COMMANDS_PER_TABLE):
                for table_id, tokens in chunk:
                    bots.step(table_id, tokens, rng)
        except BaseException as error:  # reported below
            bots.errors.append(repr(error))

    players = [
        threading.Thread(target=play, args=(tables[index::BOT_THREADS], index))
        for index in range(BOT_THREADS)
    ]
    for player in players:
        player.start()
    total = TABLES * COMMANDS_PER_TABLE
    wait_until(lambda: len(bots.acknowledged) >= total // 4, 120, "the bots did not get going")
    with cluster_client(room.env["CARDROOM_REDIS_URL"]) as watching:
        reader = ReadModels(watching, PREFIX, shards=SHARDS)
        try:
            wait_until(lambda: min(reader.positions()) > 0, 120, "a projector never committed")
        except AssertionError as error:  # say why: the projectors' own words
            logs = {name: room.log_of(name)[-3000:] for name in ("projector-0", "projector-1")}
            raise AssertionError(f"{error}; logs: {logs}") from error
    room.kill("api-1")
    room.kill("projector-0")
    wait_until(lambda: len(bots.acknowledged) >= total // 2, 120, "play stopped after the kills")
    room.restart("api-1")
    room.restart("projector-0")
    for player in players:
        player.join(timeout=300)
    assert bots.errors == []
    assert len(bots.acknowledged) > total // 2
    wait_until(partial(_healthy, apis[1]), 120, "the restarted API process did not come back")

    # Read-your-writes across processes: a command on one API, ?after= its position on both.
    checked = 0
    for table_id, tokens in tables:
        before = len(bots.acknowledged)
        if not bots.step(table_id, tokens, random.Random(5)) or len(bots.acknowledged) == before:
            continue
        _, answer = bots.acknowledged[-1]
        for api in apis:
            url = f"{api}/tables/{table_id}?after={answer['position']}"
            seen = wait_until(partial(_read_after, url), 120, f"{url} stayed behind")
            assert seen is not None and seen["version"] >= answer["version"]
        checked += 1
    assert checked > 0

    store = TableStore(
        Settings(
            event_store=postgres_url, db_pool_size=DB_POOL_SIZE, db_max_overflow=DB_MAX_OVERFLOW
        )
    )
    client = cluster_client(room.env["CARDROOM_REDIS_URL"])
    try:
        reader = ReadModels(client, PREFIX, shards=SHARDS)
        head = store.max_position()
        wait_until(lambda: reader.positions() == [head] * SHARDS, 120, "the shards lag")

        # Every acknowledged command's events are in the store, as answered.
        for table_id, answer in bots.acknowledged:
            versions = [event["version"] for event in answer["events"]]
            stored = store.events(uuid.UUID(table_id), versions[0], versions[-1])
            assert [(r.version, tag_of(r.event)) for r in stored] == [
                (event["version"], event["type"]) for event in answer["events"]
            ]
            assert answer["position"] <= head

        # Every table's views, ledger and lobby line equal a replay of its events.
        lobby = {line["tableId"]: line for line in reader.lobby()}
        for table_id, tokens in tables:
            events = store.events(uuid.UUID(table_id))
            game = game_named(events[0].event.game)
            state = None
            for recorded in events:
                state = game.evolve(state, recorded.event)
            version = events[-1].version
            for viewer in (None, *tokens):
                assert reader.view(uuid.UUID(table_id), viewer) == json.loads(
                    json.dumps(table_view(game, uuid.UUID(table_id), state, version, viewer))
                )
            assert reader.ledger(uuid.UUID(table_id)) == json.loads(
                json.dumps(Ledger.shape(game, state))
            )
            if not isinstance(events[-1].event, TableEnded):
                line = {"tableId": table_id, "game": game.name, "version": version}
                line.update(Lobby.shape(game, state))
                assert lobby[table_id] == json.loads(json.dumps(line))

        # Operations: both APIs report both shards caught up; status agrees.
        for api in apis:
            health = httpx.get(f"{api}/health", timeout=10).json()
            assert [shard["lag"] for shard in health["shards"]] == [0] * SHARDS
        status = room.run(status_command())
        assert status.returncode == 0, status.stdout + status.stderr
        for name in ("api-0", "projector-1"):
            lines = [line for line in room.log_of(name).splitlines() if line.strip()]
            assert lines and all(json.loads(line)["level"] for line in lines)

        # A rebuild of one shard, then of all, reproduces the live read models exactly.
        live = snapshot(client, PREFIX)
        rebuilt = room.run(["cardroom", "rebuild", "--shard", "1", "--shards", str(SHARDS)])
        assert rebuilt.returncode == 0, rebuilt.stderr
        assert snapshot(client, PREFIX) == live
        rebuilt = room.run(["cardroom", "rebuild"])
        assert rebuilt.returncode == 0, rebuilt.stderr
        assert snapshot(client, PREFIX) == live
    finally:
        client.close()
        store.close()
