"""How strong one bot kind is against another, hand by hand, with 95 % confidence intervals
(``cardroom simulate --json``'s ``strength``, design §9.2).

Each settled hand adds, per bot kind, the figures of the sides it played (a seat, or a
partnership seated by that kind): whether the side won the hand (the game's
``house.bots.hand``) and its net — the change of the side's chips over the hand when the game
keeps chips (``house.bots.table`` of the table's view before and after), else the hand's own
net. :meth:`Strength.summary` gives each kind's win rate and net per hand, and for the first
two kinds the difference of their nets per hand (the mean over hands of the first kind's mean
net less the second's), each with its 95 % interval (normal approximation: mean ± 1.96 · s/√n;
hands are taken as independent).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

Z95 = 1.959964


def interval(values: Sequence[float]) -> dict[str, float]:
    """``{"mean", "low", "high", "n"}``: the mean and its 95 % confidence interval."""
    n = len(values)
    if n == 0:
        return {"mean": 0.0, "low": 0.0, "high": 0.0, "n": 0}
    mean = sum(values) / n
    if n == 1:
        return {"mean": mean, "low": mean, "high": mean, "n": 1}
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = Z95 * math.sqrt(variance / n)
    return {"mean": round(mean, 4), "low": round(mean - half, 4),
            "high": round(mean + half, 4), "n": n}  # fmt: skip


@dataclass
class Strength:
    """Per-hand figures by kind (the module docstring)."""

    # per hand: kind -> [(won, net)] of the sides that kind played
    hands: list[dict[str, list[tuple[bool, float]]]] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)  # in order of first appearance

    def hand(
        self,
        game: Any,
        event: Any,
        kinds: Sequence[str],
        before: dict[int, int] | None = None,
        after: dict[int, int] | None = None,
    ) -> None:
        """Count one event if it settles a hand; ``before``/``after``: each seat's chips from
        the table's view around the hand (for a game that keeps chips)."""
        figures = game.house.bots.hand(event, len(kinds))
        if figures is None:
            return
        row: dict[str, list[tuple[bool, float]]] = {}
        for side, won, net in figures:
            if side >= len(kinds):
                continue
            if before and after and side in after:
                net = after[side] - before.get(side, 0)
            kind = kinds[side]
            if kind not in self.kinds:
                self.kinds.append(kind)
            row.setdefault(kind, []).append((bool(won), float(net)))
        self.hands.append(row)

    def add(self, other: Strength) -> None:
        self.hands += other.hands
        for kind in other.kinds:
            if kind not in self.kinds:
                self.kinds.append(kind)

    def summary(self) -> dict[str, Any]:
        """Win rate and net per hand of each kind, and the first kind's lead over the second's
        in both (``versus``), each with its 95 % interval."""
        by_kind: dict[str, Any] = {}
        for kind in self.kinds:
            sides = [entry for row in self.hands for entry in row.get(kind, [])]
            by_kind[kind] = {
                "winRate": interval([1.0 if won else 0.0 for won, _ in sides]),
                "netPerHand": interval([net for _, net in sides]),
            }
        result: dict[str, Any] = {"hands": len(self.hands), "byKind": by_kind}
        if len(self.kinds) >= 2:
            first, second = self.kinds[0], self.kinds[1]
            both = [row for row in self.hands if row.get(first) and row.get(second)]
            result["versus"] = {
                "kinds": [first, second],
                "netPerHand": interval([_mean(row[first]) - _mean(row[second]) for row in both]),
                "winRate": interval([_wins(row[first]) - _wins(row[second]) for row in both]),
            }
        return result


def _mean(sides: list[tuple[bool, float]]) -> float:
    return sum(net for _, net in sides) / len(sides)


def _wins(sides: list[tuple[bool, float]]) -> float:
    return sum(1.0 for won, _ in sides if won) / len(sides)
