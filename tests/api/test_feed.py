"""Design §8 public event feed: every table's events in log order as spectators see them,
NDJSON paged by position, filters, bad input, and no hidden card of a hand in play."""

from __future__ import annotations

import json
import random
import re
from typing import Any
from uuid import UUID

import httpx
from litestar.testing import TestClient

from infra.feed import MAX_LIMIT
from infra.store import TableStore
from tests.api.helpers import assert_problem, open_table, sit
from tests.api.test_leaks import known_cards
from tests.documents import card_codes

NDJSON = "application/x-ndjson"


def lines(response: Any) -> list[dict[str, Any]]:
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith(NDJSON)
    return [json.loads(line) for line in response.text.splitlines()]


def next_after(response: Any) -> int:
    found = re.search(r"after=(\d+)", response.headers["link"])
    assert found and 'rel="next"' in response.headers["link"]
    return int(found.group(1))


def read_feed(client: TestClient[Any], query: str = "", limit: int = 50) -> list[dict[str, Any]]:
    """The whole feed, page by page, following ``Link: rel="next"``."""
    events: list[dict[str, Any]] = []
    after = 0
    while True:
        response = client.get(f"/events?after={after}&limit={limit}{query}")
        page = lines(response)
        events += page
        after = next_after(response)
        if not page:
            return events


def bot_moves(store: TableStore, table: str, count: int, rng: random.Random) -> None:
    """Random legal commands at ``table`` (stops when it waits for nobody)."""
    for _ in range(count):
        loaded = store.get(UUID(table))
        waiting = sorted(loaded.game.to_act(loaded.state))
        if not waiting:
            return
        seat = rng.choice(waiting)
        store.execute(UUID(table), rng.choice(loaded.game.legal_commands(loaded.state, seat)))


def test_the_feed_holds_every_stored_event_in_log_order(client: TestClient[Any]) -> None:
    store = client.app.state.services.store
    bourre = open_table(client, "bourre", {"seats": 3}, seed=7)
    sit(client, bourre, ["Ann", "Bob", "Cid"])
    burraco = open_table(client, "burraco", {"players": 2}, seed=8)
    sit(client, burraco, ["Dee", "Eve"])
    rng = random.Random(3)
    bot_moves(store, bourre, 40, rng)
    bot_moves(store, burraco, 40, rng)
    events = read_feed(client, limit=17)
    stored = store.notifications(1, 100_000)
    assert [e["position"] for e in events] == [n.position for n in stored]
    assert [(e["tableId"], e["version"]) for e in events] == [
        (str(n.table_id), n.version) for n in stored
    ]
    first = events[0]
    assert list(first)[:6] == ["position", "tableId", "game", "version", "type", "at"]
    assert "seed" not in first and all("tokenHash" not in e for e in events)


def test_filters_select_a_game_a_type_and_a_table(client: TestClient[Any]) -> None:
    bourre = open_table(client, "bourre", {"seats": 2}, seed=1)
    sit(client, bourre, ["Ann", "Bob"])
    burraco = open_table(client, "burraco", {"players": 2}, seed=2)
    sit(client, burraco, ["Cid", "Dee"])
    assert {e["game"] for e in read_feed(client, "&game=burraco")} == {"burraco"}
    seated = read_feed(client, "&type=PlayerSeated")
    assert [e["name"] for e in seated] == ["Ann", "Bob", "Cid", "Dee"]
    assert {e["tableId"] for e in read_feed(client, f"&tableId={bourre}")} == {bourre}


def test_bad_feed_queries_are_malformed_requests_naming_the_parameter(
    client: TestClient[Any],
) -> None:
    for query, parameter in [
        ("colour=red", "colour"),
        ("game=poker", "game"),
        ("type=Exploded", "type"),
        ("game=burraco&type=TrickWon", "type"),  # Bourré's event, not Burraco's
        ("tableId=nope", "tableId"),
        ("after=-1", "after"),
        ("limit=0", "limit"),
        ("follow=maybe", "follow"),
    ]:
        response = client.get(f"/events?{query}")
        assert_problem(response, 400, field=parameter)


def test_limit_is_capped(client: TestClient[Any]) -> None:
    table = open_table(client, "bourre", {"seats": 2}, seed=1)
    sit(client, table, ["Ann", "Bob"])
    response = client.get("/events?limit=1000000")
    assert len(lines(response)) <= MAX_LIMIT
    assert f"limit={MAX_LIMIT}" in response.headers["link"]


