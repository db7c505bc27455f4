"""Design §5 spectators: ``GET /tables/{id}/spectators`` counts the open live streams of a
table that hold no seat token, across every API process (the leases live in Redis), and
answers the count only."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from uuid import uuid4

import httpx
import pytest
import redis

from api.spectators import LEASE_S, Spectators
from infra.settings import Settings
from tests.api.conftest import serving
from tests.api.helpers import assert_problem, auth, two_seat_bourre_deck
from tests.waiting import wait_until

DECK = two_seat_bourre_deck("AS KS QS JS 10S", "2H 3H 4H 5H 2S")


@pytest.fixture
def http(live_url: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=live_url, timeout=10) as client:
        yield client


def new_table(http: httpx.Client) -> tuple[str, dict[int, str]]:
    body = {"game": "bourre", "options": {"seats": 2}, "decks": [DECK]}
    table = http.post("/tables", json=body).json()["tableId"]
    tokens = {}
    for name in ("Ann", "Bob"):
        seat = http.post(f"/tables/{table}/seats", json={"name": name}).json()
        tokens[seat["seat"]] = seat["token"]
    return table, tokens


def spectators(http: httpx.Client, table: str) -> int:
    answer = http.get(f"/tables/{table}/spectators")
    assert answer.status_code == 200
    body = answer.json()
    assert list(body) == ["spectators"]  # a count, nothing about who
    return int(body["spectators"])


def wait_for_count(http: httpx.Client, table: str, count: int) -> None:
    wait_until(
        lambda: spectators(http, table) == count, 15, f"the table never had {count} spectators"
    )


def test_open_spectator_streams_count_and_a_seated_stream_does_not(http: httpx.Client) -> None:
    table, tokens = new_table(http)
    assert spectators(http, table) == 0
    path = f"/tables/{table}/stream"
    with ExitStack() as streams:
        first = streams.enter_context(http.stream("GET", path))
        with http.stream("GET", path) as second, http.stream("GET", path, headers=auth(tokens[0])):
            assert first.status_code == second.status_code == 200
            wait_for_count(http, table, 2)
        wait_for_count(http, table, 1)  # the second spectator and the seat have gone
    wait_for_count(http, table, 0)


def test_spectators_of_an_unknown_table_is_a_404(http: httpx.Client) -> None:
    assert_problem(
        http.get(f"/tables/{uuid4()}/spectators"), 404, type="urn:cardroom:problem:table-not-found"
    )
    assert_problem(http.get("/tables/not-a-uuid/spectators"), 404)


def test_the_count_spans_api_processes(settings: Settings, live_url: str) -> None:
    """Two apps on one store and one Redis (as ``cardroom serve --workers 2``): each counts
    the other's spectators."""
    with (
        serving(settings, run_projector=False) as other_url,
        httpx.Client(base_url=live_url, timeout=10) as one,
        httpx.Client(base_url=other_url, timeout=10) as other,
    ):
        table, _ = new_table(one)
        with one.stream("GET", f"/tables/{table}/stream"):
            with other.stream("GET", f"/tables/{table}/stream"):
                wait_for_count(one, table, 2)
                wait_for_count(other, table, 2)
            wait_for_count(one, table, 1)


def test_a_lapsed_lease_does_not_count_and_the_next_one_drops_it(
    redis_url: str, redis_prefix: str
) -> None:
    """A stream whose process died stops counting once its lease has lapsed."""
    client = redis.Redis.from_url(redis_url)
    leases = Spectators(client, redis_prefix)
    table = uuid4()
    key = leases.keys.spectators(table)
    assert f"{{{table}}}" in key  # the table's slot on a cluster
    client.zadd(key, {"died": 1})  # a lease that ended long ago
    assert leases.count(table) == 0
    member = leases.join(table)
    assert leases.count(table) == 1
    assert client.zrange(key, 0, -1) == [member.encode()]
    assert 0 < client.pttl(key) <= LEASE_S * 1000  # the set lasts as long as its newest lease
    leases.leave(table, member)
    assert leases.count(table) == 0
    client.close()


def test_a_head_of_the_stream_leaves_no_spectator_behind(http: httpx.Client) -> None:
    table, _ = new_table(http)
    assert http.head(f"/tables/{table}/stream").status_code == 200
    wait_for_count(http, table, 0)
