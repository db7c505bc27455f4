"""Figures per bot kind for a simulation: hands played, hands won and net result.

What a hand and a finished table count is the game's (``house.bots``,
:class:`domain.house.Bots`): per seat (the hands whose pot the seat took, its chips) or per
partnership (the hands the team outscored the other, its points; a team's kind is its seats'
kind: bots are seated alternately, so partners share a kind).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.game import Game


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

    def hand(self, game: Game, event: Any, kinds: Sequence[str]) -> None:
        """Count one event of ``game`` if it settles a hand (its ``house.bots.hand``); ``kinds``
        the kind of each seat (or team)."""
        figures = game.house.bots.hand(event, len(kinds))
        for side, won, net in figures or ():
            if side < len(kinds):
                mine = self._of(kinds[side])
                mine.hands += 1
                mine.won += int(won)
                mine.net += net

    def chips(self, game: Game, view: dict[str, Any], kinds: Sequence[str]) -> None:
        """Add a finished table's nets per seat, read from its spectator view (for a game
        whose net is not in its hand events: ``house.bots.table``)."""
        for seat, net in game.house.bots.table(view).items():
            self._of(kinds[seat]).net += net

    def add(self, other: Tally) -> None:
        for kind, figures in other.by_kind.items():
            mine = self._of(kind)
            mine.hands += figures.hands
            mine.won += figures.won
            mine.net += figures.net

    def as_dict(self) -> dict[str, dict[str, int]]:
        return {kind: figures.as_dict() for kind, figures in sorted(self.by_kind.items())}
