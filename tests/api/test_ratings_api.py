"""Profiles and leaderboards over HTTP (design §2.2): two accounts play a hand with their
session tokens and are rated; bots are rated apart from people, and shown as bots."""

from __future__ import annotations

from typing import Any

from litestar.testing import TestClient

from tests.api.helpers import act, assert_problem, auth, legal, open_table, view
from tests.waiting import wait_until

PASSWORD = "correct horse battery"


def session(client: TestClient[Any], name: str) -> str:
    assert client.post("/accounts", json={"name": name, "password": PASSWORD}).status_code == 201
    response = client.post("/sessions", json={"name": name, "password": PASSWORD})
    client.cookies.clear()
    token: str = response.json()["token"]
    return token


def board(client: TestClient[Any], pool: str) -> list[dict[str, Any]]:
    response = client.get(f"/leaderboard?game=bourre&pool={pool}")
    assert response.status_code == 200, response.text
    found: list[dict[str, Any]] = response.json()
    return found


def test_two_accounts_play_a_hand_and_are_rated(client: TestClient[Any]) -> None:
    tokens = [session(client, "Ann"), session(client, "Bob")]
    table_id = open_table(client, "bourre", {"seats": 2, "hands": 1})
    for token in tokens:
        assert client.post(f"/tables/{table_id}/seats", headers=auth(token)).status_code == 201
    for _ in range(200):
        if view(client, table_id)["status"] == "ended":
            break
        for token in tokens:  # each account acts with its session token, not a seat token
            commands, _ = legal(client, table_id, token)
            if commands:
                act(client, table_id, token, commands[0])
    assert view(client, table_id)["status"] == "ended"

    def rated() -> list[dict[str, Any]]:
        found = board(client, "players")
        return found if len(found) == 2 else []

    lines = wait_until(rated, 30, "the hand was not rated")
    assert {line["name"] for line in lines} == {"Ann", "Bob"}
    assert all(line["hands"] == 1 for line in lines)
    assert lines[0]["ordinal"] >= lines[1]["ordinal"]
    assert set(lines[0]) == {"name", "mu", "sigma", "ordinal", "hands"}
    profile = client.get("/players/ann").json()
    assert profile["name"] == "Ann" and profile["kind"] == "player"
    assert profile["ratings"]["bourre"]["hands"] == 1
    assert {"mu", "sigma", "ordinal", "hands"} <= set(profile["ratings"]["bourre"])
    assert board(client, "bots") == []


def test_bots_are_rated_apart_and_shown_as_bots(client: TestClient[Any]) -> None:
    table_id = open_table(client, "bourre", {"seats": 3, "hands": 2})
    for kind in ("basic", "random", "basic"):
        assert client.post(f"/tables/{table_id}/seats", json={"bot": kind}).status_code == 201

    def rated() -> list[dict[str, Any]]:
        return [line for line in board(client, "bots") if line["hands"] == 2]

    lines = wait_until(rated, 120, "the bots' table was not rated")
    assert len(lines) == 3
    assert board(client, "players") == []
    profile = client.get(f"/players/{lines[0]['name']}").json()
    assert profile["kind"].startswith("bot:") and profile["bot"] is True
    paged = client.get("/leaderboard?game=bourre&pool=bots&limit=2")
    assert len(paged.json()) == 2 and 'rel="next"' in paged.headers["link"]


def test_unknown_players_games_and_pools_are_named(client: TestClient[Any]) -> None:
    assert_problem(client.get("/players/nobody"), 404)
    assert_problem(client.get("/leaderboard?game=chess"), 422)
    assert_problem(client.get("/leaderboard?game=bourre&pool=cats"), 400, field="pool")
