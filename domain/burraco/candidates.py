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
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from domain.burraco.melds import (
    ACE_HIGH,
    ACE_LOW,
    SET,
    Layout,
    MeldError,
    arrange_extension,
    arrange_new,
)
from domain.burraco.values import INFO

TWO = 2


@dataclass(frozen=True, slots=True)
class Candidate:
    """A meld to try: new (``meld is None``) or cards added to meld ``meld``."""

    cards: tuple[str, ...]
    meld: int | None = None


def _may_join(layout: Layout, code: str) -> bool:
    """A cheap filter before re-reading the meld with the card added."""
    info = INFO[code]
    if info.wild:
        return layout.wild < 0 or (info.rank == TWO and info.suit == layout.suit)
    if layout.kind == SET:
        return info.symbol == layout.rank
    if info.suit != layout.suit:
        return False
    if info.rank == ACE_HIGH:  # next to an end, or one place off for a wild to bridge (rule 10)
        return layout.low <= 3 or layout.high >= 12
    return layout.low - 2 <= info.rank <= layout.high + 2


# Which cards can join a layout, as far as asked: layout -> code -> joins. A meld keeps its
# layout for several turns and every listing asks again about the same cards, so the answers
# are kept (they depend on the layout and the card alone; the bound only limits memory).
_JOINS: dict[Layout, dict[str, bool]] = {}
LAYOUTS_KEPT = 1 << 13


def _joins(layout: Layout, code: str) -> bool:
    """Whether ``code`` alone can be added to ``layout`` (rules 8–10)."""
    if not _may_join(layout, code):
        return False
    try:
        arrange_extension(layout, [code])
    except MeldError:
        return False
    return True


def extensions(hand: Sequence[str], melds: Sequence[tuple[int, Layout]]) -> Iterator[Candidate]:
    """Every single card of ``hand`` that can join one of these melds."""
    distinct = list(dict.fromkeys(hand))
    for meld_id, layout in melds:
        known = _JOINS.get(layout)
        if known is None:
            if len(_JOINS) >= LAYOUTS_KEPT:
                _JOINS.clear()
            known = _JOINS[layout] = {}
        for code in distinct:
            joins = known.get(code)
            if joins is None:
                joins = known[code] = _joins(layout, code)
            if joins:
                yield Candidate((code,), meld_id)


def _runs(positions: Sequence[int]) -> list[list[int]]:
    runs: list[list[int]] = []
    for p in positions:
        if runs and runs[-1][-1] == p - 1:
            runs[-1].append(p)
        else:
            runs.append([p])
    return runs


def new_melds(hand: Sequence[str]) -> Iterator[Candidate]:
    """Sets and sequences the hand holds (see the module docstring)."""
    wilds = [code for code in hand if INFO[code].wild]
    by_rank: dict[int, list[str]] = {}
    by_suit: dict[str, dict[int, str]] = {}
    for code in hand:
        info = INFO[code]
        if info.rank == 0:
            continue
        if info.rank != TWO:
            by_rank.setdefault(info.rank, []).append(code)
        slots = by_suit.setdefault(info.suit, {})
        if info.rank == ACE_HIGH:
            slots[ACE_LOW] = slots[ACE_HIGH] = code
        else:
            slots[info.rank] = code
    seen: set[tuple[str, ...]] = set()

    def emit(codes_: list[str]) -> Iterator[Candidate]:
        key = tuple(sorted(codes_))
        if key in seen:
            return
        seen.add(key)
        yield Candidate(tuple(codes_))  # decide (or legal_commands) checks it

    for same in by_rank.values():
        if len(same) >= 3:
            yield from emit(same[:9])
        elif len(same) == 2 and wilds:
            yield from emit([*same, wilds[0]])
    for slots in by_suit.values():
        runs = _runs(sorted(slots))
        for run in runs:
            if len(run) >= 3:
                yield from emit([slots[p] for p in run])
        for run in runs:
            if len(run) == 2:
                yield from _with_wild([slots[p] for p in run], hand, wilds, emit)
        for left, right in pairwise(runs):
            if right[0] == left[-1] + 2:
                yield from _with_wild([slots[p] for p in left + right], hand, wilds, emit)


def _with_wild(
    codes_: list[str], hand: Sequence[str], wilds: Sequence[str], emit: Any
) -> Iterator[Candidate]:
    """``codes_`` plus one wild the hand still has to spare (a joker or a 2)."""
    for wild in wilds:
        if hand.count(wild) > codes_.count(wild):
            yield from emit([*codes_, wild])
            return


def pile_melds(
    hand: Sequence[str], melds: Sequence[tuple[int, Layout]], pile: Sequence[str]
) -> Iterator[Candidate]:
    """Melds that use a card of this turn's pile take (option ``take_pile=must_meld``).

    Beyond the listing above: a pile card added to a meld together with one card from hand
    (9H joins 5H-7H with the 8H), and the smallest new melds around a pile card — three
    cards of a run or a set — since the whole run or set may leave the player unable to
    discard (rule 19) where a part of it would not.
    """
    pile_cards = set(pile)
    distinct = list(dict.fromkeys(hand))
    for meld_id, layout in melds:
        for code in pile_cards:
            if not _may_join(layout, code):
                continue
            yield Candidate((code,), meld_id)
            for other in distinct:
                if (other != code or hand.count(code) > 1) and _may_join(layout, other):
                    yield Candidate((other, code), meld_id)
    wilds = [code for code in distinct if INFO[code].wild]
    for candidate in new_melds(hand):
        used = pile_cards.intersection(candidate.cards)
        if not used:
            if any(INFO[c].wild for c in candidate.cards):  # a pile wild may stand in
                for wild in pile_cards.intersection(wilds):
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
