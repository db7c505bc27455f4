"""The ``cardroom`` CLI end to end: simulate fills the event store and Redis; rebuild
reproduces the read models exactly (design §4)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest
import redis
from click.testing import CliRunner

from api.cli import main
from domain.table import PlayerSeated
from infra.settings import Settings
from infra.store import TableStore

pytestmark = pytest.mark.integration


@pytest.fixture(params=["sqlite", "postgresql"])
def env(
    request: pytest.FixtureRequest, tmp_path: Path, redis_url: str, redis_prefix: str
) -> dict[str, str]:
    if request.param == "sqlite":
        store = f"sqlite:///{tmp_path}/cardroom.db"
    else:
        store = request.getfixturevalue("postgres_url")
    return {
        "CARDROOM_EVENT_STORE": store,
        "CARDROOM_REDIS_URL": redis_url,
        "CARDROOM_REDIS_PREFIX": redis_prefix,
        "CARDROOM_VAR_DIR": str(tmp_path / "var"),
    }


def test_simulate_fills_both_stores_and_rebuild_reproduces_the_read_models(
    env: dict[str, str], redis_url: str, redis_prefix: str
) -> None:
    from projections.digest import digest

    runner = CliRunner()
    for game, hands in (("bourre", "3"), ("burraco", "1")):
        result = runner.invoke(
            main,
            ["simulate", "--game", game, "--tables", "2", "--hands", hands, "--seed", "11"],
            env=env,
        )
        assert result.exit_code == 0, result.output
        assert f"tables 2, hands {2 * int(hands)}," in result.output
    with TableStore(Settings.from_env(env)) as store:
        top = store.max_position()
    assert top > 100
    assert f"projected up to position {top} of {top}" in result.output
    client = redis.Redis.from_url(redis_url)
    try:
        before = digest(client, redis_prefix)
        rebuilt = runner.invoke(main, ["rebuild"], env=env)
        assert rebuilt.exit_code == 0, rebuilt.output
        assert f"rebuilt from {top} events" in rebuilt.output
        assert digest(client, redis_prefix) == before
    finally:
        client.close()


def without_secrets(event: Any) -> Any:
    drawn = {"secret", "salt", "commitment"}
    fields = {name: "" for name in event.__struct_fields__ if name in drawn}
    return msgspec.structs.replace(event, **fields)


def test_simulate_is_reproducible_from_its_seed(tmp_path: Path) -> None:
    runner = CliRunner()
    outputs = []
    for run in ("a", "b"):
        env = {"CARDROOM_EVENT_STORE": f"sqlite:///{tmp_path}/{run}.db"}
        args = ["simulate", "--game", "bourre", "--hands", "2", "--seed", "5", "--no-project"]
        result = runner.invoke(main, args, env=env)
        assert result.exit_code == 0, result.output
        with TableStore(Settings.from_env(env)) as store:
            # Seat tokens and the tables' secrets (so the salts and commitments) are drawn per
            # run; everything else — every deck order and move — follows from the seed.
            outputs.append(
                [
                    (n.version, (n.event.seat, n.event.name))
                    if isinstance(n.event, PlayerSeated)
                    else (n.version, without_secrets(n.event))
                    for n in store.notifications(1, 10_000)
                ]
            )
    assert outputs[0] == outputs[1]


def test_bad_configuration_is_a_usage_error() -> None:
    result = CliRunner().invoke(main, ["rebuild"], env={"CARDROOM_EVENT_STORE": "mysql://x"})
    assert result.exit_code == 2
    assert "CARDROOM_EVENT_STORE" in result.output


def test_project_runs_until_sigterm(env: dict[str, str], tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["simulate", "--game", "bourre", "--hands", "1", "--seed", "3", "--no-project"]
    assert runner.invoke(main, args, env=env).exit_code == 0
    worker = subprocess.Popen(
        [sys.executable, "-c", "from api.cli import main; main()", "project"],
        env={**os.environ, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        cwd=Path(__file__).resolve().parents[2],
    )
    try:
        with TableStore(Settings.from_env(env)) as store:
            top = store.max_position()
        client = redis.Redis.from_url(env["CARDROOM_REDIS_URL"])
        from projections.reader import ReadModels

        reader = ReadModels(client, env["CARDROOM_REDIS_PREFIX"])
        assert reader.wait_for(top, timeout=30)
        client.close()
        worker.send_signal(signal.SIGTERM)
        output, _ = worker.communicate(timeout=30)
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait()
    assert worker.returncode == 0, output
    assert f"stopped at position {top}".encode() in output


def test_simulate_projects_into_an_embedded_redis_without_a_url(tmp_path: Path) -> None:
    env = {
        "CARDROOM_EVENT_STORE": f"sqlite:///{tmp_path}/cardroom.db",
        "CARDROOM_VAR_DIR": str(tmp_path / "var"),
        "CARDROOM_REDIS_URL": "",
    }
    args = ["simulate", "--game", "bourre", "--seats", "3", "--hands", "2", "--seed", "1"]
    result = CliRunner().invoke(main, args, env=env)
    assert result.exit_code == 0, result.output
    with TableStore(Settings.from_env(env)) as store:
        top = store.max_position()
    assert f"projected up to position {top} of {top}" in result.output
    # The embedded server stopped with the command and left its dump under var/redis.
    url = (tmp_path / "var" / "redis" / "redis.url").read_text().strip()
    with pytest.raises(redis.ConnectionError):
        redis.Redis.from_url(url).ping()
    assert (tmp_path / "var" / "redis" / "dump.rdb").exists()


def test_simulate_plays_tables_in_parallel_threads_without_losing_events(
    env: dict[str, str],
) -> None:
    args = ["simulate", "--game", "bourre", "--seats", "4", "--tables", "6", "--hands", "2"]
    result = CliRunner().invoke(main, [*args, "--workers", "3", "--no-project"], env=env)
    assert result.exit_code == 0, result.output
    assert "tables 6, hands 12," in result.output
    with TableStore(Settings.from_env(env)) as store:
        notes = store.notifications(1, 100_000)
        tables = {n.table_id for n in notes}
        assert len(tables) == 6
        for table_id in tables:
            versions = [n.version for n in notes if n.table_id == table_id]
            assert versions == list(range(1, len(versions) + 1))


def test_status_prints_each_shards_lag_and_fails_while_one_lags(
    tmp_path: Path, redis_url: str, redis_prefix: str
) -> None:
    env = {
        "CARDROOM_EVENT_STORE": f"sqlite:///{tmp_path}/cardroom.db",
        "CARDROOM_REDIS_URL": redis_url,
        "CARDROOM_REDIS_PREFIX": redis_prefix,
        "CARDROOM_PROJECTION_SHARDS": "2",
    }
    runner = CliRunner()
    filled = runner.invoke(
        main, ["simulate", "--game", "bourre", "--tables", "2", "--no-project"], env=env
    )
    assert filled.exit_code == 0, filled.output
    with TableStore(Settings(event_store=env["CARDROOM_EVENT_STORE"])) as store:
        top = store.max_position()
    behind = runner.invoke(main, ["status", "--max-lag", "0"], env=env)
    assert behind.exit_code == 1
    assert f"shard 1/2: position 0 lag {top} LATE" in behind.output
    rebuilt = runner.invoke(main, ["rebuild", "--shard", "0"], env=env)
    assert rebuilt.exit_code == 0, rebuilt.output
    half = runner.invoke(main, ["status", "--max-lag", "0"], env=env)
    assert half.exit_code == 1 and f"shard 0/2: position {top} lag 0\n" in half.output
    assert runner.invoke(main, ["rebuild", "--shard", "1"], env=env).exit_code == 0
    caught_up = runner.invoke(main, ["status", "--max-lag", "0"], env=env)
    assert caught_up.exit_code == 0, caught_up.output
    assert caught_up.output.splitlines() == [
        f"log head {top}",
        f"shard 0/2: position {top} lag 0",
        f"shard 1/2: position {top} lag 0",
    ]
