"""The clients the API uses, opened in the Litestar lifespan and closed after it.

Nothing here runs at import time (design §7). ``Services.open`` connects the event store (with
its command and query services, :mod:`infra.command_service`, :mod:`infra.queries`) and
Redis (the private embedded server on default settings) and, when asked, runs the projection
runner in a background thread of this process (``cardroom serve`` on embedded defaults).
The store and Redis are synchronous: handlers reach them through :func:`blocking`, which runs
the call in a worker thread so the event loop never waits on I/O. Waiting itself (``?after=``
reads, live streams) holds no thread: the app's lifespan (:func:`api.app.services_lifespan`)
starts the process's one position feed (:mod:`api.position_feed`) on the event loop and hands
it over (:meth:`Services.use_feed`); requests use it through :class:`Positions`.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, cast
from uuid import UUID

from litestar.datastructures import State
from litestar.di import NamedDependency
from litestar.params import SkipValidation

from api.spectators import Spectators
from infra.accounts import AccountStore
from infra.command_service import TableCommands
from infra.queries import TableQueries
from infra.redis import RedisHandle, open_redis
from infra.settings import Settings
from infra.store import TableStore
from infra.tournaments import TournamentStore
from projections.reader import ReadModels

log = logging.getLogger("cardroom.api")
T = TypeVar("T")
# Threads for store/Redis calls: reads with ?after= may wait in one for seconds, so leave room
# for commands (anyio's default is 40).
WORKER_THREADS = 100


_workers: ThreadPoolExecutor | None = None
_workers_lock = threading.Lock()


def _worker_pool() -> ThreadPoolExecutor:
    """The process's worker threads for :func:`blocking`, started on first use."""
    global _workers
    if _workers is None:
        with _workers_lock:
            if _workers is None:
                _workers = ThreadPoolExecutor(WORKER_THREADS, thread_name_prefix="cardroom-io")
    return _workers


