"""The export's game columns come from the games (design §2.1, ``house.rows``): the kernel's
first, then each registered game's new ones in registration order, a shared column once —
which keeps the schema of the built-in games as docs/analytics.md documents it."""

from __future__ import annotations

import pytest

from infra.handrows import hand_columns, merged_columns, seat_columns


def test_the_built_in_games_give_the_documented_columns_in_order() -> None:
    assert list(hand_columns()) == [
        "dealer", "trump", "trump_card", "first_declarer", "players_in", "pot", "winners",
        "bourre", "tied", "first_discard", "pozzetto_first_team", "pozzetti", "ending", "closer",
        "scores", "clean_burracos", "dirty_burracos", "match_winner",
    ]  # fmt: skip
    assert list(seat_columns()) == ["team", "won", "played", "bourre", "chips", "points"]


def test_a_column_two_games_declare_is_shared_once() -> None:
    merged = merged_columns(
        {"dealer": "INTEGER"},
        [("a", {"pot": "DECIMAL(38,0)", "dealer": "INTEGER"}), ("b", {"pot": "DECIMAL(38,0)"})],
    )
    assert merged == {"dealer": "INTEGER", "pot": "DECIMAL(38,0)"}


def test_a_column_declared_with_another_type_is_refused_naming_the_game() -> None:
    with pytest.raises(ValueError, match="b declares export column 'pot' as VARCHAR"):
        merged_columns({}, [("a", {"pot": "INTEGER"}), ("b", {"pot": "VARCHAR"})])
