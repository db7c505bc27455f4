"""``decide(state, command) -> events`` for a Bourré table.

A command is checked and turned into its events; then the table's automatic consequences
follow in the same decision: a full trick is won (rule 18), a finished hand is settled
(rules 16, 23–27), and the next hand starts at once with its antes and deal (rules 4–10) —
until option ``hands`` is reached, a player's net reaches ``target_chips``, or closing was
requested.

Table-level commands (``open_table``, ``take_seat``, ``close_table``) are decided by the
table kernel (:mod:`domain.table.kernel`); Bourré plugs in its options, its 52-card pack, the
antes and deal of hand 1 when the last seat fills, and what closing means in play: during a hand
the request is recorded (``CloseRequested``) and the hand is played out and settled first;
then the table ends instead of dealing again. A real table never lets a player walk away
from a hand whose pot they might be bourré into, and the chips stay conserved either way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from domain.bourre.codes import CARD_AT, CODE, CODE_AT, PACK_CODES
from domain.bourre.commands import Declare, Draw, PlayCard, SecondChance
from domain.bourre.deal import deal
from domain.bourre.declaring import decide_declare, decide_draw, decide_second_chance
from domain.bourre.events import (
    Anted,
    CardPlayed,
    CloseRequested,
    DecisionsRevealed,
    Discarded,
    HandSettled,
    TrickWon,
)
from domain.bourre.evolve import card_played, discarded, evolve, trick_won, vacate
from domain.bourre.options import normalise_options
from domain.bourre.playing import decide_play, play_index
from domain.bourre.settlement import settle
from domain.bourre.state import (
    DECLARE,
    ENDED,
    PLAY,
    PLAYING,
    SETTLED,
    SETTLING,
    Hand,
    Table,
    seat_for_token,
    seating,
)
from domain.errors import IllegalCommand
from domain.table import Event, TableEnded
from domain.table.kernel import TableRules, decide_table


def close_in_play(table: Table, seat: int) -> list[Event]:
    """Closing during a hand: recorded, and the table ends once the hand settles."""
    if table.hand is None:
        return [TableEnded(reason="closed")]
    if table.close_requested:
        raise IllegalCommand("closing is already requested: the table ends when this hand settles")
    return [CloseRequested(hand=table.hand.number, seat=seat)]


def _player_hand(table: Table, seat: int) -> Hand:
    seats = table.options.seats
    if not 0 <= seat < seats:
        raise IllegalCommand(f"there is no seat {seat}: seats are 0 to {seats - 1}")
    hand = table.hand
    if hand is None:
        waiting = sum(name is None for name in table.names)
        raise IllegalCommand(f"the hand has not started: waiting for {waiting} more player(s)")
    return hand


def start_hand(table: Table, number: int) -> list[Event]:
    """Rules 5–7 and 30: antes before the deal — everyone for the first hand or with
    ``double_ante``; later, everyone but last hand's bourré and tied players (rule 6)."""
    options = table.options
    exempt = frozenset() if number == 1 or options.double_ante else table.exempt
    seats = [s for s in range(options.seats) if s not in exempt]
    events: list[Event] = []
    if seats:
        events.append(Anted(hand=number, seats=seats, amount=options.ante))
    events.append(deal(table, number))
    return events


def _reveal(table: Table, hand: Hand) -> list[Event]:
    """Rule 31 (``simultaneous``): show every decision together; if all passed, the dealer
    plays (rule 16). Those who play then pay the second ante (rule 30)."""
    plays = [bool(d) for d in hand.decisions]
    forced = not any(plays)
    if forced:
        plays[hand.dealer] = True
    events: list[Event] = [DecisionsRevealed(hand=hand.number, plays=plays, dealer_forced=forced)]
    if table.options.double_ante:
        seats = [s for s, p in enumerate(plays) if p]
        events.append(
            Anted(hand=hand.number, seats=seats, amount=table.options.ante, reason="double_ante")
        )
    return events


def _settle(table: Table, hand: Hand) -> HandSettled:
    options = table.options
    solo = hand.tricks_played < options.hand_size
    result = settle(
        table.pot,
        hand.tricks,
        hand.playing,
        pot_limit=options.pot_limit,
        tie=options.tie,
        solo=solo,
    )
    return HandSettled(
        hand=hand.number,
        pot=result.pot,
        cap=result.cap,
        winner=result.winner,
        payouts=result.payouts,
        tricks=list(hand.tricks),
        bourre=result.bourre,
        bourre_payment=result.bourre_payment,
        tied=result.tied,
        carried=result.carried,
        solo=result.solo,
        deck=list(hand.deck),
        salt=hand.salt,
    )


def _trick_won(hand: Hand) -> TrickWon:
    """Rule 18: the full trick goes to the seat of its heading card (kept by ``evolve`` card
    by card)."""
    trick = hand.trick
    cards = [c for _, c in trick]
    best = hand.best
    return TrickWon(
        hand=hand.number,
        trick=hand.tricks_played + 1,
        seat=trick[cards.index(CARD_AT[best])][0],
        card=CODE_AT[best],
        cards=list(map(CODE.__getitem__, cards)),
    )


