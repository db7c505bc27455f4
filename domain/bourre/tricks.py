"""Trick play: who wins a trick (rule 18) and which cards a player may play (spec 5.1).

The obligations, in priority order: (a) follow suit; (b) if void, trump; (c) within those,
beat the highest card so far in the trick if possible. The cinch (5.2) narrows the result
further, see :mod:`domain.bourre.cinch`.

The rules work on bit masks (:mod:`domain.bourre.codes`) and on a trick's summary — the suit
led and the card heading it, which ``evolve`` keeps up to date card by card — so a seat's
legal cards take a few mask operations; the functions on :class:`Card` lists are the same
rules for callers that hold cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from domain.bourre.codes import ABOVE, BIT, SUIT_INDEX, SUIT_MASK, SUIT_OF, cards_in, mask_of
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
    return bool(BEATERS[SUIT_INDEX[trump]][BIT[best].bit_length() - 1] & BIT[card])


def _beaters(best: int, trump: int) -> int:
    """The cards that beat card ``best`` (rule 18): higher of its suit, or any trump when it
    is not a trump itself."""
    if SUIT_OF[best] == trump:
        return ABOVE[best]
    return ABOVE[best] | SUIT_MASK[trump]


# BEATERS[trump][best]: the mask of the cards that take a trick headed by card ``best``
BEATERS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(_beaters(best, trump) for best in range(52)) for trump in range(4)
)


def head_of(trick: Sequence[Card], trump: int) -> tuple[int, int]:
    """A trick's summary: (the suit led, the bit index of the card heading it), or (-1, -1)
    for an empty trick."""
    if not trick:
        return -1, -1
    best = BIT[trick[0]].bit_length() - 1
    led = SUIT_OF[best]
    beaten = BEATERS[trump]
    for c in trick[1:]:
        i = BIT[c].bit_length() - 1
        if beaten[best] >> i & 1:
            best = i
    return led, best


def legal_mask(held: int, trump: int, led: int, best: int) -> int:
    """Spec 5.1 on masks: the cards of ``held`` a seat may play into a trick whose suit led is
    ``led`` (-1: the seat leads) and whose heading card is ``best``."""
    if led < 0:
        return held
    follow = held & SUIT_MASK[led]
    trumped = SUIT_OF[best] == trump
    if follow:
        if trumped and led != trump:
            return follow  # a trumped trick cannot be headed by the suit led
        return (follow & ABOVE[best]) or follow  # the heading card is the highest led
    trumps = held & SUIT_MASK[trump]
    if trumps:
        if trumped:
            return (trumps & ABOVE[best]) or trumps
        return trumps
    return held


def trick_winner(trick: Sequence[tuple[int, Card]], trump: Suit) -> tuple[int, Card]:
    """Rule 18: the highest trump, else the highest card of the suit led."""
    best_seat, best = trick[0]
    for seat, card in trick[1:]:
        if beats(card, best, trump):
            best_seat, best = seat, card
    return best_seat, best


def legal_cards(hand: Sequence[Card], trump: Suit, trick: Sequence[Card]) -> list[Card]:
    """The cards spec 5.1 allows (before the cinch), in the order of ``hand``."""
    t = SUIT_INDEX[trump]
    led, best = head_of(trick, t)
    return cards_in(hand, legal_mask(mask_of(hand), t, led, best))


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
