"""The command lane (api/commandlane.py): one thread runs queued commands in batches, hands
each its own answer on the event loop, finishes elsewhere what the batch left, and stops when
idle (the next command starts it again)."""

from __future__ import annotations

import asyncio
import threading
import time
from types import SimpleNamespace
from typing import Any

import pytest

from api import commandlane, writes
from api.commandlane import CommandLane

SERVICES: Any = SimpleNamespace(store=SimpleNamespace(wait_for_writes=lambda: None))


class Refused(Exception):
    pass


@pytest.fixture
def batches(monkeypatch: pytest.MonkeyPatch) -> list[list[Any]]:
    """``issue_many`` stands in: a body's ``answer`` is returned, ``refuse`` raised, ``later``
    finished in a worker thread; each batch's bodies are recorded."""
    seen: list[list[Any]] = []

    def issue_many(services: Any, requests: list[Any]) -> list[Any]:
        seen.append([body for _, _, body, _ in requests])
        time.sleep(0.02)  # a write: commands arriving meanwhile queue up
        outcomes: list[Any] = []
        for _, _, body, _ in requests:
            if "refuse" in body:
                outcomes.append(Refused(body["refuse"]))
            elif "later" in body:
                outcomes.append(lambda body=body: ("later", body["later"], threading.get_ident()))
            else:
                outcomes.append(("now", body["answer"]))
        return outcomes

    monkeypatch.setattr(writes, "issue_many", issue_many)
    return seen


def request(body: dict[str, Any]) -> Any:
    return (None, "Bearer t", body, None)


def test_commands_queued_together_run_as_one_batch_each_with_its_answer(
    batches: list[list[Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    writing, written = threading.Event(), threading.Event()
    stand_in = writes.issue_many

    def held(services: Any, requests: list[Any]) -> list[Any]:
        writing.set()
        written.wait(10)  # the first batch's write lasts until the rest have queued
        return stand_in(services, requests)

    monkeypatch.setattr(writes, "issue_many", held)
    lane = CommandLane()

    async def main() -> list[Any]:
        first = asyncio.ensure_future(lane.issue(SERVICES, request({"answer": 0})))
        assert await asyncio.to_thread(writing.wait, 10)  # the first batch is being written
        rest = [
            asyncio.ensure_future(lane.issue(SERVICES, request({"answer": i}))) for i in range(1, 6)
        ]
        await asyncio.sleep(0)  # each of them queues its command
        written.set()
        return await asyncio.gather(first, *rest)

    assert asyncio.run(main()) == [("now", i) for i in range(6)]
    assert batches == [[{"answer": 0}], [{"answer": i} for i in range(1, 6)]]


def test_errors_are_raised_and_the_rest_finishes_in_a_worker_thread(
    batches: list[list[Any]],
) -> None:
    lane = CommandLane()

    async def main() -> Any:
        return await asyncio.gather(
            lane.issue(SERVICES, request({"refuse": "no"})),
            lane.issue(SERVICES, request({"later": 1})),
            lane.issue(SERVICES, request({"answer": 2})),
            return_exceptions=True,
        )

    refused, later, now = asyncio.run(main())
    assert isinstance(refused, Refused) and refused.args == ("no",)
    assert later[:2] == ("later", 1)
    assert later[2] not in (threading.get_ident(), None)
    assert now == ("now", 2)


def test_the_thread_stops_when_idle_and_starts_again(
    batches: list[list[Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(commandlane, "IDLE_SECONDS", 0.05)
    lane = CommandLane()

    async def one(i: int) -> Any:
        return await lane.issue(SERVICES, request({"answer": i}))

    assert asyncio.run(one(1)) == ("now", 1)
    deadline = time.monotonic() + 5
    while lane._thread is not None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert lane._thread is None
    assert asyncio.run(one(2)) == ("now", 2)
