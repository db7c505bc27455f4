"""A whole Bourré hand played over HTTP with a stacked deck (design §5; Bourré spec)."""

from __future__ import annotations

from typing import Any

from litestar.testing import TestClient

from tests.api.helpers import (
    SPADES_SWEEP_DECK,
    act,
    auth,
    legal,
    open_table,
    sit,
    view,
)

# SPADES_SWEEP_DECK: seat 1 (left of the dealer) holds the five top spades; the dealer's
# face-up 2S makes spades trump. Seat 0 holds four low hearts and the 2S.


def test_bourre_whole_hand_over_http_winner_takes_the_pot_and_the_loser_is_bourre(
    client: TestClient[Any],
) -> None:
    table = open_table(client, "bourre", {"seats": 2}, decks=[SPADES_SWEEP_DECK])
    tokens = sit(client, table, ["Ann", "Bob"])
    assert sorted(tokens) == [0, 1]
    ann, bob = tokens[0], tokens[1]

    first = view(client, table, bob)
    assert first["trumpCard"] == "2S" and first["trump"] == "S"
    assert first["cards"] == ["AS", "KS", "QS", "JS", "10S"]
    assert first["toAct"] == [1]  # rule 11: the player left of the dealer declares first
    assert first["pot"] == 2  # rule 5: both anted 1

    # Rule 11: play with no discards; the answer holds the seat's own events.
    answer = act(client, table, bob, {"type": "declare", "play": True, "discard": []})
    assert next(e["type"] for e in answer["events"]) == "Declared"
    assert all({"version", "type", "at"} <= set(e) for e in answer["events"])
    act(client, table, ann, {"type": "declare", "play": True, "discard": []})

    # Rules 21-22: with a cinch seat 1 leads its highest trump; its spades are equivalent.
    spades = ["AS", "KS", "QS", "JS", "10S"]
    for index, lead in enumerate(spades):
        moves, _ = legal(client, table, bob)
        assert moves == [{"type": "play_card", "card": c} for c in spades[index:]]
        act(client, table, bob, {"type": "play_card", "card": lead})
        moves, _ = legal(client, table, ann)
        follow = moves[0]
        assert follow["type"] == "play_card"
        answer = act(client, table, ann, follow)

    types = [e["type"] for e in answer["events"]]
    assert "TrickWon" in types and "HandSettled" in types
    settled = next(e for e in answer["events"] if e["type"] == "HandSettled")
    assert settled["winner"] == 1 and settled["bourre"] == [0]
    # The settlement reveals the deck and salt of the hand (provably fair).
    assert settled["deck"] == SPADES_SWEEP_DECK

    ledger = client.get(f"/tables/{table}/ledger?after={answer['position']}").json()
    assert ledger["hands"] == [{"hand": 1, "pot": 2, "winner": 1, "bourre": [0], "tied": []}]
    players = {p["seat"]: p for p in ledger["players"]}
    assert {p["name"] for p in players.values()} == {"Ann", "Bob"}
    # Rules 25-28: Bob won the 2-chip pot; Ann pays 2 into the next pot and skips its ante.
    assert sum(p["net"] for p in players.values()) + ledger["pot"] == 0
    assert players[1]["net"] == 0  # -1 ante, +2 pot, -1 ante for hand 2
    assert players[0]["net"] == -3  # -1 ante, -2 bourré
    assert set(ledger) == {"pot", "players", "hands"}
    assert all(set(p) == {"seat", "name", "net"} for p in ledger["players"])

    after = view(client, table, ann, after=answer["position"])
    assert after["hand"] == 2 and after["pot"] == 3


def test_bourre_declaring_out_of_turn_is_refused_and_writes_nothing(
    client: TestClient[Any],
) -> None:
    table = open_table(client, "bourre", {"seats": 2}, decks=[SPADES_SWEEP_DECK])
    tokens = sit(client, table, ["Ann", "Bob"])
    before = client.get(f"/tables/{table}/timeline").json()
    response = client.post(
        f"/tables/{table}/commands",
        json={"type": "declare", "play": True, "discard": []},
        headers=auth(tokens[0]),
    )
    assert response.status_code == 403
    assert response.headers["content-type"].startswith("application/problem+json")
    assert client.get(f"/tables/{table}/timeline").json() == before


def test_bourre_not_following_suit_is_refused_with_the_rule(client: TestClient[Any]) -> None:
    table = open_table(client, "bourre", {"seats": 2}, decks=[SPADES_SWEEP_DECK])
    tokens = sit(client, table, ["Ann", "Bob"])
    act(client, table, tokens[1], {"type": "declare", "play": True, "discard": []})
    act(client, table, tokens[0], {"type": "declare", "play": True, "discard": []})
    act(client, table, tokens[1], {"type": "play_card", "card": "AS"})
    # Rule 5.1 (a): Ann holds the 2S and must follow spades.
    response = client.post(
        f"/tables/{table}/commands",
        json={"type": "play_card", "card": "2H"},
        headers=auth(tokens[0]),
    )
    assert response.status_code == 422, response.text
    problem = response.json()
    assert "2S" in problem["detail"] or "suit" in problem["detail"].lower()
    assert legal(client, table, tokens[0])[0] == [{"type": "play_card", "card": "2S"}]
