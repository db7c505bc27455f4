"""Design §5, spectators at scale: what wakes a live stream, and what a delivery costs.

* On SQLite a store write wakes the process's feed at once (:mod:`api.storewatch`): a stream
  moves without the projector and without the feed's fallback poll.
* A delivery is worked out (redacted, encoded, joined) once for all the spectators who stand
  at the same place, not once per stream.
* A quiet stream's inbox times out once per quiet period, counted from the start of each wait
  (the stream then sends a keep-alive), with one timer per inbox.
* ``GET /events?follow=true`` waits on the process's position feed: no follower polls.
"""

from __future__ import annotations

import asyncio
import json
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, cast

import httpx
import pytest

from api import live
from api import position_feed as feed_module
from api.position_feed import EARLY, Delivery, Inbox
from api.storewatch import wal_of
from tests.api.conftest import uvicorn_serving
from tests.api.helpers import auth, open_table, sit
from tests.api.test_fanout import STREAMS, StoreReads, watch_one_command
from tests.api.test_stream import DECK, DECLARE, new_table, read, sse_events

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify")


class Calls:
    """Counts the calls of a function (wrapping it where it is looked up)."""

    def __init__(self, function: Callable[..., Any]) -> None:
        self.count = 0
        self._function = function
        self._lock = threading.Lock()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            self.count += 1
        return self._function(*args, **kwargs)


def test_the_store_watched_is_the_sqlite_files_write_ahead_log() -> None:
    assert str(wal_of("sqlite:////var/lib/cardroom/cardroom.db")) == (
        "/var/lib/cardroom/cardroom.db-wal"
    )
    assert wal_of("sqlite:///:memory:") is None
    assert wal_of("postgresql://cardroom@db/cardroom") is None


@linux_only
def test_a_stream_moves_on_a_store_write_without_the_projector_or_the_fallback_poll(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(feed_module, "FALLBACK_POLL", 60.0)  # longer than the test waits
    with (
        uvicorn_serving(settings, run_projector=False) as (url, _),
        httpx.Client(base_url=url, timeout=10) as http,
    ):
        table, tokens = new_table(http)
        with http.stream("GET", f"/tables/{table}/stream") as response:
            messages = sse_events(response)
            sent = http.post(f"/tables/{table}/commands", json=DECLARE, headers=auth(tokens[1]))
            assert sent.status_code == 200, sent.text
            started = time.monotonic()
            events = read(messages, 2)  # the read times out after 10 s
    assert [e["id"] for e in events] == [6, 7]
    assert time.monotonic() - started < 10


def test_a_delivery_is_worked_out_once_for_spectators_who_stand_at_the_same_place(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    steps = Calls(live.step)
    monkeypatch.setattr(live, "step", steps)
    with uvicorn_serving(settings, run_projector=False) as (url, _):
        with httpx.Client(base_url=url, timeout=10) as http:
            table = open_table(http, "bourre", {"seats": 2}, decks=[DECK])
            tokens = sit(http, table, ["Ann", "Bob"])
        counted = cast(StoreReads, steps)  # watch_one_command reads only ``count``
        versions, made = asyncio.run(watch_one_command(url, table, tokens[1], counted))
    assert versions == [[6, 7]] * STREAMS  # every stream got the declaration's two events
    assert made < STREAMS  # the delivery was not worked out once per stream


def test_a_quiet_inbox_times_out_once_per_quiet_period_counted_from_each_wait() -> None:
    quiet = 0.2

    async def scenario() -> tuple[float, float, Delivery | None, Delivery | None]:
        loop = asyncio.get_running_loop()
        inbox = Inbox(quiet)
        try:
            started = loop.time()
            with pytest.raises(TimeoutError):
                await inbox.get()
            first_wait = loop.time() - started
            delivery = Delivery([])
            loop.call_later(quiet / 2, inbox.put, delivery)
            got = await inbox.get()  # before the quiet period ends
            started = loop.time()
            with pytest.raises(TimeoutError):
                await inbox.get()  # a full quiet period again, not what was left of it
            second_wait = loop.time() - started
            inbox.put(None)
            return first_wait, second_wait, got, await inbox.get()
        finally:
            inbox.close()

    first_wait, second_wait, got, stop = asyncio.run(scenario())
    assert quiet - EARLY <= first_wait < 10 * quiet
    assert got is not None and got.records == []
    assert quiet - EARLY <= second_wait < 10 * quiet
    assert stop is None  # the server stops


def test_a_follower_of_the_event_feed_waits_on_the_position_feed_and_does_not_poll(
    settings: Any,
) -> None:
    with uvicorn_serving(settings) as (url, server):
        services = server.config.app.state.services
        looks = Calls(services.read_models.positions)  # every look at the shards' positions
        services.read_models.positions = looks
        with httpx.Client(base_url=url, timeout=10) as http:
            body = {"game": "bourre", "options": {"seats": 2}, "decks": [DECK]}
            table = http.post("/tables", json=body).json()["tableId"]
            with http.stream("GET", "/events?follow=true") as response:
                lines = response.iter_lines()
                assert json.loads(next(lines))["position"] == 1
                before = looks.count
                time.sleep(1.0)  # the follower waits: the old one looked ten times a second
                quiet_looks = looks.count - before
                http.post(f"/tables/{table}/seats", json={"name": "Ann"})
                seated = [json.loads(next(lines)) for _ in range(1)]
    assert quiet_looks == 0
    assert seated[0]["type"] == "PlayerSeated"
