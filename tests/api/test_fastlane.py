"""The command route's fast lane (api/fastlane.py): plain ``POST /tables/{id}/commands``
requests skip the routes, and get exactly the answers the route gives.

The lane hands a CORS request (one with ``Origin``) to the routes, so sending the same request
with and without ``Origin`` puts the route's answer beside the lane's.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from litestar.testing import TestClient

from api.routes import play
from tests.api.helpers import SPADES_SWEEP_DECK, auth, open_table, sit

DECLARE = {"type": "declare", "play": True, "discard": []}
ORIGIN = {"Origin": "http://elsewhere.example"}
CORS_HEADERS = ("access-control-", "vary")


@pytest.fixture
def table(client: TestClient[Any]) -> tuple[str, dict[int, str]]:
    table_id = open_table(client, "bourre", {"seats": 2}, decks=[SPADES_SWEEP_DECK])
    return table_id, sit(client, table_id, ["Ann", "Bob"])


@pytest.fixture
def routed(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The commands the route handler ran (the lane's never reach it)."""
    calls: list[Any] = []
    through_route = play.blocking

    async def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return await through_route(fn, *args, **kwargs)

    monkeypatch.setattr(play, "blocking", counted)
    return calls


def answer(response: Any) -> tuple[int, dict[str, str], bytes]:
    """Status, headers but CORS's, and the body's bytes."""
    headers = {k: v for k, v in response.headers.items() if not k.startswith(CORS_HEADERS)}
    return response.status_code, headers, response.content


def test_a_plain_command_takes_the_lane_and_a_cors_one_the_route(
    client: TestClient[Any], table: Any, routed: list[Any]
) -> None:
    table_id, tokens = table
    path = f"/tables/{table_id}/commands"
    assert client.post(path, json=DECLARE, headers=auth(tokens[1])).status_code == 200
    assert routed == []
    cors = client.post(path, json=DECLARE, headers={**auth(tokens[0]), **ORIGIN})
    assert cors.status_code == 200
    assert cors.headers["access-control-allow-origin"] == "*"
    assert len(routed) == 1


def test_refusals_in_the_lane_are_the_route_s_answers_byte_for_byte(
    client: TestClient[Any], table: Any, routed: list[Any]
) -> None:
    table_id, tokens = table
    path = f"/tables/{table_id}/commands"
    refused = [
        (path, DECLARE, auth("not-a-seat")),  # 401 bad token
        (path, {**DECLARE, "seat": 0}, auth(tokens[1])),  # 403 not your seat
        (path, DECLARE, auth(tokens[0])),  # 403/422: not seat 0's turn
        (path, {"type": "fly"}, auth(tokens[1])),  # 422 unknown command
        (path, {**DECLARE, "discard": ["ZZ"]}, auth(tokens[1])),  # 422 invalid card
        (path, {**DECLARE, "expectedVersion": 1}, auth(tokens[1])),  # 409 stale version
        (path, {**DECLARE, "expectedVersion": -1}, auth(tokens[1])),  # 400 malformed
        (path, {"type": "declare", "play": "yes"}, auth(tokens[1])),  # 400 wrong type
        (f"/tables/{uuid.uuid4()}/commands", DECLARE, auth(tokens[1])),  # 404
        (f"/tables/{table_id.upper()}/commands", DECLARE, auth(tokens[0])),  # the id in capitals
    ]
    for url, body, headers in refused:
        lane = client.post(url, json=body, headers=headers)
        route = client.post(url, json=body, headers={**headers, **ORIGIN})
        assert lane.status_code >= 400, lane.text
        assert answer(lane) == answer(route), body
    assert len(routed) == len(refused)  # each once, with Origin


def test_a_retry_in_the_lane_answers_what_the_route_answered_first(
    client: TestClient[Any], table: Any
) -> None:
    table_id, tokens = table
    path = f"/tables/{table_id}/commands"
    keyed = {**auth(tokens[1]), "Idempotency-Key": "declare-1"}
    first = client.post(path, json=DECLARE, headers={**keyed, **ORIGIN})
    assert first.status_code == 200
    again = client.post(path, json=DECLARE, headers=keyed)
    assert answer(again) == answer(first)


@pytest.mark.parametrize(
    ("content", "headers"),
    [
        (b"{not json", {}),
        (b"[1, 2]", {}),
        (b"", {}),
        (b'{"type": "declare"}', {"Authorization": ""}),
        (b'{"type": "declare"}', {"Idempotency-Key": "k" * 191}),
        (b'{"type": "declare"}', {"Content-Length": str(64 * 1024 + 1)}),
    ],
)
def test_unusual_requests_get_the_route_s_answer(
    client: TestClient[Any], table: Any, content: bytes, headers: dict[str, str]
) -> None:
    """What the lane would have to judge (malformed bodies, bad headers, oversized bodies) is
    the route's to answer, with the body replayed to it."""
    table_id, tokens = table
    path = f"/tables/{table_id}/commands"
    sent = {**auth(tokens[1]), "Content-Type": "application/json", **headers}
    lane = client.post(path, content=content, headers=sent)
    route = client.post(path, content=content, headers={**sent, **ORIGIN})
    assert lane.status_code >= 400
    assert answer(lane) == answer(route)
