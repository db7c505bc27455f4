"""Exactly-once tracking (design §4): read-model writes and the position commit together."""

from __future__ import annotations

from uuid import UUID

import pytest
import redis

from projections.analytics import Analytics
from projections.keys import Keys
from projections.lobby import Lobby
from projections.reader import ReadModels
from projections.tracking import Batch, Tracking
from projections.views import PublicView
from tests.waiting import wait_until

pytestmark = pytest.mark.integration

TABLE = UUID("00000000-0000-0000-0000-000000000001")


class Names:
    """The key names a batch writes here: one table's public view, the lobby, the counters."""

    def __init__(self, client: redis.Redis, prefix: str) -> None:
        keys = Keys(prefix)
        self.position = keys.position()
        self.channel = keys.position_channel()
        self.view = PublicView(client, keys).key(TABLE)
        self.lobby = Lobby(client, keys).key()
        self.lobby_order = Lobby(client, keys).status_key("waiting")
        self.analytics = Analytics(client, keys).key()


def a_batch(names: Names) -> Batch:
    batch = Batch()
    batch.set(names.view, b'{"phase":"play"}')
    batch.hset(names.lobby, str(TABLE), b'{"tableId":"t"}')
    batch.zadd(names.lobby_order, str(TABLE), 1)
    batch.hincrby(names.analytics, "all:events", 3)
    return batch


def test_a_batch_and_its_position_are_written_together(client: redis.Redis, redis_prefix: str):
    names = Names(client, redis_prefix)
    result = Tracking(client, Keys(redis_prefix)).commit(a_batch(names), expected="0", new="3")
    assert result.committed and result.position == "3"
    assert client.get(names.position) == b"3"
    assert client.get(names.view) == b'{"phase":"play"}'
    assert client.hget(names.analytics, "all:events") == b"3"
    assert client.zscore(names.lobby_order, str(TABLE)) == 1.0


def test_a_batch_started_from_a_stale_position_writes_nothing(
    client: redis.Redis, redis_prefix: str
) -> None:
    names = Names(client, redis_prefix)
    tracking = Tracking(client, Keys(redis_prefix))
    assert tracking.commit(a_batch(names), expected="0", new="3").committed
    again = tracking.commit(a_batch(names), expected="0", new="3")  # a second projector
    assert not again.committed and again.position == "3"
    assert client.hget(names.analytics, "all:events") == b"3"  # counted once


def test_deletes_and_removals_apply_in_order(client: redis.Redis, redis_prefix: str) -> None:
    names = Names(client, redis_prefix)
    tracking = Tracking(client, Keys(redis_prefix))
    tracking.commit(a_batch(names), expected="0", new="3")
    ended = Batch()
    ended.hdel(names.lobby, str(TABLE))
    ended.zrem(names.lobby_order, str(TABLE))
    ended.delete(names.view)
    assert tracking.commit(ended, expected="3", new="4").committed
    assert client.hlen(names.lobby) == 0
    assert client.zcard(names.lobby_order) == 0
    assert client.exists(names.view) == 0


def test_a_rebuild_fence_blocks_every_commit_until_released(
    client: redis.Redis, redis_prefix: str
) -> None:
    names = Names(client, redis_prefix)
    tracking = Tracking(client, Keys(redis_prefix))
    tracking.commit(a_batch(names), expected="0", new="3")
    fence = tracking.fence("r1", ttl_ms=60_000)
    assert not tracking.commit(a_batch(names), expected="3", new="5").committed
    assert not tracking.commit(a_batch(names), expected="0", new="5").committed
    assert ReadModels(client, redis_prefix).position() == 0
    assert tracking.renew(fence, ttl_ms=60_000)
    assert not tracking.release("rebuilding:someone-else")
    assert tracking.release(fence)
    assert tracking.commit(a_batch(names), expected="0", new="5").committed


def test_a_fence_expires_if_the_rebuild_dies(client: redis.Redis, redis_prefix: str) -> None:
    names = Names(client, redis_prefix)
    Tracking(client, Keys(redis_prefix)).fence("dead", ttl_ms=50)
    assert client.get(names.position) == b"rebuilding:dead"
    wait_until(lambda: client.get(names.position) is None, 10, "the dead rebuild's fence stayed")


def test_each_commit_announces_the_new_position(client: redis.Redis, redis_prefix: str) -> None:
    names = Names(client, redis_prefix)
    pubsub = client.pubsub()
    pubsub.subscribe(names.channel)
    pubsub.get_message(timeout=1.0)  # the subscription confirmation
    Tracking(client, Keys(redis_prefix)).commit(Batch(), expected="0", new="7")
    message = pubsub.get_message(timeout=1.0)
    pubsub.close()
    assert message is not None and message["data"] == b"7"


def test_reader_answers_none_for_a_table_it_has_not_projected(
    client: redis.Redis, redis_prefix: str
) -> None:
    reader = ReadModels(client, redis_prefix)
    assert reader.view(TABLE, None) is None
    assert reader.view(TABLE, 0) is None
    assert reader.ledger(TABLE) is None
    assert reader.lobby() == []
    assert reader.analytics() == {"all": {}}


def test_reader_lists_the_lobby_in_opening_order(client: redis.Redis, redis_prefix: str) -> None:
    names = Names(client, redis_prefix)
    batch = Batch()
    for position, (table, game) in enumerate([("b", "burraco"), ("a", "bourre")], start=1):
        batch.hset(names.lobby, table, f'{{"tableId":"{table}","game":"{game}"}}')
        batch.zadd(names.lobby_order, table, position)
    batch.hincrby(names.analytics, "all:hands", 2)
    batch.hincrby(names.analytics, "bourre:hands", 2)
    Tracking(client, Keys(redis_prefix)).commit(batch, expected="0", new="2")
    reader = ReadModels(client, redis_prefix)
    assert [line["tableId"] for line in reader.lobby()] == ["b", "a"]
    assert [line["tableId"] for line in reader.lobby(game="bourre")] == ["a"]
    assert reader.analytics() == {"all": {"hands": 2}, "bourre": {"hands": 2}}
