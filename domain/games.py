"""The registry of games by name: how every layer outside ``domain/`` finds a game.

A game is one package exposing ``GAME`` (a :class:`domain.game.Game`: its rules, visibility
and ``House`` — what it shows beyond its rules, design §2.1) plus one line in :func:`_builtin`
below: the one place that names the built-in games. ``register`` adds a game at run time too
(the tests register a game of their own); every layer outside ``domain/`` reads this registry.
"""

from __future__ import annotations

from typing import Any

from domain.errors import InvalidOption
from domain.game import Game

_GAMES: dict[str, Game[Any, Any, Any]] = {}


def _builtin() -> None:
    """The games that ship with cardroom, one line each."""
    from domain.bourre import GAME as bourre
    from domain.burraco import GAME as burraco

    for game in (bourre, burraco):
        _GAMES.setdefault(game.name, game)


def register(game: Game[Any, Any, Any]) -> None:
    """Make ``game`` known by its name; registering the same game again changes nothing, and a
    name already taken by another game is refused."""
    known = _registry().get(game.name)
    if known is not None and known is not game:
        raise ValueError(f"another game is already registered as {game.name!r}")
    _GAMES[game.name] = game


def game_named(name: str) -> Game[Any, Any, Any]:
    """The game for a name; raises :class:`InvalidOption` naming ``game`` for anything else."""
    found = _registry().get(name)
    if found is None:
        known = " or ".join(repr(known) for known in game_names())
        raise InvalidOption("game", f"unknown game {name!r}; expected {known}")
    return found


def game_names() -> tuple[str, ...]:
    """Every registered game's name, in registration order (the built-in games first)."""
    return tuple(_registry())


def games() -> tuple[Game[Any, Any, Any], ...]:
    """Every registered game."""
    return tuple(_registry().values())


def _registry() -> dict[str, Game[Any, Any, Any]]:
    if not _GAMES:
        _builtin()
    return _GAMES
