"""The ``cardroom`` projection commands (design §4, docs/scaling.md): ``project`` and
``rebuild`` for one shard or all, and ``status`` (positions and lag per shard; a health check).

Registered on :func:`api.cli.main` (:data:`PROJECTION_COMMANDS`).
"""

from __future__ import annotations

import sys
import threading
import time
from typing import TYPE_CHECKING, Any, cast

import click

from api.cli_support import load_settings, run_until_signalled, store_and_redis

if TYPE_CHECKING:
    from infra.settings import Settings


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

    settings = load_settings()
    configure_logging(settings.log_format)
    return settings


_SHARD = click.option("--shard", type=click.IntRange(min=0), default=None,
                      help="Only the tables of this shard (default: every shard).")  # fmt: skip
_SHARDS = click.option("--shards", type=click.IntRange(min=1, max=1024), default=None,
                       help="How many shards [default: CARDROOM_PROJECTION_SHARDS].")  # fmt: skip


@click.command()
@click.option("--poll-interval", default=0.05, show_default=True, help="Seconds between polls.")
@_SHARD
@_SHARDS
def project(poll_interval: float, shard: int | None, shards: int | None) -> None:
    """Run the projection worker: follow the event store into Redis until SIGINT/SIGTERM.

    With --shard I --shards N it projects only the tables of shard I (docs/scaling.md);
    without --shard it runs every shard (one thread each).
    """
    from infra.eventstore_env import redacted
    from managers.sweeper import start_sweeper
    from projections.reader import ReadModels
    from projections.runner import Projector

    settings = _configured()
    covered, count = _shards_of(settings, shard, shards)
    with store_and_redis(settings) as (store, redis):
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
        read_models = ReadModels(redis.client, settings.redis_prefix, shards=count)

        def work(stop: threading.Event) -> None:
            # Tables nobody joins are abandoned where projectors run (managers.sweeper); two
            # sweepers end a table once (the command's expected version and idempotency key).
            limit = settings.abandon_waiting_seconds
            sweeper = start_sweeper(store, read_models, limit, stop)
            try:
                _run_all(projectors, stop, poll_interval)
            finally:
                if sweeper is not None:
                    sweeper.join(timeout=10)

        run_until_signalled(work)
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


@click.command()
@_SHARD
@_SHARDS
def rebuild(shard: int | None, shards: int | None) -> None:
    """Clear the read models and replay every event from position 0 (--shard: only that
    shard's tables, keys and position; the other shards' keys stay as they are). Without
    --shard it also drops what shards beyond --shards left (after N was lowered)."""
    from projections.runner import Projector, drop_other_shards

    settings = _configured()
    covered, count = _shards_of(settings, shard, shards)
    with store_and_redis(settings) as (store, redis):
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


@click.command()
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
    with store_and_redis(settings) as (store, redis):
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


PROJECTION_COMMANDS = (project, rebuild, status)
