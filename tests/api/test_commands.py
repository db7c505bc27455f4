"""Design §5 commands: bearer auth, expectedVersion, Idempotency-Key, malformed bodies.

Every refusal is a problem naming what is wrong, and a refused command writes nothing.
"""

from __future__ import annotations

from typing import Any

import pytest
from litestar.testing import TestClient

from tests.api.helpers import (
    SPADES_SWEEP_DECK,
    act,
    assert_problem,
    auth,
    legal,
    open_table,
    sit,
)

DECLARE = {"type": "declare", "play": True, "discard": []}


@pytest.fixture
def table(client: TestClient[Any]) -> tuple[str, dict[int, str]]:
    table_id = open_table(client, "bourre", {"seats": 2}, decks=[SPADES_SWEEP_DECK])
    return table_id, sit(client, table_id, ["Ann", "Bob"])


def events_of(client: TestClient[Any], table_id: str) -> list[dict[str, Any]]:
    response = client.get(f"/tables/{table_id}/timeline")
    assert response.status_code == 200
    events: list[dict[str, Any]] = response.json()
    return events


def test_a_command_without_a_token_is_401(client: TestClient[Any], table: Any) -> None:
    table_id, _ = table
    response = client.post(f"/tables/{table_id}/commands", json=DECLARE)
    assert_problem(response, 401, field="Authorization")
    assert response.headers["www-authenticate"].startswith("Bearer")


def test_a_bad_token_or_scheme_is_401(client: TestClient[Any], table: Any) -> None:
    table_id, _ = table
    path = f"/tables/{table_id}/commands"
    assert_problem(client.post(path, json=DECLARE, headers=auth("not-a-seat")), 401)
    assert_problem(client.post(path, json=DECLARE, headers={"Authorization": "Basic abc"}), 401)
    assert_problem(client.get(f"/tables/{table_id}", headers=auth("nope")), 401)


def test_a_token_of_another_table_holds_no_seat_here(client: TestClient[Any], table: Any) -> None:
    table_id, _ = table
    other = open_table(client, "bourre", {"seats": 2}, decks=[SPADES_SWEEP_DECK])
    other_tokens = sit(client, other, ["Cid", "Dee"])
    response = client.post(
        f"/tables/{table_id}/commands", json=DECLARE, headers=auth(other_tokens[1])
    )
    assert_problem(response, 401)


def test_naming_another_seat_in_the_body_is_403(client: TestClient[Any], table: Any) -> None:
    table_id, tokens = table
    response = client.post(
        f"/tables/{table_id}/commands", json={**DECLARE, "seat": 0}, headers=auth(tokens[1])
    )
    assert_problem(response, 403, field="seat")
    # Naming one's own seat is harmless.
    act(client, table_id, tokens[1], {**DECLARE, "seat": 1})


def test_another_seats_turn_is_403(client: TestClient[Any], table: Any) -> None:
    table_id, tokens = table
    before = events_of(client, table_id)
    assert_problem(
        client.post(f"/tables/{table_id}/commands", json=DECLARE, headers=auth(tokens[0])), 403
    )
    assert events_of(client, table_id) == before


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({"play": True}, 400, "type"),
        ({"type": 7}, 400, "type"),
        ({"type": "fold"}, 422, "type"),
        ({"type": "open_table"}, 422, "type"),
        ({"type": "take_seat", "name": "x"}, 422, "type"),
        ({"type": "play_card"}, 400, "card"),
        ({"type": "play_card", "card": 12}, 400, "card"),
        ({"type": "play_card", "card": "1Z"}, 422, "card"),
        ({"type": "declare", "play": True, "discard": ["AS", "XX"]}, 422, "discard[1]"),
        ({"type": "declare", "play": "yes"}, 400, "play"),
        ({"type": "declare", "play": True, "colour": "red"}, 400, "colour"),
        ({**DECLARE, "expectedVersion": -1}, 400, "expectedVersion"),
        ({**DECLARE, "expectedVersion": "5"}, 400, "expectedVersion"),
    ],
)
def test_a_malformed_command_names_the_field_and_writes_nothing(
    client: TestClient[Any], table: Any, body: dict[str, Any], status: int, field: str
) -> None:
    table_id, tokens = table
    before = events_of(client, table_id)
    response = client.post(f"/tables/{table_id}/commands", json=body, headers=auth(tokens[1]))
    assert_problem(response, status, field=field)
    assert events_of(client, table_id) == before


def test_a_command_body_that_is_not_an_object_is_400(client: TestClient[Any], table: Any) -> None:
    table_id, tokens = table
    path = f"/tables/{table_id}/commands"
    assert_problem(client.post(path, json=["declare"], headers=auth(tokens[1])), 400)
    assert_problem(client.post(path, content=b"{", headers=auth(tokens[1])), 400)


def test_card_codes_are_accepted_in_any_case(client: TestClient[Any], table: Any) -> None:
    table_id, tokens = table
    act(client, table_id, tokens[1], {"type": "declare", "play": True, "discard": ["10s"]})
    timeline = events_of(client, table_id)
    seen_by_bob = client.get(f"/tables/{table_id}/timeline", headers=auth(tokens[1])).json()
    assert seen_by_bob[-1]["discarded"] == ["10S"]
    assert timeline[-1]["discarded"] is None  # a spectator does not see the discard


