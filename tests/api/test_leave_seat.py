"""Leaving a table over HTTP (``{"type": "leave_seat"}``, domain/table/leaving.py): in play a
bot takes the seat over and plays it; once every person has left the table ends after the
hand; the token no longer holds the seat; a waiting table frees the seat."""

from __future__ import annotations

from typing import Any

from litestar.testing import TestClient

from tests.api.helpers import act, assert_problem, auth, open_table, sit, view
from tests.waiting import wait_until


def test_a_person_who_leaves_a_hand_in_play_is_replaced_by_a_bot_and_the_table_ends(
    client: TestClient[Any],
) -> None:
    table_id = open_table(client, "bourre", {"seats": 3}, seed=41)
    token = sit(client, table_id, ["Ann"])[0]
    for _ in range(2):
        assert client.post(f"/tables/{table_id}/seats", json={"bot": "basic"}).status_code == 201
    assert view(client, table_id)["status"] == "playing"

    left = act(client, table_id, token, {"type": "leave_seat"})
    assert [e["type"] for e in left["events"]] == ["SeatLeft"]
    timeline = client.get(f"/tables/{table_id}/timeline").json()
    (seat_left,) = [e for e in timeline if e["type"] == "SeatLeft"]
    assert {"seat": 0, "name": "Ann", "bot": "basic"}.items() <= seat_left.items()
    assert view(client, table_id)["seats"][0]["name"] == "Bot 0 (basic)"

    # The token no longer holds the seat.
    refused = client.post(
        f"/tables/{table_id}/commands", json={"type": "leave_seat"}, headers=auth(token)
    )
    assert refused.status_code == 401, refused.text

    # Only bots remain: they play the hand out, and the table ends (every human has left).
    def ended() -> dict[str, Any]:
        state = view(client, table_id)
        return state if state["status"] == "ended" else {}

    final = wait_until(ended, 120, "the table of bots did not end")
    assert final["hand"] >= 1
    ledger = client.get(f"/tables/{table_id}/ledger").json()
    assert [h["hand"] for h in ledger["hands"]][:1] == [1]
    # The ledger says who played the seat: Ann until hand 1, a bot from then on.
    assert ledger["left"] == [{"seat": 0, "name": "Ann", "hand": 1}]
    assert ledger["players"][0]["name"] == "Bot 0 (basic)"


def test_leaving_a_waiting_table_frees_the_seat(client: TestClient[Any]) -> None:
    table_id = open_table(client, "burraco", {"seats": 4})
    tokens = sit(client, table_id, ["Ann", "Bob"])
    act(client, table_id, tokens[1], {"type": "leave_seat"})
    assert [s["name"] for s in view(client, table_id)["seats"]] == ["Ann", None, None, None]
    again = client.post(f"/tables/{table_id}/seats", json={"name": "Cy", "seat": 1})
    assert again.status_code == 201, again.text


def test_an_ended_table_refuses_a_leave(client: TestClient[Any]) -> None:
    table_id = open_table(client, "bourre", {"seats": 3})
    token = sit(client, table_id, ["Ann"])[0]
    act(client, table_id, token, {"type": "close_table"})
    refused = client.post(
        f"/tables/{table_id}/commands", json={"type": "leave_seat"}, headers=auth(token)
    )
    assert_problem(refused, 409)
