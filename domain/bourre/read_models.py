"""The Bourré game as the write side, projections and API see it: ``GAME`` (the contract of
:mod:`domain.game`), with the read-model helpers ``ledger``, ``lobby`` and ``counters``."""

from __future__ import annotations

from typing import Any

from domain.bourre.commands import Declare, Draw, PlayCard, SecondChance
from domain.bourre.decide import decide
from domain.bourre.events import (
    Anted,
    CardPlayed,
    DecisionsRevealed,
    Declared,
    HandEvent,
    HandSettled,
    Reshuffled,
    TrickWon,
)
from domain.bourre.evolve import evolve
from domain.bourre.legal import legal_commands, to_act
from domain.bourre.state import Table
from domain.bourre.views import redact, view
from domain.game import Game
from domain.table import (
    CloseTable,
    OpenTable,
    PlayerSeated,
    Seating,
    TableEnded,
    TableOpened,
    TakeSeat,
    hand_of,
    seat_holding,
)

BourreCommand = OpenTable | TakeSeat | CloseTable | Declare | Draw | SecondChance | PlayCard
BourreEvent = TableOpened | PlayerSeated | TableEnded | HandEvent


def settles_hand(event: Any) -> bool:
    return isinstance(event, HandSettled)


def ledger(state: Table | None) -> dict[str, Any]:
    """Design §5: the pot, each player's net, and every settled hand."""
    if state is None:
        return {"pot": 0, "players": [], "hands": []}
    return {
        "pot": state.pot,
        "players": [
            {"seat": seat, "name": state.names[seat], "net": state.nets[seat]}
            for seat in range(state.seats)
        ],
        "hands": [
            {
                "hand": record.hand,
                "pot": record.pot,
                "winner": record.winner,
                "bourre": list(record.bourre),
                "tied": list(record.tied),
            }
            for record in state.history
        ],
    }


def lobby(state: Table | None) -> dict[str, Any]:
    if state is None:
        return {"game": "bourre", "status": "none"}
    return {
        "game": "bourre",
        "seats": state.seats,
        "names": list(state.names),
        "openSeats": [s for s, name in enumerate(state.names) if name is None],
        "status": state.status,
        "hand": state.hand.number if state.hand else 0,
        "pot": state.pot,
    }


def counters(event: Any) -> dict[str, int]:
    """Analytics increments for one event."""
    if isinstance(event, HandSettled):
        return {
            "hands": 1,
            "pot_chips": event.pot,
            "bourres": len(event.bourre),
            "split_pots": 1 if event.tied else 0,
            "solo_wins": 1 if event.solo else 0,
        }
    if isinstance(event, TableOpened):
        return {"tables_opened": 1}
    if isinstance(event, TableEnded):
        return {"tables_ended": 1}
    if isinstance(event, PlayerSeated):
        return {"players_seated": 1}
    if isinstance(event, Declared) and not event.sealed:
        return {"plays": 1} if event.play else {"passes": 1}
    if isinstance(event, DecisionsRevealed):
        plays = sum(event.plays)
        return {"plays": plays, "passes": len(event.plays) - plays}
    if isinstance(event, CardPlayed):
        return {"cards_played": 1}
    if isinstance(event, TrickWon):
        return {"tricks": 1}
    if isinstance(event, Reshuffled):
        return {"reshuffles": 1}
    if isinstance(event, Anted):
        return {"ante_chips": event.amount * len(event.seats)}
    return {}


def seat_for_token(state: Table | None, token_hash: str) -> int | None:
    return None if state is None else seat_holding(state.token_hashes, token_hash)


def seating(state: Table) -> Seating:
    return Seating(
        seats=state.seats,
        names=state.names,
        status=state.status,
        hand=state.hand.number if state.hand else 0,
    )


GAME = Game(
    name="bourre",
    command_type=BourreCommand,
    event_type=BourreEvent,
    decide=decide,
    evolve=evolve,
    legal_commands=legal_commands,
    to_act=to_act,
    view=view,
    redact=redact,
    hand_of=hand_of,
    settles_hand=settles_hand,
    ledger=ledger,
    lobby=lobby,
    counters=counters,
    seat_for_token=seat_for_token,
    seating=seating,
)
