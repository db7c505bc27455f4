"""Sequences (Burraco rules 9–10): reading a run's cards as positions, and rule 10's wild.

A sequence is read by trying every *reading* of its cards (which position each natural takes,
where the wild stands) and keeping the valid ones; rule 10 then narrows them (a same-suit 2
reads natural first; a wild already on the table stays or moves only as rule 10 allows), the
player's hints (``wildRank``, ``ace``) choose among what is left, and defaults settle the rest.
:func:`arrange_sequence` is the whole of it; :mod:`domain.burraco.melds` calls it for new melds
and extensions.
"""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from itertools import product

import msgspec

from domain.burraco.layout import (
    ACE_HIGH,
    ACE_LOW,
    SEQUENCE,
    SUIT_NAMES,
    Layout,
    MeldError,
    position_name,
)
from domain.burraco.values import INFO
from domain.cards import Rank

# A rank symbol names the positions a wild may stand for ("A" is either end).
WILD_RANK_POSITIONS: dict[str, tuple[int, ...]] = {
    **{rank.symbol: (int(rank),) for rank in Rank if rank is not Rank.ACE},
    "A": (ACE_LOW, ACE_HIGH),
}
ACE_CHOICES = {"low": ACE_LOW, "high": ACE_HIGH}


class _Reading(msgspec.Struct, frozen=True):
    """One way to read a sequence's cards: natural positions and the wild (if any)."""

    naturals: dict[int, str]
    wild: str | None
    wild_at: int


_WILD_ONLY = ((0, False),)
_NATURAL_TWO_FIRST = ((2, True), (0, False))  # rule 10: a same-suit 2 reads natural first
_ACE_EITHER_END = ((ACE_HIGH, True), (ACE_LOW, True))


def _readings(suit: str, cards: Sequence[str], fixed: dict[int, str]) -> tuple[list[_Reading], str]:
    """Every valid reading of ``cards`` (plus ``fixed`` naturals already in place).

    Returns the readings and, when there are none, why not (the most natural reading's fault).
    """
    options: list[tuple[tuple[int, bool], ...]] = []  # per card: (position, natural?) choices
    aces = (ACE_LOW in fixed) + (ACE_HIGH in fixed)
    for code in cards:
        info = INFO[code]
        if info.rank == 0:
            options.append(_WILD_ONLY)
        elif info.rank == 2:
            options.append(_NATURAL_TWO_FIRST if info.suit == suit else _WILD_ONLY)
        elif info.suit != suit:
            raise MeldError(f"a sequence is of one suit: {code} is not a {SUIT_NAMES[suit]}")
        elif info.rank == ACE_HIGH:
            options.append(_ACE_EITHER_END)
            aces += 1
        else:
            options.append(((info.rank, True),))
    if aces > 1:
        raise MeldError("an ace is high or low, never both (K-A-2 does not wrap)")
    found: list[_Reading] = []
    first_fault = ""
    for choice in product(*options):
        naturals = dict(fixed)
        wilds: list[str] = []
        fault = ""
        for code, (position, natural) in zip(cards, choice, strict=True):
            if not natural:
                wilds.append(code)
            elif position in naturals:
                fault = f"the sequence already holds {position_name(position, suit)}"
                break
            else:
                naturals[position] = code
        if not fault:
            fault = _run_fault(naturals, wilds, suit)
        if fault:
            first_fault = first_fault or fault
            continue
        low, high = min(naturals), max(naturals)
        gaps = [p for p in range(low, high + 1) if p not in naturals] if wilds else []
        if gaps:
            found.append(_Reading(naturals, wilds[0], gaps[0]))
        elif wilds:
            for end in (high + 1, low - 1):
                if ACE_LOW <= end <= ACE_HIGH:
                    found.append(_Reading(naturals, wilds[0], end))
        else:
            found.append(_Reading(naturals, None, 0))
    return found, first_fault


def _run_fault(naturals: dict[int, str], wilds: list[str], suit: str) -> str:
    """Why these naturals and wilds do not make a sequence ('' if they do)."""
    if len(wilds) > 1:
        return "a sequence may hold at most one wild card (besides a natural 2 in its place)"
    if len(naturals) < 2:
        return "a meld needs at least two natural cards (at most one wild)"
    if ACE_LOW in naturals and ACE_HIGH in naturals:
        return "an ace is high or low, never both (K-A-2 does not wrap)"
    low, high = min(naturals), max(naturals)
    if high - low + 1 - len(naturals) > len(wilds):
        missing = [p for p in range(low, high + 1) if p not in naturals]
        names = ", ".join(position_name(p, suit) for p in missing)
        return f"the cards do not run: missing {names} (no wrap-around; one wild at most)"
    return ""


