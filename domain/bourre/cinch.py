"""The cinch (spec 5.2, rules 19–22): a player who can see that they win the pot must play
their highest trump when leading, and when following able to trump and not last to play.

Guaranteed tricks come only from what the player knows (rule 20): their own hand, the cards
already played, and a turned trump card that belongs to nobody. Never from hidden hands.

Where the spec's bound "O = trumps neither held nor yet played" meets a trick in progress,
the trumps already in that trick still count as outstanding: they can still take the trump
the player must put under them, so counting them as gone would not be the sound lower bound
rule 20 asks for (see :func:`domain.bourre.playing.known_out`). Rule 22's "already played"
does include the trick in progress.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from domain.cards import Card, Rank, Suit

TRICKS_TO_WIN = 3  # three tricks always win the pot (rule 23)
RANKS_DOWN = tuple(sorted(Rank, reverse=True))


def guaranteed_tricks(hand: Sequence[Card], trump: Suit, known_out: Collection[Card]) -> int:
    """Rule 20: k − M, where k is the number of trumps held and M the size of a maximum
    matching of outstanding trumps (neither held nor known out) to held trumps of lower rank.

    Walking the trumps from the Ace down, each outstanding trump can spoil the next lower
    held trump; the greedy walk gives a maximum matching because the ranks are a total order.
    """
    held = {c.rank for c in hand if c.suit == trump}
    if not held:
        return 0
    out = {c.rank for c in known_out if c.suit == trump}
    spoilers = 0
    sure = 0
    for rank in RANKS_DOWN:
        if rank in held:
            if spoilers:
                spoilers -= 1
            else:
                sure += 1
        elif rank not in out:
            spoilers += 1
    return sure


def has_cinch(
    hand: Sequence[Card], trump: Suit, tricks_won: int, known_out: Collection[Card]
) -> bool:
    """Rule 19: tricks already won + tricks guaranteed by the hand ≥ 3."""
    if tricks_won >= TRICKS_TO_WIN:
        return True
    return tricks_won + guaranteed_tricks(hand, trump, known_out) >= TRICKS_TO_WIN


def highest_trumps(
    hand: Sequence[Card], trump: Suit, known_out: Collection[Card], mode: str
) -> list[Card]:
    """The trumps that count as "your highest trump" (rule 22).

    ``strict``: only the highest held. ``equivalent``: also any trump such that every trump
    ranked between it and the highest is in the hand or already played (K from A-K; J from
    K-J once the Q is gone).
    """
    trumps = sorted(
        (c for c in hand if c.suit == trump), key=lambda c: int(c.rank or 0), reverse=True
    )
    if not trumps or mode == "strict":
        return trumps[:1]
    mine = {c.rank for c in trumps}
    gone = {c.rank for c in known_out if c.suit == trump}
    accepted = [trumps[0]]
    top = int(trumps[0].rank or 0)
    for candidate in trumps[1:]:
        low = int(candidate.rank or 0)
        between = (Rank(r) for r in range(low + 1, top))
        if all(r in mine or r in gone for r in between):
            accepted.append(candidate)
        else:
            break  # a lower trump has the same gap and more
    return accepted


def apply_cinch(
    legal: list[Card],
    hand: Sequence[Card],
    trump: Suit,
    trick: Sequence[Card],
    tricks_won: int,
    known_out: Collection[Card],
    last_to_play: bool,
    mode: str,
    *,
    gone: Collection[Card] | None = None,
) -> tuple[list[Card], list[Card]]:
    """Rule 21 on top of 5.1: returns (legal cards, the cinch's highest trumps or []).

    ``known_out`` feeds the guaranteed tricks (rule 20: cards that can no longer take a
    trick); ``gone`` (default ``known_out``) the equivalent trumps (rule 22: cards already
    played, the trick in progress included)."""
    if mode == "off" or last_to_play:
        return legal, []
    trumps_in_legal = [c for c in legal if c.suit == trump]
    if not trumps_in_legal:
        return legal, []  # leading without trumps, or unable to trump: normal rules
    if trick:
        led = trick[0].suit
        able = led == trump or not any(c.suit == led for c in hand)
        if not able:
            return legal, []
    if not has_cinch(hand, trump, tricks_won, known_out):
        return legal, []
    top = highest_trumps(hand, trump, known_out if gone is None else gone, mode)
    narrowed = [c for c in legal if c in top]
    return (narrowed or legal), top
