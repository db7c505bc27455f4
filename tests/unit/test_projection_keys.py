"""Key names of the read side (projections/keys.py): one prefix, one place."""

from __future__ import annotations

from uuid import UUID

from projections.keys import Keys
from projections.tracking import parse_position

TABLE = UUID("12345678-1234-5678-1234-567812345678")


def test_every_read_model_key_lives_under_the_prefix() -> None:
    keys = Keys("room:")
    names = [
        keys.position(),
        keys.view(TABLE, None),
        keys.view(TABLE, 3),
        keys.ledger(TABLE),
        keys.lobby(),
        keys.lobby_order(),
        keys.analytics(),
    ]
    assert all(name.startswith("room:") for name in names)
    assert len(set(names)) == len(names)


def test_spectators_and_each_seat_have_their_own_view_key() -> None:
    keys = Keys("p:")
    assert keys.view(TABLE, None) == f"p:table:{TABLE}:view"
    assert keys.view(TABLE, 0) == f"p:table:{TABLE}:seat:0"
    assert keys.view(TABLE, 0) != keys.view(TABLE, 1)


def test_scan_patterns_escape_glob_characters_in_the_prefix() -> None:
    keys = Keys("a[1]*?:")
    assert keys.everything_pattern() == "a\\[1\\]\\*\\?:*"
    assert keys.read_model_patterns() == ["a\\[1\\]\\*\\?:table:*"]


def test_rebuild_flushes_the_table_independent_keys_but_not_the_position() -> None:
    keys = Keys("p:")
    assert keys.position() not in keys.fixed_read_model_keys()
    assert set(keys.fixed_read_model_keys()) == {keys.lobby(), keys.lobby_order(), keys.analytics()}


def test_a_missing_position_is_zero_and_a_rebuild_fence_is_no_position() -> None:
    assert parse_position(None) == 0
    assert parse_position(b"42") == 42
    assert parse_position(b"rebuilding:abc") is None


def test_analytics_fields_name_scope_and_counter() -> None:
    assert Keys.counter_field("bourre", "hands") == "bourre:hands"
