"""What each viewer may see (design §5 visibility): ``view`` of a table and ``redact`` of
one event.

A seat sees its own cards (dealt, discarded, drawn); the others see counts and public facts:
the face-up trump card, plays, tricks, declarations (sealed ``simultaneous`` decisions only
once revealed, rule 31). Spectators see public facts only. The seed, the secret, stacked decks
and token hashes are never shown; a settled hand (``revealed``) shows its cards, deck and salt.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.bourre.events import Dealt, Declared, Discarded, HandSettled, Reshuffled
from domain.bourre.legal import to_act
from domain.bourre.state import DECLARE, Hand, Table
from domain.game import Viewer
from domain.table import PlayerSeated, TableOpened


def redact(event: Any, viewer: Viewer, revealed: bool = False) -> dict[str, Any]:
    """One event as ``viewer`` may see it, JSON-ready (camelCase, with ``type``)."""
    data: dict[str, Any] = msgspec.to_builtins(event)
    if isinstance(event, TableOpened):
        data.pop("seed", None)
        data.pop("decks", None)
        data.pop("secret", None)
        return data
    if isinstance(event, PlayerSeated):
        data.pop("tokenHash", None)
        return data
    if revealed:
        return data
    if isinstance(event, Dealt):
        del data["deck"], data["salt"]
        data["cardCounts"] = [len(cards) for cards in event.hands]
        data["hands"] = [
            cards if seat == viewer else None for seat, cards in enumerate(event.hands)
        ]
    elif isinstance(event, Declared):
        if event.sealed and viewer != event.seat:
            del data["play"]
    elif isinstance(event, Discarded):
        if viewer != event.seat:
            data["discardCount"] = len(event.discarded)
            data["drawnCount"] = len(event.drawn)
            data["discarded"] = None
            data["drawn"] = None
    elif isinstance(event, Reshuffled):
        data["poolSize"] = len(event.pool)
        del data["pool"], data["order"]
    elif isinstance(event, HandSettled):
        del data["deck"], data["salt"]
    return data


def spectator_redacted(revealed: bool) -> tuple[type, ...]:
    """The event classes ``redact`` changes for a spectator (``viewer`` ``None``) when its hand's
    cards may show (``revealed``) or not; it shows every other event as stored
    (``msgspec.to_builtins``). The redaction plan of a reader of many events (the export)."""
    if revealed:
        return (TableOpened, PlayerSeated)
    return (TableOpened, PlayerSeated, Dealt, Declared, Discarded, Reshuffled, HandSettled)


def _passed(hand: Hand, seat: int, viewer: Viewer, revealed: bool) -> bool | None:
    """Whether ``seat`` is out of the hand, as ``viewer`` knows it (``None``: undecided or
    sealed)."""
    decided = hand.decisions[seat]
    if decided is None:
        return None
    if not hand.revealed and seat != viewer and not revealed:
        return None
    return not hand.active(seat)


def _trick(hand: Hand) -> list[dict[str, Any]]:
    return [{"seat": seat, "card": c.code} for seat, c in hand.trick]


def view(state: Table | None, viewer: Viewer = None, revealed: bool = False) -> dict[str, Any]:
    """The table as ``viewer`` (a seat, or ``None`` for a spectator) may see it."""
    if state is None:
        return {"game": "bourre", "status": "none"}
    hand = state.hand
    seats: list[dict[str, Any]] = []
    for seat in range(state.seats):
        entry: dict[str, Any] = {
            "seat": seat,
            "name": state.names[seat],
            "net": state.nets[seat],
            "tricks": hand.tricks[seat] if hand else 0,
            "passed": _passed(hand, seat, viewer, revealed) if hand else None,
            "cardCount": len(hand.holdings[seat]) if hand else 0,
        }
        if hand and (seat == viewer or revealed):
            entry["cards"] = [c.code for c in hand.holdings[seat]]
            entry["discarded"] = [c.code for c in hand.discards[seat]]
        seats.append(entry)
    result: dict[str, Any] = {
        "game": "bourre",
        "status": state.status,
        "options": dict(state.raw_options),
        "hand": hand.number if hand else 0,
        "dealer": hand.dealer if hand else None,
        "trump": hand.trump.value if hand else None,
        "trumpCard": hand.trump_card.code if hand else None,
        "trumpCardOwner": hand.trump_card_owner if hand else None,
        "commitment": hand.commitment if hand else None,
        "fixedDeals": state.fixed_deals,
        "pot": state.pot,
        "phase": hand.phase if hand else "seating",
        "toAct": sorted(to_act(state)),
        "seats": seats,
        "trick": _trick(hand) if hand else [],
        "lastTrick": [{"seat": s, "card": c.code} for s, c in hand.last_trick] if hand else [],
        "tricksPlayed": hand.tricks_played if hand else 0,
        "stockCount": len(hand.stock) if hand else 0,
        "closeRequested": state.close_requested,
        "endReason": state.end_reason,
        "yourSeat": viewer,
    }
    if hand is not None and viewer is not None and 0 <= viewer < state.seats:
        result["cards"] = [c.code for c in hand.holdings[viewer]]
    if hand is not None and revealed:
        result["deck"] = list(hand.deck)
        result["salt"] = hand.salt
    if hand is not None and hand.phase == DECLARE and not hand.revealed:
        result["decided"] = [d is not None for d in hand.decisions]
    return result
