"""Design §5, spectators at scale: one subscription per API process fans a table's new events
out to all its local streams — the store is read once per move, not once per stream."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

import httpx

from tests.api.conftest import uvicorn_serving
from tests.api.helpers import auth, open_table, sit
from tests.api.test_stream import DECK

STREAMS = 12


class StoreReads:
    """Counts the event-store reads a process makes (wrapping its store's read methods)."""

    def __init__(self, store: Any) -> None:
        self.count = 0
        self._lock = threading.Lock()
        for name in ("events", "notifications"):
            setattr(store, name, self._counted(getattr(store, name)))

    def _counted(self, read: Callable[..., Any]) -> Callable[..., Any]:
        def counted(*args: Any, **kwargs: Any) -> Any:
            with self._lock:
                self.count += 1
            return read(*args, **kwargs)

        return counted


def test_a_command_reaches_every_stream_with_one_store_read_not_one_per_stream(
    settings: Any,
) -> None:
    # No projector in this process: its own polling would read the store too. The streams
    # then follow the store's head (the feed's fallback), as behind a stopped projector.
    with uvicorn_serving(settings, run_projector=False) as (url, server):
        with httpx.Client(base_url=url, timeout=10) as http:
            table = open_table(http, "bourre", {"seats": 2}, decks=[DECK])
            tokens = sit(http, table, ["Ann", "Bob"])
        reads = StoreReads(server.config.app.state.services.store)
        versions, store_reads = asyncio.run(watch_one_command(url, table, tokens[1], reads))
    assert versions == [[6, 7]] * STREAMS  # every stream got the declaration's two events
    assert store_reads < STREAMS  # the store was not read once per stream


async def watch_one_command(
    url: str, table: str, token: str, reads: StoreReads
) -> tuple[list[list[int]], int]:
    """Open ``STREAMS`` spectator streams, send Bob's declaration once all are open, and
    return the versions each stream received and the store reads made meanwhile."""
    opened = [asyncio.Event() for _ in range(STREAMS)]
    limits = httpx.Limits(max_connections=STREAMS + 5)
    async with httpx.AsyncClient(base_url=url, timeout=30, limits=limits) as http:

        async def watch(index: int) -> list[int]:
            versions: list[int] = []
            async with http.stream("GET", f"/tables/{table}/stream") as response:
                async for line in response.aiter_lines():
                    opened[index].set()
                    if line.startswith("id:"):
                        versions.append(int(line[3:]))
                        if len(versions) == 2:
                            break
            return versions

        watchers = [asyncio.create_task(watch(index)) for index in range(STREAMS)]
        await asyncio.gather(*(event.wait() for event in opened))
        before = reads.count
        declare = {"type": "declare", "play": True, "discard": []}
        sent = await http.post(f"/tables/{table}/commands", json=declare, headers=auth(token))
        assert sent.status_code == 200, sent.text
        received = await asyncio.gather(*watchers)
    return list(received), reads.count - before
