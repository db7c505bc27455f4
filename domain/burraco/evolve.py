"""``evolve(state, event) -> state``: applies one fact to a Burraco table.

It never validates, shuffles or reads a clock: the deck of a hand comes from ``Dealt`` and is
dealt by rule 6 (:func:`domain.burraco.deal.deal`); every other change is what the event says.
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.burraco.deal import deal
from domain.burraco.events import (
    CardDrawn,
    Dealt,
    Discarded,
    HandAbandoned,
    HandClosed,
    HandScored,
    MatchWon,
    Melded,
    MeldExtended,
    PileTaken,
    PozzettoOpened,
    PozzettoTaken,
)
from domain.burraco.melds import Layout
from domain.burraco.options import Options
from domain.burraco.state import (
    DRAW,
    ENDED,
    OVER,
    PLAY,
    PLAYING,
    STOCK_END,
    Round,
    Seat,
    Table,
    TeamMeld,
    without,
)
from domain.table import CloseAsked, PlayerSeated, TableEnded, TableOpened, deal_facts
from domain.table.clock import SatIn, TurnTimedOut
from domain.table.leaving import SeatLeft, takeover_name


def _set_seat(values: tuple[Any, ...], seat: int, value: Any) -> tuple[Any, ...]:
    return (*values[:seat], value, *values[seat + 1 :])


def evolve(table: Table | None, event: Any) -> Table:
    """Apply one event. Never validates, shuffles or reads a clock."""
    handler = _HANDLERS.get(type(event))
    if handler is not None and table is not None:
        return handler(table, event)
    if isinstance(event, TableOpened):
        options = Options.from_dict(event.options)
        return Table(
            options=options,
            raw_options=dict(event.options),
            **deal_facts(event),
            seats=(None,) * options.players,
        )
    assert table is not None, "the first event of a table is TableOpened"
    handler = _HANDLERS.get(type(event))
    if handler is None:
        return table
    return handler(table, event)


def _seated(t: Table, e: PlayerSeated) -> Table:
    bots = (*t.bots, e.seat) if e.bot is not None else t.bots
    return replace(t, seats=_set_seat(t.seats, e.seat, Seat(e.name, e.token_hash)), bots=bots)


def vacate(t: Table, e: SeatLeft) -> Table:
    """A person left (:mod:`domain.table.leaving`): the seat is free again while the table
    waits for players; in play a bot holds it under a bot's name (and, as every bot, agrees
    to end the match at once, rule 28). The person's token no longer holds it."""
    if e.bot is None:
        bots = tuple(s for s in t.bots if s != e.seat)
        return replace(t, seats=_set_seat(t.seats, e.seat, None), bots=bots)
    bots = t.bots if e.seat in t.bots else (*t.bots, e.seat)
    seat = Seat(takeover_name(e.bot, e.seat), "")
    departures = (*t.departures, (e.seat, e.name, t.round.number if t.round else 0))
    return replace(t, seats=_set_seat(t.seats, e.seat, seat), bots=bots, departures=departures)


def _close_asked(t: Table, e: CloseAsked) -> Table:
    return replace(t, close_asked=(*t.close_asked, e.seat))


def _timed_out(t: Table, e: TurnTimedOut) -> Table:
    if not e.sat_out or e.seat in t.sat_out:
        return t
    return replace(t, sat_out=(*t.sat_out, e.seat))


def _sat_in(t: Table, e: SatIn) -> Table:
    return replace(t, sat_out=tuple(s for s in t.sat_out if s != e.seat))


def _dealt(t: Table, e: Dealt) -> Table:
    deck = tuple(e.deck)
    n = t.players
    hands, pozzetti, first, stock_next = deal(deck, e.dealer, n)
    round_ = Round(
        number=e.hand,
        dealer=e.dealer,
        deck=deck,
        salt=e.salt,
        commitment=e.commitment,
        hands=hands,
        sealed=((),) * n,
        pozzetti=pozzetti,
        pozzetto_of_team=(None, None),
        stock_next=stock_next,
        pile=(first,),
        melds=(),
        turn=(e.dealer + 1) % n,  # rule 4: left of the dealer plays first
    )
    return replace(t, status=PLAYING, round=round_, close_asked=())  # rule 28


def _drawn(t: Table, e: CardDrawn) -> Table:
    r = t.round
    assert r is not None
    stock_next = r.stock_next + 1
    return replace(
        t,
        round=replace(
            r,
            hands=_set_seat(r.hands, e.seat, (*r.hands[e.seat], e.card)),
            stock_next=stock_next,
            phase=PLAY,
            single_streak=0,
            last_turn=len(r.deck) - stock_next <= STOCK_END,
        ),
    )


def _pile_taken(t: Table, e: PileTaken) -> Table:
    r = t.round
    assert r is not None
    taken = tuple(e.cards)
    return replace(
        t,
        round=replace(
            r,
            hands=_set_seat(r.hands, e.seat, r.hands[e.seat] + taken),
            pile=(),
            phase=PLAY,
            took_pile=taken,
            single_streak=r.single_streak + 1 if len(taken) == 1 else 0,
        ),
    )


