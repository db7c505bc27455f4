"""Fixtures of a SQLite event store of the test's own and a Redis client for projecting it,
for the tests that drive a store and its projections directly (the conformance suite, high
card through the service); their conftests import them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from infra.settings import Settings
from infra.store import TableStore


@pytest.fixture
def store_settings(tmp_path: Path) -> Settings:
    return Settings(event_store=f"sqlite:///{tmp_path}/events.db", var_dir=tmp_path / "var")


@pytest.fixture
def store(store_settings: Settings) -> Iterator[TableStore]:
    with TableStore(store_settings) as opened:
        yield opened


@pytest.fixture
def redis_client(redis_url: str) -> Iterator[redis.Redis]:
    connection = redis.Redis.from_url(redis_url)
    yield connection
    connection.close()
