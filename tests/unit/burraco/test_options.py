"""Options (spec §8) and stacked-deck validation at table creation."""

from __future__ import annotations

from typing import Any

import pytest

from domain.burraco import GAME
from domain.burraco.options import DEFAULTS
from domain.errors import IllegalCommand, InvalidOption
from domain.table import OpenTable

from .helpers import stacked_deck


def open_with(
    options: dict[str, Any] | None = None, decks: list[list[str]] | None = None, seed: int = 1
) -> Any:
    return GAME.decide(None, OpenTable(game="burraco", options=options or {}, seed=seed,
                                       decks=decks or []))[0]  # fmt: skip


def test_burraco_options_default_to_the_rules_as_written() -> None:
    opened = open_with()
    assert opened.options == {**DEFAULTS, "reveal": "after_hand", "spectator_delay": 0}


def test_burraco_every_option_of_section_8_is_accepted() -> None:
    chosen = {
        "players": 2,
        "target": 1500,
        "bonuses": "fitab",
        "close_requires": "clean_burraco",
        "set_ranks": "aces_and_threes",
        "take_pile": "must_meld",
        "single_card_rediscard": True,
        "stalemate_rounds": 3,
        "reveal": "never",
        "spectator_delay": 4,
    }
    assert open_with(chosen).options == chosen


@pytest.mark.parametrize(
    ("options", "key"),
    [
        ({"players": 3}, "players"),
        ({"players": "4"}, "players"),
        ({"target": 0}, "target"),
        ({"target": True}, "target"),
        ({"bonuses": "deluxe"}, "bonuses"),
        ({"close_requires": "nothing"}, "close_requires"),
        ({"set_ranks": "kings"}, "set_ranks"),
        ({"take_pile": "never"}, "take_pile"),
        ({"single_card_rediscard": "yes"}, "single_card_rediscard"),
        ({"stalemate_rounds": 0}, "stalemate_rounds"),
        ({"reveal": "always"}, "reveal"),
        ({"spectator_delay": -1}, "spectator_delay"),
        ({"jokers": 2}, "jokers"),
    ],
)
def test_burraco_bad_options_are_rejected_naming_the_key(options: dict[str, Any], key: str) -> None:
    with pytest.raises(InvalidOption) as error:
        open_with(options)
    assert error.value.key == key
    assert key in error.value.message


def test_burraco_a_stacked_deck_must_be_the_108_card_pack() -> None:
    good = stacked_deck()
    assert open_with(decks=[good]).decks == [good]
    short = good[:-1]
    with pytest.raises(InvalidOption, match=f"deck 0: {good[-1]} is missing"):
        open_with(decks=[short])
    doubled = [good, [*good[:-1], "JK" if good[-1] != "JK" else "AS"]]
    with pytest.raises(InvalidOption, match=r"deck 1: .* occurs"):
        open_with(decks=doubled)
    with pytest.raises(InvalidOption, match="deck 0: 'ZZ' is not a card"):
        open_with(decks=[["ZZ", *good[1:]]])


def test_burraco_a_table_opens_once_and_only_as_burraco() -> None:
    with pytest.raises(InvalidOption, match="game"):
        GAME.decide(None, OpenTable(game="bourre", options={}, seed=1))
    with pytest.raises(InvalidOption, match="seed"):
        open_with(seed=-5)
    table = GAME.evolve(None, open_with())
    with pytest.raises(IllegalCommand, match="already open"):
        GAME.decide(table, OpenTable(game="burraco", options={}, seed=1))
