"""Trick play: who wins a trick (rule 18) and which cards a player may play (spec 5.1).

The obligations, in priority order: (a) follow suit; (b) if void, trump; (c) within those,
beat the highest card so far in the trick if possible. The cinch (5.2) narrows the result
further, see :mod:`domain.bourre.cinch`.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.cards import Card, Suit

SUIT_NAMES = {
    Suit.SPADES: "spade",
    Suit.HEARTS: "heart",
    Suit.DIAMONDS: "diamond",
    Suit.CLUBS: "club",
}


def rank_of(card: Card) -> int:
    return int(card.rank or 0)


def beats(card: Card, best: Card, trump: Suit) -> bool:
    """Whether ``card`` beats ``best`` (the current winner of a trick), rule 18."""
    if card.suit == best.suit:
        return rank_of(card) > rank_of(best)
    return card.suit == trump


def trick_winner(trick: Sequence[tuple[int, Card]], trump: Suit) -> tuple[int, Card]:
    """Rule 18: the highest trump, else the highest card of the suit led."""
    best_seat, best = trick[0]
    for seat, card in trick[1:]:
        if beats(card, best, trump):
            best_seat, best = seat, card
    return best_seat, best


def legal_cards(hand: Sequence[Card], trump: Suit, trick: Sequence[Card]) -> list[Card]:
    """The cards spec 5.1 allows (before the cinch), exactly as its pseudo-code reads."""
    if not trick:
        return list(hand)
    led = trick[0].suit
    follow = [c for c in hand if c.suit == led]
    trumped = any(c.suit == trump for c in trick)
    if follow:
        if led != trump and trumped:
            return follow  # a trumped trick cannot be headed by the suit led
        high = max((c for c in trick if c.suit == led), key=rank_of)
        return [c for c in follow if rank_of(c) > rank_of(high)] or follow
    trumps = [c for c in hand if c.suit == trump]
    if trumps:
        if trumped:
            high = max((c for c in trick if c.suit == trump), key=rank_of)
            return [c for c in trumps if rank_of(c) > rank_of(high)] or trumps
        return trumps
    return list(hand)


def why_illegal(card: Card, hand: Sequence[Card], trump: Suit, trick: Sequence[Card]) -> str:
    """A message a player can act on for a card 5.1 forbids (``card`` is in ``hand``)."""
    led = trick[0].suit
    assert led is not None
    if card.suit != led and any(c.suit == led for c in hand):
        return f"must follow suit: you hold a {SUIT_NAMES[led]}"
    if card.suit != led and card.suit != trump:
        return f"must trump: you have no {SUIT_NAMES[led]} and hold a trump ({SUIT_NAMES[trump]})"
    allowed = legal_cards(hand, trump, trick)
    best = trick[0]
    for other in trick[1:]:
        if beats(other, best, trump):
            best = other
    verb = (
        "overtrump"
        if card.suit == trump and best.suit == trump and led != trump
        else "head the trick"
    )
    names = " or ".join(c.code for c in allowed)
    return f"must {verb}: you hold {names}, which beats {best.code}"
