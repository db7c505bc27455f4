"""Burraco's columns in the export's ``hands`` and ``results`` rows (``docs/analytics.md``):
the first discard, pozzetti, how the hand ended and its scores (rules 15–27), read from the
hand's public events (``HandRows`` of its ``House``, :mod:`domain.house`)."""

from __future__ import annotations

from typing import Any

from domain.house import HandFacts, HandRows, dealer_row

HAND_COLUMNS = {
    "first_discard": "VARCHAR", "pozzetto_first_team": "INTEGER", "pozzetti": "INTEGER",
    "ending": "VARCHAR", "closer": "INTEGER", "scores": "INTEGER[]",
    "clean_burracos": "INTEGER", "dirty_burracos": "INTEGER", "match_winner": "INTEGER",
    "winners": "INTEGER[]",
}  # fmt: skip
SEAT_COLUMNS = {"team": "INTEGER", "won": "BOOLEAN", "points": "INTEGER"}


def summarise(hand: HandFacts, row: dict[str, Any], seats: list[dict[str, Any]]) -> None:
    """The first discard, pozzetti, how the hand ended and its scores (rules 15–27)."""
    dealer_row(hand, row, seats)
    first = hand.first
    dealt = first.get("Dealt") or {}
    row["first_discard"] = dealt.get("firstDiscard")
    taken = [e for e in hand.events if e["type"] == "PozzettoTaken"]
    row["pozzetti"] = len(taken)
    row["pozzetto_first_team"] = taken[0]["team"] if taken else None
    closed = first.get("HandClosed")
    row["ending"] = closed["reason"] if closed else "abandoned"
    row["closer"] = closed.get("seat") if closed else None
    won = first.get("MatchWon")
    row["match_winner"] = won["team"] if won else None
    scored = first.get("HandScored")
    for seat, result in enumerate(seats):
        result["team"] = seat % 2  # partners sit opposite; heads-up each seat is a team
    if scored is None:
        return
    totals = [score["total"] for score in scored["scores"]]
    row["scores"] = totals
    row["clean_burracos"] = sum(score.get("cleanBurracos", 0) for score in scored["scores"])
    row["dirty_burracos"] = sum(score.get("dirtyBurracos", 0) for score in scored["scores"])
    best = max(totals)
    winning = [team for team, total in enumerate(totals) if total == best]
    row["winners"] = [s for s in range(len(seats)) if len(winning) == 1 and s % 2 in winning]
    for result in seats:
        result["points"] = totals[result["team"]]
        result["won"] = result["seat"] in row["winners"]


ROWS = HandRows(
    summarise=summarise,
    reads=frozenset({"Dealt", "PozzettoTaken", "HandClosed", "MatchWon", "HandScored"}),
    hand_columns=HAND_COLUMNS,
    seat_columns=SEAT_COLUMNS,
)
