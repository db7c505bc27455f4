"""Black-box conformance to design §5 (2/2): the visibility paragraph (own cards, partners,
spectators, ``reveal``, ``spectator_delay``), both ledgers, the Burraco command types, the lobby,
``/schema``, ``/health`` and the live stream. Requests and JSON only (`contract_client.py`).
"""

from __future__ import annotations

import json
import re
from typing import Any

import httpx

from tests.api.contract_client import (
    ANN,
    BOB,
    DECLARE,
    PACK,
    TableClient,
    accepted,
    bearer,
    cards_in,
    command,
    create,
    created,
    get,
    heads_up,
    problem,
    seat,
    settle_first_hand,
)

# --- visibility options --------------------------------------------------------------------


def first_deal(client: Any, table: str, token: str | None = None) -> dict[str, Any]:
    events = get(client, f"/tables/{table}/timeline", token)
    deal: dict[str, Any] = next(e for e in events if e["type"] == "Dealt" and e["hand"] == 1)
    return deal


def test_reveal_after_hand_shows_a_settled_hand_and_never_does_not(client: TableClient) -> None:
    revealed, ann, bob = heads_up(client)
    assert cards_in(first_deal(client, revealed)) <= {"2S"}  # live: the face-up trump only
    settle_first_hand(client, revealed, ann, bob)
    assert set(ANN) | set(BOB) <= cards_in(first_deal(client, revealed))
    hidden, ann, bob = heads_up(client, reveal="never")
    settle_first_hand(client, hidden, ann, bob)
    assert cards_in(first_deal(client, hidden)) <= {"2S"}
    assert cards_in(first_deal(client, hidden, ann)) == set(ANN)  # a seat keeps its own


def test_spectator_delay_holds_spectators_behind_live(client: TableClient) -> None:
    table, _, bob = heads_up(client, spectator_delay=2)
    position = accepted(client, table, bob, DECLARE)["position"]
    seat_events = get(client, f"/tables/{table}/timeline", bob)
    watched = get(client, f"/tables/{table}/timeline")
    assert len(watched) == len(seat_events) - 2
    assert get(client, f"/tables/{table}?after={position}")["version"] == len(seat_events) - 2


def test_burraco_partners_do_not_see_each_others_hands(client: TableClient) -> None:
    table = create(client, {"game": "burraco", "options": {"players": 4}, "seed": 11})
    tokens = {}
    for name in ["Ann", "Bob", "Cid", "Dee"]:
        answer = seat(client, table, name)
        tokens[answer["seat"]] = answer["token"]
    now = f"/tables/{table}?after={answer['position']}"  # read your writes: the deal is seen
    spectator = cards_in(get(client, now))
    for s in range(4):
        private = cards_in(get(client, now, tokens[s])) - spectator
        # 11 cards of one's own (fewer distinct codes: the two packs repeat), never the
        # partner's 11 as well.
        assert 5 <= len(private) <= 11, (s, private)
    assert len(spectator) <= 2  # the first discard (and nothing private)


# --- ledgers ---------------------------------------------------------------------------------


def test_the_bourre_ledger_has_the_designs_shape(client: TableClient) -> None:
    table, ann, bob = heads_up(client)
    position = settle_first_hand(client, table, ann, bob)
    ledger = get(client, f"/tables/{table}/ledger?after={position}")
    assert set(ledger) == {"pot", "players", "hands"}
    assert [set(p) for p in ledger["players"]] == [{"seat", "name", "net"}] * 2
    # Both anted 1; Bob took the pot of 2; Ann, bourré, paid 2 into hand 2's pot, where only
    # Bob anted again (rule 6).
    assert {p["name"]: p["net"] for p in ledger["players"]} == {"Ann": -3, "Bob": 0}
    assert ledger["pot"] == 3
    hand = ledger["hands"][0]
    assert set(hand) == {"hand", "pot", "winner", "bourre", "tied"}
    assert hand == {"hand": 1, "pot": 2, "winner": 1, "bourre": [0], "tied": []}
    assert sum(p["net"] for p in ledger["players"]) + ledger["pot"] == 0


def test_the_burraco_ledger_has_the_designs_shape(client: TableClient) -> None:
    table = create(client, {"game": "burraco", "options": {"players": 2}, "seed": 2})
    seat(client, table, "Ann")
    seat(client, table, "Bob")
    ledger = get(client, f"/tables/{table}/ledger")
    assert set(ledger) == {"teams", "hands", "winner"}
    assert all(set(team) == {"team", "total"} for team in ledger["teams"])
    assert len(ledger["teams"]) == 2 and ledger["hands"] == [] and ledger["winner"] is None


# --- Burraco command types ---------------------------------------------------------------------


