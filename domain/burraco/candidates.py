"""Melds a hand could make: a finite, representative search used by ``legal_commands``, the
bot and the ``must_meld`` option.

Not every legal meld is listed (the number of legal subsets of a hand is huge). Listed are:
every single card that can join one of the team's melds, every set of all the naturals of a
rank (or two naturals and a wild), and every maximal run of a suit (or two runs bridged by a
wild, or a pair extended by a wild). Additions are checked against the meld here; new melds
are only proposed, and callers run every candidate through ``decide`` (which also accepts
every legal meld, listed or not).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache, lru_cache, reduce
from itertools import pairwise
from operator import or_
from typing import Final

import msgspec

from domain.burraco.melds import (
    ACE_HIGH,
    ACE_LOW,
    SEQUENCE,
    SET,
    Layout,
    MeldError,
    arrange_new,
    extends,
    forget_readings,
)
from domain.burraco.values import INFO

TWO: Final = 2


class Candidate(msgspec.Struct, frozen=True, gc=False):
    """A meld to try: new (``meld is None``) or cards added to meld ``meld``. (A msgspec
    Struct: listings make many, and it is several times cheaper to make than a dataclass.)"""

    cards: tuple[str, ...]
    meld: int | None = None


SUITS = ("S", "H", "D", "C")
WILDS = frozenset(code for code, info in INFO.items() if info.wild)
# the code of each sequence position in each suit (the ace at both ends)
AT: dict[str, dict[int, str]] = {info.suit: {} for info in INFO.values() if info.suit}
for _code, _info in INFO.items():
    if _info.suit:
        for _p in (ACE_LOW, ACE_HIGH) if _info.rank == ACE_HIGH else (_info.rank,):
            AT[_info.suit][_p] = _code


def first_of_each(candidates: list[Candidate]) -> list[Candidate]:
    """The first of each candidate (same meld, same cards in any order), in their order."""
    seen: set[tuple[int | None, tuple[str, ...]]] = set()
    first: list[Candidate] = []
    for c in candidates:
        key = (c.meld, tuple(sorted(c.cards)))
        if key not in seen:
            seen.add(key)
            first.append(c)
    return first


def joinable(layout: Layout) -> frozenset[str]:
    """A cheap filter before re-reading the meld with a card added: the codes that might join.

    A wild while the meld has none, or the sequence's own 2 (which may be natural); in a set
    its rank; in a sequence its suit from two places below its low end to two above its high
    end (a wild may bridge one), and the ace when the run comes that near an end (rule 10).
    """
    if layout.kind == SET:
        return _joinable(SET, layout.rank, 0, 0, layout.wild < 0)
    return _joinable(SEQUENCE, layout.suit, layout.low, layout.high, wilds_may_join(layout))


def wilds_may_join(layout: Layout) -> bool:
    """Whether any wild might join: the meld has none, or it is a sequence whose wild is its
    own suit's 2 and reaches down to 3, so that 2 may turn natural in its place (rule 9:
    `3H 4H 2H(as 5H)` + `JK` gives `2H 3H 4H JK(as 5H)`) and leave the wild's place free."""
    if layout.wild < 0:
        return True
    return (
        layout.kind == SEQUENCE
        and layout.low <= 3
        and layout.cards[layout.wild] == f"2{layout.suit}"
    )


@cache  # a few thousand shapes at most
def _joinable(kind: str, name: str | None, low: int, high: int, wilds: bool) -> frozenset[str]:
    """:func:`joinable` for a set of rank ``name`` or a sequence of suit ``name``; ``wilds``:
    any wild might join (else none in a set, and only the suit's own 2 in a sequence)."""
    if kind == SET:
        joining = WILDS if wilds else frozenset()
        return joining | {f"{name}{suit}" for suit in SUITS}
    assert name is not None
    joining = WILDS if wilds else frozenset({f"2{name}"})
    at = AT[name]
    naturals = {at[p] for p in range(max(3, low - 2), min(13, high + 2) + 1)}
    if low <= 3 or high >= 12:
        naturals.add(at[ACE_HIGH])
    return joining | naturals


def joinable_alone(layout: Layout) -> frozenset[str]:
    """:func:`joinable` for a card added on its own (what ``extensions`` lists): to a clean
    sequence a natural of its suit joins only next to an end — inside the run its place is
    taken, and two places beyond it a wild would have to bridge the gap (rule 9); to a
    sequence with a wild, no natural joins where the run holds its natural already."""
    if layout.kind == SET:
        return joinable(layout)
    if layout.wild >= 0:
        wild_at = layout.low + layout.wild
        return _around_wild(layout.suit, layout.low, layout.high, wild_at, wilds_may_join(layout))
    return _next_to_ends(layout.suit, layout.low, layout.high)


