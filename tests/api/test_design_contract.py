"""Black-box conformance to design §5 (1/2): creating tables, seats, commands and their error
classes as problem details, ``Idempotency-Key``, ``expectedVersion``, ``?after=``, views, legal
commands, timelines, replays and the deal verification. Requests and JSON only
(`contract_client.py`); visibility, ledgers, Burraco commands, lobby, schema, health and the
stream are in `test_design_contract_visibility.py`.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from tests.api.contract_client import (
    ANN,
    BOB,
    DECK,
    DECLARE,
    TableClient,
    accepted,
    bearer,
    cards_in,
    command,
    create,
    get,
    heads_up,
    problem,
    seat,
    settle_first_hand,
)

# --- POST /tables ------------------------------------------------------------------------


def test_create_answers_the_table_id_and_accepts_a_seed(client: TableClient) -> None:
    table = create(client, {"game": "bourre", "options": {"seats": 3}, "seed": 42})
    assert get(client, f"/tables/{table}")
    assert create(client, {"game": "burraco", "options": {}})


def test_stacked_decks_are_403_when_the_server_does_not_allow_them(client_for: Any) -> None:
    strict = client_for(stacked=False)
    body = {"game": "bourre", "options": {"seats": 2}, "decks": [DECK]}
    assert "stacked" in problem(strict.post("/tables", json=body), 403)["detail"].lower()
    assert problem(strict.post("/tables", json={**body, "decks": None, "seed": 1}), 403)
    assert create(strict, {"game": "bourre", "options": {"seats": 2}})


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
    # A spectator has nothing to do: 401, with the hint how to take a seat.
    answer = problem(client.get(f"/tables/{table}/legal"), 401)
    assert answer["type"].endswith(":missing-token") and answer["field"] == "Authorization"
    assert "/seats" in answer["detail"]


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
