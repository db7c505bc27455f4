"""Swiss pairing (docs/rules/tournaments.md rule T5): a documented algorithm, tested against
the properties of the FIDE Dutch system's examples (no repeat, score groups, byes, seat
balance) rather than a pairing library (none maintained on PyPI pairs tables of more than two).

1. **Order**: entries by score, then tie-break, then entry number (the ranking).
2. **Byes**: when the entries do not fill whole tables, the lowest-ranked entries among those
   with the fewest byes sit out (``n mod size`` of them); a bye scores as beating the table.
3. **Tables**: the highest-ranked entry not yet placed takes the first fitting companions in
   preference order — heads-up, inside its score group, the entry half a group below it
   first (the Dutch system's top half against bottom half), then the rest of the group, then
   lower groups by rank; tables of more seats take the next entries by rank — searched
   depth-first so that no two entries who have met meet again. When no such pairing exists
   (or the search passes :data:`SEARCH_BUDGET` steps) the same order is taken allowing
   repeats.
4. **Seats** (colours): at each table, seat position 0 goes to the member who has held it
   least, ties to the higher ranked; then position 1, and so on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations

SEARCH_BUDGET = 20_000


def byes_for(ranked: Sequence[int], count: int, byes: Mapping[int, int]) -> list[int]:
    """The ``count`` entries that sit out: the lowest ranked among the fewest byes."""
    order = sorted(range(len(ranked)), key=lambda i: (byes.get(ranked[i], 0), -i))
    return sorted((ranked[i] for i in order[:count]), key=ranked.index)


def _preference(first: int, rest: Sequence[int], score: Mapping[int, float]) -> list[int]:
    """Heads-up partners of ``first`` in preference order (rule 3)."""
    group = [e for e in rest if score.get(e, 0) == score.get(first, 0)]
    others = [e for e in rest if e not in group]
    half = (len(group) + 1) // 2 - 1 if group else 0  # the top of the group's bottom half
    return [*group[half:], *reversed(group[:half]), *others]


def _search(
    order: list[int],
    size: int,
    met: Mapping[int, set[int]],
    score: Mapping[int, float],
    allow_repeats: bool,
    budget: list[int],
) -> list[list[int]] | None:
    if not order:
        return []
    budget[0] -= 1
    if budget[0] < 0:
        return None
    first, rest = order[0], order[1:]
    if size == 2:
        choices: list[tuple[int, ...]] = [(e,) for e in _preference(first, rest, score)]
    else:
        choices = list(combinations(rest, size - 1))
    for companions in choices:
        members = (first, *companions)
        if not allow_repeats and any(b in met.get(a, set()) for a, b in combinations(members, 2)):
            continue
        remaining = [e for e in rest if e not in companions]
        found = _search(remaining, size, met, score, allow_repeats, budget)
        if found is not None:
            return [list(members), *found]
        if budget[0] < 0:
            return None
    return None


def _held(positions: Mapping[int, Sequence[int]], entry: int, position: int, size: int) -> int:
    return positions.get(entry, [0] * size)[position]


def seat_order(members: Sequence[int], positions: Mapping[int, Sequence[int]]) -> list[int]:
    """Rule 4: each position in turn to the member who has held it least (ties: rank)."""
    left = list(members)
    placed: list[int] = []
    for position in range(len(members)):
        chosen = min(
            left, key=lambda e: (_held(positions, e, position, len(members)), left.index(e))
        )
        placed.append(chosen)
        left.remove(chosen)
    return placed


def pair(
    ranked: Sequence[int],
    size: int,
    met: Mapping[int, set[int]],
    score: Mapping[int, float],
    byes: Mapping[int, int],
    positions: Mapping[int, Sequence[int]],
) -> tuple[list[list[int]], list[int]]:
    """``(tables, byes)``: each table's entries in seat-position order, and who sits out.
    ``ranked``: every entry, best first; ``met``: whom each has met; ``byes``: byes had;
    ``positions``: how often each has held each seat position."""
    out = byes_for(ranked, len(ranked) % size, byes)
    order = [e for e in ranked if e not in out]
    tables = _search(order, size, met, score, False, [SEARCH_BUDGET])
    if tables is None:
        tables = _search(order, size, met, score, True, [SEARCH_BUDGET])
    assert tables is not None  # allowing repeats, the first choice always fits
    return [seat_order(table, positions) for table in tables], out
