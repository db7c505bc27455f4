"""Configuration of the write side: environment variables and the event-store URL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from infra.eventstore_env import eventsourcing_env
from infra.settings import DEFAULT_EVENT_STORE, Settings, SettingsError


def test_defaults_are_a_sqlite_file_under_var_and_embedded_redis() -> None:
    settings = Settings.from_env({})
    assert settings == Settings(
        event_store="sqlite:///./var/cardroom.db",
        redis_url=None,
        redis_prefix="cardroom:",
        allow_stacked_decks=False,
        var_dir=Path("./var"),
    )
    assert settings.event_store == DEFAULT_EVENT_STORE


def test_every_variable_is_read() -> None:
    settings = Settings.from_env(
        {
            "CARDROOM_EVENT_STORE": "postgresql://app:secret@db.internal:6543/cards",
            "CARDROOM_REDIS_URL": "redis://cache:6379/2",
            "CARDROOM_REDIS_PREFIX": "room7:",
            "CARDROOM_ALLOW_STACKED_DECKS": "1",
            "CARDROOM_VAR_DIR": "/srv/cardroom",
        }
    )
    assert settings.event_store == "postgresql://app:secret@db.internal:6543/cards"
    assert settings.redis_url == "redis://cache:6379/2"
    assert settings.redis_prefix == "room7:"
    assert settings.allow_stacked_decks is True
    assert settings.var_dir == Path("/srv/cardroom")


@pytest.mark.parametrize(
    ("env", "names"),
    [
        ({"CARDROOM_EVENT_STORE": "mysql://x/y"}, "CARDROOM_EVENT_STORE"),
        ({"CARDROOM_EVENT_STORE": "postgresql://host"}, "CARDROOM_EVENT_STORE"),
        ({"CARDROOM_EVENT_STORE": "postgresql://host:notaport/db"}, "CARDROOM_EVENT_STORE"),
        ({"CARDROOM_REDIS_URL": "localhost:6379"}, "CARDROOM_REDIS_URL"),
        ({"CARDROOM_REDIS_PREFIX": ""}, "CARDROOM_REDIS_PREFIX"),
        ({"CARDROOM_ALLOW_STACKED_DECKS": "maybe"}, "CARDROOM_ALLOW_STACKED_DECKS"),
        ({"CARDROOM_REDIS_PREFIX": "{room}:"}, "CARDROOM_REDIS_PREFIX"),
        ({"CARDROOM_REDIS_CLUSTER": "1"}, "CARDROOM_REDIS_URL"),
        ({"CARDROOM_PROJECTION_SHARDS": "0"}, "CARDROOM_PROJECTION_SHARDS"),
        ({"CARDROOM_PROJECTION_SHARDS": "two"}, "CARDROOM_PROJECTION_SHARDS"),
        ({"CARDROOM_LOG_FORMAT": "xml"}, "CARDROOM_LOG_FORMAT"),
        ({"CARDROOM_DB_POOL_SIZE": "0"}, "CARDROOM_DB_POOL_SIZE"),
        ({"CARDROOM_DB_POOL_SIZE": "ten"}, "CARDROOM_DB_POOL_SIZE"),
        ({"CARDROOM_DB_MAX_OVERFLOW": "-1"}, "CARDROOM_DB_MAX_OVERFLOW"),
        ({"CARDROOM_DB_MAX_OVERFLOW": "5000"}, "CARDROOM_DB_MAX_OVERFLOW"),
    ],
)
def test_a_bad_value_names_its_variable(env: dict[str, str], names: str) -> None:
    with pytest.raises(SettingsError, match=names):
        Settings.from_env(env)


def test_sqlite_urls_translate_to_the_librarys_environment(tmp_path: Path) -> None:
    env = eventsourcing_env(f"sqlite:///{tmp_path}/deep/dir/cardroom.db")
    assert env["PERSISTENCE_MODULE"] == "eventsourcing.sqlite"
    assert env["SQLITE_DBNAME"] == f"{tmp_path}/deep/dir/cardroom.db"
    assert (tmp_path / "deep" / "dir").is_dir()  # the directory is created
    relative = eventsourcing_env("sqlite:///./var/x.db", create_dirs=False)
    assert relative["SQLITE_DBNAME"] == "./var/x.db"


def test_in_memory_sqlite_stores_are_private_to_each_store() -> None:
    first = eventsourcing_env("sqlite:///:memory:")["SQLITE_DBNAME"]
    second = eventsourcing_env("sqlite:///:memory:")["SQLITE_DBNAME"]
    assert first != second
    assert "mode=memory" in first and "cache=shared" in first


def test_postgres_urls_translate_to_the_librarys_environment() -> None:
    env = eventsourcing_env("postgresql://app:p%40ss@db.internal:6543/cards")
    assert env["PERSISTENCE_MODULE"] == "eventsourcing.postgres"
    assert (
        env["POSTGRES_HOST"],
        env["POSTGRES_PORT"],
        env["POSTGRES_USER"],
        env["POSTGRES_PASSWORD"],
        env["POSTGRES_DBNAME"],
    ) == ("db.internal", "6543", "app", "p@ss", "cards")
    bare = eventsourcing_env("postgres://db/cards")
    assert (bare["POSTGRES_PORT"], bare["POSTGRES_USER"], bare["POSTGRES_PASSWORD"]) == (
        "5432",
        "postgres",
        "",
    )


def test_the_postgresql_pool_is_sized_from_the_settings_with_a_default() -> None:
    assert (Settings().db_pool_size, Settings().db_max_overflow) == (10, 10)
    settings = Settings.from_env({"CARDROOM_DB_POOL_SIZE": "2", "CARDROOM_DB_MAX_OVERFLOW": "0"})
    assert (settings.db_pool_size, settings.db_max_overflow) == (2, 0)
    env = eventsourcing_env("postgresql://db/cards", pool_size=2, max_overflow=0)
    assert (env["POSTGRES_POOL_SIZE"], env["POSTGRES_MAX_OVERFLOW"]) == ("2", "0")
    default = eventsourcing_env("postgresql://db/cards")
    assert (default["POSTGRES_POOL_SIZE"], default["POSTGRES_MAX_OVERFLOW"]) == ("10", "10")


def test_a_store_opens_a_pool_of_the_size_set(postgres_url: str) -> None:
    from infra.store import TableStore

    settings = Settings(event_store=postgres_url, db_pool_size=2, db_max_overflow=1)
    with TableStore(settings) as store:
        recorder: Any = store.app.recorder
        pool = recorder.datastore.pool
        assert (pool.min_size, pool.max_size) == (2, 3)


def test_an_in_memory_store_works_from_several_threads() -> None:
    from concurrent.futures import ThreadPoolExecutor

    from infra.store import TableStore

    with TableStore(Settings(event_store="sqlite:///:memory:")) as store:
        table_id = store.create_table("bourre", {"seats": 8}, seed=1).table_id
        with ThreadPoolExecutor(4) as pool:
            seats = sorted(pool.map(lambda i: store.take_seat(table_id, f"p{i}")[0], range(6)))
        assert seats == list(range(6))


@pytest.mark.parametrize(
    "url", ["postgresql://app:s3cret@127.0.0.1:1/cards", "sqlite:////proc/no/such/dir/x.db"]
)
def test_an_unreachable_store_is_reported_without_its_password(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from infra.store import StoreUnavailable, TableStore

    monkeypatch.setattr("infra.eventstore_env.POSTGRES_CONNECT_TIMEOUT", "1")
    with pytest.raises(StoreUnavailable, match="cannot open the event store") as raised:
        TableStore(Settings(event_store=url))
    assert "s3cret" not in str(raised.value)


def test_redacted_hides_only_the_password() -> None:
    from infra.eventstore_env import redacted

    assert redacted("postgresql://app:pw@db:5433/cards") == "postgresql://app:***@db:5433/cards"
    assert redacted("postgresql://app@db/cards") == "postgresql://app@db/cards"


def test_the_scale_out_variables_are_read() -> None:
    settings = Settings.from_env(
        {
            "CARDROOM_REDIS_URL": "redis://node-1:6379/0",
            "CARDROOM_REDIS_CLUSTER": "yes",
            "CARDROOM_PROJECTION_SHARDS": "4",
            "CARDROOM_LOG_FORMAT": "JSON",
        }
    )
    assert settings.redis_cluster is True
    assert settings.projection_shards == 4
    assert settings.log_format == "json"
    assert Settings.from_env({}).projection_shards == 1


def test_json_logs_are_one_object_a_line(capsys: pytest.CaptureFixture[str]) -> None:
    import json
    import logging

    from infra.logs import configure_logging

    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    try:
        configure_logging("json")
        logging.getLogger("cardroom.test").info("shard %d at %d", 1, 42)
        try:
            raise ValueError("boom")
        except ValueError:
            logging.getLogger("cardroom.test").exception("failed")
    finally:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])
    lines = capsys.readouterr().err.splitlines()
    first, second = (json.loads(line) for line in lines)
    assert first["message"] == "shard 1 at 42" and first["level"] == "INFO"
    assert first["logger"] == "cardroom.test" and first["time"].endswith("+00:00")
    assert "ValueError: boom" in second["exception"]
