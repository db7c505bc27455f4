"""How each format is scored (docs/rules/tournaments.md rules T6–T9). One function each, used
alike by the aggregate, the standings read model and the traveller, so they always agree.

A table's result is the game's own reading of each settled hand (``house.ranking``: each
side's seats and score — a Burraco partnership's hand points, a Bourré seat's chips won).

* **Duplicate, victory points** (``vp``, two sides a table): on each board a side's *net* is
  its score less the other side's; each table's net is compared with every other table's net
  of the same side position on the board, and each difference is turned into victory points
  on the 20–0 scale (:func:`victory_points`); a side's board score is the sum over the other
  tables. A pair's score is the sum over its boards.
* **Duplicate, against the field** (``field``): on each board a side scores its chips less
  each other table's same seat's chips, summed.
* **Swiss** (``match``): at each table a side scores 2 for every side it outscored over the
  table's hands and 1 for every side it tied; a bye scores as beating the table. Tie-break:
  the sum of its table totals.
* **Sit & Go** (``total``): the side's total over the table (chips, or match points).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations

import msgspec

from domain.tournament.events import Side

VP = "vp"
FIELD = "field"
MATCH = "match"
TOTAL = "total"

# The 20–0 scale: the difference of two nets on a board -> the winner's victory points
# (the loser scores 20 less them). Bands of 100 points from 50: the shape of the Italian
# federation's (FIBUR) 20–0 tables for a single board; docs/rules/burraco.md rule 29.
VP_BANDS: tuple[tuple[int, int], ...] = (
    (0, 10), (50, 11), (150, 12), (250, 13), (350, 14), (450, 15),
    (550, 16), (650, 17), (750, 18), (850, 19), (950, 20),
)  # fmt: skip


def victory_points(difference: int) -> int:
    """The victory points of a side whose net beat another's by ``difference`` (negative:
    it lost by that much): 10 for a tie or a difference under 50, up to 20 (down to 0)."""
    won = 10
    for least, points in VP_BANDS:
        if abs(difference) >= least:
            won = points
    return won if difference >= 0 else 20 - won


class TableResult(msgspec.Struct, frozen=True):
    """What a table of a round did: its boards (one per hand; empty: its own deals), the
    entry at each seat and each settled hand's sides."""

    table_id: str
    round: int
    boards: tuple[int, ...]
    seats: tuple[int, ...]
    hands: tuple[tuple[Side, ...], ...]


def _net(side: Side, hand: Sequence[Side]) -> int:
    return side.score - sum(other.score for other in hand if other is not side)


def board_plays(results: Iterable[TableResult]) -> dict[int, list[tuple[TableResult, int]]]:
    """Each board's plays: the tables that played it, with the hand it was there."""
    plays: dict[int, list[tuple[TableResult, int]]] = {}
    for result in results:
        for index, number in enumerate(result.boards):
            if index < len(result.hands):
                plays.setdefault(number, []).append((result, index))
    return plays


def board_scores(
    plays: Sequence[tuple[TableResult, int]], scoring: str
) -> dict[str, dict[int, tuple[int, int]]]:
    """One board's scores at each table: table id -> entry -> (board score, net or chips)."""
    by_table: dict[str, dict[tuple[int, ...], tuple[int, int]]] = {}
    for result, index in plays:
        hand = result.hands[index]
        by_table[result.table_id] = {
            side.seats: (
                result.seats[side.seats[0]],
                _net(side, hand) if scoring == VP else side.score,
            )
            for side in hand
        }
    scores: dict[str, dict[int, tuple[int, int]]] = {table: {} for table in by_table}
    for table, sides in by_table.items():
        for position, (entry, mine) in sides.items():
            total = 0
            for other, their_sides in by_table.items():
                if other == table or position not in their_sides:
                    continue
                theirs = their_sides[position][1]
                total += victory_points(mine - theirs) if scoring == VP else mine - theirs
            scores[table][entry] = (total, mine)
    return scores


