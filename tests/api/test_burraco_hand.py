"""A whole Burraco hand over HTTP with a stacked deck (design §5; Burraco spec), heads-up.

Seat 1 (left of the dealer) melds a clean heart burraco and a set of kings, discards its last
card and takes pozzetto 0 on the discard (rule 17); next turn it melds the pozzetto and closes
(rule 18). The deck follows the dealing contract of rule 6.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from litestar.testing import TestClient

from domain.cards import burraco_pack, codes
from tests.api.helpers import act, auth, legal, open_table, sit, view
from tests.documents import card_codes

SEAT1 = ["3H", "4H", "5H", "6H", "7H", "8H", "9H", "KC", "KD", "KS", "QC"]
POZZETTO0 = ["4D", "5D", "6D", "7D", "8D", "9D", "10D", "JC", "JD", "JS", "JH"]
STOCK_TOP = ["10H", "6C", "5C"]  # seat 1 draws 10H, seat 0 draws 6C, seat 1 draws 5C


def stacked_deck() -> list[str]:
    """Rule 6, two players, dealer 0: card k of the first 22 goes to seat (1 + k) mod 2; the
    next 22 alternate pozzetto 0 / pozzetto 1; then the first discard; then the stock."""
    rest = Counter(codes(burraco_pack()))
    rest.subtract(SEAT1 + POZZETTO0 + STOCK_TOP)
    filler = [c for c in codes(burraco_pack()) if c not in {"JK", "2C", "2D", "2H", "2S"}]
    pool: list[str] = []
    for code in filler:  # spare cards, no wilds, respecting the two-pack counts
        if rest[code] > 0:
            rest[code] -= 1
            pool.append(code)
    seat0 = pool[:11]
    pozzetto1, first_discard = pool[11:22], pool[22]
    deck: list[str] = []
    for mine, theirs in zip(SEAT1, seat0, strict=True):
        deck += [mine, theirs]
    for ours, theirs in zip(POZZETTO0, pozzetto1, strict=True):
        deck += [ours, theirs]
    deck.append(first_discard)
    deck += STOCK_TOP
    remaining = Counter(codes(burraco_pack()))
    remaining.subtract(deck)
    deck += [code for code in remaining.elements()]
    assert len(deck) == 108 and Counter(deck) == Counter(codes(burraco_pack()))
    return deck


def own_cards(table_view: dict[str, Any]) -> list[str]:
    seat = table_view["yourSeat"]
    return list(table_view["seats"][seat]["cards"])


def meld_id(table_view: dict[str, Any], team: str, card: str) -> int:
    team_view = next(t for t in table_view["teams"] if t["team"] == team)
    return int(next(m["id"] for m in team_view["melds"] if card in m["cards"]))


def test_burraco_whole_hand_over_http_close_after_the_pozzetto(client: TestClient[Any]) -> None:
    deck = stacked_deck()
    table = open_table(client, "burraco", {"players": 2, "target": 5000}, decks=[deck])
    tokens = sit(client, table, ["Ann", "Bob"])
    ann, bob = tokens[0], tokens[1]

    start = view(client, table, bob)
    assert sorted(own_cards(start)) == sorted(SEAT1)
    assert start["toAct"] == [1]
    assert card_codes(view(client, table, ann)["seats"][1]) == set()  # Bob's cards are his

    # Turn 1 (seat 1): draw, meld the burraco and the kings, discard onto the pozzetto.
    drawn = act(client, table, bob, {"type": "draw"})
    assert drawn["events"][0]["type"] == "CardDrawn"
    act(
        client,
        table,
        bob,
        {"type": "meld", "cards": ["3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H"]},
    )
    act(client, table, bob, {"type": "meld", "cards": ["KC", "KD", "KS"]})
    answer = act(client, table, bob, {"type": "discard", "card": "QC"})
    assert "PozzettoTaken" in [e["type"] for e in answer["events"]]

    # Seat 0: draw and discard whatever the rules allow.
    act(client, table, ann, {"type": "draw"})
    moves, _ = legal(client, table, ann)
    act(client, table, ann, next(m for m in moves if m["type"] == "discard"))

    # Turn 2 (seat 1): the pozzetto is the hand now; meld it all and close on 5C.
    now = view(client, table, bob)
    assert sorted(own_cards(now)) == sorted(POZZETTO0)
    act(client, table, bob, {"type": "draw"})
    act(client, table, bob, {"type": "meld", "cards": ["4D", "5D", "6D", "7D", "8D", "9D", "10D"]})
    act(client, table, bob, {"type": "meld", "cards": ["JC", "JD", "JS"]})
    hearts = meld_id(view(client, table, bob), "B", "3H")
    act(client, table, bob, {"type": "add_to_meld", "meld": hearts, "cards": ["JH"]})
    closing = act(client, table, bob, {"type": "discard", "card": "5C"})
    types = [e["type"] for e in closing["events"]]
    assert "HandClosed" in types and "HandScored" in types

    ledger = client.get(f"/tables/{table}/ledger?after={closing['position']}").json()
    assert set(ledger) == {"teams", "hands", "winner"}
    assert [t["team"] for t in ledger["teams"]] == ["A", "B"]
    assert all(set(team) == {"team", "total"} for team in ledger["teams"])
    first = ledger["hands"][0]
    assert {"hand", "scores"} <= set(first)  # design §5 (the game adds a breakdown)
    assert first["hand"] == 1 and len(first["scores"]) == 2
    totals = {t["team"]: t["total"] for t in ledger["teams"]}
    assert first["scores"] == [totals["A"], totals["B"]]
    # Team B (seat 1): melds 3H-JH (9 cards, 70) + 4D-10D (7 cards, 45) + kings 30 + jacks 30,
    # two clean burracos (400), closing (100), pozzetto taken; nothing left in hand.
    assert totals["B"] == 70 + 45 + 30 + 30 + 400 + 100
    assert totals["A"] < 0  # nothing melded, no pozzetto (-100), cards in hand
    assert ledger["winner"] is None  # target 5000 not reached

    verification = client.get(f"/tables/{table}/hands/1/verify").json()
    assert verification["valid"] is True and verification["deck"] == deck
    events = client.get(f"/tables/{table}/timeline", headers=auth(ann)).json()
    assert {"Dealt", "CardDrawn", "Melded", "Discarded", "PozzettoTaken"} <= {
        e["type"] for e in events
    }
