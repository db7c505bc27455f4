"""``decide(state, command) -> events`` for a Burraco table.

Table life: ``OpenTable`` → ``TableOpened``; ``TakeSeat`` → ``PlayerSeated`` (the last seat
also deals hand 1); hands follow one another (dealer passing left) until a team wins
(``MatchWon``, ``TableEnded(reason="match")``). The table-level commands are decided by the
table kernel (:mod:`domain.table.kernel`); Burraco plugs in its options, its 108-card pack,
the deal of hand 1 when the last seat fills, and what closing means in play. The turn's five
commands are :mod:`domain.burraco.turn`'s.

``CloseTable`` by a seated player in play asks to end the match by agreement
(docs/rules/burraco.md rule 28): it records ``CloseAsked``; the match ends once every
seated person has asked this hand (bots agree at once, sat-out seats do not block; the next
deal clears the requests). The unfinished hand is then not scored (``HandAbandoned`` reveals
its deck and salt so the deal can still be verified), the scored hands stand in the ledger,
and there is no winner (``TableEnded(reason="closed")``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.burraco.closing import discard
from domain.burraco.commands import AddToMeld, Discard, Draw, Meld, PlayerCommand, TakePile
from domain.burraco.deal import PACK, deal_hand
from domain.burraco.events import HandAbandoned
from domain.burraco.evolve import evolve, vacate
from domain.burraco.options import normalise_options
from domain.burraco.state import ENDED, OVER, PLAYING, Round, Table, seat_for_token, seating
from domain.burraco.turn import Decision, add_to_meld, draw, meld, playing_round, take_pile
from domain.errors import IllegalCommand
from domain.table import CloseAsked, TableEnded
from domain.table.kernel import TableRules, decide_table


def decision(table: Table | None, command: Any) -> Decision:
    """Decide one command (never mutates ``table``): its events and the table after them;
    raises a ``DomainError`` subclass."""
    rule = _TURN.get(type(command))
    if rule is not None and table is not None and table.status != ENDED:
        # a turn's command: the kernel has no say in it (turn_decision, in one step)
        return rule(table, playing_round(table, command.seat), command)
    events = decide_table(TABLE, table, command)
    if events is not None:
        after = table
        for event in events:
            after = evolve(after, event)
        assert after is not None
        return events, after
    assert table is not None
    if isinstance(command, Draw | TakePile | Meld | AddToMeld | Discard):
        return turn_decision(table, command)
    raise IllegalCommand(f"burraco does not accept {type(command).__name__}")


def decide(table: Table | None, command: Any) -> list[Any]:
    """Decide one command: its events (see :func:`decision`)."""
    return decision(table, command)[0]


def turn_decision(table: Table, command: PlayerCommand) -> Decision:
    """One of the turn's five commands, by the seat whose turn it is."""
    r = playing_round(table, command.seat)
    rule = _TURN.get(type(command))
    if rule is None:  # a subclass of one of them
        rule = next(_TURN[k] for k in type(command).__mro__ if k in _TURN)
    return rule(table, r, command)


# the turn's commands by type (a table-level command is the kernel's: decide_table has nothing
# to say of these unless the table is not open or has ended)
_TURN: dict[type, Callable[[Table, Round, Any], Decision]] = {
    Draw: draw,
    TakePile: take_pile,
    Meld: meld,
    AddToMeld: add_to_meld,
    Discard: discard,
}


def decide_turn(table: Table, command: PlayerCommand) -> list[Any]:
    """The events of one of the turn's commands (what ``legal_commands`` checks)."""
    return turn_decision(table, command)[0]


def close_in_play(table: Table, seat: int) -> list[Any]:
    """A seated player asks to end the match; once every seated person has asked, an
    unfinished hand is abandoned and the table ends (module docstring)."""
    if seat in table.close_asked:
        raise IllegalCommand("this seat has already asked to end the match this hand")
    asked = {*table.close_asked, seat, *table.bots, *table.sat_out}
    if not asked.issuperset(s for s, taken in enumerate(table.seats) if taken is not None):
        return [CloseAsked(seat=seat, hand=table.round.number if table.round else 0)]
    events: list[Any] = []
    r = table.round
    if table.status == PLAYING and r is not None and r.phase != OVER:
        events.append(HandAbandoned(hand=r.number, deck=list(r.deck), salt=r.salt))
    events.append(TableEnded(reason="closed"))
    return events


TABLE: TableRules[Table] = TableRules(
    game="burraco",
    title="burraco",
    options=normalise_options,
    pack=PACK,
    seating=seating,
    seat_for_token=seat_for_token,
    evolve=evolve,
    start=lambda table: [deal_hand(table, 1)],  # rule 4: seat 0 deals hand 1
    close=close_in_play,
    vacate=vacate,
)
