"""What each viewer may see (design §5 visibility): ``view`` of the table and ``redact`` of
one event.

A seat sees its own hand: the cards dealt, drawn, taken from the pile and its pozzetto — a
pozzetto taken on the discard only from its next turn (rule 17). Partners do not see each
other's hands. Everyone sees melds, the discard pile, pile takes, discards, hand sizes, the
stock size and which pozzetti remain. Spectators see public facts only. The table's seed,
secret, stacked decks and token hashes are never shown. ``revealed`` (a settled hand, when the
``reveal`` option allows) shows every hand, the deck and the salt.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.burraco.deal import deal
from domain.burraco.events import (
    CardDrawn,
    Dealt,
    HandAbandoned,
    HandScored,
    PozzettoOpened,
    PozzettoTaken,
)
from domain.burraco.state import OVER, PLAYING, Table, team_of
from domain.burraco.values import points_of
from domain.game import Viewer
from domain.table import PlayerSeated, TableOpened

TEAM_NAMES = ("A", "B")


def _meld_view(meld: Any) -> dict[str, Any]:
    layout = meld.layout
    return {
        "id": meld.id,
        "kind": layout.kind,
        "cards": list(layout.cards),
        "suit": layout.suit,
        "rank": layout.rank,
        "low": layout.low,
        "wild": layout.wild,
        "clean": layout.clean,
        "burraco": layout.burraco,
        "points": points_of(layout.cards),
    }


def view(table: Table | None, viewer: Viewer = None, revealed: bool = False) -> dict[str, Any]:
    """The table as ``viewer`` (a seat, or ``None`` for a spectator) may see it."""
    if table is None:
        return {"game": "burraco", "status": "unopened"}
    n = table.players
    r = table.round
    own = viewer if isinstance(viewer, int) and 0 <= viewer < n else None
    playing = table.status == PLAYING and r is not None and r.phase != OVER
    seats: list[dict[str, Any]] = []
    for seat in range(n):
        taken = table.seats[seat]
        entry: dict[str, Any] = {
            "seat": seat,
            "name": taken.name if taken else None,
            "team": TEAM_NAMES[team_of(seat)],
        }
        if r is not None:
            entry["cardCount"] = len(r.hands[seat])
            entry["sealedPozzetto"] = len(r.sealed[seat])
            entry["tookPozzetto"] = seat in r.pozzetto_seats
            if revealed or seat == own:
                entry["cards"] = list(r.hands[seat])
                if revealed:
                    entry["sealedCards"] = list(r.sealed[seat])
        seats.append(entry)
    teams: list[dict[str, Any]] = []
    for team in (0, 1):
        teams.append(
            {
                "team": TEAM_NAMES[team],
                "seats": [s for s in range(n) if team_of(s) == team],
                "score": table.totals[team],
                "pozzetto": r.pozzetto_of_team[team] if r is not None else None,
                "melds": [_meld_view(m) for m in r.melds if m.team == team] if r else [],
            }
        )
    out: dict[str, Any] = {
        "game": "burraco",
        "status": table.status,
        "options": dict(table.raw_options),
        "hand": r.number if r else 0,
        "dealer": r.dealer if r else None,
        "phase": r.phase if r else None,
        "toAct": [r.turn] if playing and r is not None else [],
        "seats": seats,
        "teams": teams,
        "discardPile": list(r.pile) if r else [],
        "stockCount": r.stock_count if r else 0,
        "pozzettiLeft": [i for i in (0, 1) if r is not None and r.pozzetti[i]],
        "commitment": r.commitment if r else None,
        "fixedDeals": table.fixed_deals,
        "lastTurn": r.last_turn if r else False,
        "handsScored": len(table.results),
        "lastHand": msgspec.to_builtins(table.results[-1].scores) if table.results else None,
        "winner": TEAM_NAMES[table.winner] if table.winner is not None else None,
        "yourSeat": own,
    }
    if r is not None and r.phase == OVER:
        out["endReason"] = r.end_reason
        out["closedBy"] = r.closed_by
    if revealed and r is not None:
        out["deck"] = list(r.deck)
        out["salt"] = r.salt
        out["pozzetti"] = [list(p) for p in r.pozzetti]
    return out


def redact(event: Any, viewer: Viewer, revealed: bool) -> dict[str, Any]:
    """One event as ``viewer`` may see it (JSON-ready, camelCase, with ``type``)."""
    data: dict[str, Any] = msgspec.to_builtins(event)
    if isinstance(event, TableOpened):
        data.pop("seed", None)
        data.pop("decks", None)
        data.pop("secret", None)
        data["stackedDecks"] = bool(event.decks)
    elif isinstance(event, PlayerSeated):
        data.pop("tokenHash", None)
    elif isinstance(event, Dealt):
        if not revealed:
            data.pop("deck", None)
            data.pop("salt", None)
        hands, _, _, _ = deal(tuple(event.deck), event.dealer, event.players)
        if isinstance(viewer, int) and 0 <= viewer < event.players:
            data["cards"] = list(hands[viewer])
        if revealed:
            data["hands"] = [list(h) for h in hands]
    elif isinstance(event, CardDrawn):
        if not revealed and viewer != event.seat:
            data.pop("card", None)
    elif isinstance(event, PozzettoTaken):
        # rule 17: taken on the discard, even the taker may not look until the next turn
        shown = revealed or (event.direct and viewer == event.seat)
        if not shown:
            data.pop("cards", None)
            data["cardCount"] = len(event.cards)
    elif isinstance(event, PozzettoOpened):
        if not revealed and viewer != event.seat:
            data.pop("cards", None)
            data["cardCount"] = len(event.cards)
    elif isinstance(event, HandScored | HandAbandoned) and not revealed:
        data.pop("deck", None)
        data.pop("salt", None)
    return data


def spectator_redacted(revealed: bool) -> tuple[type, ...]:
    """The event classes ``redact`` changes for a spectator (``viewer`` ``None``) when its hand's
    cards may show (``revealed``) or not; it shows every other event as stored
    (``msgspec.to_builtins``). The redaction plan of a reader of many events (the export)."""
    always = (TableOpened, PlayerSeated, Dealt)
    if revealed:
        return always
    return (*always, CardDrawn, PozzettoTaken, PozzettoOpened, HandScored, HandAbandoned)
