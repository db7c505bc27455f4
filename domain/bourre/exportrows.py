"""Bourré's columns in the export's ``hands`` and ``results`` rows (``docs/analytics.md``):
antes, declarations, the pot and who took it, bourrés (rules 5–7, 11, 23–27), read from the
hand's public events (``HandRows`` of its ``House``, :mod:`domain.house`)."""

from __future__ import annotations

from typing import Any

from domain.house import HandFacts, HandRows, dealer_row

HAND_COLUMNS = {
    "trump": "VARCHAR", "trump_card": "VARCHAR", "first_declarer": "INTEGER",
    "players_in": "INTEGER", "pot": "DECIMAL(38,0)", "winners": "INTEGER[]",
    "bourre": "INTEGER[]", "tied": "INTEGER[]",
}  # fmt: skip
SEAT_COLUMNS = {
    "won": "BOOLEAN", "played": "BOOLEAN", "bourre": "BOOLEAN", "chips": "DECIMAL(38,0)",
}  # fmt: skip


def summarise(hand: HandFacts, row: dict[str, Any], seats: list[dict[str, Any]]) -> None:
    """Antes, declarations, the pot and who took it, bourrés (rules 5–7, 11, 23–27)."""
    dealer_row(hand, row, seats)
    dealt = hand.first.get("Dealt") or {}
    row["trump"], row["trump_card"] = dealt.get("trump"), dealt.get("trumpCard")
    paid = [0] * len(seats)
    played: dict[int, bool] = {}
    for event in hand.events:
        if event["type"] == "Anted":
            for seat in event["seats"]:
                paid[seat] += event["amount"]
        elif event["type"] == "Declared":
            if row["first_declarer"] is None:
                row["first_declarer"] = event["seat"]
            if "play" in event:
                played[event["seat"]] = event["play"]
        elif event["type"] == "DecisionsRevealed":
            played.update(enumerate(event["plays"]))
    settled = hand.first.get("HandSettled")
    if settled is None:
        return
    winner = settled.get("winner")
    row["pot"] = settled["pot"]
    row["winners"] = [winner] if winner is not None else list(settled.get("tied", []))
    row["bourre"], row["tied"] = list(settled["bourre"]), list(settled.get("tied", []))
    row["players_in"] = sum(1 for play in played.values() if play)
    for seat, result in enumerate(seats):
        in_bourre = seat in settled["bourre"]
        net = settled["payouts"][seat] - paid[seat]
        net -= settled["bourrePayment"] if in_bourre else 0
        result.update(won=seat in row["winners"], played=played.get(seat), bourre=in_bourre)
        result["chips"] = net


ROWS = HandRows(
    summarise=summarise,
    reads=frozenset({"Dealt", "Anted", "Declared", "DecisionsRevealed", "HandSettled"}),
    hand_columns=HAND_COLUMNS,
    seat_columns=SEAT_COLUMNS,
)