def burraco_deck() -> list[str]:
    """Burraco rule 6, two players, dealer 0: the first 22 cards alternate seat 1 / seat 0, the
    next 22 pozzetto 0 / pozzetto 1, then the first discard, then the stock (two packs and four
    jokers, 108 cards). Seat 1 holds a heart run to build on; the stock's top card is 10H."""
    bob = ["3H", "4H", "5H", "6H", "7H", "8H", "9H", "KC", "KD", "KS", "QC"]
    pack = PACK * 2 + ["JK"] * 4
    for code in [*bob, "10H"]:
        pack.remove(code)
    plain = [code for code in pack if code != "JK" and not code.startswith("2")]
    ann, pozzetti, first_discard = plain[:11], plain[11:33], plain[33]
    deck = [code for pair in zip(bob, ann, strict=True) for code in pair]
    deck += [*pozzetti, first_discard, "10H"]
    for code in [*ann, *pozzetti, first_discard]:
        pack.remove(code)
    return deck + pack


def test_burraco_command_types_are_named_as_the_design_says(client: TableClient) -> None:
    deck = burraco_deck()
    assert len(deck) == 108
    table = create(client, {"game": "burraco", "options": {"players": 2}, "decks": [deck]})
    ann = seat(client, table, "Ann")["token"]
    bob = seat(client, table, "Bob")["token"]
    assert {move["type"] for move in get(client, f"/tables/{table}/legal", bob)} == {
        "draw",
        "take_pile",
    }
    drawn = accepted(client, table, bob, {"type": "draw"})
    assert "10H" in cards_in(drawn["events"])
    moves = get(client, f"/tables/{table}/legal", bob)
    assert {"meld", "discard"} <= {move["type"] for move in moves}
    assert all({"type", "cards"} <= set(m) for m in moves if m["type"] == "meld")
    assert all({"type", "card"} <= set(m) for m in moves if m["type"] == "discard")
    melded = accepted(client, table, bob, {"type": "meld", "cards": ["3H", "4H", "5H"]})
    meld = next(e["meld"] for e in melded["events"] if e["type"] == "Melded")
    extend = {"type": "add_to_meld", "meld": meld, "cards": ["6H"]}
    assert extend in [
        {k: m[k] for k in ("type", "meld", "cards") if k in m}
        for m in get(client, f"/tables/{table}/legal", bob)
    ]
    assert "MeldExtended" in {e["type"] for e in accepted(client, table, bob, extend)["events"]}
    accepted(client, table, bob, {"type": "discard", "card": "QC"})
    taken = accepted(client, table, ann, {"type": "take_pile"})
    assert "PileTaken" in {e["type"] for e in taken["events"]}
    refused = command(client, table, ann, {"type": "add_to_meld", "meld": meld, "cards": ["QC"]})
    assert problem(refused, 422)  # not team A's meld, nor a card that extends it


# --- lobby, schema, health -------------------------------------------------------------------


def test_the_lobby_lists_open_tables(client: TableClient) -> None:
    answer = created(client, {"game": "bourre", "options": {"seats": 4}, "seed": 1})
    listed = get(client, f"/tables?after={answer['position']}")
    assert answer["tableId"] in {entry["tableId"] for entry in listed}
    assert problem(client.get(f"/tables?after={answer['position'] + 10**6}"), 422)


def test_schema_is_openapi_naming_every_route(client: TableClient) -> None:
    schema = client.get("/schema").json()
    assert str(schema["openapi"]).startswith("3.")
    paths = set(schema["paths"])
    for route in ["/tables", "/tables/{id}/seats", "/tables/{id}/commands", "/tables/{id}"]:
        assert re.sub(r"\{id\}", "{table_id}", route) in paths or route in paths, paths
    assert "/health" in paths


def test_health_reports_liveness_store_and_redis(client: TableClient) -> None:
    health = get(client, "/health")
    text = json.dumps(health).lower()
    assert "store" in text and "redis" in text


# --- SSE -------------------------------------------------------------------------------------


def data_of(stream: httpx.Response, count: int) -> list[dict[str, Any]]:
    """The next ``count`` SSE messages' JSON data."""
    seen: list[dict[str, Any]] = []
    for line in stream.iter_lines():
        if line.startswith("data:"):
            seen.append(json.loads(line[5:]))
            if len(seen) == count:
                break
    return seen


def test_the_stream_is_live_server_sent_events_redacted_per_caller(live_url: str) -> None:
    with httpx.Client(base_url=live_url, timeout=10) as http:
        table, ann, bob = heads_up(http)
        path = f"/tables/{table}/stream"
        with (
            http.stream("GET", path, headers=bearer(bob)) as bobs,
            http.stream("GET", path, headers=bearer(ann)) as anns,
            http.stream("GET", path) as spectators,
        ):
            for stream in (bobs, anns, spectators):
                assert stream.status_code == 200
                assert stream.headers["content-type"].startswith("text/event-stream")
            discard = {"type": "declare", "play": True, "discard": ["10S", "JS"]}
            accepted(http, table, bob, discard)
            seen = {"bob": data_of(bobs, 2), "ann": data_of(anns, 2), "all": data_of(spectators, 2)}
    for events in seen.values():
        assert [e["type"] for e in events] == ["Declared", "Discarded"]
    assert {"10S", "JS"} <= cards_in(seen["bob"])  # his own discards and replacements
    assert not cards_in(seen["ann"]) and not cards_in(seen["all"])