@cache  # a few thousand shapes at most
def _around_wild(
    suit: str | None, low: int, high: int, wild_at: int, wilds: bool
) -> frozenset[str]:
    """:func:`joinable_alone` for a sequence of ``suit`` from ``low`` to ``high`` whose wild
    stands at ``wild_at``: :func:`joinable` less the naturals (3 to K) of the places its
    naturals hold, where a card alone finds its place taken (the wild's place stays: its
    natural card replaces it, rule 10)."""
    assert suit is not None
    at = AT[suit]
    held = {at[p] for p in range(max(3, low), min(13, high) + 1) if p != wild_at}
    return _joinable(SEQUENCE, suit, low, high, wilds) - held


@cache  # a few hundred shapes at most
def _next_to_ends(suit: str | None, low: int, high: int) -> frozenset[str]:
    """:func:`joinable_alone` for a clean sequence of ``suit`` from ``low`` to ``high``."""
    assert suit is not None
    at = AT[suit]
    naturals = {at[p] for p in (low - 1, high + 1) if 3 <= p <= 13}
    if low <= 3 or high >= 12:
        naturals.add(at[ACE_HIGH])
    return WILDS | naturals


class _Joins:
    """What is known of the cards that can join one layout: the filters (any card that might
    join with others, a card that might join alone), and the answers for cards alone."""

    __slots__ = ("_maybe", "alone", "known", "layout")

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.alone = joinable_alone(layout)
        self.known: dict[str, bool] = {}
        self._maybe: frozenset[str] | None = None

    @property
    def maybe(self) -> frozenset[str]:
        """:func:`joinable`, read when first asked (only pile melds ask: most layouts are
        only ever asked about cards alone)."""
        if self._maybe is None:
            self._maybe = joinable(self.layout)
        return self._maybe

    def __call__(self, code: str) -> bool:
        """Whether ``code`` alone can be added to the layout (rules 8–10)."""
        joins = self.known.get(code)
        if joins is None:
            joins = self.known[code] = extends(self.layout, code)
        return joins


# A meld keeps its layout (the same object) for several turns, and every listing asks about
# it again, so what is learnt of a layout is kept, found by the layout's identity (the entry
# holds the layout, so the identity cannot be reused while kept). The bound limits memory.
JOINS: dict[int, _Joins] = {}
LAYOUTS_KEPT = 1 << 13


def joins_of(layout: Layout) -> _Joins:
    """What is known of the cards that can join ``layout`` (remembered by its identity)."""
    entry = JOINS.get(id(layout))
    if entry is None or entry.layout is not layout:
        if len(JOINS) >= LAYOUTS_KEPT:
            JOINS.clear()
        entry = JOINS[id(layout)] = _Joins(layout)
    return entry


def forget() -> None:
    """Forget what is remembered of layouts, suits and readings (:func:`melds.forget_readings`):
    answers stay the same; a benchmark starts cold with it."""
    JOINS.clear()
    _joinable.cache_clear()
    _next_to_ends.cache_clear()
    _around_wild.cache_clear()
    _positions.cache_clear()
    _sequences.cache_clear()
    forget_readings()


def extensions(hand: Sequence[str], melds: Sequence[tuple[int, Layout]]) -> Iterator[Candidate]:
    """Every single card of ``hand`` that can join one of these melds."""
    distinct = list(dict.fromkeys(hand))
    for meld_id, layout in melds:
        for code in joining_alone(distinct, layout):
            yield Candidate((code,), meld_id)


def joining_alone(distinct: Sequence[str], layout: Layout) -> list[str]:
    """The cards of ``distinct`` (a hand's codes, each once, in the hand's order) that join
    ``layout`` each on its own; what is known of the layout is remembered (``JOINS``)."""
    joins = JOINS.get(id(layout))
    if joins is None or joins.layout is not layout:
        joins = joins_of(layout)
    alone = joins.alone  # the cards that might join it alone
    if alone.isdisjoint(distinct):
        return []
    known = joins.known
    joining = []
    for code in distinct:
        if code in alone:
            join = known.get(code)
            if join is None:
                join = joins(code)
            if join:
                joining.append(code)
    return joining


def _runs(mask: int) -> list[list[int]]:
    """The runs of consecutive positions whose bits ``mask`` sets, low to high."""
    runs: list[list[int]] = []
    for p in range(ACE_LOW, ACE_HIGH + 1):
        if mask >> p & 1:
            if runs and runs[-1][-1] == p - 1:
                runs[-1].append(p)
            else:
                runs.append([p])
    return runs


