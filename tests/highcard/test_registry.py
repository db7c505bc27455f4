"""The registry: a game registered at run time is found by name like the built-in ones."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import InvalidOption
from domain.game import Game
from domain.games import game_named, game_names, register
from tests.highcard import GAME


def test_a_registered_game_is_found_by_its_name_after_the_built_in_ones() -> None:
    assert game_named("highcard") is GAME
    assert game_names()[:2] == ("bourre", "burraco") and "highcard" in game_names()


def test_registering_the_same_game_again_changes_nothing() -> None:
    before = game_names()
    register(GAME)
    assert game_names() == before


def test_another_game_may_not_take_a_registered_name() -> None:
    impostor: Game[Any, Any, Any] = Game(
        name="bourre",
        command_type=GAME.command_type,
        event_type=GAME.event_type,
        rules=GAME.rules,
        visibility=GAME.visibility,
        table=GAME.table,
        settles_hand=GAME.settles_hand,
    )
    with pytest.raises(ValueError, match="already registered as 'bourre'"):
        register(impostor)
    assert game_named("bourre") is not impostor


def test_an_unknown_game_is_refused_naming_every_registered_one() -> None:
    with pytest.raises(InvalidOption) as error:
        game_named("poker")
    assert error.value.key == "game"
    assert all(repr(name) in error.value.message for name in game_names())
