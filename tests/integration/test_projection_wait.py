"""Read-your-writes (design §4): ``ReadModels.wait_for`` sleeps on the position channel every
commit announces on, and wakes when a commit reaches the position it waits for."""

from __future__ import annotations

import threading
from typing import Any

import pytest
import redis

from infra.store import TableStore
from projections.keys import Keys
from projections.reader import ReadModels
from projections.runner import Projector
from projections.tracking import Batch, Tracking
from tests.integration.test_projection_support import new_table, seat_everyone

pytestmark = pytest.mark.integration

PATIENCE = 30.0  # seconds: only a broken wait_for ever comes near it


def commit(client: redis.Redis, prefix: str, expected: int, new: int) -> None:
    """A projector's commit of an empty batch: ``expected`` -> ``new``, announced."""
    assert Tracking(client, Keys(prefix)).commit(Batch(), str(expected), str(new)).committed


def listeners(client: redis.Redis, prefix: str) -> int:
    channel = Keys(prefix).position_channel()
    ((_, count),) = client.pubsub_numsub(channel)
    return int(count)


class Waiter:
    """``wait_for`` in a thread; ``listening`` is set once it sleeps on the channel (its
    subscription confirmed and the position read again)."""

    def __init__(self, client: redis.Redis, prefix: str, monkeypatch: pytest.MonkeyPatch) -> None:
        self.listening = threading.Event()
        self.answer: bool | None = None
        self._reader = ReadModels(client, prefix)
        real = client.pubsub

        def pubsub(**kwargs: Any) -> Any:
            subscription = real(**kwargs)
            read = subscription.get_message
            reads = {"n": 0}

            def get_message(*args: Any, **kw: Any) -> Any:
                reads["n"] += 1
                if reads["n"] == 2:  # the first read was the confirmation
                    self.listening.set()
                return read(*args, **kw)

            monkeypatch.setattr(subscription, "get_message", get_message)
            return subscription

        monkeypatch.setattr(client, "pubsub", pubsub)
        self._thread = threading.Thread(target=self._wait, daemon=True)

    def start(self, position: int, timeout: float) -> Waiter:
        self._position, self._timeout = position, timeout
        self._thread.start()
        assert self.listening.wait(PATIENCE), "the waiter never listened"
        return self

    def _wait(self) -> None:
        try:
            self.answer = self._reader.wait_for(self._position, self._timeout)
        finally:
            self.listening.set()  # a short timeout may end the wait before it ever listened

    def result(self) -> bool | None:
        self._thread.join(PATIENCE)
        assert not self._thread.is_alive(), "the waiter is still waiting"
        return self.answer


def test_a_waiter_wakes_when_a_projector_commits_its_position(
    sqlite_store: TableStore,
    client: redis.Redis,
    redis_prefix: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table_id = new_table(sqlite_store, "bourre", 3)
    seat_everyone(sqlite_store, table_id, 3)
    written = sqlite_store.max_position()
    waiter = Waiter(client, redis_prefix, monkeypatch).start(written, timeout=PATIENCE)
    assert Projector(sqlite_store, client, redis_prefix).run_once() == written
    assert waiter.result() is True
    view = ReadModels(client, redis_prefix).view(table_id, 0)
    assert view is not None and view["version"] == sqlite_store.get(table_id).version
    assert listeners(client, redis_prefix) == 0  # the subscription ends with the wait


def test_a_waiter_sleeps_through_commits_short_of_its_position(
    client: redis.Redis, redis_prefix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    waiter = Waiter(client, redis_prefix, monkeypatch).start(5, timeout=PATIENCE)
    commit(client, redis_prefix, 0, 3)
    commit(client, redis_prefix, 3, 5)
    assert waiter.result() is True


def test_a_wait_that_nothing_answers_gives_up_at_its_timeout(
    client: redis.Redis, redis_prefix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    waiter = Waiter(client, redis_prefix, monkeypatch).start(5, timeout=0.2)
    commit(client, redis_prefix, 0, 3)  # announced, but short of 5
    assert waiter.result() is False
    assert ReadModels(client, redis_prefix).position() == 3
    assert listeners(client, redis_prefix) == 0


def test_a_position_already_reached_answers_at_once_without_subscribing(
    client: redis.Redis, redis_prefix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    commit(client, redis_prefix, 0, 9)

    def no_pubsub(**kwargs: Any) -> Any:
        raise AssertionError("subscribed although the position was reached")

    monkeypatch.setattr(client, "pubsub", no_pubsub)
    reader = ReadModels(client, redis_prefix)
    assert reader.wait_for(9, timeout=PATIENCE)
    assert reader.wait_for(4, timeout=0)
    assert not reader.wait_for(10, timeout=0)  # not reached, and no time to wait


def test_a_commit_just_before_the_subscription_is_not_missed(
    client: redis.Redis, redis_prefix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The commit lands after the first read of the position but before the subscription
    took effect, so its announcement reaches nobody: the read after subscribing finds it."""
    real = client.pubsub

    def pubsub(**kwargs: Any) -> Any:
        subscription = real(**kwargs)
        subscribe = subscription.subscribe

        def late_subscribe(*args: Any, **kw: Any) -> Any:
            commit(client, redis_prefix, 0, 4)
            return subscribe(*args, **kw)

        monkeypatch.setattr(subscription, "subscribe", late_subscribe)
        return subscription

    monkeypatch.setattr(client, "pubsub", pubsub)
    assert ReadModels(client, redis_prefix).wait_for(4, timeout=PATIENCE)
