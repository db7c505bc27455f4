"""Design §5, ``spectator_delay`` everywhere: at a table with ``spectator_delay: 3`` no answer
to a spectator — view, lobby line, ledger, timeline, replay, stream, deal verification — is
newer than the delayed view.

The table has played hand 1 to the end: its last three events (version 25 ``HandSettled``,
26 ``Anted``, 27 ``Dealt`` of hand 2) are live for the seats and hidden from spectators, who
see the table as of version 24, the last trick taken and nothing settled.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.api.helpers import act, assert_problem, auth
from tests.api.test_history import play_first_hand
from tests.api.test_stream import read, sse_events

DELAY = 3


@pytest.fixture
def table(live_url: str) -> Iterator[tuple[httpx.Client, str, dict[int, str], dict[str, Any]]]:
    """The table after hand 1, an HTTP client, the tokens and the spectators' (delayed) view."""
    with httpx.Client(base_url=live_url, timeout=10) as http:
        client: Any = http
        table_id, tokens = play_first_hand(client, {"spectator_delay": DELAY})
        head = http.get("/health").json()["projection"]["head"]
        live = http.get(f"/tables/{table_id}?after={head}", headers=auth(tokens[0])).json()
        delayed = http.get(f"/tables/{table_id}").json()
        assert (live["version"], delayed["version"]) == (27, 27 - DELAY)
        assert (live["hand"], delayed["hand"]) == (2, 1)
        yield http, table_id, tokens, delayed


def test_the_lobby_line_follows_the_delayed_view(table: Any) -> None:
    http, table_id, _, delayed = table
    line = next(line for line in http.get("/tables").json() if line["tableId"] == table_id)
    assert line["version"] == delayed["version"]
    assert line["hand"] == delayed["hand"]
    assert line["pot"] == delayed["pot"]


def test_the_ledger_shows_no_hand_settled_after_the_delayed_view(table: Any) -> None:
    http, table_id, _, delayed = table
    ledger = http.get(f"/tables/{table_id}/ledger").json()
    assert ledger["hands"] == []  # hand 1 settles at version 25, hidden
    assert ledger["pot"] == delayed["pot"]


def test_the_timeline_ends_at_the_delayed_view(table: Any) -> None:
    http, table_id, tokens, delayed = table
    events = http.get(f"/tables/{table_id}/timeline").json()
    assert events[-1]["version"] == delayed["version"]
    seats = http.get(f"/tables/{table_id}/timeline", headers=auth(tokens[0])).json()
    assert seats[-1]["version"] == delayed["version"] + DELAY


def test_replay_goes_no_further_than_the_delayed_view(table: Any) -> None:
    http, table_id, _, delayed = table
    at = delayed["version"]
    assert http.get(f"/tables/{table_id}/replay?at={at}").json()["version"] == at
    assert_problem(http.get(f"/tables/{table_id}/replay?at={at + 1}"), 422, field="at")


def test_verification_knows_only_what_the_delayed_view_shows(table: Any) -> None:
    http, table_id, tokens, _ = table
    first = http.get(f"/tables/{table_id}/hands/1/verify").json()
    assert first["settled"] is False and first["deck"] is None
    seats = http.get(f"/tables/{table_id}/hands/1/verify", headers=auth(tokens[0])).json()
    assert seats["settled"] is True
    assert_problem(http.get(f"/tables/{table_id}/hands/2/verify"), 404)  # dealt at 27


def test_the_stream_sends_nothing_newer_than_the_delayed_view(table: Any) -> None:
    http, table_id, tokens, delayed = table
    with http.stream("GET", f"/tables/{table_id}/stream?from=1") as spectator:
        messages = sse_events(spectator)
        before = read(messages, delayed["version"])
        # Hand 2: Ann declares (one more event); spectators may now see version 25.
        act(http, table_id, tokens[0], {"type": "declare", "play": True, "discard": []})
        after = read(messages, 1)
    assert [event["id"] for event in before + after] == list(range(1, delayed["version"] + 2))
    assert after[0]["event"] == "HandSettled"
