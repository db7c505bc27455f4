"""What the ``cardroom`` commands share (:mod:`api.cli`, :mod:`api.projection_cli`): the
settings read as a usage error, the store and Redis opened together, and a worker run until
SIGINT/SIGTERM."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from infra.redis import RedisHandle
    from infra.settings import Settings
    from infra.store import TableStore


def load_settings() -> Settings:
    """The settings from the environment; a bad value is a usage error naming it."""
    from infra.settings import Settings, SettingsError

    try:
        return Settings.from_env()
    except (SettingsError, ValueError) as error:
        raise click.UsageError(str(error)) from error


@contextlib.contextmanager
def store_and_redis(settings: Settings) -> Iterator[tuple[TableStore, RedisHandle]]:
    """The event store and Redis, opened together and closed together."""
    from infra.redis import open_redis
    from infra.store import TableStore

    store = TableStore(settings)
    try:
        redis = open_redis(settings)
    except Exception:
        store.close()
        raise
    try:
        yield store, redis
    finally:
        redis.close()
        store.close()


def run_until_signalled(work: Callable[[threading.Event], None]) -> None:
    """Run ``work(stop)`` in a thread until SIGINT/SIGTERM, then set ``stop`` and wait for it.

    The handler only records the signal: setting a ``threading.Event`` from a signal handler
    can deadlock if the signal lands while the main thread holds that event's lock.
    """
    received: list[int] = []
    errors: list[BaseException] = []
    stop = threading.Event()

    def run() -> None:
        try:
            work(stop)
        except BaseException as error:  # re-raised in the main thread
            errors.append(error)

    def handle(signum: int, frame: Any) -> None:
        received.append(signum)

    previous = {sig: signal.signal(sig, handle) for sig in (signal.SIGINT, signal.SIGTERM)}
    worker = threading.Thread(target=run, name="cardroom-worker")
    worker.start()
    try:
        while worker.is_alive() and not received:
            worker.join(0.1)
    finally:
        stop.set()
        worker.join()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if errors:
        raise errors[0]
