"""Shared fixtures: real Redis and PostgreSQL, isolated per test run.

Integration tests talk to real servers: Redis at ``CARDROOM_TEST_REDIS_URL`` (default
``redis://127.0.0.1:6379/0``) under a key prefix unique to this run, and PostgreSQL at
``CARDROOM_TEST_POSTGRES`` (default ``postgresql://postgres@127.0.0.1:5432/test``) in a database
created for this run and dropped after it. When a server is unreachable the tests that need it
are skipped — unless ``CARDROOM_REQUIRE_SERVICES=1`` (CI), where that is a failure.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit

import pytest

REDIS_URL = os.environ.get("CARDROOM_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
POSTGRES_URL = os.environ.get("CARDROOM_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
RUN_ID = uuid.uuid4().hex[:10]


def _unavailable(what: str, error: Exception) -> None:
    message = f"{what} is not reachable: {error}"
    if os.environ.get("CARDROOM_REQUIRE_SERVICES") == "1":
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def redis_url() -> str:
    import redis

    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except Exception as error:  # any connection failure means "not reachable"
        _unavailable("Redis", error)
    return REDIS_URL


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
    except Exception as error:
        _unavailable("PostgreSQL", error)
    return POSTGRES_URL


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