def _melded(t: Table, e: Melded) -> Table:
    r = t.round
    assert r is not None
    layout = Layout(e.kind, tuple(e.cards), e.suit, e.rank, e.low, e.wild)
    return replace(
        t,
        next_meld=max(t.next_meld, e.meld + 1),
        round=replace(
            r,
            hands=_set_seat(r.hands, e.seat, without(r.hands[e.seat], e.cards)),
            melds=(*r.melds, TeamMeld(e.meld, e.team, layout)),
            melded_from_pile=r.melded_from_pile or _from_pile(r.took_pile, e.cards),
        ),
    )


def _extended(t: Table, e: MeldExtended) -> Table:
    r = t.round
    assert r is not None
    index = _index_of(r.melds, e.meld)
    old = r.melds[index]
    layout = Layout(
        old.layout.kind, tuple(e.cards), old.layout.suit, old.layout.rank, e.low, e.wild
    )
    melds = _set_seat(r.melds, index, TeamMeld(old.id, old.team, layout))
    return replace(
        t,
        round=replace(
            r,
            hands=_set_seat(r.hands, e.seat, without(r.hands[e.seat], e.added)),
            melds=melds,
            melded_from_pile=r.melded_from_pile or _from_pile(r.took_pile, e.added),
        ),
    )


def _index_of(melds: tuple[TeamMeld, ...], meld_id: int) -> int:
    """Where meld ``meld_id`` stands in the hand's melds: melds are laid with ids counting up
    (``Table.next_meld``), so it is found at once from the first one's id."""
    guess = meld_id - melds[0].id
    if 0 <= guess < len(melds) and melds[guess].id == meld_id:
        return guess
    return next(i for i, m in enumerate(melds) if m.id == meld_id)


def _from_pile(took_pile: tuple[str, ...], laid: list[str]) -> bool:
    """Whether a card laid is one of this turn's pile take (option ``take_pile``)."""
    return bool(took_pile) and any(c in took_pile for c in laid)


def _discarded(t: Table, e: Discarded) -> Table:
    r = t.round
    assert r is not None
    return replace(
        t,
        round=replace(
            r,
            hands=_set_seat(r.hands, e.seat, without(r.hands[e.seat], (e.card,))),
            pile=(*r.pile, e.card),
            turn=(e.seat + 1) % t.players,
            phase=DRAW,
            took_pile=(),
            melded_from_pile=False,
        ),
    )


def _pozzetto_taken(t: Table, e: PozzettoTaken) -> Table:
    r = t.round
    assert r is not None
    cards = tuple(e.cards)
    if e.direct:
        hands, sealed = _set_seat(r.hands, e.seat, r.hands[e.seat] + cards), r.sealed
    else:
        hands, sealed = r.hands, _set_seat(r.sealed, e.seat, cards)
    return replace(
        t,
        round=replace(
            r,
            hands=hands,
            sealed=sealed,
            pozzetti=_set_seat(r.pozzetti, e.pozzetto, ()),
            pozzetto_of_team=_set_seat(r.pozzetto_of_team, e.team, e.pozzetto),
            pozzetto_seats=(*r.pozzetto_seats, e.seat),
        ),
    )


def _pozzetto_opened(t: Table, e: PozzettoOpened) -> Table:
    r = t.round
    assert r is not None
    return replace(
        t,
        round=replace(
            r,
            hands=_set_seat(r.hands, e.seat, r.hands[e.seat] + tuple(e.cards)),
            sealed=_set_seat(r.sealed, e.seat, ()),
        ),
    )


def _closed(t: Table, e: HandClosed) -> Table:
    r = t.round
    assert r is not None
    return replace(t, round=replace(r, phase=OVER, closed_by=e.seat, end_reason=e.reason))


def _scored(t: Table, e: HandScored) -> Table:
    return replace(t, results=(*t.results, e), totals=tuple(e.totals))


def _abandoned(t: Table, e: HandAbandoned) -> Table:
    r = t.round
    assert r is not None
    return replace(t, round=replace(r, phase=OVER, end_reason="abandoned"))


def _won(t: Table, e: MatchWon) -> Table:
    return replace(t, winner=e.team)


def _ended(t: Table, e: TableEnded) -> Table:
    return replace(t, status=ENDED, ended_reason=e.reason)


_HANDLERS: dict[type, Any] = {
    PlayerSeated: _seated,
    Dealt: _dealt,
    CardDrawn: _drawn,
    PileTaken: _pile_taken,
    Melded: _melded,
    MeldExtended: _extended,
    Discarded: _discarded,
    PozzettoTaken: _pozzetto_taken,
    PozzettoOpened: _pozzetto_opened,
    HandClosed: _closed,
    HandScored: _scored,
    HandAbandoned: _abandoned,
    MatchWon: _won,
    TableEnded: _ended,
    CloseAsked: _close_asked,
    TurnTimedOut: _timed_out,
    SatIn: _sat_in,
}
