"""Black-box conformance to design §5: a client written from the design text alone.

Every row of the §5 table, the command types and bodies exactly as named, the error classes as
problem-details bodies, ``Idempotency-Key``, ``expectedVersion``, ``?after=``, timelines, replays,
both ledgers, the lobby, ``/schema``, ``/health``, the live stream and the visibility paragraph.
Nothing here imports the server's modules: requests and JSON only (cards are written as codes).
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

import httpx
from litestar.testing import TestClient

TableClient = TestClient[Any]
PROBLEM = "application/problem+json"
CAMEL = re.compile(r"^[a-z][a-zA-Z0-9]*$")
CODE = re.compile(r"^(10|[2-9AKQJ])[SHDC]$|^JK$")
RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
PACK = [rank + suit for suit in "SHDC" for rank in RANKS]

# Bourré, two seats, dealer 0 (rule 10): card k goes to seat (1 + k) mod 2, the dealer's last
# card (2S) is face up and trump. Seat 1 holds the top spades and takes all five tricks.
BOB = ["AS", "KS", "QS", "JS", "10S"]
ANN = ["2H", "3H", "4H", "5H", "2S"]
DECK = [card for pair in zip(BOB, ANN, strict=True) for card in pair]
DECK += [card for card in PACK if card not in DECK]
DECLARE = {"type": "declare", "play": True, "discard": []}


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def problem(response: Any, status: int) -> dict[str, Any]:
    """A problem-details body (RFC 9457) with a message a person can act on."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM), response.headers
    body: dict[str, Any] = response.json()
    assert body["status"] == status and body["title"] and body["detail"], body
    return body


def camel_keys(document: Any) -> set[str]:
    """Every object key in a JSON document that is not camelCase. Card codes and seat numbers
    used as keys are data, and so are the table options: their keys are the rule specs' option
    names (``spectator_delay``), echoed as the client sent them."""
    bad: set[str] = set()
    stack = [document]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(value for key, value in item.items() if key != "options")
            bad.update(k for k in item if not (CAMEL.match(k) or CODE.match(k) or k.isdigit()))
        elif isinstance(item, list):
            stack.extend(item)
    return bad


def cards_in(document: Any) -> set[str]:
    found: set[str] = set()
    stack = [document]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
            found.update(k for k in item if CODE.match(k))
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and CODE.match(item):
            found.add(item)
    return found


def create(client: Any, body: dict[str, Any]) -> str:
    return str(created(client, body)["tableId"])


