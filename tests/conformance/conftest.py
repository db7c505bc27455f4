"""The conformance suite runs over every registered game — the built-in ones and the tests'
high card game, registered here as any new game would be — so a new game gets it for free.

``GAMES`` is read from the registry when the tests are collected; the app's fixtures
(``client``, ``settings``) are the API tests' (the real app on SQLite, its projector into the
real Redis)."""

from __future__ import annotations

import pytest

from domain.games import game_names, register
from tests.api.conftest import client, settings  # noqa: F401  (the real app, as fixtures)
from tests.highcard import GAME as HIGHCARD
from tests.sqlite_store import redis_client, store, store_settings  # noqa: F401  (a store of its own)

GAMES = tuple(dict.fromkeys([*game_names(), HIGHCARD.name]))


@pytest.fixture(autouse=True, scope="session")
def highcard_registered() -> None:
    register(HIGHCARD)
