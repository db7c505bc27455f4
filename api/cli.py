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
from typing import TYPE_CHECKING, Any, cast

import click

if TYPE_CHECKING:
    from infra.redis import RedisHandle
    from infra.settings import Settings
    from infra.store import TableStore


@click.group()
def main() -> None:
    """cardroom: an event-sourced Bourré and Burraco card room.

    Configuration comes from the environment: CARDROOM_EVENT_STORE (sqlite:///path or
    postgresql://…), CARDROOM_REDIS_URL (unset: a private redis-server under CARDROOM_VAR_DIR),
    CARDROOM_REDIS_CLUSTER, CARDROOM_REDIS_PREFIX, CARDROOM_PROJECTION_SHARDS,
    CARDROOM_LOG_FORMAT, CARDROOM_VAR_DIR, CARDROOM_ALLOW_STACKED_DECKS.
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


def _shards_of(settings: Settings, shard: int | None, shards: int | None) -> tuple[list[int], int]:
    """The shards a command covers (``--shard``, else all) and their number (``--shards``,
    else ``CARDROOM_PROJECTION_SHARDS``), checked against each other."""
    count = settings.projection_shards if shards is None else shards
    if shard is not None and not 0 <= shard < count:
        raise click.UsageError(f"--shard {shard} is not one of 0..{count - 1} (--shards {count})")
    return ([shard] if shard is not None else list(range(count))), count


def _say(settings: Settings, message: str) -> None:
    """A command's report: a log record in JSON mode (one object a line), else a line."""
    if settings.log_format == "json":
        import logging

        logging.getLogger("cardroom.cli").info(message)
    else:
        click.echo(message)


def _configured() -> Settings:
    from infra.logs import configure_logging

    settings = _settings()
    configure_logging(settings.log_format)
    return settings


_SHARD = click.option("--shard", type=click.IntRange(min=0), default=None,
                      help="Only the tables of this shard (default: every shard).")  # fmt: skip
_SHARDS = click.option("--shards", type=click.IntRange(min=1, max=1024), default=None,
                       help="How many shards [default: CARDROOM_PROJECTION_SHARDS].")  # fmt: skip


@main.command()
@click.option("--poll-interval", default=0.05, show_default=True, help="Seconds between polls.")
@_SHARD
@_SHARDS
def project(poll_interval: float, shard: int | None, shards: int | None) -> None:
    """Run the projection worker: follow the event store into Redis until SIGINT/SIGTERM.

    With --shard I --shards N it projects only the tables of shard I (docs/scaling.md);
    without --shard it runs every shard (one thread each).
    """
    from infra.eventstore_env import redacted
    from projections.runner import Projector

    settings = _configured()
    covered, count = _shards_of(settings, shard, shards)
    with _store_and_redis(settings) as (store, redis):
        projectors = [
            Projector(
                cast(Any, store), redis.client, settings.redis_prefix, shard=index, shards=count
            )
            for index in covered
        ]
        target = f"{redis.url} ({settings.redis_prefix})"
        which = ", ".join(str(index) for index in covered)
        _say(
            settings,
            f"projecting {redacted(settings.event_store)} into {target}, shard {which} of {count}",
        )
        _run_until_signalled(lambda stop: _run_all(projectors, stop, poll_interval))
        stopped = ", ".join(str(projector.position()) for projector in projectors)
        _say(settings, f"stopped at position {stopped}")


def _run_all(projectors: list[Any], stop: threading.Event, poll_interval: float) -> None:
    """Each projector's ``run_forever`` in a thread of its own until ``stop``."""
    threads = [
        threading.Thread(target=p.run_forever, args=(stop, poll_interval), daemon=True)
        for p in projectors[1:]
    ]
    for thread in threads:
        thread.start()
    try:
        projectors[0].run_forever(stop, poll_interval)
    finally:
        stop.set()
        for thread in threads:
            thread.join()


@main.command()
@_SHARD
@_SHARDS
def rebuild(shard: int | None, shards: int | None) -> None:
    """Clear the read models and replay every event from position 0 (--shard: only that
    shard's tables, keys and position; the other shards' keys stay as they are). Without
    --shard it also drops what shards beyond --shards left (after N was lowered)."""
    from projections.runner import Projector, drop_other_shards

    settings = _configured()
    covered, count = _shards_of(settings, shard, shards)
    with _store_and_redis(settings) as (store, redis):
        started = time.perf_counter()
        if shard is None:
            drop_other_shards(redis.client, settings.redis_prefix, count)
        for index in covered:
            Projector(cast(Any, store), redis.client, settings.redis_prefix, shard=index,
                      shards=count).rebuild()  # fmt: skip
        seconds = time.perf_counter() - started
        count_events = store.max_position()
        rate = count_events * len(covered) / seconds if seconds > 0 else 0.0
        _say(
            settings,
            f"rebuilt from {count_events} events in {seconds:.2f}s ({rate:,.0f} events/s)",
        )


@main.command()
@_SHARDS
@click.option("--max-lag", type=click.IntRange(min=0), default=None,
              help="Exit 1 when a shard is more than this many events behind the log.")  # fmt: skip
def status(shards: int | None, max_lag: int | None) -> None:
    """Print the log head and each shard's projected position and lag; exit 1 when the store
    or Redis does not answer, a rebuild fences a shard, or a lag exceeds --max-lag (a health
    check for projectors)."""
    from projections.reader import ReadModels

    settings = _configured()
    _, count = _shards_of(settings, None, shards)
    with _store_and_redis(settings) as (store, redis):
        head = store.max_position()
        reader = ReadModels(redis.client, settings.redis_prefix, shards=count)
        positions = reader.stored_positions()
    failing = False
    click.echo(f"log head {head}")
    for index, position in enumerate(positions):
        if position is None:
            click.echo(f"shard {index}/{count}: rebuilding")
            failing = True
            continue
        lag = head - position
        late = max_lag is not None and lag > max_lag
        failing = failing or late
        click.echo(
            f"shard {index}/{count}: position {position} lag {lag}" + (" LATE" if late else "")
        )
    if failing:
        sys.exit(1)


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
