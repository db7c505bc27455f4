"""Design §5 live stream: Server-Sent Events, redacted per caller, ``id`` = event version,
resumable with ``Last-Event-ID``; spectators held ``spectator_delay`` events behind."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.api.helpers import auth, two_seat_bourre_deck

DECK = two_seat_bourre_deck("AS KS QS JS 10S", "2H 3H 4H 5H 2S")
DECLARE = {"type": "declare", "play": True, "discard": []}


def sse_events(response: httpx.Response) -> Iterator[dict[str, Any]]:
    """Parse an SSE body into messages ``{"id", "event", "data"}`` (comments skipped)."""
    message: dict[str, Any] = {}
    for line in response.iter_lines():
        if not line:
            if "data" in message:
                yield message
            message = {}
        elif line.startswith(":"):
            continue
        else:
            field, _, value = line.partition(":")
            message[field] = value[1:] if value.startswith(" ") else value


def read(messages: Iterator[dict[str, Any]], count: int) -> list[dict[str, Any]]:
    """The next ``count`` events of a stream, each with its SSE ``id`` and ``event``."""
    out = []
    for message in messages:
        data = json.loads(message["data"])
        out.append({"id": int(message["id"]), "event": message["event"], **data})
        if len(out) == count:
            break
    return out


@pytest.fixture
def http(live_url: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=live_url, timeout=10) as client:
        yield client


def new_table(http: httpx.Client, **options: Any) -> tuple[str, dict[int, str]]:
    body = {"game": "bourre", "options": {"seats": 2, **options}, "decks": [DECK]}
    table = http.post("/tables", json=body).json()["tableId"]
    tokens = {}
    for name in ("Ann", "Bob"):
        seat = http.post(f"/tables/{table}/seats", json={"name": name}).json()
        tokens[seat["seat"]] = seat["token"]
    return table, tokens


def test_stream_from_the_start_is_redacted_for_the_caller(http: httpx.Client) -> None:
    table, tokens = new_table(http)
    with http.stream("GET", f"/tables/{table}/stream?from=1", headers=auth(tokens[1])) as bob:
        assert bob.status_code == 200
        assert bob.headers["content-type"].startswith("text/event-stream")
        events = read(sse_events(bob), 5)
    assert [e["id"] for e in events] == [1, 2, 3, 4, 5]
    assert [e["event"] for e in events] == [e["type"] for e in events]
    assert events[0]["type"] == "TableOpened" and "seed" not in events[0]
    dealt = events[4]
    assert dealt["type"] == "Dealt"
    assert dealt["hands"][0] is None and set(dealt["hands"][1]) == {"AS", "KS", "QS", "JS", "10S"}
    assert "deck" not in dealt and "salt" not in dealt


def test_stream_delivers_new_events_live_and_resumes_after_last_event_id(
    http: httpx.Client,
) -> None:
    table, tokens = new_table(http)
    with http.stream("GET", f"/tables/{table}/stream") as spectator:
        assert spectator.status_code == 200
        answer = http.post(f"/tables/{table}/commands", json=DECLARE, headers=auth(tokens[1]))
        assert answer.status_code == 200
        live = read(sse_events(spectator), 2)
    assert [e["type"] for e in live] == ["Declared", "Discarded"]
    assert live[-1]["id"] == answer.json()["version"]
    assert live[-1]["discarded"] is None  # a spectator never sees discards

    http.post(f"/tables/{table}/commands", json=DECLARE, headers=auth(tokens[0]))
    resume = {"Last-Event-ID": str(live[0]["id"])}
    with http.stream("GET", f"/tables/{table}/stream", headers=resume) as again:
        resumed = read(sse_events(again), 3)
    assert [e["id"] for e in resumed] == [live[0]["id"] + i for i in (1, 2, 3)]
    assert [e["type"] for e in resumed] == ["Discarded", "Declared", "Discarded"]


def test_spectators_stream_spectator_delay_events_behind(http: httpx.Client) -> None:
    table, tokens = new_table(http, spectator_delay=2)
    http.post(f"/tables/{table}/commands", json=DECLARE, headers=auth(tokens[1]))  # versions 6, 7
    with http.stream("GET", f"/tables/{table}/stream?from=1") as spectator:
        messages = sse_events(spectator)
        held = read(messages, 5)
        assert held[-1]["id"] == 5  # 7 events written, 2 held back
        http.post(f"/tables/{table}/commands", json=DECLARE, headers=auth(tokens[0]))
        released = read(messages, 2)
    assert [e["id"] for e in released] == [6, 7]


def test_stream_refuses_a_bad_last_event_id_and_unknown_tables(http: httpx.Client) -> None:
    table, _ = new_table(http)
    response = http.get(f"/tables/{table}/stream", headers={"Last-Event-ID": "abc"})
    assert response.status_code == 400
    assert response.json()["field"] == "Last-Event-ID"
    missing = http.get("/tables/00000000-0000-0000-0000-000000000000/stream")
    assert missing.status_code == 404


def test_catching_up_on_a_settled_hand_shows_its_cards(http: httpx.Client) -> None:
    table, tokens = new_table(http)
    http.post(f"/tables/{table}/commands", json=DECLARE, headers=auth(tokens[1]))
    passed = http.post(
        f"/tables/{table}/commands",
        json={"type": "declare", "play": False},
        headers=auth(tokens[0]),
    )
    assert "HandSettled" in [e["type"] for e in passed.json()["events"]]  # rule 16
    with http.stream("GET", f"/tables/{table}/stream?from=5") as spectator:
        first_deal = read(sse_events(spectator), 1)[0]
    assert first_deal["type"] == "Dealt" and first_deal["hand"] == 1
    assert set(first_deal["hands"][1]) == {"AS", "KS", "QS", "JS", "10S"}
    assert first_deal["deck"] == DECK


def test_a_stream_on_one_api_process_sees_commands_sent_to_another(
    http: httpx.Client, settings: Any
) -> None:
    """The stream follows the shared store, not the memory of the process serving it."""
    from tests.api.conftest import serving

    table, tokens = new_table(http)
    with (
        serving(settings, run_projector=False) as other_url,
        httpx.Client(base_url=other_url, timeout=10) as other,
        other.stream("GET", f"/tables/{table}/stream") as watching,
    ):
        assert watching.status_code == 200
        sent = http.post(f"/tables/{table}/commands", json=DECLARE, headers=auth(tokens[1]))
        assert sent.status_code == 200
        seen = read(sse_events(watching), 2)
    assert [e["id"] for e in seen] == [6, 7]


def test_the_stream_ends_after_the_table_ends(http: httpx.Client) -> None:
    table, tokens = new_table(http)
    closing = http.post(
        f"/tables/{table}/commands", json={"type": "close_table"}, headers=auth(tokens[0])
    )
    assert closing.status_code == 200, closing.text
    http.post(f"/tables/{table}/commands", json=DECLARE, headers=auth(tokens[1]))
    http.post(
        f"/tables/{table}/commands",
        json={"type": "declare", "play": False},
        headers=auth(tokens[0]),
    )
    with http.stream("GET", f"/tables/{table}/stream?from=1") as spectator:
        everything = list(sse_events(spectator))  # finishes: the server ends the stream
    assert json.loads(everything[-1]["data"])["type"] == "TableEnded"
    assert [int(m["id"]) for m in everything] == list(range(1, len(everything) + 1))


def end_table(http: httpx.Client, table: str, tokens: dict[int, str]) -> None:
    """Ask to close, then finish hand 1 (Ann passes: rule 16), so the table ends."""
    for token, command in (
        (tokens[0], {"type": "close_table"}),
        (tokens[1], DECLARE),
        (tokens[0], {"type": "declare", "play": False}),
    ):
        assert http.post(
            f"/tables/{table}/commands", json=command, headers=auth(token)
        ).status_code == 200  # fmt: skip


def test_a_spectators_stream_of_an_ended_table_ends_without_the_held_back_events(
    http: httpx.Client,
) -> None:
    table, tokens = new_table(http, spectator_delay=2)
    end_table(http, table, tokens)
    last = http.get(f"/tables/{table}/timeline", headers=auth(tokens[0])).json()[-1]
    assert last["type"] == "TableEnded"
    with http.stream("GET", f"/tables/{table}/stream?from=1") as spectator:
        seen = list(sse_events(spectator))
    assert int(seen[-1]["id"]) == last["version"] - 2
    with http.stream("GET", f"/tables/{table}/stream") as live:
        assert list(sse_events(live)) == []  # live from the end: nothing more will come
