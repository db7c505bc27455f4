"""The registry of games by name (``"bourre"``, ``"burraco"``)."""

from __future__ import annotations

from domain.errors import InvalidOption
from domain.game import Game


def game_named(name: str) -> Game:
    """The game for a name; raises :class:`InvalidOption` naming ``game`` for anything else."""
    if name == "bourre":
        from domain.bourre.game import GAME as bourre

        return bourre
    if name == "burraco":
        from domain.burraco.game import GAME as burraco

        return burraco
    raise InvalidOption("game", f"unknown game {name!r}; expected 'bourre' or 'burraco'")


GAME_NAMES = ("bourre", "burraco")
