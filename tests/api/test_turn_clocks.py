"""Turn clocks through the API (design §9): views show the turn's deadline; a player whose
turns run out is sat out and a bot plays the seat until they send ``sit_in``."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from litestar.testing import TestClient

from tests.api.helpers import act, open_table, sit, view
from tests.waiting import wait_until

TURN = 0.3


def _timeline(client: TestClient[Any], table_id: str, token: str) -> list[dict[str, Any]]:
    response = client.get(
        f"/tables/{table_id}/timeline", headers={"Authorization": f"Bearer {token}"}
    )
    assert response.status_code == 200, response.text
    events: list[dict[str, Any]] = response.json()
    return events


def test_a_view_shows_the_deadline_of_the_turn(client: TestClient[Any]) -> None:
    table_id = open_table(client, "burraco", {"seats": 2, "turn_seconds": 3600}, seed=4)
    tokens = sit(client, table_id, ["Ann", "Bob"])
    shown = view(client, table_id, tokens[0])
    prompt = _timeline(client, table_id, tokens[0])[-1]
    expected = datetime.fromisoformat(prompt["at"]) + timedelta(seconds=3600)
    assert datetime.fromisoformat(shown["deadline"]) == expected
    assert "deadline" not in view(client, open_table(client, "burraco", {"seats": 2}))


def test_a_player_who_times_out_is_sat_out_played_by_a_bot_and_sits_back_in(
    client: TestClient[Any],
) -> None:
    options = {"seats": 2, "turn_seconds": TURN, "timeouts_to_sit_out": 1}
    table_id = open_table(client, "bourre", options, seed=8)
    tokens = sit(client, table_id, ["Ann", "Bob"])

    def sat_out() -> list[dict[str, Any]]:
        return [e for e in _timeline(client, table_id, tokens[0])
                if e["type"] == "TurnTimedOut" and e["satOut"]]  # fmt: skip

    first = wait_until(sat_out, 30, "nobody was sat out")[0]
    assert first["timeouts"] == 1
    # both sat out: bots play the table on, hand after hand, without any timeout
    wait_until(lambda: view(client, table_id)["hand"] >= 3, 60, "the bots did not play on")
    seat = first["seat"]
    answer = act(client, table_id, tokens[seat], {"type": "sit_in"})
    assert [e["type"] for e in answer["events"]] == ["SatIn"]

    # back in, the seat's own clock runs again (no bot plays it): it times out afresh
    def timed_out_again() -> list[dict[str, Any]]:
        return [e for e in _timeline(client, table_id, tokens[seat])
                if e["version"] > answer["version"] and e["type"] == "TurnTimedOut"
                and e["seat"] == seat]  # fmt: skip

    again = wait_until(timed_out_again, 60, "the seat's clock did not run after sit_in")[0]
    assert again["timeouts"] == 1
