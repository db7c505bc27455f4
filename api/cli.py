"""The ``cardroom`` command line (design §5): projection worker, rebuild, bot simulation.

``serve`` (the HTTP API) is registered by :mod:`api.serve`'s owner below the other commands.
Everything heavy is imported inside the commands, so ``cardroom --help`` stays fast and the
CLI keeps working while a module it does not use is being changed.
"""

from __future__ import annotations

import contextlib
import secrets
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, cast

import click

if TYPE_CHECKING:
    from infra.redis import RedisHandle
    from infra.settings import Settings
    from infra.store import TableStore


# What ``--since``/``--until`` accept (a date, or a date and time; UTC unless an offset is given).
_MOMENTS = ["%Y-%m-%d", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M:%S%z"]


@click.group()
def main() -> None:
    """cardroom: an event-sourced Bourré and Burraco card room.

    Configuration comes from the environment: CARDROOM_EVENT_STORE (sqlite:///path or
    postgresql://…), CARDROOM_REDIS_URL (unset: a private redis-server under CARDROOM_VAR_DIR),
    CARDROOM_REDIS_PREFIX, CARDROOM_VAR_DIR, CARDROOM_ALLOW_STACKED_DECKS.
    """


def _settings() -> Settings:
    from infra.settings import Settings, SettingsError

    try:
        return Settings.from_env()
    except (SettingsError, ValueError) as error:
        raise click.UsageError(str(error)) from error


@contextlib.contextmanager
def _store_and_redis(settings: Settings) -> Iterator[tuple[TableStore, RedisHandle]]:
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


def _run_until_signalled(work: Callable[[threading.Event], None]) -> None:
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


@main.command()
@click.option("--poll-interval", default=0.05, show_default=True, help="Seconds between polls.")
def project(poll_interval: float) -> None:
    """Run the projection worker: follow the event store into Redis until SIGINT/SIGTERM."""
    from infra.eventstore_env import redacted
    from projections.runner import Projector

    settings = _settings()
    with _store_and_redis(settings) as (store, redis):
        projector = Projector(cast(Any, store), redis.client, settings.redis_prefix)
        target = f"{redis.url} ({settings.redis_prefix})"
        click.echo(f"projecting {redacted(settings.event_store)} into {target}")
        _run_until_signalled(lambda stop: projector.run_forever(stop, poll_interval=poll_interval))
        click.echo(f"stopped at position {projector.position()}")


@main.command()
def rebuild() -> None:
    """Clear the read models and replay every event from position 0."""
    from projections.runner import Projector

    settings = _settings()
    with _store_and_redis(settings) as (store, redis):
        started = time.perf_counter()
        count = Projector(cast(Any, store), redis.client, settings.redis_prefix).rebuild()
        seconds = time.perf_counter() - started
        rate = count / seconds if seconds > 0 else 0.0
        click.echo(f"rebuilt from {count} events in {seconds:.2f}s ({rate:,.0f} events/s)")


class _GameNames(Sequence[str]):
    """The registry's game names, read when click first needs them (``cardroom --help`` stays
    fast: the games are imported only for ``simulate``)."""

    def __getitem__(self, index: Any) -> Any:
        from domain.games import game_names

        return game_names()[index]

    def __len__(self) -> int:
        from domain.games import game_names

        return len(game_names())


@main.command()
@click.option("--game", type=click.Choice(_GameNames()), required=True)
@click.option("--tables", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--hands", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--seed", type=click.IntRange(min=0, max=2**63 - 1), default=None,
              help="Seed for decks and bots (default: random).")  # fmt: skip
@click.option("--seats", type=click.IntRange(min=2, max=8), default=None,
              help="Players per table (default: the game's table for bots).")  # fmt: skip
@click.option("--workers", type=click.IntRange(min=1, max=64), default=1, show_default=True,
              help="Tables played at once (threads sharing the store).")  # fmt: skip
@click.option("--project/--no-project", "run_projector", default=True, show_default=True,
              help="Project into Redis while playing (embedded unless configured).")  # fmt: skip
def simulate(
    game: str,
    tables: int,
    hands: int,
    seed: int | None,
    seats: int | None,
    workers: int,
    run_projector: bool,
) -> None:
    """Random legal bots play TABLES tables of HANDS hands through the real store."""
    from domain.errors import DomainError
    from infra.simulate import SimulationStuck
    from infra.simulate import simulate as run_simulation

    settings = _settings()
    seed = secrets.randbits(63) if seed is None else seed
    options = {"seats": seats} if seats is not None else {}
    with contextlib.ExitStack() as stack:
        if run_projector:
            store, redis = stack.enter_context(_store_and_redis(settings))
            worker = _start_projector(stack, store, redis, settings.redis_prefix)
        else:
            from infra.store import TableStore

            store = stack.enter_context(TableStore(settings))
            worker = None
        click.echo(f"simulating {tables} {game} table(s) x {hands} hand(s), seed {seed}")
        with click.progressbar(length=tables * hands, label="hands", file=sys.stderr) as bar:
            try:
                report = run_simulation(
                    store, game, tables, hands, seed, options=options,
                    on_hand=lambda: bar.update(1), workers=workers,
                )  # fmt: skip
            except (DomainError, SimulationStuck) as error:
                raise click.ClickException(f"simulation failed: {error}") from error
        click.echo(
            f"tables {report.tables}, hands {report.hands}, commands {report.commands}, "
            f"events {report.events} in {report.seconds:.2f}s "
            f"({report.commands_per_second:,.0f} commands/s)"
        )
        if worker is not None:
            reached = worker(store.max_position())
            click.echo(f"projected up to position {reached} of {store.max_position()}")


def _start_projector(
    stack: contextlib.ExitStack, store: TableStore, redis: RedisHandle, prefix: str
) -> Any:
    """Run a projector thread for the simulation; returns ``catch_up(position) -> reached``."""
    from projections.runner import Projector

    projector = Projector(cast(Any, store), redis.client, prefix)
    stop = threading.Event()
    thread = threading.Thread(
        target=projector.run_forever, args=(stop,), name="projector", daemon=True
    )
    thread.start()

    def halt() -> None:
        stop.set()
        thread.join()

    stack.callback(halt)

    def catch_up(position: int, timeout: float = 60.0) -> int:
        deadline = time.monotonic() + timeout
        while projector.position() < position and time.monotonic() < deadline:
            time.sleep(0.05)
        return projector.position()

    return catch_up


# The API helper registers `serve` here (api/serve.py).


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535))
@click.option(
    "--projector/--no-projector",
    default=None,
    help="Run the projection runner in this process "
    "[default: only on embedded defaults, i.e. without CARDROOM_REDIS_URL].",
)
def serve(host: str, port: int, projector: bool | None) -> None:
    """Run the HTTP API (and, on embedded defaults, Redis and the projector) until SIGINT."""
    from api.serve import serve as run

    run(host, port, _settings(), run_projector=projector)


