"""Shared fixtures: real Redis and PostgreSQL, isolated per test run.

Redis: ``CARDROOM_TEST_REDIS_URL`` when it is set (unreachable is a failure); otherwise the
server at ``redis://127.0.0.1:6379/0`` if one answers; otherwise a private embedded
redis-server (the one ``infra.redis`` runs for ``cardroom serve``), started for this test
session — one per xdist worker — and stopped at its end. Every test gets a key prefix of its
own. So a machine without any Redis still runs every Redis-backed test.

PostgreSQL: ``CARDROOM_TEST_POSTGRES`` (default ``postgresql://postgres@127.0.0.1:5432/test``),
with a database created for each test and dropped after it. Every test that needs it is marked
``postgres`` (from the fixtures it uses, below); when the server is unreachable those tests fail
with a message saying how to start it or deselect them (``pytest -m "not postgres"``).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit

import pytest

from infra.eventstore_env import redacted

LOCAL_REDIS_URL = "redis://127.0.0.1:6379/0"
POSTGRES_URL = os.environ.get("CARDROOM_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
RUN_ID = uuid.uuid4().hex[:10]

POSTGRES_FIXTURES = {"postgres_server", "postgres_url"}
BACKEND_PARAM = "postgresql"  # how a fixture parametrised over the event stores names PostgreSQL


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``postgres`` every test that needs PostgreSQL: it uses a PostgreSQL fixture, or a
    fixture parametrised over the event stores gives it the ``postgresql`` backend."""
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        callspec = getattr(item, "callspec", None)
        params = callspec.params.values() if callspec is not None else ()
        on_postgres = any(isinstance(value, str) and value == BACKEND_PARAM for value in params)
        if fixtures & POSTGRES_FIXTURES or on_postgres:
            item.add_marker(pytest.mark.postgres)


def _answers(url: str) -> Exception | None:
    """None when the Redis server at ``url`` answers a PING, else why not."""
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)
    try:
        client.ping()
    except redis.RedisError as error:
        return error
    finally:
        client.close()
    return None


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The Redis the tests use: configured, local, or embedded for this session (see above)."""
    configured = os.environ.get("CARDROOM_TEST_REDIS_URL", "").strip()
    if configured:
        error = _answers(configured)
        if error is not None:
            pytest.fail(
                f"CARDROOM_TEST_REDIS_URL={redacted(configured)} is not reachable ({error}); "
                "start that server, or unset the variable to use the local Redis or a private "
                "embedded one",
                pytrace=False,
            )
        yield configured
        return
    if _answers(LOCAL_REDIS_URL) is None:
        yield LOCAL_REDIS_URL
        return
    from infra.redis import open_redis
    from infra.settings import Settings

    with open_redis(Settings(var_dir=tmp_path_factory.mktemp("embedded-redis"))) as handle:
        yield handle.url


@pytest.fixture
def redis_prefix(redis_url: str) -> Iterator[str]:
    """A key prefix unique to this test; its keys are deleted afterwards."""
    import redis

    prefix = f"cardroom-test:{RUN_ID}:{uuid.uuid4().hex[:8]}:"
    yield prefix
    client = redis.Redis.from_url(redis_url)
    for key in client.scan_iter(match=f"{prefix}*", count=1000):
        client.delete(key)
    client.close()


@pytest.fixture(scope="session")
def postgres_server() -> str:
    import psycopg

    try:
        psycopg.connect(POSTGRES_URL, connect_timeout=3).close()
    except psycopg.Error as error:
        problem = error
    else:
        return POSTGRES_URL
    pytest.fail(
        f"PostgreSQL is not reachable at {redacted(POSTGRES_URL)}: {problem}\n"
        "Tests marked 'postgres' need it. Start it (.ci/run starts one on 127.0.0.1:5432 "
        "with trust auth and a 'test' database), or point CARDROOM_TEST_POSTGRES at a "
        'server, or deselect these tests: pytest -m "not postgres"',
        pytrace=False,
    )


@pytest.fixture
def postgres_url(postgres_server: str) -> Iterator[str]:
    """A fresh database for this test, dropped afterwards: ``postgresql://…/cardroom_<id>``."""
    import psycopg

    name = f"cardroom_{RUN_ID}_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(postgres_server, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    parts = urlsplit(postgres_server)
    yield urlunsplit(parts._replace(path=f"/{name}"))
    with psycopg.connect(postgres_server, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
