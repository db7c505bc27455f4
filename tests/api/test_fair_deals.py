"""Fair deals over HTTP (design §2 "Fair deals", §5): a chosen ``seed`` fixes the deals, so it
is accepted only where stacked decks are; every table view says whether the deals are fixed;
the table's secret never leaves the server and a hand's salt only once it has settled."""

from __future__ import annotations

import json
from typing import Any
from uuid import UUID

import httpx
import pytest
from litestar.testing import TestClient

from domain.table import TableOpened
from infra.settings import Settings
from infra.store import TableStore
from tests.api.helpers import (
    act,
    assert_problem,
    auth,
    open_table,
    sit,
    two_seat_bourre_deck,
)
from tests.api.test_stream import read, sse_events

OPTIONS = {"bourre": {"seats": 2}, "burraco": {"players": 2}}


def test_a_seed_is_refused_where_fixed_deals_are_not_allowed(client_for: Any) -> None:
    strict = client_for(stacked=False)
    body = {"game": "bourre", "options": {"seats": 2}, "seed": 1}
    problem = assert_problem(strict.post("/tables", json=body), 403, field="seed")
    assert "CARDROOM_ALLOW_STACKED_DECKS" in problem["detail"]
    assert strict.get("/tables").json() == []  # nothing was written


def views_of(client: TestClient[Any], table: str, token: str) -> list[dict[str, Any]]:
    """The seat's and a spectator's live views, and both replays at every version so far."""
    seat_view = client.get(f"/tables/{table}", headers=auth(token)).json()
    spectator = client.get(f"/tables/{table}").json()
    version = seat_view["version"]
    replays = [
        client.get(f"/tables/{table}/replay?at={at}", headers=headers).json()
        for at in range(1, version + 1)
        for headers in (auth(token), {})
    ]
    return [seat_view, spectator, *replays]


@pytest.mark.parametrize("game", sorted(OPTIONS))
@pytest.mark.parametrize("seed", [None, 42])
def test_every_view_says_whether_the_deals_are_fixed(
    client: TestClient[Any], game: str, seed: int | None
) -> None:
    table = open_table(client, game, OPTIONS[game], seed=seed)
    tokens = sit(client, table, ["Ann", "Bob"])
    views = views_of(client, table, tokens[0])
    assert [view["fixedDeals"] for view in views] == [seed is not None] * len(views)


def test_stacked_decks_make_the_deals_fixed(client: TestClient[Any]) -> None:
    deck = two_seat_bourre_deck("AS KS QS JS 10S", "2H 3H 4H 5H 2S")
    table = open_table(client, "bourre", {"seats": 2}, decks=[deck])
    assert client.get(f"/tables/{table}").json()["fixedDeals"] is True


def answers(client: TestClient[Any], table: str, tokens: dict[int, str]) -> str:
    """Everything a seat or a spectator can read about the table, as one text."""
    texts = [client.get("/tables").text]
    for headers in (*(auth(token) for token in tokens.values()), {}):
        texts += [
            client.get(f"/tables/{table}", headers=headers).text,
            client.get(f"/tables/{table}/timeline", headers=headers).text,
            client.get(f"/tables/{table}/replay?at=1", headers=headers).text,
            client.get(f"/tables/{table}/ledger", headers=headers).text,
            client.get(f"/tables/{table}/hands/1/verify", headers=headers).text,
        ]
    return "\n".join(texts)


def test_the_secret_is_never_shown_and_a_salt_only_after_its_hand(
    client: TestClient[Any], settings: Settings
) -> None:
    deck = two_seat_bourre_deck("AS KS QS JS 10S", "2H 3H 4H 5H 2S")
    table = open_table(client, "bourre", {"seats": 2}, decks=[deck])
    tokens = sit(client, table, ["Ann", "Bob"])
    with TableStore(settings) as store:
        events = [recorded.event for recorded in store.events(UUID(table))]
    opened = events[0]
    assert isinstance(opened, TableOpened) and len(opened.secret) >= 32
    salt = next(event.salt for event in events if type(event).__name__ == "Dealt")
    before = answers(client, table, tokens)
    assert opened.secret not in before and salt not in before
    for seat, play in ((1, True), (0, False)):  # Bob plays, Ann folds: the hand settles
        act(client, table, tokens[seat], {"type": "declare", "play": play, "discard": []})
    verified = client.get(f"/tables/{table}/hands/1/verify").json()
    assert verified["salt"] == salt and verified["valid"] is True
    assert opened.secret not in answers(client, table, tokens)


def test_the_stream_never_shows_the_secret_or_an_unsettled_salt(
    live_url: str, settings: Settings
) -> None:
    deck = two_seat_bourre_deck("AS KS QS JS 10S", "2H 3H 4H 5H 2S")
    with httpx.Client(base_url=live_url, timeout=10) as http:
        body = {"game": "bourre", "options": {"seats": 2}, "decks": [deck]}
        table = http.post("/tables", json=body).json()["tableId"]
        tokens = [
            http.post(f"/tables/{table}/seats", json={"name": name}).json()["token"]
            for name in ("Ann", "Bob")
        ]
        with TableStore(settings) as store:
            events = [recorded.event for recorded in store.events(UUID(table))]
        secret = events[0].secret
        salt = next(event.salt for event in events if type(event).__name__ == "Dealt")
        for headers in (auth(tokens[0]), auth(tokens[1]), {}):
            path = f"/tables/{table}/stream?from=1"
            with http.stream("GET", path, headers=headers) as stream:
                seen = read(sse_events(stream), len(events))
            assert seen[0]["type"] == "TableOpened" and seen[0]["fixedDeals"] is True
            text = json.dumps(seen)
            assert secret not in text and salt not in text
