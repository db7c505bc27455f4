"""API fixtures: the real app on SQLite in a tmp dir and the real Redis under a unique prefix,
with the projection runner in a thread of the test process (as ``cardroom serve`` runs it)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from api.app import create_app
from infra.settings import Settings
from tests.waiting import wait_until


def make_settings(tmp: Path, redis_url: str, prefix: str, *, stacked: bool = True) -> Settings:
    return Settings(
        event_store=f"sqlite:///{tmp / 'cardroom.db'}",
        redis_url=redis_url,
        redis_prefix=prefix,
        allow_stacked_decks=stacked,
        var_dir=tmp,
        bot_think_seconds=0.0,
    )


@pytest.fixture
def settings(tmp_path: Path, redis_url: str, redis_prefix: str) -> Settings:
    return make_settings(tmp_path, redis_url, redis_prefix)


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient[Any]]:
    """A client of the real app, lifespan run (store, Redis, projector thread)."""
    with TestClient(create_app(settings, run_projector=True)) as test_client:
        yield test_client


@pytest.fixture
def client_for(
    tmp_path: Path, redis_url: str, redis_prefix: str
) -> Iterator[Callable[..., TestClient[Any]]]:
    """Clients of apps with other settings (e.g. stacked decks off)."""
    opened: list[TestClient[Any]] = []

    def open_client(*, stacked: bool = True, run_projector: bool = True) -> TestClient[Any]:
        directory = tmp_path / f"app{len(opened)}"
        directory.mkdir()
        settings = make_settings(directory, redis_url, redis_prefix, stacked=stacked)
        test_client = TestClient(create_app(settings, run_projector=run_projector))
        test_client.__enter__()
        opened.append(test_client)
        return test_client

    yield open_client
    for test_client in opened:
        test_client.__exit__(None, None, None)


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def serving(settings: Settings, *, run_projector: bool = True) -> Iterator[str]:
    """An app under uvicorn on a free port, in a thread of this process (real HTTP)."""
    with uvicorn_serving(settings, run_projector=run_projector) as (url, _):
        yield url


@contextlib.contextmanager
def uvicorn_serving(settings: Settings, *, run_projector: bool = True) -> Iterator[tuple[str, Any]]:
    """:func:`serving`, also giving the ``uvicorn.Server`` (its state counts requests)."""
    import threading

    import uvicorn

    port = free_port()
    config = uvicorn.Config(
        create_app(settings, run_projector=run_projector),
        host="127.0.0.1",
        port=port,
        lifespan="on",
        log_level="warning",
        timeout_graceful_shutdown=2,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="uvicorn-test", daemon=True)
    thread.start()
    wait_until(lambda: server.started or not thread.is_alive(), 20, "the test server did not start")
    assert server.started, "the test server stopped before it started serving"
    try:
        yield f"http://127.0.0.1:{port}", server
    finally:
        server.should_exit = True
        thread.join(timeout=15)


@pytest.fixture
def live_url(settings: Settings) -> Iterator[str]:
    """The real app under uvicorn (e.g. for SSE, which the test client cannot stream)."""
    with serving(settings) as url:
        yield url
