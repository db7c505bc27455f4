"""Exactly-once as a property (design §4): whatever the batch sizes, wherever a projector crashes
(before or after its commit reaches Redis), however often it is restarted, and with a second
projector interleaving its batches, the read side ends with exactly the keys and values of one
clean run."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from infra.store import TableStore
from projections.digest import snapshot
from projections.runner import Projector
from projections.tracking import Batch, CommitResult, Tracking
from tests.integration.test_projection_exactly_once import fill
from tests.integration.test_projection_support import Crash, catch_up, clear_prefix, open_store

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TableStore]:
    store = open_store("sqlite", tmp_path_factory.mktemp("events"))
    fill(store)
    yield store
    store.close()


@pytest.fixture(scope="module")
def clean(filled: TableStore, client: redis.Redis) -> Iterator[dict[str, Any]]:
    """The read side after one clean run, key by key."""
    prefix = f"cardroom-test:clean:{uuid.uuid4().hex[:8]}:"
    catch_up(Projector(filled, client, prefix), filled)
    yield snapshot(client, prefix)
    clear_prefix(client, prefix)


def crashing(tracking: Tracking, when: str) -> Any:
    """``tracking.commit`` that crashes once, before Redis sees the batch or after it ran."""

    def commit(batch: Batch, expected: str, new: str) -> CommitResult:
        if when == "before":
            raise Crash("before EXEC")
        Tracking.commit(tracking, batch, expected, new)
        raise Crash("after EXEC")

    return commit


steps = st.lists(
    st.tuples(
        st.integers(min_value=0, max_value=1),  # which of two projectors acts
        st.integers(min_value=1, max_value=80),  # its batch limit
        st.sampled_from(["run", "run", "crash before", "crash after", "restart"]),
    ),
    min_size=1,
    max_size=25,
)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=steps)
def test_any_batching_crashes_and_restarts_end_equal_to_one_clean_run(
    filled: TableStore,
    client: redis.Redis,
    clean: dict[str, Any],
    steps: list[tuple[int, int, str]],
) -> None:
    prefix = f"cardroom-test:prop:{uuid.uuid4().hex[:8]}:"
    try:
        projectors = [Projector(filled, client, prefix) for _ in range(2)]
        for which, limit, step in steps:
            projector = projectors[which]
            if step == "restart":
                projectors[which] = Projector(filled, client, prefix)  # memory lost, Redis kept
            elif step.startswith("crash"):
                tracking = projector._tracking  # the commit of this projector only
                tracking.commit = crashing(tracking, step.split()[1])  # type: ignore[method-assign]
                try:
                    projector.run_once(limit)
                except Crash:
                    pass
                finally:
                    del tracking.commit  # back to the class's commit
            else:
                projector.run_once(limit)
        catch_up(Projector(filled, client, prefix), filled, limit=50)
        assert snapshot(client, prefix) == clean
    finally:
        clear_prefix(client, prefix)
