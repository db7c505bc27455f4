"""Helpers for API tests: a client's view of design §5 (tables, seats, commands, views)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import httpx
from litestar.testing import TestClient

from domain.cards import codes, parse, standard_pack

PROBLEM = "application/problem+json"


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def assert_problem(response: Any, status: int, **members: Any) -> dict[str, Any]:
    """A problem-details answer (RFC 9457) with ``status`` and the given members."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM), response.headers
    body: dict[str, Any] = response.json()
    assert body["status"] == status
    assert body["type"].startswith("urn:cardroom:problem:")
    assert body["title"] and body["detail"]
    for key, value in members.items():
        assert body.get(key) == value, body
    return body


def open_table(
    client: httpx.Client,  # a TestClient or a client of a real server
    game: str,
    options: dict[str, Any],
    *,
    decks: list[list[str]] | None = None,
    seed: int | None = None,
) -> str:
    body: dict[str, Any] = {"game": game, "options": options}
    if decks is not None:
        body["decks"] = decks
    if seed is not None:
        body["seed"] = seed
    response = client.post("/tables", json=body)
    assert response.status_code == 201, response.text
    table_id: str = response.json()["tableId"]
    return table_id


def sit(client: httpx.Client, table_id: str, names: Iterable[str]) -> dict[int, str]:
    """Seat the players in order; their tokens by seat."""
    tokens: dict[int, str] = {}
    for name in names:
        response = client.post(f"/tables/{table_id}/seats", json={"name": name})
        assert response.status_code == 201, response.text
        body = response.json()
        tokens[body["seat"]] = body["token"]
    return tokens


def act(
    client: TestClient[Any],
    table_id: str,
    token: str,
    command: dict[str, Any],
    headers: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Issue a command that must be accepted; the answer's body."""
    response = client.post(
        f"/tables/{table_id}/commands", json=command, headers={**auth(token), **(headers or {})}
    )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def head(client: TestClient[Any]) -> int:
    """The event log's latest position (from ``/health``)."""
    position: int = client.get("/health").json()["projection"]["head"]
    return position


def view(
    client: TestClient[Any], table_id: str, token: str | None = None, after: int | None = None
) -> dict[str, Any]:
    """The caller's view, read-your-writes: waits for ``after`` (default: the log's head)."""
    after = head(client) if after is None else after
    response = client.get(f"/tables/{table_id}?after={after}", headers=auth(token))
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def legal(client: TestClient[Any], table_id: str, token: str) -> tuple[list[dict[str, Any]], int]:
    """The seat's legal commands and the version they were computed at."""
    response = client.get(f"/tables/{table_id}/legal", headers=auth(token))
    assert response.status_code == 200, response.text
    return response.json(), int(response.headers["X-Table-Version"])


def two_seat_bourre_deck(seat1: str, seat0: str) -> list[str]:
    """A 52-card deck for two seats, dealer 0 (Bourré rule 10): card k goes to seat
    (1 + k) mod 2, so seat 1 gets the even cards and seat 0 (the dealer) the odd ones; the
    dealer's last card is face up. The rest of the pack follows as the stock."""
    top: list[str] = []
    for first, second in zip(codes(parse(seat1)), codes(parse(seat0)), strict=True):
        top += [first, second]
    used = set(top)
    return top + [code for code in codes(standard_pack()) if code not in used]


# Seat 1 holds the top spades and takes every trick; seat 0 deals and turns up 2S (trump).
SPADES_SWEEP_DECK = two_seat_bourre_deck("AS KS QS JS 10S", "2H 3H 4H 5H 2S")
