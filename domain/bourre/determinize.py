"""Determinization (design §9.2): a whole Bourré table dealt from what one seat has seen.

:func:`observe` reads a seat's *information set* from a state, taking only what the seat may
see (:mod:`domain.bourre.visibility`): its own cards and discards, the face-up trump card and
who owns it, every card played and by whom (the order of play is public: the first active
seat left of the dealer leads the first trick, each trick's winner the next, rules 17–18),
the tricks won, the counts of every hand, discard and the stock, and the declarations shown.
From the plays it infers what each other seat cannot hold (spec 5.1): a seat that did not
follow suit holds none of the suit led (a *void*), one that neither followed nor trumped holds
no trump, one that followed (or trumped) without heading the trick holds no card that would
have headed it. A play is legal with the seat's whole hand iff it is legal beside each card of
it alone (5.1's obligations are each witnessed by one card), so a card ``x`` is barred from a
seat iff the card it played would have been illegal in the two-card hand ``{played, x}``.
The cinch (rules 19–22) is not inferred from: a deal may give a seat a cinch it did not play.

:func:`determinize` deals every card the seat has not seen into the places it cannot see —
the other seats' hands, their face-down discards, the stock — agreeing with all of the above
(:func:`domain.determinize.deal`), and returns a full :class:`~domain.bourre.state.Table` the
reference engine accepts: the seat's own cards and every public fact unchanged, sealed
declarations of other seats undecided again, the deck, salt, seed, secret and stacked decks
replaced so nothing of the real deal or of later hands remains.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from msgspec.structs import replace

from domain.bourre.codes import BIT, PACK, PACK_CODES, mask_of
from domain.bourre.state import Hand, Table
from domain.bourre.tricks import head_of, legal_mask
from domain.cards import Card
from domain.determinize import deal, with_new_deal_source


@dataclass(frozen=True)
class Play:
    """One card played, as every seat saw it: who, what, and the trick before it."""

    seat: int
    card: Card
    led: int  # the suit led before this card (-1: the seat led)
    best: int  # the bit index heading the trick before this card (-1: none)


@dataclass(frozen=True)
class Observed:
    """One seat's information set in the hand in play (``seat`` ``None``: a spectator's)."""

    seat: int | None
    own: tuple[Card, ...]  # the seat's cards
    seen_out: int  # mask: cards the seat knows are out of every hidden place
    plays: tuple[Play, ...]  # every card played this hand, in order
    barred: tuple[int, ...]  # per seat, the cards (mask) it cannot hold (spec 5.1 inferences)
    trump_holder: int | None  # another seat known to hold the trump card (or its discards)


def plays_of(hand: Hand) -> tuple[Play, ...]:
    """Every card played this hand with its player, in order (rules 17–18)."""
    playing = hand.playing
    if not playing or not hand.played:
        return ()
    count, trump = len(playing), hand.trump_suit
    leader = 0
    found: list[Play] = []
    trick: list[tuple[int, Card]] = []
    for c in hand.played:
        seat = playing[(leader + len(trick)) % count]
        led, best = head_of([t for _, t in trick], trump)
        found.append(Play(seat, c, led, best))
        trick.append((seat, c))
        if len(trick) == count:
            _, best = head_of([t for _, t in trick], trump)
            winner = next(s for s, t in trick if BIT[t] == 1 << best)
            leader = playing.index(winner)
            trick = []
    return tuple(found)


def _barred_by(play: Play, trump: int) -> int:
    """The cards whose presence beside the card played would have made it illegal (5.1)."""
    if play.led < 0:
        return 0
    bit = BIT[play.card]
    barred = 0
    for index in range(52):
        other = 1 << index
        if other != bit and not legal_mask(bit | other, trump, play.led, play.best) & bit:
            barred |= other
    return barred


def observe(state: Table, seat: int | None) -> Observed:
    """``seat``'s information set (the module docstring), read from the full ``state``;
    ``None``: a spectator's (public facts only)."""
    hand = state.hand
    assert hand is not None, "no hand in play"
    plays = plays_of(hand)
    barred = [0] * state.seats
    for play in plays:
        if play.seat != seat:
            barred[play.seat] |= _barred_by(play, hand.trump_suit)
    own = hand.holdings[seat] if seat is not None else ()
    seen_out = hand.gone
    if seat is not None:
        seen_out |= mask_of(c for c in hand.discards[seat] if c not in hand.gathered)
    holder = hand.trump_card_owner
    if holder is None:
        seen_out |= BIT[hand.trump_card]  # face up, nobody's (rules 32–33)
        holder = None
    elif holder == seat or BIT[hand.trump_card] & hand.gone:
        holder = None
    return Observed(seat, own, seen_out | mask_of(own), plays, tuple(barred), holder)


