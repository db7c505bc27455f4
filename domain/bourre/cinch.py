"""The cinch (spec 5.2, rules 19–22): a player who can see that they win the pot must play
their highest trump when leading, and when following able to trump and not last to play.

Guaranteed tricks come only from what the player knows (rule 20): their own hand, the cards
already played, and a turned trump card that belongs to nobody. Never from hidden hands.

Where the spec's bound "O = trumps neither held nor yet played" meets a trick in progress:
trumps already in the trick count as played, except that a player who cannot head them
loses the trump they put under them (see :func:`counted_for_cinch`), so the bound stays the
sound one rule 20 asks for.
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


def counted_for_cinch(
    hand: Sequence[Card], trump: Suit, trick: Sequence[Card], played: Collection[Card]
) -> tuple[list[Card], list[Card]]:
    """The hand and the cards out of play that rule 20 counts for a player about to play a
    trump into ``trick`` (``played`` includes the trick's cards).

    The spec's bound counts the trumps already in the trick as played. That holds when the
    player can head them (5.1 then makes them play higher). When no trump of theirs can, the
    trump they put under the trick is lost to it; the cinch would make it the highest
    (rule 21), so that one is counted as gone rather than as a sure trick. Otherwise a hand
    like K-Q-2 under a led AS, one trick won, would be a "cinch" that the cinch itself spoils.
    """
    trumps_in_trick = [c for c in trick if c.suit == trump]
    held = [c for c in hand if c.suit == trump]
    if not trumps_in_trick or not held:
        return list(hand), list(played)
    high = max(int(c.rank or 0) for c in trumps_in_trick)
    best = max(held, key=lambda c: int(c.rank or 0))
    if int(best.rank or 0) > high:
        return list(hand), list(played)
    return [c for c in hand if c != best], [*played, best]


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
    """Rule 21 on top of 5.1: returns (legal cards, the cinch's highest trumps or []).

    ``known_out``: the cards the player knows are out of play (rule 20) — every card played,
    the trick in progress included, and a turned card that belongs to nobody."""
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
    counted, out = counted_for_cinch(hand, trump, trick, known_out)
    if not has_cinch(counted, trump, tricks_won, out):
        return legal, []
    top = highest_trumps(hand, trump, known_out, mode)
    narrowed = [c for c in legal if c in top]
    return (narrowed or legal), top
