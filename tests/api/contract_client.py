"""A client written from design §5 alone, for the black-box conformance tests.

Requests and JSON only: nothing here imports the server's modules (cards are written as codes).
"""

from __future__ import annotations

import re
from typing import Any

from litestar.testing import TestClient

TableClient = TestClient[Any]
PROBLEM = "application/problem+json"
CAMEL = re.compile(r"^[a-z][a-zA-Z0-9]*$")
CODE = re.compile(r"^(10|[2-9AKQJ])[SHDC]$|^JK$")
RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
PACK = [rank + suit for suit in "SHDC" for rank in RANKS]

# Bourré, two seats, dealer 0 (rule 10): card k goes to seat (1 + k) mod 2, the dealer's last
# card (2S) is face up and trump. Seat 1 holds the top spades and takes all five tricks.
BOB = ["AS", "KS", "QS", "JS", "10S"]
ANN = ["2H", "3H", "4H", "5H", "2S"]
DECK = [card for pair in zip(BOB, ANN, strict=True) for card in pair]
DECK += [card for card in PACK if card not in DECK]
DECLARE = {"type": "declare", "play": True, "discard": []}


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def problem(response: Any, status: int) -> dict[str, Any]:
    """A problem-details body (RFC 9457) with a message a person can act on."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM), response.headers
    body: dict[str, Any] = response.json()
    assert body["status"] == status and body["title"] and body["detail"], body
    return body


def camel_keys(document: Any) -> set[str]:
    """Every object key in a JSON document that is not camelCase. Card codes and seat numbers
    used as keys are data, and so are the table options: their keys are the rule specs' option
    names (``spectator_delay``), echoed as the client sent them."""
    bad: set[str] = set()
    stack = [document]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(value for key, value in item.items() if key != "options")
            bad.update(k for k in item if not (CAMEL.match(k) or CODE.match(k) or k.isdigit()))
        elif isinstance(item, list):
            stack.extend(item)
    return bad


def cards_in(document: Any) -> set[str]:
    found: set[str] = set()
    stack = [document]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
            found.update(k for k in item if CODE.match(k))
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and CODE.match(item):
            found.add(item)
    return found


def create(client: Any, body: dict[str, Any]) -> str:
    return str(created(client, body)["tableId"])


def created(client: Any, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/tables", json=body)
    assert response.status_code in (200, 201), response.text
    answer: dict[str, Any] = response.json()
    assert isinstance(answer["tableId"], str) and not camel_keys(answer)
    return answer


def seat(client: Any, table: str, name: str, chosen: int | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"name": name} if chosen is None else {"name": name, "seat": chosen}
    response = client.post(f"/tables/{table}/seats", json=body)
    assert response.status_code in (200, 201), response.text
    answer: dict[str, Any] = response.json()
    assert isinstance(answer["seat"], int) and isinstance(answer["token"], str)
    return answer


def command(client: Any, table: str, token: str, body: dict[str, Any], **headers: str) -> Any:
    return client.post(f"/tables/{table}/commands", json=body, headers={**bearer(token), **headers})


def accepted(client: Any, table: str, token: str, body: dict[str, Any]) -> dict[str, Any]:
    response = command(client, table, token, body)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    assert isinstance(answer["version"], int) and isinstance(answer["position"], int)
    assert isinstance(answer["events"], list) and not camel_keys(answer)
    return answer


def get(client: Any, path: str, token: str | None = None) -> Any:
    response = client.get(path, headers=bearer(token))
    assert response.status_code == 200, response.text
    assert not camel_keys(response.json()), response.text
    return response.json()


def heads_up(client: Any, **options: Any) -> tuple[str, str, str]:
    """A stacked two-seat Bourré table: the table, Ann's (seat 0) and Bob's (seat 1) tokens."""
    table = create(
        client, {"game": "bourre", "options": {"seats": 2, **options}, "decks": [DECK], "seed": 3}
    )
    ann = seat(client, table, "Ann", 0)["token"]
    bob = seat(client, table, "Bob", 1)["token"]
    return table, ann, bob


def settle_first_hand(client: Any, table: str, ann: str, bob: str) -> int:
    """Bob wins all five tricks of hand 1, Ann follows with whatever is legal; the last
    command's position."""
    accepted(client, table, bob, DECLARE)
    position = accepted(client, table, ann, DECLARE)["position"]
    for lead in BOB:
        accepted(client, table, bob, {"type": "play_card", "card": lead})
        moves = get(client, f"/tables/{table}/legal", ann)
        position = accepted(client, table, ann, moves[0])["position"]
    return position