def determinize(state: Table, seat: int | None, rng: random.Random) -> Table:
    """A full table agreeing with everything ``seat`` has seen, the unseen cards dealt at
    random (the module docstring); ``None``: with what a spectator has seen (every hand
    dealt anew)."""
    hand = state.hand
    assert hand is not None, "no hand in play"
    seen = observe(state, seat)
    others = [s for s in range(state.seats) if s != seat]
    hidden_discards = [
        tuple(c for c in hand.discards[s] if c not in hand.gathered) for s in range(state.seats)
    ]
    # places: each other seat's hand, then each other seat's face-down discards, then the stock
    sizes = [len(hand.holdings[s]) for s in others]
    sizes += [len(hidden_discards[s]) for s in others]
    sizes.append(len(hand.stock))
    unseen = [c for c in PACK if not BIT[c] & seen.seen_out]
    stock_place = 2 * len(others)
    trump_card, holder = hand.trump_card, seen.trump_holder
    reshuffled = hand.reshuffles > 0

    mine = set(hand.discards[seat]) if seat is not None else set()
    back = {c for c in mine if c in hand.gathered}  # own discards shuffled back into the stock
    hands_and_stock = [*range(len(others)), stock_place]
    any_barred = 0
    for s in others:
        any_barred |= seen.barred[s]
    pinned = holder is not None and not reshuffled

    def where(c: Card) -> list[int] | None:
        named: list[int] | None = None
        if c in back:  # back in the stock: in it, or drawn into a hand since
            named = hands_and_stock
        elif pinned and c == trump_card:
            assert holder is not None
            # the owner holds it, or discarded it face down at its draw (rule 13)
            at = others.index(holder)
            named = [at, len(others) + at] if hand.served[holder] else [at]
        bit = BIT[c]
        if not bit & any_barred:
            return named
        return [p for p in (named if named is not None else range(len(sizes)))
                if p >= len(others) or not bit & seen.barred[others[p]]]  # fmt: skip

    dealt = deal(unseen, sizes, where, rng)
    holdings = list(hand.holdings)
    discards = list(hand.discards)
    for index, s in enumerate(others):
        holdings[s] = tuple(dealt[index])
        discards[s] = tuple(dealt[len(others) + index])
    stock = tuple(dealt[stock_place])
    decisions = hand.decisions
    if not hand.revealed:  # sealed declarations (rule 31) of the others are not known
        decisions = tuple(d if s == seat else None for s, d in enumerate(decisions))
    new_hand = replace(
        hand,
        deck=PACK_CODES,
        salt="",
        holdings=tuple(holdings),
        held=tuple(mask_of(h) for h in holdings),
        stock=stock,
        discards=tuple(discards),
        gathered=frozenset(c for c in hand.gathered if c in mine),
        decisions=decisions,
    )
    return with_new_deal_source(state, rng, hand=new_hand)


def fork(
    state: Table, viewer: int | None, rng: random.Random, events: list[Any], marks: dict[str, Any]
) -> Table:
    """A fork's starting table (design §9.3): :func:`determinize` for ``viewer``, the seats'
    people and requests forgotten (the fork seats its own), ``marks`` added to its options.
    ``events`` (the hand's, for games that read them) are not needed: the state holds every
    public fact of a Bourré hand."""
    dealt = determinize(state, viewer, rng)
    return replace(
        dealt,
        raw_options={**dealt.raw_options, **marks},
        names=(None,) * dealt.seats,
        token_hashes=(None,) * dealt.seats,
        departures=(),
        close_requested=False,
        end_reason=None,
    )


def holding_at(plays: tuple[Play, ...], seat: int, now: tuple[Card, ...], index: int) -> int:
    """The cards ``seat`` held before play number ``index``: those it holds now and those it
    played since (a mask; for checks that a deal agrees with the plays)."""
    later = [p.card for p in plays[index:] if p.seat == seat]
    return mask_of(now) | mask_of(later)


__all__ = ["Observed", "Play", "determinize", "fork", "holding_at", "observe", "plays_of"]