def created(client: Any, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/tables", json=body)
    assert response.status_code in (200, 201), response.text
    answer: dict[str, Any] = response.json()
    assert isinstance(answer["tableId"], str) and not camel_keys(answer)
    return answer


def seat(client: Any, table: str, name: str, chosen: int | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"name": name} if chosen is None else {"name": name, "seat": chosen}
    response = client.post(f"/tables/{table}/seats", json=body)
    assert response.status_code in (200, 201), response.text
    answer: dict[str, Any] = response.json()
    assert isinstance(answer["seat"], int) and isinstance(answer["token"], str)
    return answer


def command(client: Any, table: str, token: str, body: dict[str, Any], **headers: str) -> Any:
    return client.post(f"/tables/{table}/commands", json=body, headers={**bearer(token), **headers})


def accepted(client: Any, table: str, token: str, body: dict[str, Any]) -> dict[str, Any]:
    response = command(client, table, token, body)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    assert isinstance(answer["version"], int) and isinstance(answer["position"], int)
    assert isinstance(answer["events"], list) and not camel_keys(answer)
    return answer


def get(client: Any, path: str, token: str | None = None) -> Any:
    response = client.get(path, headers=bearer(token))
    assert response.status_code == 200, response.text
    assert not camel_keys(response.json()), response.text
    return response.json()


def heads_up(client: Any, **options: Any) -> tuple[str, str, str]:
    """A stacked two-seat Bourré table: the table, Ann's (seat 0) and Bob's (seat 1) tokens."""
    table = create(
        client, {"game": "bourre", "options": {"seats": 2, **options}, "decks": [DECK], "seed": 3}
    )
    ann = seat(client, table, "Ann", 0)["token"]
    bob = seat(client, table, "Bob", 1)["token"]
    return table, ann, bob


def settle_first_hand(client: Any, table: str, ann: str, bob: str) -> int:
    """Bob wins all five tricks of hand 1, Ann follows with whatever is legal; the last
    command's position."""
    accepted(client, table, bob, DECLARE)
    position = accepted(client, table, ann, DECLARE)["position"]
    for lead in BOB:
        accepted(client, table, bob, {"type": "play_card", "card": lead})
        moves = get(client, f"/tables/{table}/legal", ann)
        position = accepted(client, table, ann, moves[0])["position"]
    return position


# --- POST /tables ------------------------------------------------------------------------


def test_create_answers_the_table_id_and_accepts_a_seed(client: TableClient) -> None:
    table = create(client, {"game": "bourre", "options": {"seats": 3}, "seed": 42})
    assert get(client, f"/tables/{table}")
    assert create(client, {"game": "burraco", "options": {}})


def test_stacked_decks_are_403_when_the_server_does_not_allow_them(client_for: Any) -> None:
    strict = client_for(stacked=False)
    body = {"game": "bourre", "options": {"seats": 2}, "decks": [DECK]}
    assert "stacked" in problem(strict.post("/tables", json=body), 403)["detail"].lower()
    assert create(strict, {"game": "bourre", "options": {"seats": 2}, "seed": 1})


def test_bad_create_bodies_are_400_or_422_problems(client: TableClient) -> None:
    assert problem(client.post("/tables", content=b"{not json"), 400)
    unknown_game = client.post("/tables", json={"game": "poker", "options": {}})
    assert unknown_game.status_code in (400, 422) and "poker" in unknown_game.json()["detail"]
    bad_option = client.post("/tables", json={"game": "bourre", "options": {"seats": 9}})
    assert bad_option.status_code in (400, 422)
    assert "seats" in bad_option.json()["detail"]


# --- POST /tables/{id}/seats -------------------------------------------------------------


def test_seats_answer_seat_and_token_and_a_taken_seat_is_refused(client: TableClient) -> None:
    table = create(client, {"game": "bourre", "options": {"seats": 3}, "seed": 5})
    assert seat(client, table, "Cid", 2)["seat"] == 2
    taken = client.post(f"/tables/{table}/seats", json={"name": "Dee", "seat": 2})
    assert problem(taken, 409)
    nameless = problem(client.post(f"/tables/{table}/seats", json={"seat": 0}), 400)
    assert nameless["field"] == "name"


def test_the_hand_starts_when_all_seats_are_filled(client: TableClient) -> None:
    table = create(client, {"game": "bourre", "options": {"seats": 2}, "seed": 5})
    first = seat(client, table, "Ann")
    assert get(client, f"/tables/{table}/legal", first["token"]) == []
    second = seat(client, table, "Bob")
    tokens = {first["seat"]: first["token"], second["seat"]: second["token"]}
    assert get(client, f"/tables/{table}/legal", tokens[1])  # left of the dealer declares first


# --- POST /tables/{id}/commands ----------------------------------------------------------


def test_a_command_answers_version_position_and_the_events_this_seat_sees(
    client: TableClient,
) -> None:
    table, _, bob = heads_up(client)
    answer = accepted(client, table, bob, {"type": "declare", "play": True, "discard": ["10S"]})
    assert answer["events"] and all("type" in event for event in answer["events"])
    assert answer["version"] == max(e["version"] for e in get(client, f"/tables/{table}/timeline"))
    # Bob's replacement card is his to see; Ann's hand is not.
    assert not cards_in(answer["events"]) & set(ANN[:4])


def test_error_classes_are_problem_details(client: TableClient) -> None:
    table, ann, bob = heads_up(client)
    path = f"/tables/{table}/commands"
    assert problem(client.post(path, json=DECLARE), 401)  # no token
    assert problem(command(client, table, "forged", DECLARE), 401)  # bad token
    assert problem(command(client, table, ann, DECLARE), 403)  # Bob declares first
    assert problem(client.post(path, content=b"[", headers=bearer(bob)), 400)  # not JSON
    assert problem(command(client, table, bob, {"play": True}), 400)  # no type
    for malformed in [{"type": "juggle"}, {"type": "declare", "play": "yes"}]:
        response = command(client, table, bob, malformed)
        assert response.status_code in (400, 422)
        assert problem(response, response.status_code)["detail"]
    illegal = command(client, table, bob, {"type": "declare", "play": True, "discard": ["2H"]})
    assert "2H" in problem(illegal, 422)["detail"]  # a card Bob does not hold
    unknown = "00000000-0000-0000-0000-000000000000"
    assert problem(command(client, unknown, bob, DECLARE), 404)
    assert len(get(client, f"/tables/{table}/timeline")) == 5  # opened, seated x2, anted, dealt


def test_must_follow_suit_is_422_with_the_rule(client: TableClient) -> None:
    table, ann, bob = heads_up(client)
    accepted(client, table, bob, DECLARE)
    accepted(client, table, ann, DECLARE)
    accepted(client, table, bob, {"type": "play_card", "card": "AS"})
    refused = problem(command(client, table, ann, {"type": "play_card", "card": "2H"}), 422)
    assert "follow suit" in refused["detail"].lower()


def test_expected_version_conflict_is_409_and_writes_nothing(client: TableClient) -> None:
    table, _, bob = heads_up(client)
    version = max(e["version"] for e in get(client, f"/tables/{table}/timeline"))
    stale = command(client, table, bob, {**DECLARE, "expectedVersion": version - 1})
    assert problem(stale, 409)
    assert len(get(client, f"/tables/{table}/timeline")) == version
    assert accepted(client, table, bob, {**DECLARE, "expectedVersion": version})


def test_a_retried_idempotency_key_returns_the_first_answer_and_writes_nothing(
    client: TableClient,
) -> None:
    table, _, bob = heads_up(client)
    first = command(client, table, bob, DECLARE, **{"Idempotency-Key": "k-1"})
    again = command(client, table, bob, DECLARE, **{"Idempotency-Key": "k-1"})
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()
    assert len(get(client, f"/tables/{table}/timeline")) == first.json()["version"]


# --- GET /tables/{id}, /legal, ?after= ---------------------------------------------------


def test_views_wait_for_after_and_show_a_seat_its_own_cards_only(client: TableClient) -> None:
    table, ann, bob = heads_up(client)
    position = accepted(client, table, bob, DECLARE)["position"]
    mine = get(client, f"/tables/{table}?after={position}", bob)
    assert set(BOB) <= cards_in(mine) and not cards_in(mine) & set(ANN[:4])
    theirs = get(client, f"/tables/{table}?after={position}", ann)
    assert set(ANN) <= cards_in(theirs) and not cards_in(theirs) & set(BOB)
    spectator = get(client, f"/tables/{table}?after={position}")
    assert cards_in(spectator) <= {"2S"}  # the face-up trump card only


def test_legal_commands_are_command_objects_that_post_as_they_are(client: TableClient) -> None:
    table, ann, bob = heads_up(client)
    moves = get(client, f"/tables/{table}/legal", bob)
    assert moves and {move["type"] for move in moves} == {"declare"}
    assert all({"type", "play", "discard"} <= set(move) for move in moves)
    assert get(client, f"/tables/{table}/legal", ann) == []
    assert accepted(client, table, bob, moves[-1])
    assert get(client, f"/tables/{table}/legal") == []  # spectators have no commands


def test_every_table_route_answers_404_for_an_unknown_table(client: TableClient) -> None:
    unknown = "/tables/00000000-0000-0000-0000-000000000000"
    for path in ["", "/legal", "/timeline", "/replay?at=1", "/ledger", "/stream"]:
        assert problem(client.get(unknown + path), 404)
    assert problem(client.post(unknown + "/seats", json={"name": "Ann"}), 404)


# --- timeline, replay, verification ------------------------------------------------------


def test_timeline_items_carry_version_type_and_at_and_select_from_to(client: TableClient) -> None:
    table, ann, bob = heads_up(client)
    settle_first_hand(client, table, ann, bob)
    events = get(client, f"/tables/{table}/timeline")
    assert [e["version"] for e in events] == list(range(1, len(events) + 1))
    assert all(isinstance(e["type"], str) and isinstance(e["at"], str) for e in events)
    names = {e["type"] for e in events}
    assert {"TableOpened", "PlayerSeated", "Anted", "Dealt", "Declared", "Discarded"} <= names
    assert {"CardPlayed", "TrickWon", "HandSettled"} <= names
    window = get(client, f"/tables/{table}/timeline?from=2&to=4")
    assert [e["version"] for e in window] == [2, 3, 4]
    assert problem(client.get(f"/tables/{table}/timeline?from=4&to=2"), 400)


def test_replay_is_the_callers_view_as_of_version_n(client: TableClient) -> None:
    table, ann, bob = heads_up(client)
    events = get(client, f"/tables/{table}/timeline")
    dealt = next(e["version"] for e in events if e["type"] == "Dealt")
    settle_first_hand(client, table, ann, bob)
    replayed = get(client, f"/tables/{table}/replay?at={dealt}", bob)
    assert replayed["version"] == dealt
    assert set(BOB) <= cards_in(replayed)
    latest = len(get(client, f"/tables/{table}/timeline"))
    assert problem(client.get(f"/tables/{table}/replay?at={latest + 1}"), 422)
    assert problem(client.get(f"/tables/{table}/replay?at=x"), 400)


def test_the_dealt_commitment_verifies_after_settlement(client: TableClient) -> None:
    table, ann, bob = heads_up(client)
    live = next(e for e in get(client, f"/tables/{table}/timeline") if e["type"] == "Dealt")
    assert re.fullmatch(r"[0-9a-f]{64}", live["commitment"]) and "salt" not in live
    settle_first_hand(client, table, ann, bob)
    events = get(client, f"/tables/{table}/timeline")
    hand1 = [e for e in events if e.get("hand") == 1]
    deck = next(e["deck"] for e in hand1 if "deck" in e)
    salt = next(e["salt"] for e in hand1 if "salt" in e)
    assert deck == DECK
    digest = hashlib.sha256(f"{' '.join(deck)}|{salt}".encode()).hexdigest()
    assert digest == live["commitment"]


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
