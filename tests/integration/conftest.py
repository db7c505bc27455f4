"""Fixtures the integration tests share: the write side's store on both backends, and a
Redis connection.

``store`` runs a test on SQLite (a file in the test's temp dir) and on PostgreSQL (a fresh
database) — design §3: the same code and suite on both. A module narrows it by overriding
``settings`` (e.g. to allow stacked decks) or ``store`` itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from infra.settings import Settings
from infra.store import TableStore


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/events/cardroom.db"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def settings(store_url: str, tmp_path: Path) -> Settings:
    return Settings(event_store=store_url, var_dir=tmp_path / "var")


@pytest.fixture
def store(settings: Settings) -> Iterator[TableStore]:
    with TableStore(settings) as opened:
        yield opened


@pytest.fixture
def sqlite_store(tmp_path: Path) -> Iterator[TableStore]:
    """SQLite only: for tests about the projection, not the backend."""
    settings = Settings(
        event_store=f"sqlite:///{tmp_path}/events/cardroom.db", var_dir=tmp_path / "var"
    )
    with TableStore(settings) as opened:
        yield opened


@pytest.fixture(scope="session")
def client(redis_url: str) -> Iterator[redis.Redis]:
    """One connection to the test Redis for the session (hypothesis tests share it too)."""
    connection = redis.Redis.from_url(redis_url)
    yield connection
    connection.close()
