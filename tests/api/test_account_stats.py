"""Statistics follow accounts, not typed names (design §2.2): ``GET /players/{name}/stats`` of
an account's name sums the seats the account took signed in — under each name it has had — and
not the seats someone took by typing that name before the account existed."""

from __future__ import annotations

import random
from typing import Any

import redis
from litestar.testing import TestClient

from api.ratings import RECENT_TABLES
from projections.reader import ReadModels
from projections.runner import Projector
from tests.api.helpers import assert_problem, auth, open_table, sit
from tests.api.test_accounts import register, sign_in
from tests.api.test_feed import bot_moves
from tests.api.test_stats import caught_up


def ledger_hands(client: TestClient[Any], table: str) -> int:
    return len(client.get(f"/tables/{table}/ledger").json()["hands"])


def test_an_accounts_statistics_are_its_own_seats(client: TestClient[Any]) -> None:
    store = client.app.state.services.store
    typed = open_table(client, "bourre", {"seats": 2, "hands": 2}, seed=3)
    sit(client, typed, ["Ann", "Bob"])  # typed, before any account holds the name
    bot_moves(store, typed, 300, random.Random(1))
    caught_up(client)
    assert client.get("/players/Ann/stats").json()["games"]["bourre"]["hands"] > 0
    assert register(client, "Ann").status_code == 201
    token = sign_in(client, "Ann")
    client.cookies.clear()
    assert_problem(client.get("/players/Ann/stats"), 404)  # the typed seats are not Ann's
    mine = open_table(client, "bourre", {"seats": 2, "hands": 3}, seed=4)
    assert client.post(f"/tables/{mine}/seats", headers=auth(token)).status_code == 201
    sit(client, mine, ["Cid"])
    bot_moves(store, mine, 300, random.Random(2))
    caught_up(client)
    answer = client.get("/players/ann/stats").json()  # any spelling of the name: the account
    assert answer["name"] == "Ann" and answer["account"] is True
    assert "signed in" in answer["note"]
    assert answer["games"]["bourre"]["hands"] == ledger_hands(client, mine) > 0
    cid = client.get("/players/Cid/stats").json()  # a typed name keeps the names' answer
    assert "not identities" in cid["note"] and "account" not in cid
    assert cid["games"]["bourre"]["hands"] == ledger_hands(client, mine)


def test_a_claimed_guests_seats_stay_its_statistics(client: TestClient[Any]) -> None:
    store = client.app.state.services.store
    assert client.post("/guests").status_code == 201
    table = open_table(client, "bourre", {"seats": 2, "hands": 2}, seed=5)
    assert client.post(f"/tables/{table}/seats", json={}).status_code == 201
    claimed = client.post("/me/claim", json={"name": "Gil", "password": "correct horse battery"})
    assert claimed.status_code == 200, claimed.text
    client.cookies.clear()
    sit(client, table, ["Hal"])
    bot_moves(store, table, 300, random.Random(3))
    caught_up(client)
    gil = client.get("/players/Gil/stats").json()
    assert gil["name"] == "Gil"
    assert gil["games"]["bourre"]["hands"] == ledger_hands(client, table) > 0


def test_a_profile_lists_its_recent_tables_newest_first(client: TestClient[Any]) -> None:
    store = client.app.state.services.store
    assert register(client, "Ivy").status_code == 201
    token = sign_in(client, "Ivy")
    client.cookies.clear()
    played = open_table(client, "bourre", {"seats": 2, "hands": 1}, seed=6)
    typed = open_table(client, "bourre", {"seats": 2}, seed=7)  # someone else's table
    sit(client, typed, ["Jo", "Kit"])
    tables = [played]
    assert client.post(f"/tables/{played}/seats", headers=auth(token)).status_code == 201
    sit(client, played, ["Lu"])
    bot_moves(store, played, 300, random.Random(5))
    for _ in range(RECENT_TABLES + 1):
        table = open_table(client, "burraco", {"players": 2})
        assert client.post(f"/tables/{table}/seats", headers=auth(token)).status_code == 201
        tables.append(table)
    caught_up(client)
    found = client.get("/players/Ivy").json()["recentTables"]
    assert [line["tableId"] for line in found] == tables[::-1][:RECENT_TABLES]
    assert found[0] == {
        "tableId": tables[-1], "game": "burraco", "status": "waiting", "hand": 0,
        "players": ["Ivy", None],
        "links": {"table": f"/tables/{tables[-1]}", "watch": f"/watch/{tables[-1]}"},
    }  # fmt: skip
    everything = client.get("/players/Ivy").json()["recentTables"]
    assert typed not in [line["tableId"] for line in everything]
    first = open_table(client, "bourre", {"seats": 2})
    assert client.post(f"/tables/{first}/seats", headers=auth(token)).status_code == 201
    caught_up(client)
    assert client.get("/players/Ivy").json()["recentTables"][0]["tableId"] == first


def test_the_played_table_is_listed_ended(client: TestClient[Any]) -> None:
    store = client.app.state.services.store
    assert register(client, "Uma").status_code == 201
    token = sign_in(client, "Uma")
    client.cookies.clear()
    table = open_table(client, "bourre", {"seats": 2, "hands": 1}, seed=8)
    assert client.post(f"/tables/{table}/seats", headers=auth(token)).status_code == 201
    sit(client, table, ["Vic"])
    bot_moves(store, table, 300, random.Random(6))
    caught_up(client)
    (line,) = client.get("/players/Uma").json()["recentTables"]
    assert (line["tableId"], line["game"], line["status"]) == (table, "bourre", "ended")
    assert line["players"] == ["Uma", "Vic"] and line["hand"] >= 1


def test_a_projection_in_small_batches_counts_the_same(
    client: TestClient[Any], redis_url: str, redis_prefix: str
) -> None:
    store = client.app.state.services.store
    assert register(client, "Wes").status_code == 201
    token = sign_in(client, "Wes")
    client.cookies.clear()
    for seed in (9, 10):
        table = open_table(client, "bourre", {"seats": 3, "hands": 2}, seed=seed)
        assert client.post(f"/tables/{table}/seats", headers=auth(token)).status_code == 201
        sit(client, table, ["Xan", "Yul"])
        bot_moves(store, table, 400, random.Random(seed))
    caught_up(client)
    live = client.app.state.services.read_models.accounts
    connection = redis.Redis.from_url(redis_url)
    try:
        prefix = f"{redis_prefix}again:"
        projector = Projector(store, connection, prefix)
        while projector.position() < store.max_position():
            projector.run_once(7)
        again = ReadModels(connection, prefix).accounts
        assert again.read(["Wes"]) == live.read(["Wes"]) is not None
        assert again.recent_tables(["Wes"], 10) == live.recent_tables(["Wes"], 10)
        assert again.read(["Xan"]) is None  # a typed name is nobody's account
    finally:
        for key in connection.scan_iter(match=f"{prefix}*"):
            connection.delete(key)
        connection.close()
