"""Exactly-once tracking (design §4): read-model writes and the position commit together."""

from __future__ import annotations

import threading
from uuid import UUID

import pytest
import redis

from projections.keys import Keys
from projections.reader import ReadModels
from projections.tracking import Batch, Tracking
from tests.waiting import wait_until

pytestmark = pytest.mark.integration

TABLE = UUID("00000000-0000-0000-0000-000000000001")


def a_batch(keys: Keys) -> Batch:
    batch = Batch()
    batch.set(keys.view(TABLE, None), b'{"phase":"play"}')
    batch.hset(keys.lobby(), str(TABLE), b'{"tableId":"t"}')
    batch.zadd(keys.lobby_order(), str(TABLE), 1)
    batch.hincrby(keys.analytics(), "all:events", 3)
    return batch


def test_a_batch_and_its_position_are_written_together(client: redis.Redis, redis_prefix: str):
    keys = Keys(redis_prefix)
    result = Tracking(client, keys).commit(a_batch(keys), expected="0", new="3")
    assert result.committed and result.position == "3"
    assert client.get(keys.position()) == b"3"
    assert client.get(keys.view(TABLE, None)) == b'{"phase":"play"}'
    assert client.hget(keys.analytics(), "all:events") == b"3"
    assert client.zscore(keys.lobby_order(), str(TABLE)) == 1.0


def test_a_batch_started_from_a_stale_position_writes_nothing(
    client: redis.Redis, redis_prefix: str
) -> None:
    keys = Keys(redis_prefix)
    tracking = Tracking(client, keys)
    assert tracking.commit(a_batch(keys), expected="0", new="3").committed
    again = tracking.commit(a_batch(keys), expected="0", new="3")  # a second projector
    assert not again.committed and again.position == "3"
    assert client.hget(keys.analytics(), "all:events") == b"3"  # counted once


def test_deletes_and_removals_apply_in_order(client: redis.Redis, redis_prefix: str) -> None:
    keys = Keys(redis_prefix)
    tracking = Tracking(client, keys)
    tracking.commit(a_batch(keys), expected="0", new="3")
    ended = Batch()
    ended.hdel(keys.lobby(), str(TABLE))
    ended.zrem(keys.lobby_order(), str(TABLE))
    ended.delete(keys.view(TABLE, None))
    assert tracking.commit(ended, expected="3", new="4").committed
    assert client.hlen(keys.lobby()) == 0
    assert client.zcard(keys.lobby_order()) == 0
    assert client.exists(keys.view(TABLE, None)) == 0


def test_a_rebuild_fence_blocks_every_commit_until_released(
    client: redis.Redis, redis_prefix: str
) -> None:
    keys = Keys(redis_prefix)
    tracking = Tracking(client, keys)
    tracking.commit(a_batch(keys), expected="0", new="3")
    fence = tracking.fence("r1", ttl_ms=60_000)
    assert not tracking.commit(a_batch(keys), expected="3", new="5").committed
    assert not tracking.commit(a_batch(keys), expected="0", new="5").committed
    assert ReadModels(client, redis_prefix).position() == 0
    assert tracking.renew(fence, ttl_ms=60_000)
    assert not tracking.release("rebuilding:someone-else")
    assert tracking.release(fence)
    assert tracking.commit(a_batch(keys), expected="0", new="5").committed


def test_a_fence_expires_if_the_rebuild_dies(client: redis.Redis, redis_prefix: str) -> None:
    keys = Keys(redis_prefix)
    Tracking(client, keys).fence("dead", ttl_ms=50)
    assert client.get(keys.position()) == b"rebuilding:dead"
    wait_until(lambda: client.get(keys.position()) is None, 10, "the dead rebuild's fence stayed")


def test_each_commit_announces_the_new_position(client: redis.Redis, redis_prefix: str) -> None:
    keys = Keys(redis_prefix)
    pubsub = client.pubsub()
    pubsub.subscribe(keys.position_channel())
    pubsub.get_message(timeout=1.0)  # the subscription confirmation
    Tracking(client, keys).commit(Batch(), expected="0", new="7")
    message = pubsub.get_message(timeout=1.0)
    pubsub.close()
    assert message is not None and message["data"] == b"7"


def test_wait_for_returns_once_the_position_is_reached(
    client: redis.Redis, redis_prefix: str
) -> None:
    keys = Keys(redis_prefix)
    reader = LookCounting(client, redis_prefix)
    assert reader.wait_for(0, timeout=0)
    reader.looks = 0
    answers: list[bool] = []
    # A timeout far longer than the test waits: only reaching 9 can end this wait.
    waiting = threading.Thread(
        target=lambda: answers.append(reader.wait_for(9, timeout=600)), daemon=True
    )
    waiting.start()
    wait_until(lambda: reader.looks >= 2, 30, "wait_for did not start waiting for 9")
    client.set(keys.position(), b"9")
    waiting.join(timeout=30)
    assert answers == [True]


def test_wait_for_gives_up_after_its_timeout(client: redis.Redis, redis_prefix: str) -> None:
    reader = LookCounting(client, redis_prefix)
    assert not reader.wait_for(1, timeout=0.1)
    assert reader.looks > 1  # it kept looking until the timeout, then gave up


class LookCounting(ReadModels):
    """A reader that counts how often it looked at the projection's position."""

    looks = 0

    def position(self) -> int:
        self.looks += 1
        return super().position()


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
    keys = Keys(redis_prefix)
    batch = Batch()
    for position, (table, game) in enumerate([("b", "burraco"), ("a", "bourre")], start=1):
        batch.hset(keys.lobby(), table, f'{{"tableId":"{table}","game":"{game}"}}')
        batch.zadd(keys.lobby_order(), table, position)
    batch.hincrby(keys.analytics(), "all:hands", 2)
    batch.hincrby(keys.analytics(), "bourre:hands", 2)
    Tracking(client, keys).commit(batch, expected="0", new="2")
    reader = ReadModels(client, redis_prefix)
    assert [line["tableId"] for line in reader.lobby()] == ["b", "a"]
    assert [line["tableId"] for line in reader.lobby(game="bourre")] == ["a"]
    assert reader.analytics() == {"all": {"hands": 2}, "bourre": {"hands": 2}}
