"""The cinch (spec 5.2, rules 19–22): a player who can see that they win the pot must play
their highest trump when leading, and when following able to trump and not last to play.

Guaranteed tricks come only from what the player knows (rule 20): their own hand, the cards
already played, and a turned trump card that belongs to nobody. Never from hidden hands.

Where the spec's bound "O = trumps neither held nor yet played" meets a trick in progress:
trumps already in the trick count as played, except that a player who cannot head them
loses the trump they put under them (see :func:`counted_mask`), so the bound stays the
sound one rule 20 asks for.

The rules work on bit masks (:mod:`domain.bourre.codes`): ``held`` the player's cards,
``gone`` the cards known out of play, a trick as its suit led and heading card
(:func:`domain.bourre.tricks.head_of`). The functions on :class:`Card` lists below are the
same rules for callers that hold cards.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Final

from domain.bourre.codes import SUIT_BITS, SUIT_INDEX, SUIT_MASK, SUIT_OF, cards_in, cards_of
from domain.bourre.codes import mask_of as _mask
from domain.bourre.tricks import head_of
from domain.cards import Card, Suit

TRICKS_TO_WIN: Final = 3  # three tricks always win the pot (rule 23)
RANK_BITS_DOWN: Final = tuple(1 << r for r in range(12, -1, -1))  # Ace down to 2, within a suit


def sure_tricks(trumps: int, gone: int) -> int:
    """Rule 20 on the 13-bit rank masks of one suit: k − M, where k is the number of trumps
    held and M the size of a maximum matching of outstanding trumps (neither held nor gone)
    to held trumps of lower rank.

    Walking the trumps from the Ace down, each outstanding trump can spoil the next lower
    held trump; the greedy walk gives a maximum matching because the ranks are a total order.
    """
    spoilers = 0
    sure = 0
    for bit in RANK_BITS_DOWN:
        if trumps & bit:
            if spoilers:
                spoilers -= 1
            else:
                sure += 1
            trumps ^= bit
            if not trumps:
                break
        elif not gone & bit:
            spoilers += 1
    return sure


def cinch_of(held: int, trump: int, tricks_won: int, gone: int) -> bool:
    """Rule 19: tricks already won + tricks guaranteed by ``held`` ≥ 3 (masks)."""
    if tricks_won >= TRICKS_TO_WIN:
        return True
    shift = 13 * trump
    trumps = held >> shift & SUIT_BITS
    if tricks_won + trumps.bit_count() < TRICKS_TO_WIN:
        return False  # a held trump is at most one sure trick
    return tricks_won + sure_tricks(trumps, gone >> shift & SUIT_BITS) >= TRICKS_TO_WIN


def top_mask(held: int, trump: int, gone: int, mode: str) -> int:
    """The trumps that count as "your highest trump" (rule 22), as a mask.

    ``strict``: only the highest held. ``equivalent``: also any trump such that every trump
    ranked between it and the highest is in the hand or gone (K from A-K; J from K-J once
    the Q is gone): the held trumps above the highest missing rank below the top.
    """
    trumps = held & SUIT_MASK[trump]
    if not trumps:
        return 0
    top = 1 << (trumps.bit_length() - 1)
    if mode == "strict":
        return top
    holes = (top - 1) & SUIT_MASK[trump] & ~(held | gone)
    if not holes:
        return trumps
    return trumps & ~((2 << (holes.bit_length() - 1)) - 1)


def counted_mask(held: int, trump: int, best: int, gone: int) -> tuple[int, int]:
    """The hand and the cards out of play that rule 20 counts for a player about to play a
    trump into a trick headed by card ``best`` (-1: none; ``gone`` includes the trick).

    The spec's bound counts the trumps already in the trick as played. That holds when the
    player can head them (5.1 then makes them play higher). When no trump of theirs can, the
    trump they put under the trick is lost to it; the cinch would make it the highest
    (rule 21), so that one is counted as gone rather than as a sure trick. Otherwise a hand
    like K-Q-2 under a led AS, one trick won, would be a "cinch" that the cinch itself spoils.
    """
    trumps = held & SUIT_MASK[trump]
    if best < 0 or SUIT_OF[best] != trump or not trumps:
        return held, gone  # no trump in the trick (the heading card is the highest one)
    top = trumps.bit_length() - 1
    if top > best:
        return held, gone
    return held & ~(1 << top), gone | 1 << top


def cinch_mask(
    legal: int,
    held: int,
    trump: int,
    led: int,
    best: int,
    tricks_won: int,
    gone: int,
    mode: str,
) -> tuple[int, int]:
    """Rule 21 on top of 5.1 (masks): returns (legal cards, the cinch's highest trumps or 0).

    ``gone``: the cards the player knows are out of play (rule 20) — every card played, the
    trick in progress included, and a turned card that belongs to nobody. The caller skips
    this for the last to play and with the cinch ``off``."""
    if not legal & SUIT_MASK[trump]:
        return legal, 0  # leading without trumps, or unable to trump: normal rules
    if led >= 0 and led != trump and held & SUIT_MASK[led]:
        return legal, 0  # following suit: not able to trump
    counted, out = counted_mask(held, trump, best, gone)
    if not cinch_of(counted, trump, tricks_won, out):
        return legal, 0
    top = top_mask(held, trump, gone, mode)
    return (legal & top) or legal, top


# --- the same rules on Card lists ---------------------------------------------------------


def guaranteed_tricks(hand: Sequence[Card], trump: Suit, known_out: Collection[Card]) -> int:
    """Rule 20 (:func:`sure_tricks`) for a hand of cards."""
    shift = 13 * SUIT_INDEX[trump]
    return sure_tricks(_mask(hand) >> shift & SUIT_BITS, _mask(known_out) >> shift & SUIT_BITS)


def has_cinch(
    hand: Sequence[Card], trump: Suit, tricks_won: int, known_out: Collection[Card]
) -> bool:
    """Rule 19: tricks already won + tricks guaranteed by the hand ≥ 3."""
    return cinch_of(_mask(hand), SUIT_INDEX[trump], tricks_won, _mask(known_out))


def highest_trumps(
    hand: Sequence[Card], trump: Suit, known_out: Collection[Card], mode: str
) -> list[Card]:
    """Rule 22 (:func:`top_mask`): the trumps that count as the highest, highest first."""
    return cards_of(top_mask(_mask(hand), SUIT_INDEX[trump], _mask(known_out), mode))[::-1]


def apply_cinch(
    legal: list[Card],
    hand: Sequence[Card],
    trump: Suit,
    trick: Sequence[Card],
    tricks_won: int,
    known_out: Collection[Card],
    last_to_play: bool,
    mode: str,
) -> tuple[list[Card], list[Card]]:
    """Rule 21 on top of 5.1 (:func:`cinch_mask`): returns (legal cards, the cinch's highest
    trumps or []), in the order of ``legal`` and highest first."""
    if mode == "off" or last_to_play:
        return legal, []
    t = SUIT_INDEX[trump]
    led, best = head_of(trick, t)
    narrowed, top = cinch_mask(
        _mask(legal), _mask(hand), t, led, best, tricks_won, _mask(known_out), mode
    )
    return cards_in(legal, narrowed), cards_of(top)[::-1]
