"""The Burraco table as a :class:`domain.game.Game`: the Decider plus visibility and
read-model helpers.

Table life: ``OpenTable`` → ``TableOpened``; ``TakeSeat`` → ``PlayerSeated`` (the last seat
also deals hand 1); hands follow one another (dealer passing left) until a team wins
(``MatchWon``, ``TableEnded(reason="match")``).

``CloseTable`` by a seated player ends the table at once: a real service cannot keep three
players waiting on one who left, so the match is abandoned. The unfinished hand is not scored
(``HandAbandoned`` reveals its deck and salt so the deal can still be verified), the scored
hands stand in the ledger, and there is no winner (``TableEnded(reason="closed")``).
"""

from __future__ import annotations

from typing import Any

from domain.burraco.commands import AddToMeld, BurracoCommand, Discard, Draw, Meld, TakePile
from domain.burraco.deal import deal_hand
from domain.burraco.events import (
    BurracoEvent,
    Dealt,
    HandAbandoned,
    HandClosed,
    HandScored,
    MatchWon,
    Melded,
    PozzettoTaken,
)
from domain.burraco.legal import legal_commands
from domain.burraco.options import check_decks, normalise_options
from domain.burraco.rules import apply, decide_turn
from domain.burraco.state import ENDED, OVER, PLAYING, SEATING, Table, evolve
from domain.burraco.visibility import TEAM_NAMES, redact, view
from domain.errors import IllegalCommand, InvalidOption, SeatUnavailable, TableClosed
from domain.game import Game
from domain.table import (
    MAX_SEED,
    CloseTable,
    OpenTable,
    PlayerSeated,
    Seating,
    TableEnded,
    TableOpened,
    hand_of,
    seat_holding,
)
from domain.table import TakeSeat as TakeSeatCommand

MAX_NAME = 40
HAND_ENDINGS = {"closed": "closings", "stock": "stock_exhausted", "stalemate": "stalemates"}


def decide(table: Table | None, command: Any) -> list[Any]:
    """Decide one command (never mutates ``table``); raises a ``DomainError`` subclass."""
    if isinstance(command, OpenTable):
        return open_table(table, command)
    if table is None:
        raise IllegalCommand("the table is not open")
    if isinstance(command, Draw | TakePile | Meld | AddToMeld | Discard):
        return decide_turn(table, command)
    if table.status == ENDED:
        raise TableClosed("the table is closed")
    if isinstance(command, TakeSeatCommand):
        return take_seat(table, command)
    if isinstance(command, CloseTable):
        return close_table(table, command)
    raise IllegalCommand(f"burraco does not accept {type(command).__name__}")


def open_table(table: Table | None, command: OpenTable) -> list[Any]:
    if table is not None:
        raise IllegalCommand("the table is already open")
    if command.game != "burraco":
        raise InvalidOption("game", f"this is a burraco table, not {command.game!r}")
    seed = command.seed
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise InvalidOption("seed", f"must be an integer from 0 to {MAX_SEED}")
    options = normalise_options(command.options)
    decks = check_decks(command.decks)
    return [TableOpened(game="burraco", options=options, seed=seed, decks=decks)]


def take_seat(table: Table, command: TakeSeatCommand) -> list[Any]:
    """Players sit until every seat is taken; the last one also deals hand 1 (rule 4)."""
    if table.status != SEATING:
        raise SeatUnavailable("the table is full")
    name = command.name.strip() if isinstance(command.name, str) else ""
    if not name or len(name) > MAX_NAME:
        raise IllegalCommand(f"a player's name must be 1 to {MAX_NAME} characters")
    free = [seat for seat, taken in enumerate(table.seats) if taken is None]
    seat = command.seat
    if seat is None:
        seat = free[0]
    elif isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < table.players:
        raise SeatUnavailable(f"there is no seat {seat!r}: seats are 0 to {table.players - 1}")
    elif seat not in free:
        raise SeatUnavailable(f"seat {seat} is taken")
    events: list[Any] = [PlayerSeated(seat=seat, name=name, token_hash=command.token_hash)]
    if len(free) == 1:
        events.append(deal_hand(apply(table, events), 1))
    return events


