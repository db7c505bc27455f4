"""High card is registered for these tests only, as any new game would be: one ``register``.
The real app's fixtures (``client``: the HTTP API on SQLite with its projector into the real
Redis) come from the API tests' conftest."""

from __future__ import annotations

import pytest

from domain.games import register
from tests.api.conftest import client, settings  # noqa: F401  (the real app, as fixtures)
from tests.highcard import GAME
from tests.sqlite_store import redis_client, store, store_settings  # noqa: F401  (a store of its own)


@pytest.fixture(autouse=True, scope="session")
def highcard_registered() -> None:
    register(GAME)
