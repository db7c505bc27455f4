"""The ``cardroom`` command line (design §5): projection worker, rebuild, bot simulation.

``serve`` (the HTTP API) is registered by :mod:`api.serve`'s owner below the other commands.
Everything heavy is imported inside the commands, so ``cardroom --help`` stays fast and the
CLI keeps working while a module it does not use is being changed.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import sys
import threading
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, cast

import click

from api.cli_support import load_settings, run_until_signalled, store_and_redis
from api.projection_cli import PROJECTION_COMMANDS

if TYPE_CHECKING:
    from infra.redis import RedisHandle
    from infra.store import TableStore


# What ``--since``/``--until`` accept (a date, or a date and time; UTC unless an offset is given).
_MOMENTS = ["%Y-%m-%d", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M:%S%z"]


@click.group()
def main() -> None:
    """cardroom: an event-sourced card room, for the games of its registry (domain/games.py).

    Configuration comes from the environment: CARDROOM_EVENT_STORE (sqlite:///path or
    postgresql://…), CARDROOM_REDIS_URL (unset: a private redis-server under CARDROOM_VAR_DIR),
    CARDROOM_REDIS_CLUSTER, CARDROOM_REDIS_PREFIX, CARDROOM_PROJECTION_SHARDS,
    CARDROOM_LOG_FORMAT, CARDROOM_VAR_DIR, CARDROOM_ALLOW_STACKED_DECKS.
    """


@main.command("bots")
def run_bots() -> None:
    """Run the process managers — the server-side bots' turns, the turn clocks and the hand
    reviews — until SIGINT/SIGTERM."""
    from managers.bot_worker import process_managers

    settings = load_settings()
    with store_and_redis(settings) as (store, redis):
        managers = process_managers(store, redis.client, settings)
        click.echo(f"running {', '.join(name for name, _ in managers)}")

        def work(stop: threading.Event) -> None:
            threads = [threading.Thread(target=run, args=(stop,), name=name)
                       for name, run in managers]  # fmt: skip
            for thread in threads:
                thread.start()
            stop.wait()
            for thread in threads:
                thread.join()

        run_until_signalled(work)
        click.echo("stopped")


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
@click.option("--bots", "bot_kinds", default="random", show_default=True,
              help="Bot kinds seated alternately, e.g. basic,random (see GET /bots).")  # fmt: skip
@click.option("--url", envvar="CARDROOM_URL", default=None,
              help="Base URL of the server, for the tables' watch links [default: CARDROOM_URL, "
                   "else http://127.0.0.1 on CARDROOM_PORT, else port 8000].")  # fmt: skip
@click.option("--option", "table_options", multiple=True, metavar="KEY=VALUE",
              help="A table option (a JSON value), e.g. ante=1; repeatable.")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
def simulate(
    game: str,
    tables: int,
    hands: int,
    seed: int | None,
    seats: int | None,
    workers: int,
    run_projector: bool,
    bot_kinds: str,
    url: str | None,
    table_options: tuple[str, ...],
    as_json: bool,
) -> None:
    """Bots play TABLES tables of HANDS hands through the real store, then end them."""
    from bots import UnknownBot, kind_of
    from domain.errors import DomainError
    from infra.simulate import SimulationStuck
    from infra.simulate import simulate as run_simulation

    settings = load_settings()
    seed = secrets.randbits(63) if seed is None else seed
    options: dict[str, Any] = {"seats": seats} if seats is not None else {}
    for pair in table_options:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"expected KEY=VALUE, not {pair!r}", param_hint="--option")
        try:
            options[key.strip()] = json.loads(value)
        except ValueError:
            options[key.strip()] = value
    kinds = tuple(kind.strip() for kind in bot_kinds.split(",") if kind.strip())
    try:
        for kind in kinds or ("",):
            kind_of(game, kind)
    except UnknownBot as error:
        raise click.BadParameter(str(error), param_hint="--bots") from error
    with contextlib.ExitStack() as stack:
        if run_projector:
            store, redis = stack.enter_context(store_and_redis(settings))
            worker = _start_projector(stack, store, redis, settings.redis_prefix)
        else:
            from infra.store import TableStore

            store = stack.enter_context(TableStore(settings))
            worker = None
        say = (lambda text: click.echo(text, err=True)) if as_json else click.echo
        say(f"simulating {tables} {game} table(s) x {hands} hand(s), seed {seed}, "
            f"bots {','.join(kinds)}")  # fmt: skip
        # A progress bar on a terminal only: piped or captured, the output holds no stray line.
        bar: Any = stack.enter_context(
            click.progressbar(length=tables * hands, label="hands", file=sys.stderr)
            if sys.stderr.isatty() else _NoProgress()
        )  # fmt: skip
        try:
            report = run_simulation(
                store, game, tables, hands, seed, options=options,
                on_hand=lambda: bar.update(1), workers=workers, bots=kinds,
            )  # fmt: skip
        except (DomainError, SimulationStuck) as error:
            raise click.ClickException(f"simulation failed: {error}") from error
        summary = simulation_summary(report, game, seed, url or server_url())
        projected: int | None = None
        if worker is not None:
            projected = worker(store.max_position())
            summary["projectedPosition"] = projected
        if as_json:
            click.echo(json.dumps(summary))
            return
        for table in summary["tables"]:
            line = ", ".join(f"{s['seat']}:{s['bot']} {s['score']}" for s in table["seats"])
            click.echo(f"table {table['table']} {table['status']} "
                       f"winners {table['winners']} [{line}]")  # fmt: skip
            click.echo(f"watch: {table['watch']}")
        for kind, figures in summary["byBot"].items():
            click.echo(f"bot {kind}: hands {figures['hands']}, won {figures['won']}, "
                       f"net {figures['net']}")  # fmt: skip
        click.echo(
            f"tables {report.tables}, hands {report.hands}, commands {report.commands}, "
            f"events {report.events} in {report.seconds:.2f}s "
            f"({report.commands_per_second:,.0f} commands/s, "
            f"{summary['handsPerSecond']:,.1f} hands/s)"
        )
        if projected is not None:
            click.echo(f"projected up to position {projected} of {store.max_position()}")


class _NoProgress(contextlib.AbstractContextManager["_NoProgress"]):
    """A progress bar that shows nothing (``simulate`` off a terminal)."""

    def __exit__(self, *exc: object) -> None:
        return None

    def update(self, steps: int) -> None:
        """Nothing to show."""


def server_url() -> str:
    """The server's base URL for watch links: ``http://127.0.0.1`` on ``CARDROOM_PORT`` (the
    port ``cardroom serve`` listens on when it is set), else on 8000."""
    port = os.environ.get("CARDROOM_PORT", "").strip() or "8000"
    if not port.isascii() or not port.isdigit() or not 0 < int(port) < 65536:
        raise click.BadParameter(f"CARDROOM_PORT must be a port number, not {port!r}")
    return f"http://127.0.0.1:{int(port)}"


def simulation_summary(report: Any, game: str, seed: int, url: str) -> dict[str, Any]:
    """The simulation's outcome as one JSON-ready object (``simulate --json``)."""
    base = url.rstrip("/")
    seconds = report.seconds or 0.0
    return {
        "game": game,
        "seed": seed,
        "tables": [
            {**table, "watch": f"{base}/watch/{table['table']}?at=1"} for table in report.results
        ],
        "byBot": report.tally.as_dict(),
        "strength": report.strength.summary(),
        "hands": report.hands,
        "commands": report.commands,
        "events": report.events,
        "seconds": round(seconds, 3),
        "commandsPerSecond": round(report.commands_per_second, 1),
        "handsPerSecond": round(report.hands / seconds, 2) if seconds > 0 else 0.0,
    }


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
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              envvar="CARDROOM_PORT", help="Port to listen on (CARDROOM_PORT).")  # fmt: skip
@click.option(
    "--projector/--no-projector",
    default=None,
    help="Run the projection runner in this process "
    "[default: only on embedded defaults, i.e. without CARDROOM_REDIS_URL].",
)
@click.option(
    "--workers",
    type=click.IntRange(1),
    default=None,
    help="API processes, each listening on the port with a socket of its own "
    "(SO_REUSEPORT) [default: one per core].",
)
@click.option("--access-log/--no-access-log", default=False, help="Log every request.")
def serve(
    host: str, port: int, projector: bool | None, workers: int | None, access_log: bool
) -> None:
    """Run the HTTP API (and, on embedded defaults, Redis and the projector) until SIGINT."""
    from api.serve import default_workers
    from api.serve import serve as run

    run(
        host,
        port,
        load_settings(),
        run_projector=projector,
        workers=workers or default_workers(),
        access_log=access_log,
    )


