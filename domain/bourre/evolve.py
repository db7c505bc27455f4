"""``evolve(state, event) -> state``: applies one fact to a Bourré table.

It never validates, shuffles or reads a clock: decks, reshuffles and draws are taken from
the events. Turn order and phase changes follow deterministically from the facts (rules 11,
13, 16, 17, 31, 33), so they are recomputed here rather than stored as events.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from domain.bourre.codes import (
    BIT,
    CARD,
    CARD_AT,
    INDEX,
    SUIT_BY_CODE,
    SUIT_INDEX,
    SUIT_OF,
    mask_of_codes,
)
from domain.bourre.deal import stock_start
from domain.bourre.events import (
    Anted,
    CardPlayed,
    CloseRequested,
    Dealt,
    DecisionsRevealed,
    Declared,
    Discarded,
    HandSettled,
    Reshuffled,
    SecondChanceDeclared,
    TrickWon,
)
from domain.bourre.options import Options, options_from_record
from domain.bourre.state import (
    DECLARE,
    DRAW,
    ENDED,
    PLAY,
    PLAYING,
    SECOND_CHANCE,
    SETTLED,
    SETTLING,
    Hand,
    HandRecord,
    Table,
)
from domain.bourre.tricks import BEATERS
from domain.table import PlayerSeated, TableEnded, TableOpened, deal_facts
from domain.table.leaving import SeatLeft, takeover_name


def _set(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """``items`` with ``items[index]`` replaced (one copy of a per-seat tuple)."""
    changed = list(items)
    changed[index] = value
    return tuple(changed)


# --- phase and turn (rules 11, 13, 16, 17, 31, 33) -------------------------------------------


def _start_play(hand: Hand, playing: list[int]) -> Hand:
    """Rule 17: the first active player left of the dealer leads the first trick."""
    return replace(hand, phase=PLAY, playing=tuple(playing), leader_index=0, turn=playing[0])


def _after_draw(hand: Hand, options: Options) -> Hand:
    if options.four_card:
        return advance(replace(hand, phase=SECOND_CHANCE), options)
    return _start_play(hand, [s for s in hand.order if hand.decisions[s]])


def advance(hand: Hand, options: Options) -> Hand:
    """Recompute whose turn it is after a declaration-stage fact, ending the stage when every
    seat is done. One player left (rule 16) moves the hand to settlement without play."""
    order = hand.order  # seats clockwise from the dealer's left (``Hand.rotation``)
    if hand.phase == DECLARE:
        if options.declaration == "sequential":
            for s in order:
                decided = hand.decisions[s]
                if decided is None or (decided and not hand.served[s]):
                    return hand if hand.turn == s else replace(hand, turn=s)
        elif options.declaration == "two_round":
            for s in order:
                if hand.decisions[s] is None:
                    return replace(hand, turn=s)
        elif not hand.revealed:
            return replace(hand, turn=None)  # sealed: every undecided seat may act
        playing = [s for s in order if hand.decisions[s]]
        if len(playing) <= 1:
            return replace(hand, phase=SETTLING, turn=None, playing=tuple(playing))
        if options.declaration == "sequential":
            return _after_draw(hand, options)
        hand = replace(hand, phase=DRAW)
    if hand.phase == DRAW:
        for s in order:
            if hand.decisions[s] and not hand.served[s]:
                return replace(hand, turn=s)
        return _after_draw(hand, options)
    if hand.phase == SECOND_CHANCE:
        for s in order:
            if hand.decisions[s] and hand.second[s] is None:
                return replace(hand, turn=s)
        playing = [s for s in order if hand.active(s)]
        if len(playing) <= 1:
            return replace(hand, phase=SETTLING, turn=None, playing=tuple(playing))
        return _start_play(hand, playing)
    return hand


# --- table-level facts ----------------------------------------------------------------------


def _opened(event: TableOpened) -> Table:
    options = options_from_record(event.options)
    n = options.seats
    return Table(
        options=options,
        raw_options=dict(event.options),
        **deal_facts(event),
        names=(None,) * n,
        token_hashes=(None,) * n,
        nets=(0,) * n,
    )


def _seated(table: Table, event: PlayerSeated) -> Table:
    names = _set(table.names, event.seat, event.name)
    status = PLAYING if all(name is not None for name in names) else table.status
    return replace(
        table,
        names=names,
        token_hashes=_set(table.token_hashes, event.seat, event.token_hash),
        status=status,
    )


def vacate(table: Table, event: SeatLeft) -> Table:
    """A person left (:mod:`domain.table.leaving`): the seat is free again while the table
    waits for players, or a bot plays it under a bot's name; either way the person's token no
    longer holds it (an empty hash matches no token)."""
    if event.bot is None:
        name, token, departures = None, None, table.departures
    else:
        name, token = takeover_name(event.bot, event.seat), ""
        hand = table.hand.number if table.hand else 0
        departures = (*table.departures, (event.seat, event.name, hand))
    return replace(
        table,
        names=_set(table.names, event.seat, name),
        token_hashes=_set(table.token_hashes, event.seat, token),
        departures=departures,
    )


def _ended(table: Table, event: TableEnded) -> Table:
    return replace(table, status=ENDED, end_reason=event.reason)


def _anted(table: Table, event: Anted) -> Table:
    nets = list(table.nets)
    for seat in event.seats:
        nets[seat] -= event.amount
    return replace(table, nets=tuple(nets), pot=table.pot + event.amount * len(event.seats))


def _dealt(table: Table, event: Dealt) -> Table:
    options = table.options
    n = options.seats
    trump_card = CARD[event.trump_card]
    trump = SUIT_BY_CODE[event.trump]
    card_of = CARD.__getitem__
    holdings = tuple([tuple(map(card_of, cards)) for cards in event.hands])
    order = (*range(event.dealer + 1, n), *range(event.dealer + 1))  # (dealer + 1 + i) % n
    hand = Hand(
        number=event.hand,
        dealer=event.dealer,
        deck=tuple(event.deck),
        salt=event.salt,
        commitment=event.commitment,
        trump=trump,
        trump_suit=SUIT_INDEX[trump],
        trump_card=trump_card,
        trump_card_owner=event.trump_card_owner,
        holdings=holdings,
        held=tuple(map(mask_of_codes, event.hands)),
        stock=tuple(map(card_of, event.deck[stock_start(options) :])),
        discards=((),) * n,
        decisions=(None,) * n,
        revealed=options.declaration != "simultaneous",
        served=(False,) * n,
        second=(None,) * n,
        tricks=(0,) * n,
        order=order,
        # sequential declaration starts left of the dealer (rule 11): ``advance`` then keeps
        # this hand as it is instead of copying it to name the turn
        turn=order[0] if options.declaration == "sequential" else None,
    )
    return replace(table, hand=advance(hand, options), exempt=frozenset())


def _settled(table: Table, event: HandSettled) -> Table:
    nets = [net + paid for net, paid in zip(table.nets, event.payouts, strict=True)]
    for seat in event.bourre:
        nets[seat] -= event.bourre_payment
    exempt: set[int] = set()
    if not table.options.double_ante:  # rule 30: with double_ante everyone antes
        exempt.update(event.bourre)  # rule 6: the bourré payment replaces the ante
        if table.options.tie == "carry":
            exempt.update(event.tied)  # rule 6: the pot carried over
    record = HandRecord(event.hand, event.pot, event.winner, tuple(event.bourre), tuple(event.tied))
    hand = table.hand
    assert hand is not None
    return replace(
        table,
        nets=tuple(nets),
        pot=event.carried + event.bourre_payment * len(event.bourre),
        history=(*table.history, record),
        exempt=frozenset(exempt),
        hand=replace(hand, phase=SETTLED, turn=None, settlement=record),
    )


def _close_requested(table: Table, event: CloseRequested) -> Table:
    return replace(table, close_requested=True)


# --- hand-level facts -----------------------------------------------------------------------


def _declared(hand: Hand, event: Declared, options: Options) -> Hand:
    return advance(replace(hand, decisions=_set(hand.decisions, event.seat, event.play)), options)


def _revealed(hand: Hand, event: DecisionsRevealed, options: Options) -> Hand:
    return advance(replace(hand, decisions=tuple(event.plays), revealed=True), options)


def _reshuffled(hand: Hand, event: Reshuffled, options: Options) -> Hand:
    return replace(
        hand,
        stock=hand.stock + tuple(CARD[c] for c in event.order),
        gathered=hand.gathered | {CARD[c] for c in event.pool},
        reshuffles=event.round,
    )


def discarded(hand: Hand, event: Discarded, options: Options, declared: bool = False) -> Hand:
    """Rule 13: the named cards leave the seat's hand, the drawn ones (and with rule 32 the
    turned card) join it, in that order; the seat is served. ``declared``: the seat's
    ``Declared`` play comes with it (a sequential declaration, applied in one step: the
    decision is recorded in the same copy of the hand)."""
    seat = event.seat
    discarded = event.discarded
    holding = hand.holdings[seat]
    held = hand.held[seat]
    if discarded:
        out = mask_of_codes(discarded)
        holding = tuple([c for c in holding if not BIT[c] & out])
        held &= ~out
        thrown = tuple(map(CARD.__getitem__, discarded))
    else:
        thrown = ()
    owner = hand.trump_card_owner
    if event.took_trump:
        holding += (hand.trump_card,)
        held |= BIT[hand.trump_card]
        owner = seat
    drawn = event.drawn
    if drawn:
        holding += tuple(map(CARD.__getitem__, drawn))
        held |= mask_of_codes(drawn)
    holdings, helds, discards, served = (
        list(hand.holdings),
        list(hand.held),
        list(hand.discards),
        list(hand.served),
    )
    holdings[seat], helds[seat], discards[seat], served[seat] = holding, held, thrown, True
    hand = replace(
        hand,
        holdings=tuple(holdings),
        held=tuple(helds),
        stock=hand.stock[len(drawn) :],
        discards=tuple(discards),
        served=tuple(served),
        trump_card_owner=owner,
        decisions=_set(hand.decisions, seat, True) if declared else hand.decisions,
    )
    return advance(hand, options)


def _second_chance(hand: Hand, event: SecondChanceDeclared, options: Options) -> Hand:
    return advance(replace(hand, second=_set(hand.second, event.seat, event.play)), options)


def card_played(hand: Hand, seat: int, index: int) -> Hand:
    """Rule 17: card ``index`` (its bit index) leaves the seat's hand for the trick; the
    trick's heading card is the new one if it beats the old (rule 18); the next active seat
    plays, none once all have. Only the fields a play changes are built anew (``decide``'s
    ``play_card`` path applies it too)."""
    played = CARD_AT[index]
    bit = 1 << index
    # concatenation, not (*trick, item): unpacking builds a list on the way (one play each)
    trick = hand.trick + ((seat, played),)  # noqa: RUF005
    done = len(trick)
    if done == 1:  # the card leads: it sets the suit led and heads the trick
        led, best = SUIT_OF[index], index
    else:
        led, best = hand.led, hand.best
        if BEATERS[hand.trump_suit][best] & bit:
            best = index
    playing = hand.playing
    count = len(playing)
    holdings = list(hand.holdings)
    holding = holdings[seat]
    at = holding.index(played)
    holdings[seat] = holding[:at] + holding[at + 1 :]
    held = list(hand.held)
    held[seat] ^= bit  # the seat holds it (decide checked)
    return replace(
        hand,
        holdings=tuple(holdings),
        held=tuple(held),
        trick=trick,
        led=led,
        best=best,
        played=hand.played + (played,),  # noqa: RUF005
        gone=hand.gone | bit,
        turn=None if done == count else playing[(hand.leader_index + done) % count],
    )


def _card_played(hand: Hand, event: CardPlayed, options: Options) -> Hand:
    return card_played(hand, event.seat, INDEX[event.card])


def trick_won(hand: Hand, event: TrickWon, options: Options) -> Hand:
    """Rule 18: the winner scores the trick and leads the next; after the last trick the
    hand goes to settlement (rule 23)."""
    seat = event.seat
    done = hand.tricks_played + 1
    over = done == options.hand_size
    tricks = list(hand.tricks)
    tricks[seat] += 1
    return replace(
        hand,
        tricks=tuple(tricks),
        tricks_played=done,
        leader_index=hand.playing.index(seat),
        last_trick=hand.trick,
        trick=(),
        led=-1,
        best=-1,
        phase=SETTLING if over else PLAY,
        turn=None if over else seat,
    )


_TABLE: dict[type, Callable[[Table, Any], Table]] = {
    PlayerSeated: _seated,
    TableEnded: _ended,
    Anted: _anted,
    Dealt: _dealt,
    HandSettled: _settled,
    CloseRequested: _close_requested,
}
_HAND: dict[type, Callable[[Hand, Any, Options], Hand]] = {
    Declared: _declared,
    DecisionsRevealed: _revealed,
    Reshuffled: _reshuffled,
    Discarded: discarded,
    SecondChanceDeclared: _second_chance,
    CardPlayed: _card_played,
    TrickWon: trick_won,
}


def evolve(state: Table | None, event: Any) -> Table:
    """Apply one event. ``state`` is ``None`` only before ``TableOpened``."""
    if state is None:
        if not isinstance(event, TableOpened):
            raise ValueError(f"a Bourré table starts with TableOpened, not {type(event).__name__}")
        return _opened(event)
    kind = type(event)
    on_hand = _HAND.get(kind)
    if on_hand is not None:
        assert state.hand is not None
        return replace(state, hand=on_hand(state.hand, event, state.options))
    on_table = _TABLE.get(kind)
    if on_table is None:
        raise ValueError(f"not a Bourré event: {kind.__name__}")
    return on_table(state, event)


def replay(events: Any) -> Table | None:
    """The state after a sequence of events (used by tests and the write side)."""
    state: Table | None = None
    for event in events:
        state = evolve(state, event)
    return state
