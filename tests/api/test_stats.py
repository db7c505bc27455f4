"""Design §8 player statistics, game totals and hand histories: the read models agree with
the ledgers, names are not identities, and a hand is told only once it has settled."""

from __future__ import annotations

import random
from typing import Any
from uuid import UUID

from litestar.testing import TestClient

from tests.api.helpers import (
    SPADES_SWEEP_DECK,
    act,
    assert_problem,
    head,
    legal,
    open_table,
    sit,
    view,
)
from tests.api.test_feed import bot_moves


def caught_up(client: TestClient[Any]) -> None:
    view_of_any = client.get(f"/tables?after={head(client)}")
    assert view_of_any.status_code == 200, view_of_any.text


def test_a_names_statistics_sum_its_ledgers_over_every_table(client: TestClient[Any]) -> None:
    store = client.app.state.services.store
    rng = random.Random(9)
    tables = []
    for seats, names in [(3, ["Ann", "Bob", "Cid"]), (2, ["Dee", "Ann"])]:
        table = open_table(client, "bourre", {"seats": seats, "hands": 3}, seed=seats)
        sit(client, table, names)
        bot_moves(store, table, 400, rng)
        tables.append(table)
    caught_up(client)
    hands = won = bourres = net = 0
    pots = []
    for table in tables:
        ledger = client.get(f"/tables/{table}/ledger").json()
        seat = next(p["seat"] for p in ledger["players"] if p["name"] == "Ann")
        net += next(p["net"] for p in ledger["players"] if p["name"] == "Ann")
        hands += len(ledger["hands"])
        won += sum(1 for line in ledger["hands"] if line["winner"] == seat)
        bourres += sum(1 for line in ledger["hands"] if seat in line["bourre"])
        pots += [line["pot"] for line in ledger["hands"]]
    answer = client.get("/players/Ann/stats").json()
    assert "not identities" in answer["note"]
    ann = answer["games"]["bourre"]
    assert (ann["hands"], ann["won"], ann["bourres"], ann["chips"]) == (hands, won, bourres, net)
    assert ann["played"] + ann["passed"] >= hands
    totals = client.get("/stats").json()
    assert "not identities" in totals["note"]
    assert totals["games"]["bourre"]["hands"] == len(pots) == 6
    assert totals["games"]["bourre"]["averagePot"] == sum(pots) / len(pots)
    assert set(totals["games"]["bourre"]["bourreRateBySeats"]) == {"2", "3"}


def test_burraco_statistics_follow_the_score_sheet(client: TestClient[Any]) -> None:
    store = client.app.state.services.store
    table = open_table(client, "burraco", {"players": 2}, seed=21)
    sit(client, table, ["Eve", "Fay"])
    bot_moves(store, table, 300, random.Random(4))
    caught_up(client)
    ledger = client.get(f"/tables/{table}/ledger").json()
    eve = client.get("/players/Eve/stats").json()["games"]["burraco"]
    assert eve["hands"] == len(ledger["hands"]) > 0
    assert eve["won"] == sum(1 for line in ledger["hands"] if line["scores"][0] > line["scores"][1])
    totals = client.get("/stats").json()["games"]["burraco"]
    points = [score for line in ledger["hands"] for score in line["scores"]]
    assert totals["averageHandScore"] == sum(points) / len(points)


def test_an_unknown_name_has_no_statistics(client: TestClient[Any]) -> None:
    assert_problem(client.get("/players/Nobody/stats"), 404)


def test_a_hand_is_told_in_order_once_it_has_settled(client: TestClient[Any]) -> None:
    table = open_table(client, "bourre", {"seats": 2}, decks=[SPADES_SWEEP_DECK])
    tokens = sit(client, table, ["Ann", "Bob"])
    ann, bob = tokens[0], tokens[1]
    assert_problem(client.get(f"/tables/{table}/hands/1/history"), 409, field="n")
    assert_problem(client.get(f"/tables/{table}/hands/2/history"), 404)
    act(client, table, bob, {"type": "declare", "play": True, "discard": []})
    act(client, table, ann, {"type": "declare", "play": True, "discard": []})
    for lead in ["AS", "KS", "QS", "JS", "10S"]:  # Bob's spades take every trick
        act(client, table, bob, {"type": "play_card", "card": lead})
        moves, _ = legal(client, table, ann)
        act(client, table, ann, moves[0])
    view(client, table)
    history = client.get(f"/tables/{table}/hands/1/history").json()
    assert history["text"].startswith(
        "Ann and Bob ante 1 · Ann deals; 2♠ turned, trump ♠ · Bob declares play · "
        "Bob discards 0, draws 0 · Ann declares play · Ann discards 0, draws 0 · Bob leads A♠ · "
        "Ann plays "
    )
    assert "Bob wins trick 1 with A♠" in history["text"]
    assert history["text"].endswith("Bob takes 2 of the pot of 2; Ann bourré, paying 2")
    assert len(history["lines"]) == len(history["events"])
    assert [p["name"] for p in history["players"]] == ["Ann", "Bob"]


def test_a_game_without_a_renderer_is_told_plainly() -> None:
    from infra.history import tell

    lines = tell("solitaire", ["Ann", "Bob"], [{"type": "Dealt"}, {"type": "Shown", "seat": 1}])
    assert lines == ["Dealt", "Bob: Shown"]


def test_a_seated_table_with_no_settled_hand_adds_no_hands(client: TestClient[Any]) -> None:
    table = open_table(client, "bourre", {"seats": 2}, seed=3)
    sit(client, table, ["Gil", "Hal"])
    caught_up(client)
    gil = client.get("/players/Gil/stats").json()["games"]["bourre"]
    assert gil["hands"] == 0 and gil["chips"] == -1  # the ante of hand 1 is paid
    assert client.app.state.services.store.get(UUID(table)).version > 3