def test_spectator_delay_holds_the_feed_before_events_spectators_may_not_see(
    client: TestClient[Any],
) -> None:
    table = open_table(client, "bourre", {"seats": 2, "spectator_delay": 3}, seed=4)
    sit(client, table, ["Ann", "Bob"])
    store = client.app.state.services.store
    head = store.get(UUID(table)).version
    events = read_feed(client)
    assert [e["version"] for e in events] == list(range(1, head - 3 + 1))
    timeline = client.get(f"/tables/{table}/timeline").json()
    assert [e["version"] for e in events] == [e["version"] for e in timeline]


def test_the_timeline_answers_ndjson_when_asked(client: TestClient[Any]) -> None:
    table = open_table(client, "bourre", {"seats": 2}, seed=4)
    sit(client, table, ["Ann", "Bob"])
    as_json = client.get(f"/tables/{table}/timeline").json()
    response = client.get(f"/tables/{table}/timeline", headers={"Accept": NDJSON})
    assert lines(response) == as_json


def test_the_feed_never_shows_a_hidden_card_of_a_hand_in_play(client: TestClient[Any]) -> None:
    """Random bots play both games; after every few commands the whole feed is read and each
    hand still in play (by the store's truth at that moment) is scanned for card codes a
    spectator may not know."""
    store = client.app.state.services.store
    tables = []
    setups: list[tuple[str, dict[str, Any], int]] = [
        ("bourre", {"seats": 4}, 11),
        ("bourre", {"seats": 3, "declaration": "simultaneous"}, 12),
        ("burraco", {"players": 4}, 13),
    ]
    for game, options, seed in setups:
        table = open_table(client, game, options, seed=seed)
        sit(client, table, ["Ann", "Bob", "Cid", "Dee"][: options.get("seats", 4)])
        tables.append(table)
    rng = random.Random(5)
    scanned = revealed = 0
    for _ in range(25):
        for table in tables:
            bot_moves(store, table, 6, rng)
        feed = read_feed(client, limit=MAX_LIMIT)
        for table in tables:
            truth = [r.event for r in store.events(UUID(table))]
            mine = [e for e in feed if e["tableId"] == table]
            for hand in {e["hand"] for e in mine if e.get("hand")}:
                deck, known, settled = known_cards(truth, hand, None)
                shown = card_codes([e for e in mine if e.get("hand") == hand])
                if settled:
                    revealed += bool(shown & (deck - known))
                    continue
                assert not shown & (deck - known), f"hand {hand} of {table} leaks"
                scanned += 1
    assert scanned > 50
    assert revealed > 0  # settled hands do show their cards: the scan looks at real cards


def test_follow_streams_new_events_as_they_are_stored(live_url: str) -> None:
    with httpx.Client(base_url=live_url, timeout=10) as http:
        body = {"game": "bourre", "options": {"seats": 2}, "seed": 9}
        table = http.post("/tables", json=body).json()["tableId"]
        http.post(f"/tables/{table}/seats", json={"name": "Ann"})
        with http.stream("GET", "/events?follow=true&limit=2") as response:
            assert response.headers["content-type"].startswith(NDJSON)
            seen = []
            for line in response.iter_lines():
                seen.append(json.loads(line))
                if len(seen) == 2:  # then a new event is stored while the stream is open
                    http.post(f"/tables/{table}/seats", json={"name": "Bob"})
                if any(e.get("name") == "Bob" for e in seen):
                    break
    assert [e["position"] for e in seen] == list(range(1, len(seen) + 1))
    assert [e["name"] for e in seen if e["type"] == "PlayerSeated"] == ["Ann", "Bob"]


def test_a_table_that_never_reveals_keeps_settled_hands_hidden_in_the_feed(
    client: TestClient[Any],
) -> None:
    store = client.app.state.services.store
    table = open_table(client, "bourre", {"seats": 2, "reveal": "never", "hands": 2}, seed=6)
    sit(client, table, ["Ann", "Bob"])
    bot_moves(store, table, 500, random.Random(8))
    truth = [r.event for r in store.events(UUID(table))]
    feed = read_feed(client, f"&tableId={table}", limit=MAX_LIMIT)
    hands = {e["hand"] for e in feed if e.get("hand")}
    assert hands == {1, 2}
    for hand in hands:
        deck, known, settled = known_cards(truth, hand, None)
        assert settled
        assert not card_codes([e for e in feed if e.get("hand") == hand]) & (deck - known)


