"""Design §5, waiting holds no thread: readers waiting on ``?after=`` for a projection that
does not move sleep on the event loop (one position subscription per process), so an
unrelated request is answered while they wait, and each of them ends with the 503 problem."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any
from uuid import UUID

import httpx
import pytest
import redis

from api import reads
from infra.store import TableStore
from projections.keys import shard_of
from projections.runner import Projector
from tests.api.conftest import serving, uvicorn_serving
from tests.api.helpers import auth
from tests.integration.test_projection_support import catch_up
from tests.waiting import wait_until

READERS = 120


def test_readers_waiting_for_a_stopped_projector_leave_legal_answering(settings: Any) -> None:
    with uvicorn_serving(settings, run_projector=False) as (url, server):
        with httpx.Client(base_url=url, timeout=30) as http:
            table = http.post("/tables", json={"game": "bourre", "options": {"seats": 2}})
            table_id = table.json()["tableId"]
            seats = [http.post(f"/tables/{table_id}/seats", json={"name": n}) for n in "AB"]
            position = seats[-1].json()["position"]  # never projected: no projector runs
            token = seats[0].json()["token"]
        outcome = asyncio.run(readers_and_legal(url, table_id, position, token, server))
    legal_status, waiting_when_legal_answered, reader_answers = outcome
    assert legal_status == 200
    assert waiting_when_legal_answered == READERS  # no reader had an answer yet
    assert {answer.status_code for answer in reader_answers} == {503}
    assert {answer.json()["type"] for answer in reader_answers} == {
        reader_answers[0].json()["type"]
    }
    assert reader_answers[0].json()["type"].endswith("projection-behind")


async def readers_and_legal(
    url: str, table_id: str, position: int, token: str, server: Any
) -> tuple[int, int, list[httpx.Response]]:
    limits = httpx.Limits(max_connections=READERS + 10)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as http:
        readers = [
            asyncio.create_task(http.get(f"/tables/{table_id}", params={"after": position}))
            for _ in range(READERS)
        ]
        # Every reader's request is being handled (waits there) before /legal is sent.
        await asyncio.to_thread(
            wait_until,
            lambda: len(server.server_state.tasks) >= READERS,
            30,
            "the readers' requests did not reach the server",
        )
        legal = await http.get(f"/tables/{table_id}/legal", headers=auth(token))
        waiting = sum(not reader.done() for reader in readers)
        answers = await asyncio.gather(*readers)
    return legal.status_code, waiting, list(answers)


def test_a_read_of_one_table_waits_for_its_own_shard_alone(
    settings: Any, redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/scaling.md: with two shards, a table's view and ledger ``?after=`` a position wait
    for the shard projecting that table; the lobby, made of every shard's part, waits for
    all of them (here a 503, the other shard's projector being stopped)."""
    monkeypatch.setattr(reads, "WAIT_TIMEOUT", 0.5)
    sharded = replace(settings, projection_shards=2)
    with serving(sharded, run_projector=False) as url, httpx.Client(base_url=url) as http:
        table = http.post("/tables", json={"game": "bourre", "options": {"seats": 2}})
        table_id = table.json()["tableId"]
        position = http.post(f"/tables/{table_id}/seats", json={"name": "Ann"}).json()["position"]
        store, client = TableStore(sharded), redis.Redis.from_url(redis_url)
        own = shard_of(UUID(table_id), 2)
        catch_up(Projector(store, client, sharded.redis_prefix, shard=own, shards=2), store)
        view = http.get(f"/tables/{table_id}", params={"after": position})
        ledger = http.get(f"/tables/{table_id}/ledger", params={"after": position})
        lobby = http.get("/tables", params={"after": position})
        store.close()
        client.close()
    assert view.status_code == 200 and view.json()["seats"][0]["name"] == "Ann"
    assert view.headers["X-Cardroom-Source"] == "read-model"  # its shard projected it
    assert ledger.status_code == 200
    assert lobby.status_code == 503 and lobby.json()["type"].endswith("projection-behind")
    assert "(they are at 0)" in lobby.json()["detail"]
