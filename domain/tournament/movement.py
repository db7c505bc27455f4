"""The Mitchell movement as data, and its check (docs/rules/tournaments.md rule T4).

Pairs North–South stay at their table; East–West move up one table each round (with more
than two sides a table, side ``p`` moves ``p`` tables). The boards of a round are played at
every table of the round (a *barometer* Mitchell: round ``r`` plays boards
``(r − 1)·B + 1 … r·B``), so a board's results are all in when the round ends and it opens then.

Entries are numbered side by side: side ``p`` of table ``t`` in round 1 is entry
``p·T + t``. :func:`check` proves a movement fit before any table opens: every entry plays
once a round, no entry plays a board twice, no two entries meet twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from domain.tournament.errors import InvalidField

# movement[r][t] = (boards of table t in round r+1, the entry at each side position)
Movement = list[list[tuple[tuple[int, ...], tuple[int, ...]]]]


def mitchell(tables: int, rounds: int, sides: int, boards_per_round: int) -> Movement:
    """The movement of ``tables`` tables of ``sides`` sides over ``rounds`` rounds."""
    movement: Movement = []
    for r in range(rounds):
        boards = tuple(range(r * boards_per_round + 1, (r + 1) * boards_per_round + 1))
        movement.append(
            [
                (boards, tuple(p * tables + (t + p * r) % tables for p in range(sides)))
                for t in range(tables)
            ]
        )
    return movement


def problem(movement: Movement, entries: int) -> str | None:
    """What breaks the movement's rules (None: it is fit): an entry seated twice or not at all
    in a round, an entry playing a board twice, two entries meeting twice."""
    met: set[tuple[int, int]] = set()
    played: set[tuple[int, int]] = set()
    for r, round_tables in enumerate(movement, 1):
        seen = sorted(entry for _, seated in round_tables for entry in seated)
        if seen != list(range(entries)):
            return f"round {r} does not seat every entry exactly once"
        for boards, seated in round_tables:
            for entry in seated:
                for number in boards:
                    if (entry, number) in played:
                        return f"entry {entry} would play board {number} twice"
                    played.add((entry, number))
            for pair in combinations(sorted(seated), 2):
                if pair in met:
                    return f"entries {pair[0]} and {pair[1]} would meet twice by round {r}"
                met.add(pair)
    return None


def check(movement: Movement, entries: int) -> None:
    """Raise :class:`InvalidOption` naming ``rounds`` unless the movement is fit
    (:func:`problem`)."""
    found = problem(movement, entries)
    if found is not None:
        tables = len(movement[0]) if movement else 0
        sides = len(movement[0][0][1]) if tables else 0
        raise InvalidField(
            "rounds",
            f"{found}: a Mitchell of {tables} tables has at most "
            f"{max_rounds(tables, sides)} rounds",
        )


def max_rounds(tables: int, sides: int) -> int:
    """The most rounds a movement of this shape keeps every meeting new."""
    best = 0
    for rounds in range(1, tables + 1):
        if problem(mitchell(tables, rounds, sides, 1), tables * sides) is not None:
            break
        best = rounds
    return best


def seats_of(sides: Sequence[Sequence[int]], seated: Sequence[int], seats: int) -> tuple[int, ...]:
    """The entry at each seat of a table whose side ``p`` holds entry ``seated[p]``."""
    at = [0] * seats
    for position, side in enumerate(sides):
        for seat in side:
            at[seat] = seated[position]
    return tuple(at)