def idle_delayed_beside_busy(client: Any, store: TableStore) -> tuple[str, str, str]:
    """A 2-seat table with ``spectator_delay: 1`` left idle after seating (opened first, so its
    held event comes early in the log), a busy table without delay and a busy one with
    ``spectator_delay: 2`` played after it."""
    idle = open_table(client, "bourre", {"seats": 2, "spectator_delay": 1}, seed=21)
    sit(client, idle, ["Ann", "Bob"])
    busy = open_table(client, "bourre", {"seats": 3}, seed=22)
    sit(client, busy, ["Cid", "Dee", "Eve"])
    delayed = open_table(client, "burraco", {"players": 2, "spectator_delay": 2}, seed=23)
    sit(client, delayed, ["Fay", "Gus"])
    rng = random.Random(24)
    for _ in range(6):
        bot_moves(store, busy, 5, rng)
        bot_moves(store, delayed, 5, rng)
    return idle, busy, delayed


def visible_to_spectators(store: TableStore, delays: dict[str, int]) -> list[tuple[str, int]]:
    """(table, version) of every stored event spectators may see now: all but each table's
    last ``spectator_delay`` events."""
    heads: dict[str, int] = {}
    stored = store.notifications(1, 100_000)
    for note in stored:
        heads[str(note.table_id)] = note.version
    return sorted(
        (str(n.table_id), n.version)
        for n in stored
        if n.version <= heads[str(n.table_id)] - delays.get(str(n.table_id), 0)
    )


def test_an_idle_delayed_table_holds_back_its_own_events_only(client: TestClient[Any]) -> None:
    store = client.app.state.services.store
    idle, busy, delayed = idle_delayed_beside_busy(client, store)
    delays = {idle: 1, delayed: 2}
    events = read_feed(client, limit=7)
    seen = sorted((e["tableId"], e["version"]) for e in events)
    assert seen == visible_to_spectators(store, delays)  # every visible event, each once
    releases = [e["release"] for e in events]
    assert releases == sorted(set(releases))  # one cursor, strictly rising
    assert all(e["release"] >= e["position"] for e in events)
    assert all(e["release"] == e["position"] for e in events if e["tableId"] == busy)
    for table in (busy, delayed):  # another table's filter is not held by the idle one
        mine = read_feed(client, f"&tableId={table}", limit=5)
        assert [(e["tableId"], e["version"]) for e in mine] == [
            pair for pair in visible_to_spectators(store, delays) if pair[0] == table
        ]


def test_an_event_that_becomes_visible_later_comes_after_the_cursor_once(
    client: TestClient[Any],
) -> None:
    store = client.app.state.services.store
    idle, _, _ = idle_delayed_beside_busy(client, store)
    before = read_feed(client, limit=9)
    response = client.get("/events?after=0&limit=1000")
    cursor = next_after(response)
    held = store.get(UUID(idle)).version  # the idle table's last event, held back so far
    assert (idle, held) not in {(e["tableId"], e["version"]) for e in before}
    bot_moves(store, idle, 1, random.Random(25))  # it moves: its held event is released
    later = read_feed_from(client, cursor)
    assert [(e["tableId"], e["version"]) for e in later] == [(idle, held)]
    assert later[0]["position"] < cursor < later[0]["release"]


def read_feed_from(client: TestClient[Any], after: int) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    while True:
        response = client.get(f"/events?after={after}&limit=50")
        page = lines(response)
        events += page
        after = next_after(response)
        if not page:
            return events


def test_follow_is_not_held_by_an_idle_delayed_table(live_url: str) -> None:
    with httpx.Client(base_url=live_url, timeout=10) as http:
        idle = http.post(
            "/tables",
            json={"game": "bourre", "options": {"seats": 2, "spectator_delay": 1}, "seed": 31},
        ).json()["tableId"]
        for name in ("Ann", "Bob"):
            http.post(f"/tables/{idle}/seats", json={"name": name})
        busy = http.post(
            "/tables", json={"game": "bourre", "options": {"seats": 2}, "seed": 32}
        ).json()["tableId"]
        http.post(f"/tables/{busy}/seats", json={"name": "Cid"})
        with http.stream("GET", f"/events?follow=true&limit=2&tableId={busy}") as filtered:
            first = json.loads(next(filtered.iter_lines()))
        assert (first["tableId"], first["version"]) == (busy, 1)
        with http.stream("GET", "/events?follow=true&limit=2") as response:
            seen = []
            for line in response.iter_lines():
                seen.append(json.loads(line))
                if len(seen) == 3:  # then a new event is stored while the stream is open
                    http.post(f"/tables/{busy}/seats", json={"name": "Dee"})
                if any(e.get("name") == "Dee" for e in seen):
                    break
        timeline = http.get(f"/tables/{idle}/timeline").json()  # as spectators see it
    assert [e["version"] for e in seen if e["tableId"] == idle] == [e["version"] for e in timeline]
    assert [e["name"] for e in seen if e["tableId"] == busy and e.get("name")] == ["Cid", "Dee"]
