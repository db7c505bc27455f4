"""Design §5, reads that scale: the lobby by status a page at a time, and the timeline in
pages, each answer naming the next page in ``Link: <…>; rel="next"`` with the same filters."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from litestar.testing import TestClient

from api.app import create_app
from infra.settings import Settings
from tests.api.helpers import SPADES_SWEEP_DECK, act, assert_problem, head, open_table, sit
from tests.waiting import wait_until

DECLARE = {"type": "declare", "play": True, "discard": []}


def next_link(response: Any) -> str | None:
    """The URL of ``Link: <url>; rel="next"``, if the answer has one."""
    found = re.fullmatch(r'<([^>]+)>; rel="next"', response.headers.get("link", ""))
    return found.group(1) if found else None


def pages(client: TestClient[Any], url: str) -> list[list[dict[str, Any]]]:
    """Every page from ``url`` on, following the ``Link`` headers."""
    found: list[list[dict[str, Any]]] = []
    following: str | None = url
    while following is not None:
        response = client.get(following)
        assert response.status_code == 200, response.text
        found.append(response.json())
        following = next_link(response)
    return found


def joined(found: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    return [line for page in found for line in page]


def ids(lines: list[dict[str, Any]]) -> list[str]:
    return [line["tableId"] for line in lines]


def test_the_lobby_lists_each_status_a_page_at_a_time(client: TestClient[Any]) -> None:
    waiting = [open_table(client, "bourre", {"seats": 2}) for _ in range(5)]
    playing = open_table(client, "bourre", {"seats": 2})
    sit(client, playing, ["Ann", "Bob"])
    ended = open_table(client, "bourre", {"seats": 2})
    ann = sit(client, ended, ["Ann"])[0]
    act(client, ended, ann, {"type": "close_table"})
    caught_up = f"after={head(client)}"

    by_two = pages(client, f"/tables?status=waiting&limit=2&{caught_up}")
    assert [len(page) for page in by_two] == [2, 2, 1]
    assert joined(by_two) == client.get("/tables?status=waiting").json()
    assert ids(joined(by_two)) == waiting  # oldest first
    assert ids(client.get("/tables?status=playing").json()) == [playing]
    assert ids(client.get("/tables?status=ended").json()) == [ended]
    # The default listing is the open tables: waiting and playing, in opening order.
    assert ids(joined(pages(client, "/tables?limit=4"))) == [*waiting, playing]


def test_a_lobby_page_link_keeps_the_filters(client: TestClient[Any]) -> None:
    for _ in range(3):
        open_table(client, "bourre", {"seats": 2})
    open_table(client, "burraco", {"seats": 2})
    first = client.get(f"/tables?game=bourre&status=waiting&limit=2&after={head(client)}")
    following = next_link(first)
    assert following is not None and following.startswith("/tables?")
    assert "game=bourre" in following and "status=waiting" in following
    assert "limit=2" in following and "cursor=" in following
    last = client.get(following)
    assert len(first.json()) == 2 and len(last.json()) == 1
    assert next_link(last) is None
    assert {line["game"] for line in first.json() + last.json()} == {"bourre"}


def test_bad_lobby_paging_is_a_400_naming_the_parameter(client: TestClient[Any]) -> None:
    assert_problem(client.get("/tables?status=closed"), 400)
    assert_problem(client.get("/tables?limit=201"), 400)
    assert_problem(client.get("/tables?limit=0"), 400)
    assert_problem(client.get("/tables?cursor=not-a-cursor"), 400, field="cursor")


def test_the_timeline_comes_in_pages(client: TestClient[Any]) -> None:
    table = open_table(client, "bourre", {"seats": 2}, decks=[SPADES_SWEEP_DECK])
    tokens = sit(client, table, ["Ann", "Bob"])
    act(client, table, tokens[1], DECLARE)
    whole = client.get(f"/tables/{table}/timeline")
    assert next_link(whole) is None  # fewer than a default page
    versions = [event["version"] for event in whole.json()]
    assert versions == list(range(1, len(versions) + 1)) and len(versions) >= 6

    by_three = pages(client, f"/tables/{table}/timeline?limit=3")
    assert [len(page) for page in by_three[:-1]] == [3] * (len(by_three) - 1)
    assert joined(by_three) == whole.json()
    within = pages(client, f"/tables/{table}/timeline?from=2&to=5&limit=3")
    assert [[event["version"] for event in page] for page in within] == [[2, 3, 4], [5]]


def test_a_table_nobody_joins_is_abandoned_and_leaves_the_waiting_list(
    settings: Settings,
) -> None:
    quick = dataclasses.replace(settings, abandon_waiting_seconds=0.2)
    with TestClient(create_app(quick, run_projector=True)) as client:
        table = open_table(client, "bourre", {"seats": 2})

        def ended() -> list[str]:
            return ids(client.get("/tables?status=ended").json())

        wait_until(lambda: ended() == [table], 30, "the sweeper did not abandon the table")
        assert client.get("/tables?status=waiting").json() == []
        last = client.get(f"/tables/{table}/timeline").json()[-1]
        assert (last["type"], last["reason"]) == ("TableEnded", "abandoned")