def test_expected_version_must_match_the_table(client: TestClient[Any], table: Any) -> None:
    table_id, tokens = table
    _, version = legal(client, table_id, tokens[1])
    stale = {**DECLARE, "expectedVersion": version - 1}
    before = events_of(client, table_id)
    assert_problem(
        client.post(f"/tables/{table_id}/commands", json=stale, headers=auth(tokens[1])),
        409,
    )
    assert events_of(client, table_id) == before
    answer = act(client, table_id, tokens[1], {**DECLARE, "expectedVersion": version})
    assert answer["version"] > version


def test_a_retried_idempotency_key_returns_the_first_answer_and_writes_nothing(
    client: TestClient[Any], table: Any
) -> None:
    table_id, tokens = table
    key = {"Idempotency-Key": "declare-1"}
    first = act(client, table_id, tokens[1], DECLARE, headers=key)
    after_first = events_of(client, table_id)
    again = act(client, table_id, tokens[1], DECLARE, headers=key)
    assert again == first
    assert events_of(client, table_id) == after_first
    # The same key from another seat is that seat's own key: its command is decided anew.
    other = act(client, table_id, tokens[0], DECLARE, headers=key)
    assert other["version"] > first["version"]


def test_an_idempotency_key_sent_with_a_different_command_is_a_422_naming_the_key(
    client: TestClient[Any], table: Any
) -> None:
    table_id, tokens = table
    path = f"/tables/{table_id}/commands"
    key = {"Idempotency-Key": "declare-1", **auth(tokens[1])}
    first = client.post(path, json=DECLARE, headers=key)
    assert first.status_code == 200
    after_first = events_of(client, table_id)
    fold = {"type": "declare", "play": False, "discard": []}
    for body in (fold, {**DECLARE, "expectedVersion": first.json()["version"]}):
        problem = assert_problem(
            client.post(path, json=body, headers=key),
            422,
            type="urn:cardroom:problem:idempotency-key-reused",
            field="Idempotency-Key",
        )
        # The client's own key is named, not the store's seat-scoped one.
        assert "'declare-1' was already used for a different command" in problem["detail"]
        assert "seat" not in problem["detail"]
    assert events_of(client, table_id) == after_first
    # The same body again is still a retry: the first answer.
    again = client.post(path, json=DECLARE, headers=key)
    assert again.status_code == 200 and again.json() == first.json()


def test_commands_answer_version_position_and_the_seats_events(
    client: TestClient[Any], table: Any
) -> None:
    table_id, tokens = table
    answer = act(client, table_id, tokens[1], {"type": "declare", "play": True, "discard": ["AS"]})
    assert set(answer) == {"version", "position", "events"}
    assert answer["position"] >= answer["version"]
    drawn = [e for e in answer["events"] if e["type"] == "Discarded"]
    assert drawn and drawn[0]["discarded"] == ["AS"] and len(drawn[0]["drawn"]) == 1
    assert [e["version"] for e in answer["events"]][-1] == answer["version"]


def test_stacked_decks_are_refused_when_the_server_does_not_allow_them(
    client_for: Any,
) -> None:
    strict = client_for(stacked=False)
    response = strict.post(
        "/tables", json={"game": "bourre", "options": {"seats": 2}, "decks": [SPADES_SWEEP_DECK]}
    )
    assert_problem(response, 403, field="decks")
    unstacked = strict.post("/tables", json={"game": "bourre", "options": {"seats": 2}})
    assert unstacked.status_code == 201


def test_bad_options_and_decks_are_named(client: TestClient[Any]) -> None:
    body: dict[str, Any] = {"game": "bourre", "options": {"seats": 9}}
    assert_problem(client.post("/tables", json=body), 422, option="seats")
    body = {"game": "bourre", "options": {"seats": 2, "wild": True}}
    assert_problem(client.post("/tables", json=body), 422, option="wild")
    body = {"game": "bourre", "options": {"seats": 2, "reveal": "sometimes"}}
    assert_problem(client.post("/tables", json=body), 422, option="reveal")
    bad_card = [[*SPADES_SWEEP_DECK[:-1], "ZZ"]]
    body = {"game": "bourre", "options": {"seats": 2}, "decks": bad_card}
    assert_problem(client.post("/tables", json=body), 422, field="decks[0][51]")
    short = [SPADES_SWEEP_DECK[:-1]]
    body = {"game": "bourre", "options": {"seats": 2}, "decks": short}
    assert_problem(client.post("/tables", json=body), 422, option="decks")


def test_seats_fill_and_a_full_table_refuses_more(client: TestClient[Any], table: Any) -> None:
    table_id, _ = table
    response = client.post(f"/tables/{table_id}/seats", json={"name": "Eve"})
    assert_problem(response, 409)
    assert_problem(client.post(f"/tables/{table_id}/seats", json={"name": ""}), 400, field="name")


def test_idempotency_keys_are_bounded(client: TestClient[Any], table: Any) -> None:
    table_id, tokens = table
    path = f"/tables/{table_id}/commands"
    longest = {"Idempotency-Key": "k" * 190, **auth(tokens[1])}
    assert client.post(path, json=DECLARE, headers=longest).status_code == 200
    too_long = {"Idempotency-Key": "k" * 191, **auth(tokens[0])}
    assert_problem(client.post(path, json=DECLARE, headers=too_long), 400)