async def blocking(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run a synchronous store/Redis call in a worker thread.

    The event loop's own executor hand-off, not ``anyio.to_thread.run_sync``: anyio's capacity
    limiter, cancel scope and backend look-ups cost more event-loop CPU than the hop itself,
    and on the command path the loop's CPU is what bounds commands/s (bench/http_commands.py).
    A call the caller stops waiting for still runs to the end (a command is never cut short);
    one still queued is dropped.
    """
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_worker_pool(), functools.partial(fn, *args, **kwargs))


def in_background(fn: Callable[..., Any], *args: Any) -> None:
    """Run a synchronous store/Redis call in a worker thread without waiting for it (e.g. a
    clean-up in a ``finally`` of a stream being cancelled: it runs to the end regardless)."""
    _worker_pool().submit(fn, *args)


class Positions(Protocol):
    """What a request uses of the process's position feed
    (:class:`api.position_feed.PositionFeed`)."""

    @property
    def position(self) -> int:
        """The position every shard has announced."""

    def position_of(self, shard: int | None) -> int:
        """``shard``'s announced position; every shard's when None."""

    async def wait_for(self, position: int, timeout: float, shard: int | None = None) -> bool:
        """Wait until the announced position reaches ``position``; False on ``timeout``."""

    def follow(self, table_id: UUID, quiet: float) -> AbstractContextManager[Any]:
        """An inbox of ``table_id``'s new events for one stream."""


@dataclass
class Services:
    """What a request may use: the store, its command and query services, Redis and the
    read models (:mod:`projections.reader`)."""

    settings: Settings
    store: TableStore
    redis: RedisHandle
    read_models: ReadModels
    queries: TableQueries
    stop: threading.Event = field(default_factory=threading.Event)
    projector: threading.Thread | None = None
    bots: list[threading.Thread] = field(default_factory=list)
    sweeper: threading.Thread | None = None
    _feed: Positions | None = None
    _accounts: AccountStore | None = None
    _tournaments: TournamentStore | None = None
    _spectators: Spectators | None = None
    _accounts_lock: threading.Lock = field(default_factory=threading.Lock)

    def use_feed(self, feed: Positions) -> None:
        """Requests wait on ``feed`` from now on (the lifespan's, started on the loop)."""
        self._feed = feed

    @property
    def feed(self) -> Positions:
        """The process's one subscription to the projection's positions (:mod:`api.position_feed`),
        started by the lifespan on the event loop."""
        if self._feed is None:
            raise RuntimeError("the position feed runs only inside the API's lifespan")
        return self._feed

    @property
    def accounts(self) -> AccountStore:
        """The accounts' streams (:mod:`infra.accounts`), opened on first use."""
        if self._accounts is None:
            with self._accounts_lock:
                if self._accounts is None:
                    self._accounts = AccountStore(self.settings)
        return self._accounts

    @property
    def tournaments(self) -> TournamentStore:
        """The tournaments' streams (:mod:`infra.tournaments`, design §10), opened on first use."""
        if self._tournaments is None:
            with self._accounts_lock:
                if self._tournaments is None:
                    self._tournaments = TournamentStore(self.settings)
        return self._tournaments

    @property
    def spectators(self) -> Spectators:
        """The tables' spectators' leases (:mod:`api.spectators`), made on first use."""
        if self._spectators is None:
            with self._accounts_lock:
                if self._spectators is None:
                    prefix = self.settings.redis_prefix
                    self._spectators = Spectators(self.redis.client, prefix)
        return self._spectators

    @property
    def commands(self) -> TableCommands:
        """The write side's command service (:mod:`infra.command_service`)."""
        return self.store.commands

    @classmethod
    def open(cls, settings: Settings, *, run_projector: bool) -> Services:
        store = TableStore(settings)
        try:
            handle = open_redis(settings)
        except BaseException:
            store.close()
            raise
        services = cls(
            settings=settings,
            store=store,
            redis=handle,
            read_models=ReadModels(
                handle.client, settings.redis_prefix, shards=settings.projection_shards
            ),
            queries=TableQueries(store),
        )
        if run_projector:
            services.start_projector()
            services.start_bots()
        return services

    def start_projector(self) -> None:
        """Run the projection runner (and the sweeper of abandoned tables) in daemon threads
        until :meth:`close`."""
        from projections.runner import Projector

        # The projector reads through its own protocol of the store (events, get, notifications).
        shards = self.settings.projection_shards
        projectors = [
            Projector(
                cast(Any, self.store),
                self.redis.client,
                self.settings.redis_prefix,
                shard=shard,
                shards=shards,
            )
            for shard in range(shards)
        ]

        def run() -> None:
            threads = [
                threading.Thread(target=p.run_forever, args=(self.stop,), daemon=True)
                for p in projectors[1:]
            ]
            for thread in threads:
                thread.start()
            try:
                projectors[0].run_forever(self.stop)
            except Exception:  # the API keeps answering; /health shows the growing lag
                log.exception("projection runner stopped")
            for thread in threads:
                thread.join()

        self.projector = threading.Thread(target=run, name="cardroom-projector", daemon=True)
        self.projector.start()
        log.info("projection runner started in process %d", os.getpid())
        # Tables nobody joins are abandoned where the projector runs (managers.sweeper).
        from managers.sweeper import start_sweeper

        limit = self.settings.abandon_waiting_seconds
        self.sweeper = start_sweeper(self.store, self.read_models, limit, self.stop)

    def start_bots(self) -> None:
        """Run the process managers — the bots' worker (:mod:`managers.bot_worker`) and the
        timekeeper (:mod:`managers.timekeeper`) — in daemon threads until :meth:`close`."""
        from managers.bot_worker import process_managers

        for name, work in process_managers(self.store, self.redis.client, self.settings):

            def run(work: Any = work, name: str = name) -> None:
                try:
                    work(self.stop)
                except Exception:
                    log.exception("%s stopped", name)

            thread = threading.Thread(target=run, name=f"cardroom-{name}", daemon=True)
            thread.start()
            self.bots.append(thread)

    def close(self) -> None:
        self.stop.set()
        for worker in (self.projector, self.sweeper, *self.bots):
            if worker is not None:
                worker.join(timeout=10)
        self.redis.close()
        if self._accounts is not None:
            self._accounts.close()
        if self._tournaments is not None:
            self._tournaments.close()
        self.store.close()


def provide_services(state: State) -> Services:
    """Dependency: the lifespan's :class:`Services`."""
    services: Services = state.services
    return services


# The lifespan's services, injected by name and not validated (they are not data).
ServicesDep = NamedDependency[SkipValidation[Services]]