@dataclass(slots=True)
class TableWild:
    """The wild a sequence already holds on the table: rule 10 says where it may go."""

    code: str
    position: int
    at_end: bool
    fixed: AbstractSet[int]  # the positions of the meld's naturals, which never move

    def stays(self, r: _Reading) -> bool:
        """Whether ``r`` keeps this wild where it stands (rule 10's default)."""
        return r.wild == self.code and r.wild_at == self.position

    def allows(self, r: _Reading, suit: str) -> bool:
        """Whether reading ``r`` places this wild as rule 10 allows.

        Cards added together count as added one at a time (in an order that works), so a
        wild that moved to an end may find itself inside the run once the rest is added.
        """
        if r.wild == self.code:
            if r.wild_at == self.position:
                return True  # it stays where it stands
            if self.position in r.naturals:
                return True  # replaced by its natural card, it moved to an end
            if self.at_end and min(r.naturals) < r.wild_at < max(r.naturals):
                return True  # it crossed to the other end to make room for a card beyond it
        return self.reads_natural(r, suit)

    def reads_natural(self, r: _Reading, suit: str) -> bool:
        """Whether this wild is a same-suit 2 that ``r`` reads as natural in its own place.

        It leaves its place to its natural card, or off the top of the run once the run
        reaches down to its 3. A wild added with it never takes its place (a wild is replaced
        only by its natural card): that wild comes after, at an end of the run the 2 joined.
        """
        if self.code != f"2{suit}" or r.naturals.get(2) != self.code or 2 in self.fixed:
            return False
        top = max(self.fixed)
        if self.position < top and self.position not in r.naturals:
            return False  # below the run's top, only its natural card could take its place
        return r.wild is None or r.wild_at < 2 or r.wild_at > top

    def stays_message(self, suit: str) -> str:
        where = position_name(self.position, suit)
        how = (
            "a wild at an end moves only when its natural card is added, or to the other end "
            "to make room"
            if self.at_end
            else "a wild inside a sequence moves only when its natural card is added"
        )
        return f"the wild stays where it stands for {where}: {how} (rule 10)"


def _rule_10(readings: list[_Reading], suit: str, table_wild: TableWild | None) -> list[_Reading]:
    """The readings rule 10 allows (not the player's to choose, so before any hint).

    A same-suit 2 that can be natural is natural (the readings with the most naturals). The
    wild already in the meld stays where it stands or moves as :meth:`TableWild.allows` says.
    """
    if len(readings) > 1:
        most = max(len(r.naturals) for r in readings)
        readings = [r for r in readings if len(r.naturals) == most]
    if table_wild is None:
        return readings
    allowed = [r for r in readings if table_wild.allows(r, suit)]
    if not allowed and all(r.wild not in (None, table_wild.code) for r in readings):
        natural = position_name(table_wild.position, suit)
        raise MeldError(
            f"a sequence may hold at most one wild card: its {table_wild.code} standing for "
            f"{natural} stays wild, and a wild gives way only to its natural card (rule 10)"
        )
    if not allowed:
        raise MeldError(table_wild.stays_message(suit))
    return allowed


def _a(rank: str) -> str:
    """The rank with its article: 'a 5', 'an A', 'an 8'."""
    return f"an {rank}" if rank in ("A", "8") else f"a {rank}"


def _plays_ace(r: _Reading, spot: int) -> bool:
    """Whether ``r`` puts the ace at ``spot``: its natural ace if it holds one (so in a run
    of 14 the hint places the natural ace and the wild takes the other end), else its wild."""
    if ACE_LOW in r.naturals or ACE_HIGH in r.naturals:
        return spot in r.naturals
    return r.wild is not None and r.wild_at == spot


def _pick(
    readings: list[_Reading],
    suit: str,
    *,
    wild_rank: str | None,
    ace: str | None,
    table_wild: TableWild | None,
) -> _Reading:
    """Choose among valid readings: rule 10 first (it is not the player's to choose, so it
    narrows the readings before any hint), then the player's hints, then defaults."""
    readings = _rule_10(readings, suit, table_wild)
    if wild_rank is not None:
        if all(r.wild is None for r in readings):
            two = any(2 in r.naturals for r in readings)
            why = f" (its 2{suit} is natural in its own place, rule 10)" if two else ""
            raise MeldError(f"wildRank names no card: this sequence has no wild card{why}")
        wanted = WILD_RANK_POSITIONS[wild_rank]
        matching = [r for r in readings if r.wild is not None and r.wild_at in wanted]
        if not matching and table_wild is not None and any(map(table_wild.stays, readings)):
            raise MeldError(table_wild.stays_message(suit))
        if not matching:
            raise MeldError(f"the wild card cannot stand for {_a(wild_rank)} in this sequence")
        readings = matching
    if ace is not None:
        readings = [r for r in readings if _plays_ace(r, ACE_CHOICES[ace])]
        if not readings:
            raise MeldError(f"the ace cannot play {ace} in this sequence")
    if len(readings) == 1:
        return readings[0]

    def preference(r: _Reading) -> tuple[int, int, int, int]:
        return (
            len(r.naturals),  # rule 10: a same-suit 2 that can be natural is natural
            int(table_wild is not None and table_wild.stays(r)),  # wilds stay put
            int(ACE_HIGH in r.naturals),  # an ace that could go either way goes high
            int(r.wild is None or r.wild_at > max(r.naturals)),  # an end wild goes high
        )

    return max(readings, key=preference)


def _sequence_layout(suit: str, reading: _Reading) -> Layout:
    """The table order of a reading: its cards by position, from the low end up."""
    slots = dict(reading.naturals)
    if reading.wild is not None:
        slots[reading.wild_at] = reading.wild
    low, high = min(slots), max(slots)
    ordered = tuple([slots[p] for p in range(low, high + 1)])
    wild = reading.wild_at - low if reading.wild is not None else -1
    return Layout(SEQUENCE, ordered, suit=suit, low=low, wild=wild)


def arrange_sequence(
    suit: str,
    cards: Sequence[str],
    fixed: dict[int, str],
    *,
    wild_rank: str | None,
    ace: str | None,
    table_wild: TableWild | None = None,
) -> Layout:
    readings, fault = _readings(suit, cards, fixed)
    if not readings:
        raise MeldError(fault or "these cards do not make a sequence")
    chosen = _pick(readings, suit, wild_rank=wild_rank, ace=ace, table_wild=table_wild)
    return _sequence_layout(suit, chosen)