@lru_cache(maxsize=1 << 14)
def _positions(mask: int) -> tuple[tuple[tuple[int, ...], bool], ...]:
    """The sequences a suit's positions offer, in the order they are proposed: each maximal run
    of three or more; then each run of two with a wild; then two runs a gap apart, bridged by a
    wild (``True``: a wild is wanted)."""
    runs = _runs(mask)
    found = [(tuple(run), False) for run in runs if len(run) >= 3]
    found += [(tuple(run), True) for run in runs if len(run) == TWO]
    found += [
        (tuple(left + right), True) for left, right in pairwise(runs) if right[0] == left[-1] + 2
    ]
    return tuple(found)


@lru_cache(maxsize=1 << 14)
def _sequences(suit: str, mask: int) -> tuple[tuple[tuple[str, ...], bool], ...]:
    """:func:`_positions` as the codes of ``suit``'s cards."""
    at = AT[suit]
    return tuple((tuple([at[p] for p in positions]), wild) for positions, wild in _positions(mask))


def new_melds(hand: Sequence[str]) -> Iterator[Candidate]:
    """Sets and sequences the hand holds (see the module docstring)."""
    return iter([Candidate(cards) for cards in new_meld_cards(hand)])


def new_meld_cards(hand: Sequence[str]) -> list[tuple[str, ...]]:
    """:func:`new_melds` as the cards of each proposal (what ``legal_commands`` lists).

    Proposed, in this order: for each rank in the order the hand first shows it, a set of
    its naturals (three or more, nine at most) or of its two naturals and the hand's first
    wild; then for each suit in the order the hand first shows it, its sequences
    (:func:`_positions`, a wild added where one is wanted).

    Most hands offer nothing, so the whole hand is first read at once, as numbers
    (``_COUNTS``, ``_POSITIONS``): how many naturals of each rank and wilds it holds, and
    the positions each suit holds. Only ranks and suits that may offer a meld are looked at.
    """
    if len(hand) < 3:
        return []  # every meld holds three cards or more
    counts = sum(map(_COUNTS.__getitem__, hand))
    positions = reduce(or_, map(_POSITIONS.__getitem__, hand), 0)
    wilds_held = counts >> _WILD_SHIFT
    triples = counts & _THREE_OR_MORE or counts & counts >> 1 & _ONES
    sets = triples or (wilds_held and counts & _TWO_OR_MORE)
    if wilds_held:  # two positions one or two apart (a wild makes them a sequence)
        runs = positions & (positions >> 1 | positions >> 2)
    else:  # three positions in a row
        runs = positions & positions >> 1 & positions >> 2
    if not (sets or runs):
        return []
    wilds = [code for code in hand if code in WILDS] if wilds_held else []
    proposed: list[tuple[str, ...]] = []
    if sets:
        by_rank: dict[int, list[str]] = {}  # a natural's rank -> its cards, in hand order
        for code in hand:
            rank = _SET_RANK[code]
            if rank:
                if rank in by_rank:
                    by_rank[rank].append(code)
                else:
                    by_rank[rank] = [code]
        for same in by_rank.values():
            held = len(same)
            if held >= 3:
                proposed.append(tuple(same[:9]))
            elif held == TWO and wilds:
                proposed.append((*same, wilds[0]))
    # a position with none held one or two places away is in no proposal: left out, the
    # suits' masks (and their remembered sequences) repeat more often
    positions &= positions >> 1 | positions << 1 | positions >> 2 | positions << 2
    ace_twice = False  # whether a suit holding an ace offers two sequences or more
    for suit in dict.fromkeys(map(_SUIT_OF.__getitem__, hand)) if runs else ():
        shift = _SUIT_SHIFT[suit]
        if not runs >> shift & _SUIT_FIELD:
            continue  # no sequence to start in this suit
        mask = (positions >> shift & _SUIT_FIELD) << ACE_LOW  # position p at bit p
        sequences = _sequences(suit, mask)
        if mask & _ACE_LOW_BIT and len(sequences) >= TWO:
            ace_twice = True
        for codes_, wild in sequences:
            if wild:
                with_wild = _with_wild(codes_, hand, wilds)
                if with_wild is None:
                    continue
                codes_ = with_wild
            proposed.append(codes_)  # decide (or legal_commands) checks it
    if not ace_twice:
        # No two proposals hold the same cards: a set holds one rank, a sequence two ranks or
        # more of one suit, and a suit's proposals cover different positions (maximal runs,
        # pairs and bridged runs never share a position set, nor do they once a same-suit 2
        # is added as the wild: its place would be in the mask). Only the ace, at both ends
        # (positions 1 and 14), can make two position sets the same cards.
        return proposed
    seen: set[tuple[str, ...]] = set()
    found: list[tuple[str, ...]] = []
    for codes_ in proposed:
        key = tuple(sorted(codes_))
        if key not in seen:
            seen.add(key)
            found.append(codes_)
    return found


_ACE_LOW_BIT: Final = 1 << ACE_LOW

