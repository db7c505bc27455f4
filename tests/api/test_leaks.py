"""Design §5 visibility, checked against the truth: random bots play over HTTP and every
answer a seat or a spectator receives is scanned for card codes that viewer may not know.

The truth comes from the raw events in the store: what a viewer knows of the live hand is
its own dealt and drawn cards (and its pozzetto once it may look at it) plus everything laid
face up; every other card of the hand's deck is forbidden to it. Settled hands are public
(``reveal: after_hand``) and are not scanned.
"""

from __future__ import annotations

import random
from typing import Any
from uuid import UUID

import pytest
from litestar.testing import TestClient

from tests.api.helpers import auth, open_table, sit, view
from tests.documents import card_codes

Viewer = int | None


def known_cards(events: list[Any], hand: int, viewer: Viewer) -> tuple[set[str], set[str], bool]:
    """(the hand's deck, the codes ``viewer`` may know, whether the hand has settled)."""
    deck: set[str] = set()
    known: set[str] = set()
    settled = False
    for event in events:
        if getattr(event, "hand", None) != hand:
            continue
        kind = type(event).__name__
        seat = getattr(event, "seat", None)
        if kind == "Dealt":
            deck = set(event.deck)
            if hasattr(event, "hands"):  # Bourré: each seat's cards; the face-up trump card
                known.add(event.trump_card)
                if viewer is not None:
                    known.update(event.hands[viewer])
            else:  # Burraco rule 6: card k of the deal goes to seat (dealer + 1 + k) mod n
                known.add(event.first_discard)
                n = event.players
                if viewer is not None:
                    known.update(
                        code
                        for k, code in enumerate(event.deck[: 11 * n])
                        if (event.dealer + 1 + k) % n == viewer
                    )
        elif kind in ("CardPlayed", "TrickWon", "Melded", "MeldExtended", "PileTaken"):
            known.update(getattr(event, "cards", []) or [])
            known.update([event.card] if isinstance(getattr(event, "card", None), str) else [])
        elif kind == "Discarded" and isinstance(getattr(event, "card", None), str):
            known.add(event.card)  # Burraco: discards are face up
        elif kind == "Discarded" and seat == viewer:  # Bourré: only the discarding seat
            known.update(event.discarded)
            known.update(event.drawn)
        elif kind == "CardDrawn" and seat == viewer:
            known.add(event.card)
        elif (kind == "PozzettoTaken" and seat == viewer and event.direct) or (
            kind == "PozzettoOpened" and seat == viewer
        ):
            known.update(event.cards)
        elif kind in ("HandSettled", "HandScored", "HandAbandoned"):
            settled = True
    return deck, known, settled


class LeakScanner:
    """Checks every answer against the store's truth at the moment it was given."""

    def __init__(self, client: TestClient[Any], table: str) -> None:
        self.client = client
        self.table = table
        self.store = client.app.state.services.store
        self.checked = 0

    def forbidden(self, hand: int, viewer: Viewer) -> set[str]:
        events = [r.event for r in self.store.events(UUID(self.table))]
        deck, known, settled = known_cards(events, hand, viewer)
        return set() if settled else deck - known

    def check(self, what: str, document: Any, hand: int, viewer: Viewer) -> None:
        leaked = card_codes(document) & self.forbidden(hand, viewer)
        assert not leaked, f"{what} shows {sorted(leaked)} to viewer {viewer}"
        self.checked += 1

    def check_events(self, what: str, events: list[dict[str, Any]], viewer: Viewer) -> None:
        for hand in {int(e["hand"]) for e in events if e.get("hand")}:
            live = [e for e in events if e.get("hand") == hand]
            self.check(what, live, hand, viewer)


def play_and_scan(client: TestClient[Any], table: str, tokens: dict[int, str], *,
                  hands: int, max_commands: int, seed: int) -> LeakScanner:  # fmt: skip
    rng = random.Random(seed)
    scanner = LeakScanner(client, table)
    viewers: list[Viewer] = [None, *sorted(tokens)]
    commands = 0
    position = 0
    while commands < max_commands:
        options: dict[int, tuple[list[dict[str, Any]], int]] = {}
        for seat, token in tokens.items():
            response = client.get(f"/tables/{table}/legal", headers=auth(token))
            moves = response.json()
            current = client.get(f"/tables/{table}?after={position}", headers=auth(token)).json()
            scanner.check("legal", moves, current["hand"], seat)
            scanner.check("view", current, current["hand"], seat)
            if moves:
                options[seat] = (moves, int(response.headers["X-Table-Version"]))
        spectator = client.get(f"/tables/{table}?after={position}").json()
        scanner.check("spectator view", spectator, spectator["hand"], None)
        if not options or spectator.get("handsScored", 0) >= hands:
            break
        if spectator["hand"] > hands:
            break
        seat = rng.choice(sorted(options))
        moves, version = options[seat]
        command = {**rng.choice(moves), "expectedVersion": version}
        response = client.post(
            f"/tables/{table}/commands", json=command, headers=auth(tokens[seat])
        )
        assert response.status_code == 200, response.text
        answer = response.json()
        position = answer["position"]
        scanner.check_events("command answer", answer["events"], seat)
        commands += 1
        if commands % 7 == 0:
            for viewer in viewers:
                seat_token = tokens.get(viewer) if viewer is not None else None
                timeline = client.get(f"/tables/{table}/timeline", headers=auth(seat_token)).json()
                scanner.check_events("timeline", timeline, viewer)
    return scanner


def test_bourre_bots_over_http_never_see_a_card_they_may_not(client: TestClient[Any]) -> None:
    table = open_table(client, "bourre", {"seats": 4, "hands": 3}, seed=20261129)
    tokens = sit(client, table, ["Ann", "Bob", "Cid", "Dee"])
    scanner = play_and_scan(client, table, tokens, hands=3, max_commands=200, seed=1)
    assert scanner.checked > 200
    ledger = client.get(f"/tables/{table}/ledger").json()
    assert len(ledger["hands"]) >= 2
    for line in ledger["hands"]:  # every settled deal checks out against its commitment
        verified = client.get(f"/tables/{table}/hands/{line['hand']}/verify").json()
        assert verified["valid"] is True, verified


def test_burraco_bots_over_http_never_see_a_card_they_may_not(client: TestClient[Any]) -> None:
    table = open_table(client, "burraco", {"players": 4}, seed=20261130)
    tokens = sit(client, table, ["Ann", "Bob", "Cid", "Dee"])
    scanner = play_and_scan(client, table, tokens, hands=1, max_commands=900, seed=2)
    assert scanner.checked > 300
    ledger = client.get(f"/tables/{table}/ledger").json()
    assert len(ledger["hands"]) == 1  # a whole hand was played


def test_the_scanner_catches_another_seats_cards(client: TestClient[Any]) -> None:
    """The check above is not vacuous: seat 0's own view, shown to seat 1, is a leak."""
    table = open_table(client, "bourre", {"seats": 4}, seed=5)
    tokens = sit(client, table, ["Ann", "Bob", "Cid", "Dee"])
    scanner = LeakScanner(client, table)
    seat0 = view(client, table, tokens[0])
    scanner.check("seat 0's view to seat 0", seat0, seat0["hand"], 0)
    with pytest.raises(AssertionError, match="to viewer 1"):
        scanner.check("seat 0's view to seat 1", seat0, seat0["hand"], 1)
    with pytest.raises(AssertionError, match="to viewer None"):
        scanner.check("seat 0's view to a spectator", seat0, seat0["hand"], None)
