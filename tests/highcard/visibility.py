"""What each viewer sees: its own cards, every card played, the wins; a settled hand (when the
``reveal`` option allows) shows every hand, the deck and the salt. Seed, stacked decks and
token hashes never."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.game import Viewer
from domain.table import PlayerSeated, TableOpened
from tests.highcard.events import Dealt, HandWon
from tests.highcard.rules import to_act
from tests.highcard.state import Table


def view(state: Table | None, viewer: Viewer = None, revealed: bool = False) -> dict[str, Any]:
    if state is None:
        return {"game": "highcard", "status": "none"}
    hand = state.hand
    seats = []
    for seat in range(state.seats):
        entry: dict[str, Any] = {
            "seat": seat,
            "name": state.names[seat],
            "wins": state.wins[seat],
            "cardCount": len(hand.holdings[seat]) if hand else 0,
            "played": hand.played[seat] if hand else None,
        }
        if hand and (seat == viewer or revealed):
            entry["cards"] = list(hand.holdings[seat])
        seats.append(entry)
    out: dict[str, Any] = {
        "game": "highcard",
        "status": state.status,
        "options": dict(state.options),
        "hand": hand.number if hand else 0,
        "dealer": hand.dealer if hand else None,
        "commitment": hand.commitment if hand else None,
        "fixedDeals": state.fixed_deals,
        "winner": hand.winner if hand else None,
        "toAct": sorted(to_act(state)),
        "seats": seats,
        "yourSeat": viewer,
    }
    if hand and revealed:
        out["deck"], out["salt"] = list(hand.deck), hand.salt
    return out


def redact(event: Any, viewer: Viewer, revealed: bool) -> dict[str, Any]:
    data: dict[str, Any] = msgspec.to_builtins(event)
    if isinstance(event, TableOpened):
        data.pop("seed", None)
        data.pop("secret", None)
        data.pop("decks", None)
    elif isinstance(event, PlayerSeated):
        data.pop("tokenHash", None)
    elif isinstance(event, Dealt) and not revealed:
        del data["deck"], data["salt"]
        data["hands"] = [
            cards if seat == viewer else None for seat, cards in enumerate(event.hands)
        ]
        data["cardCounts"] = [len(cards) for cards in event.hands]
    elif isinstance(event, HandWon) and not revealed:
        del data["deck"], data["salt"]
    return data
