"""Design §5 "Limits": table creation, seat taking and commands each have a budget per client
address, kept in Redis and shared by every API process; past it a 429 problem with
``Retry-After``. Open streams per address are capped the same way. ``off`` turns them off."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from litestar.testing import TestClient

from api.app import create_app
from infra.limits import Budget, RateLimits, RateLimitsError
from infra.settings import Settings, SettingsError
from tests.api.conftest import make_settings, serving
from tests.api.helpers import assert_problem, auth, open_table, sit
from tests.waiting import wait_until

Limited = Callable[[str], TestClient[Any]]


@pytest.fixture
def limited(tmp_path: Path, redis_url: str, redis_prefix: str) -> Iterator[Limited]:
    """Apps of one store and one Redis prefix (two API processes), with the given limits."""
    opened: list[TestClient[Any]] = []

    def open_client(limits: str) -> TestClient[Any]:
        settings = replace(
            make_settings(tmp_path, redis_url, redis_prefix), rate_limits=RateLimits.parse(limits)
        )
        client = TestClient(create_app(settings, run_projector=not opened))
        client.__enter__()
        opened.append(client)
        return client

    yield open_client
    for client in reversed(opened):
        client.__exit__(None, None, None)


def test_past_the_table_budget_a_429_problem_says_when_to_retry(limited: Limited) -> None:
    one, other = limited("tables=3/60s"), limited("tables=3/60s")
    body = {"game": "bourre", "options": {"seats": 2}}
    # Both processes spend the same budget: two tables here, one there, then none anywhere.
    assert [one.post("/tables", json=body).status_code for _ in range(2)] == [201, 201]
    assert other.post("/tables", json=body).status_code == 201
    for client in (one, other):
        refused = client.post("/tables", json=body)
        problem = assert_problem(refused, 429, type="urn:cardroom:problem:rate-limited")
        assert "tables" in problem["detail"]
        assert 1 <= int(refused.headers["retry-after"]) <= 60


def test_seats_and_commands_have_their_own_budgets(limited: Limited) -> None:
    client = limited("tables=1/60s,seats=2/60s,commands=1/60s")
    table = open_table(client, "bourre", {"seats": 2})
    tokens = sit(client, table, ["Ann", "Bob"])
    refused = client.post(f"/tables/{table}/seats", json={"name": "Cy"})
    assert_problem(refused, 429)
    declare = {"type": "declare", "play": True, "discard": []}
    first = client.post(f"/tables/{table}/commands", json=declare, headers=auth(tokens[1]))
    assert first.status_code == 200, first.text
    again = client.post(f"/tables/{table}/commands", json=declare, headers=auth(tokens[0]))
    assert_problem(again, 429)
    assert client.get(f"/tables/{table}").status_code == 200  # reads are not limited


def test_off_turns_every_limit_off(limited: Limited) -> None:
    client = limited("off")
    body = {"game": "bourre", "options": {"seats": 2}}
    assert {client.post("/tables", json=body).status_code for _ in range(5)} == {201}


def test_the_defaults_make_10000_tables_in_31_seconds_impossible() -> None:
    tables = RateLimits().budget("tables")
    assert tables.count * (31 // tables.seconds + 1) < 10_000


def test_open_streams_per_address_are_capped(
    tmp_path: Path, redis_url: str, redis_prefix: str
) -> None:
    settings = replace(
        make_settings(tmp_path, redis_url, redis_prefix), rate_limits=RateLimits.parse("streams=2")
    )
    with serving(settings) as url, httpx.Client(base_url=url, timeout=10) as http:
        table = http.post("/tables", json={"game": "bourre", "options": {"seats": 2}})
        path = f"/tables/{table.json()['tableId']}/stream"
        with http.stream("GET", path) as first, http.stream("GET", path) as second:
            assert (first.status_code, second.status_code) == (200, 200)
            third = http.get(path)
            assert_problem(third, 429, type="urn:cardroom:problem:rate-limited")
            assert "retry-after" in third.headers

        def opens() -> bool:
            with http.stream("GET", path) as again:
                return again.status_code == 200

        # Closed streams free their places (once the server has seen them close).
        wait_until(opens, 10, "closed streams kept their places")


def test_the_setting_parses_budgets_and_names_what_is_wrong() -> None:
    limits = Settings.from_env({"CARDROOM_RATE_LIMITS": "tables=5/10s, streams=3"}).rate_limits
    assert limits.budget("tables") == Budget(5, 10)
    assert limits.budget("commands") == RateLimits().budget("commands")
    assert limits.streams == 3
    assert Settings.from_env({"CARDROOM_RATE_LIMITS": "off"}).rate_limits.enabled is False
    for wrong in ("tables=5", "bets=1/1s", "streams=0", "tables"):
        with pytest.raises(SettingsError, match="CARDROOM_RATE_LIMITS"):
            Settings.from_env({"CARDROOM_RATE_LIMITS": wrong})
        with pytest.raises(RateLimitsError):
            RateLimits.parse(wrong)


def test_followed_feeds_and_table_streams_share_the_stream_cap(
    tmp_path: Path, redis_url: str, redis_prefix: str
) -> None:
    settings = replace(
        make_settings(tmp_path, redis_url, redis_prefix), rate_limits=RateLimits.parse("streams=2")
    )
    with serving(settings) as url, httpx.Client(base_url=url, timeout=10) as http:
        table = http.post("/tables", json={"game": "bourre", "options": {"seats": 2}})
        path = f"/tables/{table.json()['tableId']}/stream"
        with http.stream("GET", path) as stream, http.stream("GET", "/events?follow=true") as feed:
            assert (stream.status_code, feed.status_code) == (200, 200)
            for refused in (http.get(path), http.get("/events?follow=true&limit=5")):
                assert_problem(refused, 429, type="urn:cardroom:problem:rate-limited")
            assert http.get("/events").status_code == 200  # a page is no stream

        def two_followers_hold_the_cap() -> bool:  # once the server saw the others close
            with (
                http.stream("GET", "/events?follow=true") as one,
                http.stream("GET", "/events?limit=3&follow=true") as two,
            ):
                if (one.status_code, two.status_code) != (200, 200):
                    return False
                assert_problem(http.get(path), 429)
                return True

        wait_until(two_followers_hold_the_cap, 10, "closed streams kept their places")
