"""The games a client may open (design §5, ``GET /games``): each registered game's title,
option schema, presets and board renderer, asked of the registry (:mod:`domain.games`) and
naming no game."""

from __future__ import annotations

from typing import Any

import msgspec

from api.problems import ApiProblem
from api.schemas import GameEntry, GameOption, GamePreset
from domain.game import Game
from domain.games import game_named, game_names, games

BOARD_PATH = "/games/{game}/board.js"


def _entry(game: Game[Any, Any, Any]) -> GameEntry:
    return GameEntry(
        game=game.name,
        title=game.title,
        options=[msgspec.convert(o.to_json(), GameOption) for o in game.option_schema],
        presets=[msgspec.convert(p.to_json(), GamePreset) for p in game.presets],
        board=None if game.board is None else BOARD_PATH.format(game=game.name),
    )


def game_entries() -> list[GameEntry]:
    """Every registered game, in registration order (the built-in games first)."""
    return [_entry(game) for game in games()]


def board_source(name: str) -> bytes:
    """The board renderer module of game ``name``; a 404 problem for an unknown game or one
    without a board."""
    if name not in game_names():
        known = ", ".join(game_names())
        raise ApiProblem(404, "game-not-found", f"no game {name!r}; the games are {known}")
    game = game_named(name)
    if game.board is None or not game.board.is_file():
        raise ApiProblem(404, "board-not-found", f"game {name!r} has no board renderer")
    return game.board.read_bytes()
