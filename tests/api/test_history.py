"""Design §5 timelines, time travel and provably fair deals, per viewer.

A settled hand's hidden cards show in timelines and replays when the table's ``reveal`` is
``after_hand``; ``never`` keeps them hidden; ``spectator_delay`` holds spectators behind.
"""

from __future__ import annotations

from typing import Any

from litestar.testing import TestClient

from domain.cards import deck_commitment
from tests.api.helpers import (
    SPADES_SWEEP_DECK,
    act,
    assert_problem,
    auth,
    legal,
    open_table,
    sit,
)
from tests.documents import card_codes

SEAT0 = {"2H", "3H", "4H", "5H", "2S"}
SEAT1 = {"AS", "KS", "QS", "JS", "10S"}


def play_first_hand(client: TestClient[Any], options: dict[str, Any]) -> tuple[str, dict[int, str]]:
    """Seat 1 takes all five tricks of hand 1; hand 2 is dealt (from the seed) and waits."""
    table = open_table(client, "bourre", {"seats": 2, **options}, decks=[SPADES_SWEEP_DECK], seed=7)
    tokens = sit(client, table, ["Ann", "Bob"])
    act(client, table, tokens[1], {"type": "declare", "play": True, "discard": []})
    act(client, table, tokens[0], {"type": "declare", "play": True, "discard": []})
    for lead in ["AS", "KS", "QS", "JS", "10S"]:
        act(client, table, tokens[1], {"type": "play_card", "card": lead})
        moves, _ = legal(client, table, tokens[0])
        act(client, table, tokens[0], moves[0])
    return table, tokens


def timeline(client: TestClient[Any], table: str, token: str | None = None, query: str = "") -> Any:
    response = client.get(f"/tables/{table}/timeline{query}", headers=auth(token))
    assert response.status_code == 200, response.text
    return response.json()


def dealt(events: list[dict[str, Any]], hand: int) -> dict[str, Any]:
    return next(e for e in events if e["type"] == "Dealt" and e["hand"] == hand)


def test_timeline_items_have_version_type_and_at_and_never_the_seed(
    client: TestClient[Any],
) -> None:
    table, _ = play_first_hand(client, {})
    events = timeline(client, table)
    assert [e["version"] for e in events] == list(range(1, len(events) + 1))
    assert all({"version", "type", "at"} <= set(e) for e in events)
    types = {e["type"] for e in events}
    assert {"TableOpened", "PlayerSeated", "Anted", "Dealt", "Declared", "Discarded"} <= types
    assert {"CardPlayed", "TrickWon", "HandSettled"} <= types
    opened = events[0]
    assert "seed" not in opened and "decks" not in opened
    assert all("tokenHash" not in e for e in events)


def test_a_settled_hand_is_revealed_to_spectators_and_the_live_hand_is_not(
    client: TestClient[Any],
) -> None:
    table, tokens = play_first_hand(client, {})
    events = timeline(client, table)
    first = dealt(events, 1)
    assert first["deck"] == SPADES_SWEEP_DECK  # hand 1 settled: its cards are public now
    assert set(first["hands"][0]) == SEAT0 and set(first["hands"][1]) == SEAT1
    second = dealt(events, 2)
    assert second["hands"] == [None, None] and "deck" not in second
    # Bob sees his own hand-2 cards and not Ann's.
    mine = dealt(timeline(client, table, tokens[1]), 2)
    assert mine["hands"][0] is None and len(mine["hands"][1]) == 5


def test_reveal_never_keeps_settled_hands_hidden(client: TestClient[Any]) -> None:
    table, tokens = play_first_hand(client, {"reveal": "never"})
    first = dealt(timeline(client, table), 1)
    assert first["hands"] == [None, None] and "deck" not in first
    own = dealt(timeline(client, table, tokens[0]), 1)
    assert set(own["hands"][0]) == SEAT0 and own["hands"][1] is None
    verification = client.get(f"/tables/{table}/hands/1/verify").json()
    assert verification["settled"] is True and verification["revealed"] is False
    assert verification["deck"] is None and verification["salt"] is None


