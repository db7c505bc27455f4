"""Key names of the read side: one prefix (projections/keys.py), each read model naming its own
keys, and a rebuild's flush that finds every one of them but the position."""

from __future__ import annotations

from fnmatch import fnmatchcase
from typing import Any, cast
from uuid import UUID

import redis

from projections.analytics import Analytics, field_of
from projections.keys import Keys, hash_tag, shard_of
from projections.ledger import Ledger
from projections.lobby import STATUSES, Lobby
from projections.runner import Projector
from projections.tracking import parse_position
from projections.views import PublicView, SeatViews

TABLE = UUID("12345678-1234-5678-1234-567812345678")
CLIENT = redis.Redis()  # never connects: naming keys needs no server


def every_key(prefix: str) -> list[str]:
    """Every key name the read side writes for one table with seat 3, and the position."""
    keys = Keys(prefix)
    return [
        keys.position(),
        PublicView(CLIENT, keys).key(TABLE),
        SeatViews(CLIENT, keys).key(TABLE, 3),
        Ledger(CLIENT, keys).key(TABLE),
        Lobby(CLIENT, keys).key(),
        *(Lobby(CLIENT, keys).status_key(status) for status in STATUSES),
        Analytics(CLIENT, keys).key(),
    ]


def test_every_read_model_key_lives_under_the_prefix() -> None:
    names = every_key("room:")
    assert all(name.startswith("room:") for name in names)
    assert len(set(names)) == len(names)


def test_spectators_and_each_seat_have_their_own_view_key() -> None:
    keys = Keys("p:")
    assert PublicView(CLIENT, keys).key(TABLE) == f"p:table:{{{TABLE}}}:view"
    assert SeatViews(CLIENT, keys).key(TABLE, 0) == f"p:table:{{{TABLE}}}:seat:0"
    assert SeatViews(CLIENT, keys).key(TABLE, 0) != SeatViews(CLIENT, keys).key(TABLE, 1)


def test_scan_patterns_escape_glob_characters_in_the_prefix() -> None:
    keys = Keys("a[1]*?:")
    assert keys.everything_pattern() == "a\\[1\\]\\*\\?:*"
    assert keys.table_pattern() == "a\\[1\\]\\*\\?:table:*"


def test_a_rebuild_flushes_every_read_models_keys_but_not_the_position() -> None:
    projector = Projector(cast(Any, None), CLIENT, "p:")
    fixed = {key for model in projector.models for key in model.flush_keys()}
    patterns = {pattern for model in projector.models for pattern in model.flush_patterns()}
    position, *read_models = every_key("p:")

    def flushed(name: str) -> bool:
        return name in fixed or any(fnmatchcase(name, pattern) for pattern in patterns)

    assert [name for name in read_models if not flushed(name)] == []
    assert not flushed(position)
    assert len(patterns) == 1  # one SCAN finds every table's keys


def test_a_missing_position_is_zero_and_a_rebuild_fence_is_no_position() -> None:
    assert parse_position(None) == 0
    assert parse_position(b"42") == 42
    assert parse_position(b"rebuilding:abc") is None


def test_analytics_fields_name_scope_and_counter() -> None:
    assert field_of("bourre", "hands") == "bourre:hands"


def test_every_key_of_a_table_shares_the_tables_hash_tag() -> None:
    table_keys = [*every_key("p:")[1:4], Keys("p:").table_version(TABLE)]
    assert {hash_tag(name) for name in table_keys} == {str(TABLE)}


def test_a_shards_position_and_parts_share_the_shards_hash_tag() -> None:
    keys = Keys("p:", 1, 3)
    names = [
        keys.position(),
        Lobby(CLIENT, keys).key(),
        *(Lobby(CLIENT, keys).status_key(status) for status in STATUSES),
        Analytics(CLIENT, keys).key(),
    ]
    assert {hash_tag(name) for name in names} == {"1"}
    assert keys.parts("lobby") == ["p:shard:{0}:lobby", "p:shard:{1}:lobby", "p:shard:{2}:lobby"]


def test_a_table_belongs_to_one_stable_shard() -> None:
    assert shard_of(TABLE, 1) == 0
    assert shard_of(TABLE, 5) == 2  # CRC-32 of its bytes is 1773289872, in every process
    counts = [0, 0]
    for index in range(1_000):
        counts[shard_of(UUID(int=index * 0x9E3779B97F4A7C15 % 2**128), 2)] += 1
    assert min(counts) > 400  # spread evenly


def test_a_table_key_names_its_table() -> None:
    keys = Keys("p:")
    assert keys.table_of(Ledger(CLIENT, keys).key(TABLE).encode()) == TABLE
    assert keys.table_of("p:table:filler-1:view") is None
    assert keys.table_of(keys.position()) is None
