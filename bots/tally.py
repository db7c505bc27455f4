"""Figures per bot kind for a simulation: hands played, hands won and net result.

Bourré counts per seat: ``won`` the hands whose pot the seat took (rule 23), ``net`` its
chips (rules 27–28). Burraco counts per partnership: ``won`` the hands the team outscored the
other (rules 22–27), ``net`` the team's points; a team's kind is its seats' kind (bots are
seated alternately, so partners share a kind).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.bourre.events import HandSettled
from domain.burraco.events import HandScored


@dataclass
class KindFigures:
    hands: int = 0
    won: int = 0
    net: int = 0

    def as_dict(self) -> dict[str, int]:
        return {"hands": self.hands, "won": self.won, "net": self.net}


@dataclass
class Tally:
    """Per kind figures, added up over tables."""

    by_kind: dict[str, KindFigures] = field(default_factory=dict)

    def _of(self, kind: str) -> KindFigures:
        return self.by_kind.setdefault(kind, KindFigures())

    def hand(self, event: Any, kinds: Sequence[str]) -> None:
        """Count one settled hand (a ``HandSettled`` or ``HandScored`` event)."""
        if isinstance(event, HandSettled):
            for seat, kind in enumerate(kinds):
                figures = self._of(kind)
                figures.hands += 1
                figures.won += int(event.winner == seat)
        elif isinstance(event, HandScored):
            totals = [score.total for score in event.scores]
            for team, kind in enumerate(kinds[: len(totals)]):
                figures = self._of(kind)
                figures.hands += 1
                figures.won += int(totals[team] > max(totals[:team] + totals[team + 1 :]))
                figures.net += totals[team]

    def chips(self, view: dict[str, Any], kinds: Sequence[str]) -> None:
        """Add a finished Bourré table's nets per seat (the spectator view's ``net``)."""
        if view.get("game") != "bourre":
            return
        for entry in view["seats"]:
            self._of(kinds[entry["seat"]]).net += int(entry["net"])

    def add(self, other: Tally) -> None:
        for kind, figures in other.by_kind.items():
            mine = self._of(kind)
            mine.hands += figures.hands
            mine.won += figures.won
            mine.net += figures.net

    def as_dict(self) -> dict[str, dict[str, int]]:
        return {kind: figures.as_dict() for kind, figures in sorted(self.by_kind.items())}