@main.command()
@click.option("--format", "fmt", type=click.Choice(["ndjson", "parquet"]), required=True)
@click.option("--out", type=click.Path(file_okay=False), required=True, help="Directory.")
@click.option("--game", default=None, help="Only this game's tables.")
@click.option("--since", type=click.DateTime(_MOMENTS), default=None, help="From (UTC).")
@click.option("--until", type=click.DateTime(_MOMENTS), default=None, help="Before (UTC).")
def export(
    fmt: str, out: str, game: str | None, since: datetime | None, until: datetime | None
) -> None:
    """Write the public events, hands and results datasets (docs/analytics.md) under OUT."""
    from pathlib import Path

    from infra.export import ExportError
    from infra.export import export as run_export
    from infra.store import TableStore

    window = [moment.replace(tzinfo=moment.tzinfo or UTC) if moment else None
              for moment in (since, until)]  # fmt: skip
    with TableStore(_settings()) as store:
        try:
            report = run_export(store, Path(out), fmt, game=game, since=window[0], until=window[1])
        except ExportError as error:
            raise click.BadParameter(str(error), param_hint=f"--{error.parameter}") from error
    for dataset, games in report.rows.items():
        counts = ", ".join(f"{name} {count}" for name, count in games.items())
        click.echo(f"{dataset}: {counts}")