@main.command()
@click.option("--format", "fmt", type=click.Choice(["ndjson", "parquet"]), required=True)
@click.option("--out", type=click.Path(file_okay=False), required=True, help="Directory.")
@click.option("--game", default=None, help="Only this game's tables.")
@click.option("--since", type=click.DateTime(_MOMENTS), default=None, help="From (UTC).")
@click.option("--until", type=click.DateTime(_MOMENTS), default=None, help="Before (UTC).")
def export(
    fmt: str, out: str, game: str | None, since: datetime | None, until: datetime | None
) -> None:
    """Write the public events, hands, results and accounts datasets (docs/analytics.md)
    under OUT."""
    from pathlib import Path

    from infra.accounts import AccountStore
    from infra.export import ExportError
    from infra.export import export as run_export
    from infra.store import TableStore

    window = [moment.replace(tzinfo=moment.tzinfo or UTC) if moment else None
              for moment in (since, until)]  # fmt: skip
    settings = load_settings()
    with TableStore(settings) as store:
        accounts = AccountStore(settings)
        try:
            report = run_export(
                store, Path(out), fmt, game=game, since=window[0], until=window[1],
                accounts=accounts,
            )  # fmt: skip
        except ExportError as error:
            raise click.BadParameter(str(error), param_hint=f"--{error.parameter}") from error
        finally:
            accounts.close()
    for dataset, games in report.rows.items():
        counts = ", ".join(f"{name} {count}" for name, count in games.items())
        click.echo(f"{dataset}: {counts}")


# The projection commands (project, rebuild, status) live in their own module.
for _command in PROJECTION_COMMANDS:
    main.add_command(_command)