# A hand read as numbers (new_meld_cards), each small enough for a machine word.
# ``_COUNTS``: per code, a count in a 4-bit field — a natural's rank for a set (3 … 14, a 2
# is always wild in a set) or the wilds' field (a pack of 108 holds 8 naturals of a rank and
# 12 wilds, so no field overflows when summed). ``_POSITIONS``: per code, its sequence
# positions (1 to 14, the ace at both ends) as bits 0 to 13 of a 15-bit field per suit: the
# top bit of each field stays clear, so three positions in a row never straddle two suits
# (two positions two apart may: the ace high of one suit and the ace low of the next, which
# only sends that suit to the full reading). ``_SET_RANK``: a natural's rank, 0 for a wild;
# ``_SUIT_OF``: a card's suit, '' for the joker.
_FIELD: Final = 0xF
_RANK_SHIFT: Final = 4
_NATURAL_FIELDS = range(ACE_HIGH - 2)  # ranks 3 to 14
_WILD_SHIFT: Final = _RANK_SHIFT * len(_NATURAL_FIELDS)
_SUIT_FIELD: Final = 0x3FFF
_SUIT_SHIFT = {suit: 15 * index for index, suit in enumerate(SUITS)}
_SUIT_SHIFT[""] = 15 * len(SUITS)  # the joker: no positions
_ONES: Final = sum(1 << _RANK_SHIFT * field for field in _NATURAL_FIELDS)
_TWO_OR_MORE: Final = sum(0b1110 << _RANK_SHIFT * field for field in _NATURAL_FIELDS)
_THREE_OR_MORE: Final = sum(0b1100 << _RANK_SHIFT * field for field in _NATURAL_FIELDS)
_SET_RANK = {code: 0 if info.wild else info.rank for code, info in INFO.items()}
_SUIT_OF = {code: info.suit for code, info in INFO.items()}
_COUNTS = {
    code: 1 << (_WILD_SHIFT if info.wild else _RANK_SHIFT * (info.rank - 3))
    for code, info in INFO.items()
}
_POSITIONS = {
    code: sum(
        1 << _SUIT_SHIFT[info.suit] + p - ACE_LOW
        for p in ((ACE_LOW, ACE_HIGH) if info.rank == ACE_HIGH else (info.rank,))
    )
    if info.rank
    else 0
    for code, info in INFO.items()
}


def _with_wild(
    codes_: Sequence[str], hand: Sequence[str], wilds: Sequence[str]
) -> tuple[str, ...] | None:
    """``codes_`` plus one wild the hand still has to spare (a joker or a 2), if it has one."""
    for wild in wilds:
        if hand.count(wild) > codes_.count(wild):
            return (*codes_, wild)
    return None


def pile_melds(
    hand: Sequence[str], melds: Sequence[tuple[int, Layout]], pile: Sequence[str]
) -> Iterator[Candidate]:
    """Melds that use a card of this turn's pile take (option ``take_pile=must_meld``).

    Beyond the listing above: a pile card added to a meld together with one card from hand
    (9H joins 5H-7H with the 8H), and the smallest new melds around a pile card — three
    cards of a run or a set — since the whole run or set may leave the player unable to
    discard (rule 19) where a part of it would not.
    """
    pile_cards = dict.fromkeys(pile)  # in pile order, so the listing never depends on hashing
    distinct = list(dict.fromkeys(hand))
    for meld_id, layout in melds:
        maybe = joins_of(layout).maybe
        for code in pile_cards:
            if code not in maybe:
                continue
            yield Candidate((code,), meld_id)
            for other in distinct:
                if (other != code or hand.count(code) > 1) and other in maybe:
                    yield Candidate((other, code), meld_id)
    wilds = [code for code in distinct if INFO[code].wild]
    for candidate in new_melds(hand):
        used = {c for c in candidate.cards if c in pile_cards}
        if not used:
            if any(INFO[c].wild for c in candidate.cards):  # a pile wild may stand in
                for wild in (c for c in pile_cards if c in wilds):
                    swapped = [c for c in candidate.cards if not INFO[c].wild]
                    yield Candidate((*swapped, wild))
            continue
        yield candidate
        if len(candidate.cards) > 3:
            yield from _parts_of_three(candidate.cards, used)


def _parts_of_three(cards: Sequence[str], pile_cards: set[str]) -> Iterator[Candidate]:
    """Three-card parts of a meld holding a pile card: runs of three in table order, or the
    pile card with two others of a set."""
    try:
        layout = arrange_new(cards)
    except MeldError:
        return
    laid = layout.cards
    for index, code in enumerate(laid):
        if code not in pile_cards:
            continue
        if layout.kind == SET:
            others = list(laid)
            others.pop(index)
            yield Candidate((code, *others[:2]))
            continue
        for start in range(max(0, index - 2), min(index, len(laid) - 3) + 1):
            yield Candidate(tuple(laid[start : start + 3]))
