"""High card's ``House`` (tests/highcard/house.py) through the real service: a bot that plays
its highest card, a ledger, a lobby line, statistics, a hand history and export rows — each
found through its registered entry alone, with no line of the house changed for it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from infra.export import export
from infra.settings import Settings
from infra.store import TableStore
from tests.api.helpers import act, head, legal, open_table, view
from tests.waiting import wait_until

pytestmark = pytest.mark.integration


def play_out(client: TestClient[Any], table_id: str, token: str) -> dict[str, Any]:
    """Ann plays her first legal card whenever it is her turn; the bots do the rest."""

    def next_turn() -> list[dict[str, Any]] | dict[str, Any] | None:
        latest = view(client, table_id, token)
        if latest["status"] == "ended":
            return latest
        commands, _ = legal(client, table_id, token)
        return commands or None

    for _ in range(20):
        found = wait_until(next_turn, 30, "neither Ann's turn nor the end came")
        if isinstance(found, dict):
            return found
        assert found is not None  # wait_until returns what is not None
        act(client, table_id, token, found[0])
    raise AssertionError("the table did not end")


def test_high_card_shows_its_own_ledger_lobby_line_statistics_history_and_bots(
    client: TestClient[Any], settings: Settings, tmp_path: Path
) -> None:
    assert client.get("/bots").json()["highcard"] == {
        "random": "Plays any legal command at random.",
        "high": "Plays its highest card.",
    }
    table_id = open_table(client, "highcard", {"seats": 3, "hands": 2}, seed=11)
    ann = client.post(f"/tables/{table_id}/seats", json={"name": "Ann", "seat": 0}).json()
    waiting = client.get(f"/tables?game=highcard&after={head(client)}").json()
    assert [line["handsToPlay"] for line in waiting if line["tableId"] == table_id] == [2]
    for kind in ("high", "random"):
        assert client.post(f"/tables/{table_id}/seats", json={"bot": kind}).status_code == 201

    final = play_out(client, table_id, ann["token"])
    after = head(client)
    wins = [seat["wins"] for seat in final["seats"]]
    assert sum(wins) == 2

    ledger = client.get(f"/tables/{table_id}/ledger?after={after}").json()
    assert ledger["hands"] == 2
    assert [(p["seat"], p["wins"]) for p in ledger["players"]] == list(enumerate(wins))
    ended = client.get(f"/tables?status=ended&game=highcard&after={after}").json()
    assert [line["handsToPlay"] for line in ended if line["tableId"] == table_id] == [2]

    history = client.get(f"/tables/{table_id}/hands/1/history?after={after}").json()
    assert history["lines"][0].endswith(" deals")
    assert sum(" plays " in line for line in history["lines"]) == 3  # rule 2: a card a seat
    assert " wins with " in history["lines"][-1]

    stats = client.get(f"/stats?after={after}").json()["games"]["highcard"]
    assert (stats["hands"], stats["cardsPerHand"]) == (2, 3.0)
    ann_stats = client.get(f"/players/Ann/stats?after={after}").json()["games"]["highcard"]
    assert ann_stats == {"hands": 2, "won": wins[0]}

    with TableStore(settings) as store:
        export(store, tmp_path / "out", "ndjson", game="highcard")
    hands, results = (
        [json.loads(line) for line in (tmp_path / "out" / dataset / "game=highcard" / "data.ndjson")
         .read_text().splitlines()]
        for dataset in ("hands", "results")
    )  # fmt: skip
    mine = [row for row in hands if row["table_id"] == table_id]
    assert [row["hand"] for row in mine] == [1, 2]
    seats = [row for row in results if row["table_id"] == table_id]
    for row in mine:
        won = [r["seat"] for r in seats if r["hand"] == row["hand"] and r["won"]]
        assert row["winners"] == won and len(won) == 1
    assert [sum(r["won"] for r in seats if r["seat"] == seat) for seat in range(3)] == wins
