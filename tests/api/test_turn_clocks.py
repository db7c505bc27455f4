"""Turn clocks through the API (design §9): views show the turn's deadline; a player whose
turns run out is sat out and a bot plays the seat until they send ``sit_in``."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from litestar.testing import TestClient

from tests.api.helpers import act, assert_problem, legal, open_table, sit, view
from tests.waiting import wait_until

TURN = 0.3


def _timeline(client: TestClient[Any], table_id: str, token: str) -> list[dict[str, Any]]:
    response = client.get(
        f"/tables/{table_id}/timeline", headers={"Authorization": f"Bearer {token}"}
    )
    assert response.status_code == 200, response.text
    events: list[dict[str, Any]] = response.json()
    return events


def _bob_plays_a_turn(client: TestClient[Any], table_id: str, token: str, done: Any) -> None:
    """Wait for Bob's turn (or ``done``) and play his first legal command, well in time."""

    def ready() -> list[dict[str, Any]] | bool:
        commands, _ = legal(client, table_id, token)
        return commands or done()

    found = wait_until(ready, 30, "neither Bob's turn nor the awaited state came")
    if isinstance(found, list):
        act(client, table_id, token, found[0])


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
    # a turn long enough for Bob to answer in time on a busy machine
    options = {"seats": 3, "turn_seconds": 1.5, "timeouts_to_sit_out": 1}
    table_id = open_table(client, "bourre", options, seed=8)
    tokens = sit(client, table_id, ["Ann", "Bob"])  # Ann never acts; Bob plays his turns
    assert client.post(f"/tables/{table_id}/seats", json={"bot": "random"}).status_code == 201

    def sat_out() -> list[dict[str, Any]]:
        return [e for e in _timeline(client, table_id, tokens[0])
                if e["type"] == "TurnTimedOut" and e["satOut"]]  # fmt: skip

    bob = tokens[1]
    while not sat_out():
        _bob_plays_a_turn(client, table_id, bob, lambda: bool(sat_out()))
    first = sat_out()[0]
    assert (first["seat"], first["timeouts"]) == (0, 1)
    # Ann's seat is played by a bot now: the hands go on with Bob's commands alone
    while view(client, table_id)["hand"] < 3:
        _bob_plays_a_turn(client, table_id, bob, lambda: view(client, table_id)["hand"] >= 3)
    assert len(sat_out()) == 1 and not [
        e
        for e in _timeline(client, table_id, bob)
        if e["type"] == "TurnTimedOut" and e["seat"] == 1
    ]
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


def _ended(client: TestClient[Any], table_id: str) -> Any:
    def check() -> dict[str, Any] | None:
        shown = view(client, table_id)
        return shown if shown["status"] == "ended" else None

    return check


def test_a_table_whose_people_are_all_gone_ends_after_the_current_hand(
    client: TestClient[Any],
) -> None:
    for game, seats in (("bourre", 3), ("burraco", 2)):
        options = {"seats": seats, "turn_seconds": TURN, "timeouts_to_sit_out": 1}
        table_id = open_table(client, game, options, seed=6)
        person = sit(client, table_id, ["Ann"])
        for _ in range(seats - 1):
            assert (
                client.post(f"/tables/{table_id}/seats", json={"bot": "basic"}).status_code == 201
            )
        ended = wait_until(_ended(client, table_id), 60, f"the {game} table did not end")
        events = _timeline(client, table_id, next(iter(person.values())))
        kinds = [e["type"] for e in events]
        assert "TurnTimedOut" in kinds
        if game == "bourre":
            assert ended["endReason"] == "closed"
            assert kinds[-2:] == ["HandSettled", "TableEnded"]  # the hand was played out
        else:
            assert kinds[-2:] == ["HandAbandoned", "TableEnded"]
            assert kinds.count("HandScored") >= 1  # a fresh deal, after a hand played out


def test_a_player_cannot_time_out_a_turn(client: TestClient[Any]) -> None:
    table_id = open_table(client, "burraco", {"seats": 2, "turn_seconds": 3600}, seed=4)
    tokens = sit(client, table_id, ["Ann", "Bob"])
    seat = view(client, table_id, tokens[0])["toAct"][0]
    response = client.post(
        f"/tables/{table_id}/commands",
        json={"type": "time_out"},
        headers={"Authorization": f"Bearer {tokens[seat]}"},
    )
    assert_problem(response, 422, field="type")
