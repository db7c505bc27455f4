"""The timekeeper (design §9): a turn clock fires once its deadline — the prompting event's
stored time plus ``turn_seconds`` — has passed, and fires again after a restart."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
import redis

from domain.table.clock import TurnTimedOut
from infra.settings import Settings
from infra.store import TableStore
from managers.timekeeper import Timekeeper
from tests.waiting import wait_until

TURN = 0.2


@pytest.fixture
def store(tmp_path: Path) -> Iterator[TableStore]:
    with TableStore(Settings(event_store=f"sqlite:///{tmp_path}/clock.db")) as opened:
        yield opened


def _running(keeper: Timekeeper) -> tuple[threading.Event, threading.Thread]:
    stop = threading.Event()
    thread = threading.Thread(target=keeper.run_forever, args=(stop, 0.01))
    thread.start()
    return stop, thread


def _timeouts(store: TableStore, table_id: UUID) -> list[Any]:
    return [e for e in store.events(table_id) if isinstance(e.event, TurnTimedOut)]


def test_a_turn_clock_fires_at_its_deadline_and_again_after_a_restart(
    store: TableStore, redis_url: str, redis_prefix: str
) -> None:
    table_id = store.create_table("burraco", {"seats": 4, "turn_seconds": TURN}, seed=9).table_id
    for seat in range(4):
        store.take_seat(table_id, f"p{seat}", seat)
    client = redis.Redis.from_url(redis_url)
    try:
        stop, thread = _running(Timekeeper(store, client, redis_prefix))
        try:
            first = wait_until(lambda: _timeouts(store, table_id), 30, "the clock never fired")[0]
        finally:
            stop.set()
            thread.join()
        fired = len(_timeouts(store, table_id))
        prompt = store.events(table_id, first.version - 1, first.version - 1)[0]
        assert first.at >= prompt.at + timedelta(seconds=TURN)
        waiting = store.get(table_id, first.version - 1)
        assert first.event.seat == min(waiting.game.to_act(waiting.state))
        assert first.event.timeouts == 1
        # the next turn's clock is pending in Redis while no timekeeper runs
        restarted = Timekeeper(store, client, redis_prefix)
        assert str(table_id) in restarted.pending()
        stop, thread = _running(restarted)
        try:
            later = wait_until(
                lambda: _timeouts(store, table_id)[fired:], 30, "no clock after the restart"
            )
        finally:
            stop.set()
            thread.join()
    finally:
        client.close()
    second = later[0]
    prompt = store.events(table_id, second.version - 1, second.version - 1)[0]
    assert second.at >= prompt.at + timedelta(seconds=TURN)
    waiting = store.get(table_id, second.version - 1)
    assert second.event.seat == min(waiting.game.to_act(waiting.state))
    # each prompt timed out once: no two timeouts answer the same version
    versions = [t.version for t in _timeouts(store, table_id)]
    assert len(versions) == len(set(versions))


def test_after_a_settled_hand_the_clock_starts_once_the_result_pause_has_passed(
    store: TableStore, redis_url: str, redis_prefix: str
) -> None:
    """Option ``result_pause``: the first turn of the next hand counts from the hand's settle
    time plus the pause, not from the deal written with the settlement."""
    options = {"seats": 2, "turn_seconds": 30, "result_pause": 7, "hands": 2}
    table_id = store.create_table("bourre", options, seed=9).table_id
    for seat in range(2):
        store.take_seat(table_id, f"p{seat}", seat)
    game = store.get(table_id).game
    client = redis.Redis.from_url(redis_url)
    try:
        keeper = Timekeeper(store, client, redis_prefix)
        for _ in range(100):  # play hand 1 with each seat's first legal command
            if any(game.settles_hand(e.event) for e in store.events(table_id)):
                break
            state = store.get(table_id).state
            seat = min(game.to_act(state))
            store.execute(table_id, game.legal_commands(state, seat)[0])
        (settled,) = [e for e in store.events(table_id) if game.settles_hand(e.event)]
        assert store.get(table_id).version > settled.version  # hand 2 dealt with it
        found = keeper.deadline(table_id)
        assert found is not None
        assert found[0] == pytest.approx(settled.at.timestamp() + 7 + 30, abs=0.5)
    finally:
        client.close()