def duplicate_scores(
    results: Iterable[TableResult], scoring: str
) -> dict[int, tuple[float, float]]:
    """Entry -> (score, tie-break): summed board scores and summed nets (or chips)."""
    totals: dict[int, list[float]] = {}
    for plays in board_plays(results).values():
        for by_entry in board_scores(plays, scoring).values():
            for entry, (score, own) in by_entry.items():
                found = totals.setdefault(entry, [0.0, 0.0])
                found[0] += score
                found[1] += own
    return {entry: (s, t) for entry, (s, t) in totals.items()}


def table_totals(result: TableResult) -> dict[int, int]:
    """Entry -> its side's total over the table's hands."""
    totals: dict[int, int] = {}
    for hand in result.hands:
        for side in hand:
            entry = result.seats[side.seats[0]]
            totals[entry] = totals.get(entry, 0) + side.score
    return totals


def match_scores(
    results: Iterable[TableResult], byes: Mapping[int, int], size: int
) -> dict[int, tuple[float, float]]:
    """Swiss: entry -> (match points, the sum of its table totals)."""
    found: dict[int, list[float]] = {e: [2.0 * (size - 1) * n, 0.0] for e, n in byes.items()}
    for result in results:
        totals = table_totals(result)
        for entry, mine in totals.items():
            row = found.setdefault(entry, [0.0, 0.0])
            row[0] += sum(2 if mine > theirs else 1 if mine == theirs else 0
                          for other, theirs in totals.items() if other != entry)  # fmt: skip
            row[1] += mine
    return {entry: (s, t) for entry, (s, t) in found.items()}


def total_scores(results: Iterable[TableResult]) -> dict[int, tuple[float, float]]:
    """Sit & Go: entry -> (its table total, 0)."""
    found: dict[int, tuple[float, float]] = {}
    for result in results:
        for entry, total in table_totals(result).items():
            found[entry] = (found.get(entry, (0.0, 0.0))[0] + total, 0.0)
    return found


def standings(
    scoring: str,
    entries: Mapping[int, Sequence[str]],
    results: Sequence[TableResult],
    byes: Mapping[int, int],
    size: int,
) -> list[dict[str, object]]:
    """Every entry, best first: ``{"rank", "entry", "names", "score", "tiebreak",
    "played"}`` from the results of ended rounds only (shared ranks for equal figures)."""
    if scoring in (VP, FIELD):
        scores = duplicate_scores(results, scoring)
    elif scoring == MATCH:
        scores = match_scores(results, byes, size)
    else:
        scores = total_scores(results)
    played: dict[int, int] = {}
    for result in results:
        for entry in set(result.seats):
            played[entry] = played.get(entry, 0) + 1
    rows = sorted(
        entries, key=lambda e: (-scores.get(e, (0.0, 0.0))[0], -scores.get(e, (0.0, 0.0))[1], e)
    )
    table: list[dict[str, object]] = []
    for entry in rows:
        score, tiebreak = scores.get(entry, (0.0, 0.0))
        rank = 1 + sum(1 for other in rows if scores.get(other, (0.0, 0.0)) > (score, tiebreak))
        table.append(
            {
                "rank": rank,
                "entry": entry,
                "names": list(entries[entry]),
                "score": _number(score),
                "tiebreak": _number(tiebreak),
                "played": played.get(entry, 0),
            }
        )
    return table


def _number(value: float) -> int | float:
    """Whole figures as integers (JSON ``12``, not ``12.0``)."""
    return int(value) if value == int(value) else value


def pairs_met(results: Iterable[TableResult]) -> dict[int, set[int]]:
    """Whom each entry has met at a table."""
    met: dict[int, set[int]] = {}
    for result in results:
        for a, b in combinations(sorted(set(result.seats)), 2):
            met.setdefault(a, set()).add(b)
            met.setdefault(b, set()).add(a)
    return met