def close_table(table: Table, command: CloseTable) -> list[Any]:
    """A seated player closes the table; an unfinished hand is abandoned (module docstring)."""
    seat = command.seat
    if not (isinstance(seat, int) and 0 <= seat < table.players and table.seats[seat]):
        raise IllegalCommand("only a seated player may close the table")
    events: list[Any] = []
    r = table.round
    if table.status == PLAYING and r is not None and r.phase != OVER:
        events.append(HandAbandoned(hand=r.number, deck=list(r.deck), salt=r.salt))
    events.append(TableEnded(reason="closed"))
    return events


def to_act(table: Table | None) -> frozenset[int]:
    if table is None or table.status != PLAYING or table.round is None:
        return frozenset()
    if table.round.phase == OVER:
        return frozenset()
    return frozenset((table.round.turn,))


def settles_hand(event: Any) -> bool:
    return isinstance(event, HandScored | HandAbandoned)


def ledger(table: Table | None) -> dict[str, Any]:
    """Design §5: ``{"teams": [{"team","total"}], "hands": [{"hand","scores"}], "winner"}``;
    each hand also carries its breakdown per team (rules 22–26)."""
    if table is None:
        return {"teams": [], "hands": [], "winner": None}
    return {
        "teams": [{"team": TEAM_NAMES[t], "total": table.totals[t]} for t in (0, 1)],
        "hands": [
            {
                "hand": scored.hand,
                "scores": [s.total for s in scored.scores],
                "breakdown": [
                    {
                        "team": TEAM_NAMES[t],
                        "melds": s.melds,
                        "inHand": s.in_hand,
                        "burracos": s.burracos,
                        "closing": s.closing,
                        "pozzetto": s.pozzetto,
                        "total": s.total,
                    }
                    for t, s in enumerate(scored.scores)
                ],
            }
            for scored in table.results
        ],
        "winner": TEAM_NAMES[table.winner] if table.winner is not None else None,
    }


def lobby(table: Table | None) -> dict[str, Any]:
    if table is None:
        return {"game": "burraco", "seats": 0, "names": [], "status": "unopened", "hand": 0}
    return {
        "game": "burraco",
        "seats": table.players,
        "names": [s.name if s else None for s in table.seats],
        "status": table.status,
        "hand": table.round.number if table.round else 0,
        "totals": list(table.totals),
        "target": table.options.target,
    }


def counters(event: Any) -> dict[str, int]:
    """Analytics increments for one event."""
    if isinstance(event, TableOpened):
        return {"tables": 1}
    if isinstance(event, Dealt):
        return {"hands_dealt": 1}
    if isinstance(event, Melded):
        return {"melds": 1}
    if isinstance(event, PozzettoTaken):
        kind = "pozzetti_direct" if event.direct else "pozzetti_on_discard"
        return {"pozzetti": 1, kind: 1}
    if isinstance(event, HandClosed):
        return {HAND_ENDINGS.get(event.reason, "hands_ended"): 1}
    if isinstance(event, HandScored):
        return {
            "hands": 1,
            "burracos_clean": sum(s.clean_burracos for s in event.scores),
            "burracos_dirty": sum(s.dirty_burracos for s in event.scores),
        }
    if isinstance(event, MatchWon):
        return {"matches": 1}
    return {}


def seat_for_token(table: Table | None, token_hash: str) -> int | None:
    if table is None:
        return None
    return seat_holding((s.token_hash if s is not None else None for s in table.seats), token_hash)


def seating(table: Table) -> Seating:
    """The kernel's facts; Burraco's ``seating`` status reads as every game's ``waiting``."""
    return Seating(
        seats=table.players,
        names=tuple(s.name if s else None for s in table.seats),
        status="waiting" if table.status == SEATING else table.status,
        hand=table.round.number if table.round else 0,
    )


GAME = Game(
    name="burraco",
    command_type=BurracoCommand,
    event_type=BurracoEvent,
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