def test_timeline_from_and_to_select_versions(client: TestClient[Any]) -> None:
    table, _ = play_first_hand(client, {})
    page = timeline(client, table, query="?from=3&to=6")
    assert [e["version"] for e in page] == [3, 4, 5, 6]
    # The page still shows hand 1's cards: the hand settled after version 6.
    assert set(dealt(page, 1)["hands"][1]) == SEAT1
    assert_problem(client.get(f"/tables/{table}/timeline?from=6&to=3"), 400, field="from")
    assert client.get(f"/tables/{table}/timeline?from=0").status_code == 400


def test_replay_shows_the_table_as_of_a_version(client: TestClient[Any]) -> None:
    table, tokens = play_first_hand(client, {})
    events = timeline(client, table)
    deal = dealt(events, 1)["version"]
    spectator = client.get(f"/tables/{table}/replay?at={deal}")
    assert spectator.status_code == 200
    replayed = spectator.json()
    assert replayed["version"] == deal and replayed["hand"] == 1
    assert replayed["phase"] == "declare" and replayed["pot"] == 2
    # Hand 1 has settled since, so the replay shows every seat's cards.
    seats = {s["seat"]: s for s in replayed["seats"]}
    assert set(seats[0]["cards"]) == SEAT0 and set(seats[1]["cards"]) == SEAT1
    # The live hand 2 is replayed without the other seat's cards.
    latest = events[-1]["version"]
    live = client.get(f"/tables/{table}/replay?at={latest}", headers=auth(tokens[0])).json()
    assert live["hand"] == 2
    assert "cards" in {k for s in live["seats"] if s["seat"] == 0 for k in s}
    assert "cards" not in next(s for s in live["seats"] if s["seat"] == 1)
    assert_problem(client.get(f"/tables/{table}/replay?at={latest + 1}"), 422, field="at")
    assert client.get(f"/tables/{table}/replay?at=0").status_code == 400
    assert client.get(f"/tables/{table}/replay").status_code == 400


def test_replay_in_a_table_that_never_reveals_hides_the_cards(client: TestClient[Any]) -> None:
    table, _ = play_first_hand(client, {"reveal": "never"})
    deal = dealt(timeline(client, table), 1)["version"]
    replayed = client.get(f"/tables/{table}/replay?at={deal}").json()
    assert card_codes(replayed) <= {"2S"}  # only the face-up trump card


def test_verify_a_settled_deal_against_its_commitment(client: TestClient[Any]) -> None:
    table, _ = play_first_hand(client, {})
    verification = client.get(f"/tables/{table}/hands/1/verify").json()
    assert verification["settled"] and verification["revealed"] and verification["valid"]
    assert verification["deck"] == SPADES_SWEEP_DECK
    assert deck_commitment(SPADES_SWEEP_DECK, verification["salt"]) == verification["commitment"]
    assert verification["commitment"] == dealt(timeline(client, table), 1)["commitment"]
    pending = client.get(f"/tables/{table}/hands/2/verify").json()
    assert pending["settled"] is False and pending["deck"] is None and pending["valid"] is None
    assert len(pending["commitment"]) == 64
    assert_problem(client.get(f"/tables/{table}/hands/3/verify"), 404)
    assert client.get(f"/tables/{table}/hands/0/verify").status_code == 400


def test_spectators_are_held_spectator_delay_events_behind(client: TestClient[Any]) -> None:
    table, tokens = play_first_hand(client, {"spectator_delay": 4})
    seat_view = timeline(client, table, tokens[0])
    spectator_view = timeline(client, table)
    assert len(spectator_view) == len(seat_view) - 4
    latest = seat_view[-1]["version"]
    assert_problem(client.get(f"/tables/{table}/replay?at={latest}"), 422, field="at")
    ok = client.get(f"/tables/{table}/replay?at={latest - 4}")
    assert ok.status_code == 200
    head = client.get("/health").json()["projection"]["head"]
    live = client.get(f"/tables/{table}?after={head}").json()
    assert live["version"] == latest - 4