def follow_up(table: Table) -> list[Event]:
    """The events that follow on their own from ``table`` (none when someone must act)."""
    if table.status != PLAYING:
        return []
    hand = table.hand
    if hand is None:
        return []
    phase = hand.phase
    if phase == PLAY:
        if hand.turn is None:  # every active player has played to the trick
            return [_trick_won(hand)]
        return []
    if phase == DECLARE:
        if not hand.revealed and all(d is not None for d in hand.decisions):
            return _reveal(table, hand)
        return []
    if phase == SETTLING:
        return [_settle(table, hand)]
    if phase == SETTLED:
        limit = table.options.hands
        if limit is not None and hand.number >= limit:
            return [TableEnded(reason="hands")]
        target = table.options.target_chips
        if target is not None and max(table.nets) >= target:
            return [TableEnded(reason="target_chips")]
        if table.close_requested:
            return [TableEnded(reason="closed")]
        return start_hand(table, hand.number + 1)
    return []


# the rule of each player command: (table, the hand in play, command) -> events
_PLAYER: dict[type, Callable[[Table, Hand, Any], list[Event]]] = {
    PlayCard: decide_play,
    Declare: decide_declare,
    Draw: decide_draw,
    SecondChance: decide_second_chance,
}


def _command_events(table: Table, command: Any) -> list[Event]:
    decider = next((rule for kind, rule in _PLAYER.items() if isinstance(command, kind)), None)
    if decider is None:
        raise IllegalCommand(f"not a Bourré command: {type(command).__name__}")
    return decider(table, _player_hand(table, command.seat), command)


def _then(events: list[Event], table: Table) -> tuple[list[Event], Table]:
    """``events`` (already applied to ``table``) followed by their automatic consequences,
    each applied in turn; and the state after them all."""
    more = follow_up(table)
    while more:
        events.extend(more)
        for event in more:
            table = evolve(table, event)
        more = follow_up(table)
    return events, table


def _play_card(table: Table, command: PlayCard) -> tuple[list[Event], Table]:
    """``play_card``, the commonest command, decided and applied in one step: the card's
    index is found once and :func:`domain.bourre.evolve.card_played` applies it (what
    ``evolve`` does with the ``CardPlayed`` event); only a full trick has consequences."""
    seat = command.seat
    hand = table.hand
    if hand is None or not 0 <= seat < table.options.seats:
        hand = _player_hand(table, seat)  # says why not
    index = play_index(table, hand, command)
    events: list[Event] = [CardPlayed(hand=hand.number, seat=seat, card=CODE_AT[index])]
    after = card_played(hand, seat, index)
    if after.turn is not None or table.status != PLAYING:  # the trick goes on: nothing follows
        return events, replace(table, hand=after)
    won = _trick_won(after)  # what follow_up answers for a full trick
    events.append(won)
    after = trick_won(after, won, table.options)
    table = replace(table, hand=after)
    if after.phase == PLAY:  # the winner leads the next trick
        return events, table
    return _then(events, table)


def _declare(table: Table, command: Declare) -> tuple[list[Event], Table]:
    """``declare``: decided by its rule; a play in ``sequential`` declaration with no second
    ante and no reshuffle (``Declared`` then ``Discarded``) is applied in one step — the
    decision recorded, then the draw, whose ``advance`` names the next seat (after the
    ``Declared`` alone the turn stays with the seat, which still draws)."""
    hand = _player_hand(table, command.seat)
    events = decide_declare(table, hand, command)
    if len(events) == 2 and type(events[1]) is Discarded:
        table = replace(table, hand=discarded(hand, events[1], table.options, declared=True))
    else:
        for event in events:
            table = evolve(table, event)
    return _then(events, table)


def decision(state: Table | None, command: Any) -> tuple[list[Event], Table]:
    """Decide one command; its events (the command's, then their automatic consequences) and
    the state after them, evolved once while deciding. Table-level commands are the kernel's;
    a player command at a table that has not ended goes straight to its rule (the kernel
    answers ``None`` for it, see :func:`domain.table.kernel.decide_table`)."""
    kind = type(command)
    if kind is PlayCard and state is not None and state.status != ENDED:
        return _play_card(state, command)
    if kind is Declare and state is not None and state.status != ENDED:
        return _declare(state, command)
    decider = _PLAYER.get(kind)
    if decider is not None and state is not None and state.status != ENDED:
        events = decider(state, _player_hand(state, command.seat), command)
    else:
        table_events = decide_table(TABLE, state, command)
        if state is None:
            assert table_events is not None
            return table_events, evolve(None, table_events[0])
        events = _command_events(state, command) if table_events is None else table_events
    table = state
    for event in events:
        table = evolve(table, event)
    return _then(events, table)


def decide_and_evolve(state: Table | None, command: Any) -> tuple[Table, list[Event]]:
    """:func:`decision` as (the state after the events, the events)."""
    events, table = decision(state, command)
    return table, events


def decide(state: Table | None, command: Any) -> list[Event]:
    """Decide one command; returns its events followed by their automatic consequences."""
    return decision(state, command)[0]


TABLE: TableRules[Table] = TableRules(
    game="bourre",
    title="Bourré",
    options=normalise_options,
    pack=PACK_CODES,
    seating=seating,
    seat_for_token=seat_for_token,
    evolve=evolve,
    start=lambda table: start_hand(table, 1),
    close=close_in_play,
    vacate=vacate,
)
