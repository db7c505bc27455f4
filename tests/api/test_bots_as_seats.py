"""Server-side bots as seats: ``GET /bots``, ``POST …/seats {"bot": kind}``, and a table of
one person and bots that plays whole hands driven only by that person's commands."""

from __future__ import annotations

from typing import Any

import pytest
from litestar.testing import TestClient

from tests.api.helpers import act, assert_problem, legal, open_table, view
from tests.waiting import wait_until


def test_the_bot_kinds_of_every_game_are_listed_with_a_description(
    client: TestClient[Any],
) -> None:
    listed = client.get("/bots").json()
    for game in ("bourre", "burraco"):
        assert {"random", "basic"} <= set(listed[game])
        assert all(isinstance(text, str) and text for text in listed[game].values())


def test_a_bot_takes_a_seat_under_a_name_that_says_it_is_a_bot(client: TestClient[Any]) -> None:
    table_id = open_table(client, "bourre", {"seats": 3})
    response = client.post(f"/tables/{table_id}/seats", json={"bot": "basic", "seat": 2})
    assert response.status_code == 201, response.text
    body = response.json()
    assert (body["seat"], body["bot"], body["token"]) == (2, "basic", "")
    seats = view(client, table_id)["seats"]
    assert seats[2]["name"] == "Bot 2 (basic)"
    timeline = client.get(f"/tables/{table_id}/timeline").json()
    seated = [e for e in timeline if e["type"] == "PlayerSeated"]
    assert seated[0]["bot"] == "basic"


def test_an_unknown_bot_or_a_seat_without_name_or_bot_is_refused(client: TestClient[Any]) -> None:
    table_id = open_table(client, "burraco", {"seats": 4})
    refused = client.post(f"/tables/{table_id}/seats", json={"bot": "genius"})
    assert_problem(refused, 422, field="bot")
    assert_problem(client.post(f"/tables/{table_id}/seats", json={}), 400, field="name")
    both = client.post(f"/tables/{table_id}/seats", json={"bot": "basic", "name": "Ann"})
    assert_problem(both, 400, field="bot")
    assert all(s["name"] is None for s in view(client, table_id)["seats"])


def _play_as_the_only_person(
    client: TestClient[Any], table_id: str, token: str, done: Any, turns: int
) -> dict[str, Any]:
    """The person plays the first legal command whenever it is their turn; bots do the rest."""
    for _ in range(turns):
        state = view(client, table_id, token)
        if done(state):
            return state

        def my_turn() -> list[dict[str, Any]] | dict[str, Any] | None:
            commands, _ = legal(client, table_id, token)
            if commands:
                return commands
            latest = view(client, table_id, token)
            return {"done": True} if done(latest) else None

        found = wait_until(my_turn, 30, "neither my turn nor the end came")
        if isinstance(found, list):
            act(client, table_id, token, found[0])
    raise AssertionError("the hands did not end")


@pytest.mark.parametrize(
    ("game", "options", "hands"),
    [("bourre", {"seats": 4, "hands": 3}, 3), ("burraco", {"seats": 4}, 2)],
)
def test_one_person_and_bots_play_several_hands(
    client: TestClient[Any], game: str, options: dict[str, Any], hands: int
) -> None:
    table_id = open_table(client, game, options, seed=41)
    person = client.post(f"/tables/{table_id}/seats", json={"name": "Ann", "seat": 1}).json()
    for kind in ("basic", "random", "basic"):
        assert client.post(f"/tables/{table_id}/seats", json={"bot": kind}).status_code == 201

    def done(state: dict[str, Any]) -> bool:
        played = state.get("handsScored", state["hand"] - (state["status"] != "ended"))
        return bool(state["status"] == "ended" or played >= hands)

    final = _play_as_the_only_person(client, table_id, person["token"], done, 2_000)
    if game == "bourre":
        assert final["status"] == "ended" and final["hand"] == hands
    else:
        assert final["handsScored"] >= hands or final["status"] == "ended"
