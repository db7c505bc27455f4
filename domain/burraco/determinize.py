"""Determinization (design §9.2): a whole Burraco table dealt from what one seat has seen.

A seat sees (:mod:`domain.burraco.visibility`) its own hand, the melds, the discard pile, the
sizes of every hand, of the sealed pozzetti (taken on a discard, not yet opened — unseen even
by their taker, rule 17), of the pozzetti left and of the stock; and, from the record, the
cards a seat took with the pile (:class:`~domain.burraco.events.PileTaken` is public). A card
taken with the pile stays *known* in its taker's hand until that seat melds or discards it:
:func:`known_cards` follows this through the hand's events (every fact it reads is public).

:func:`determinize` deals every card the seat has not seen — the 108-card pack less its hand,
the pile, the melds and the cards known in other hands — into the places it cannot see: the
other seats' hands (beside their known cards), the sealed pozzetti (its own too), the pozzetti
left and the stock, each to its size (:func:`domain.determinize.deal`). It returns a full
:class:`~domain.burraco.state.Table` the reference engine accepts: the seat's hand and every
public fact unchanged; the deck rebuilt as the cards already out of the stock then the new
stock (so the stock is still its tail from ``stock_next``), the salt, seed, secret and stacked
decks replaced so nothing of the real deal or of later hands remains. Without ``known`` (a
bot reading a state, not the record) the cards taken with the pile are dealt as unseen: a
weaker information set, never a leak.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from msgspec.structs import replace

from domain.burraco.deal import PACK
from domain.burraco.events import Dealt, Discarded, Melded, MeldExtended, PileTaken
from domain.burraco.state import Table
from domain.determinize import Inconsistent, deal, with_new_deal_source

Known = dict[int, list[str]]


def known_cards(events: Iterable[object]) -> Known:
    """Per seat, the cards it took with the pile this hand and still holds (the events of the
    hand in play, in order; a new ``Dealt`` starts afresh). Reads public facts only."""
    known: Known = {}
    for event in events:
        if isinstance(event, Dealt):
            known = {}
        elif isinstance(event, PileTaken):
            known.setdefault(event.seat, []).extend(event.cards)
        elif isinstance(event, Melded | MeldExtended | Discarded):
            gone = event.cards if isinstance(event, Melded) else (
                event.added if isinstance(event, MeldExtended) else [event.card]
            )  # fmt: skip
            held = known.get(event.seat, [])
            for code in gone:
                if code in held:
                    held.remove(code)
    return known


def unseen_by(state: Table, seat: int | None, known: Mapping[int, list[str]]) -> Counter[str]:
    """The cards ``seat`` has not seen: the pack less its hand, the pile, the melds and the
    cards known in the other hands."""
    r = state.round
    assert r is not None, "no hand in play"
    left = Counter(PACK)
    if seat is not None:
        left.subtract(r.hands[seat])
    left.subtract(r.pile)
    for meld in r.melds:
        left.subtract(meld.layout.cards)
    for other, cards in known.items():
        if other != seat:
            left.subtract(cards)
    if any(count < 0 for count in left.values()):
        raise Inconsistent("more cards seen than the pack holds")
    return +left


def determinize(
    state: Table,
    seat: int | None,
    rng: random.Random,
    known: Mapping[int, list[str]] | None = None,
) -> Table:
    """A full table agreeing with everything ``seat`` has seen, the unseen cards dealt at
    random (the module docstring); ``None``: with what a spectator has seen (every hand dealt
    anew). ``known``: :func:`known_cards` of the hand's events."""
    r = state.round
    assert r is not None, "no hand in play"
    known = {s: list(cards) for s, cards in (known or {}).items() if s != seat}
    n = state.players
    others = [s for s in range(n) if s != seat]
    for s in others:  # a known card a seat no longer holds (cannot happen from the record)
        if len(known.get(s, [])) > len(r.hands[s]):
            raise Inconsistent(f"seat {s} holds fewer cards than it is known to hold")
    sizes = [len(r.hands[s]) - len(known.get(s, [])) for s in others]
    sizes += [len(r.sealed[s]) for s in range(n)]
    sizes += [len(p) for p in r.pozzetti]
    sizes.append(r.stock_count)
    unseen = list(unseen_by(state, seat, known).elements())
    dealt = deal(unseen, sizes, None, rng)
    hands = list(r.hands)
    for index, s in enumerate(others):
        hands[s] = (*known.get(s, []), *dealt[index])
    at = len(others)
    sealed = tuple(tuple(dealt[at + s]) for s in range(n))
    at += n
    pozzetti = tuple(tuple(dealt[at + p]) for p in range(len(r.pozzetti)))
    stock = tuple(dealt[at + len(r.pozzetti)])
    out = Counter(PACK)
    out.subtract(stock)
    deck = (*sorted(out.elements()), *stock)
    new_round = replace(
        r,
        deck=deck,
        salt="",
        hands=tuple(hands),
        sealed=sealed,
        pozzetti=pozzetti,
    )
    return with_new_deal_source(state, rng, round=new_round)


def fork(
    state: Table, viewer: int | None, rng: random.Random, events: list[Any], marks: dict[str, Any]
) -> Table:
    """A fork's starting table (design §9.3): :func:`determinize` for ``viewer`` with the
    cards known from the hand's ``events`` (:func:`known_cards`), the seats' people, bots and
    requests forgotten (the fork seats its own), ``marks`` added to its options."""
    dealt = determinize(state, viewer, rng, known_cards(events))
    return replace(
        dealt,
        raw_options={**dealt.raw_options, **marks},
        seats=(None,) * dealt.players,
        bots=(),
        sat_out=(),
        close_asked=(),
        departures=(),
    )
