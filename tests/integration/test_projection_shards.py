"""Sharded projectors and slot-by-slot commits (docs/scaling.md): N projectors together write
the same table views and ledgers as one, and the same lobby and counters once merged; a
projector that dies between its tables' commits and its shard's commit resumes with nothing
lost or doubled; a shard's rebuild leaves the other shards' keys alone."""

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
from projections.keys import Keys, shard_of
from projections.reader import ReadModels
from projections.runner import Projector, drop_other_shards
from projections.tracking import Group, Tracking
from tests.integration.test_projection_exactly_once import fill
from tests.integration.test_projection_support import (
    Crash,
    catch_up,
    clear_prefix,
    new_table,
    open_store,
    seat_everyone,
)

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TableStore]:
    store = open_store("sqlite", tmp_path_factory.mktemp("events"))
    fill(store)
    shards: set[int] = set()
    while len(shards) < 2:  # tables in both of two shards (their ids are random)
        table = new_table(store, "bourre", 2)
        seat_everyone(store, table, 2)
        shards.add(shard_of(table, 2))
    yield store
    store.close()


@pytest.fixture
def prefixes(client: redis.Redis) -> Iterator[Any]:
    made: list[str] = []

    def new() -> str:
        made.append(f"cardroom-test:shards:{uuid.uuid4().hex[:8]}:")
        return made[-1]

    yield new
    for prefix in made:
        clear_prefix(client, prefix)


def tables_part(content: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in content.items() if key.startswith("table:")}


def run_shards(store: TableStore, client: redis.Redis, prefix: str, shards: int) -> None:
    for shard in range(shards):
        catch_up(Projector(store, client, prefix, shard=shard, shards=shards), store, limit=37)


def test_two_shards_write_the_views_ledgers_lobby_and_counters_one_projector_writes(
    filled: TableStore, client: redis.Redis, prefixes: Any
) -> None:
    one, two = prefixes(), prefixes()
    run_shards(filled, client, one, 1)
    run_shards(filled, client, two, 2)
    assert tables_part(snapshot(client, two)) == tables_part(snapshot(client, one))
    single, merged = ReadModels(client, one), ReadModels(client, two, shards=2)
    assert merged.lobby() == single.lobby() != []
    assert merged.analytics() == single.analytics()
    assert merged.positions() == [filled.max_position()] * 2
    tables = {Keys("").table_of(key) for key in snapshot(client, two)} - {None}  # relative
    assert {shard_of(table, 2) for table in tables if table is not None} == {0, 1}


def test_a_shard_projects_only_its_own_tables(
    filled: TableStore, client: redis.Redis, prefixes: Any
) -> None:
    prefix = prefixes()
    catch_up(Projector(filled, client, prefix, shard=1, shards=2), filled)
    tables = {Keys("").table_of(key) for key in snapshot(client, prefix)} - {None}  # relative
    assert tables and {shard_of(table, 2) for table in tables if table is not None} == {1}
    reader = ReadModels(client, prefix, shards=2)
    assert reader.positions() == [0, filled.max_position()]
    assert reader.position() == 0  # the whole read side has not reached anything yet


def test_rebuilding_one_shard_leaves_the_other_shards_keys_alone(
    filled: TableStore, client: redis.Redis, prefixes: Any
) -> None:
    prefix = prefixes()
    run_shards(filled, client, prefix, 2)
    before = snapshot(client, prefix)
    nobody = uuid.UUID(int=4)  # a table no event explains, in shard 0
    assert shard_of(nobody, 2) == 0
    stray = Keys(prefix).table(nobody, "view")
    client.set(stray, b"{}")
    Projector(filled, client, prefix, shard=0, shards=2).rebuild()
    assert snapshot(client, prefix) == before
    client.set(stray, b"{}")
    Projector(filled, client, prefix, shard=1, shards=2).rebuild()
    assert client.get(stray) == b"{}"  # shard 1's rebuild does not touch shard 0's keys
    client.delete(stray)
    assert snapshot(client, prefix) == before


def dying_between_slots(tracking: Tracking, groups: int) -> Any:
    """``tracking.commit`` that writes ``groups`` tables' groups, then dies before the shard's
    compare-and-set (as a killed process on a cluster would)."""
    real_group = tracking.commit_group
    written = {"n": 0}

    def commit_group(group: Group) -> bool:
        if written["n"] >= groups:
            raise Crash("between the tables and the shard")
        written["n"] += 1
        return real_group(group)

    return commit_group


steps = st.lists(
    st.tuples(
        st.integers(min_value=0, max_value=3),  # which projector: (shard 0, 1) x (two each)
        st.integers(min_value=1, max_value=60),  # its batch limit
        st.sampled_from(["run", "run", "die after 0", "die after 1", "die after 2", "restart"]),
    ),
    min_size=1,
    max_size=20,
)


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=steps)
def test_split_commits_with_deaths_between_slots_end_equal_to_one_clean_run(
    filled: TableStore, client: redis.Redis, steps: list[tuple[int, int, str]]
) -> None:
    """Two shards, two projectors each, committing slot by slot as on a cluster."""
    clean = f"cardroom-test:shards-clean:{uuid.uuid4().hex[:8]}:"
    prefix = f"cardroom-test:shards-prop:{uuid.uuid4().hex[:8]}:"

    def projector(which: int) -> Projector:
        return Projector(filled, client, prefix, shard=which % 2, shards=2, split=True)

    try:
        run_shards(filled, client, clean, 1)
        projectors = [projector(which) for which in range(4)]
        for which, limit, step in steps:
            if step == "restart":
                projectors[which] = projector(which)  # memory lost, Redis kept
                continue
            current = projectors[which]
            if step.startswith("die"):
                tracking = current._tracking
                tracking.commit_group = dying_between_slots(tracking, int(step.split()[-1]))  # type: ignore[method-assign]
                try:
                    current.run_once(limit)
                except Crash:
                    projectors[which] = projector(which)  # the process is gone
                finally:
                    del tracking.commit_group
            else:
                current.run_once(limit)
        for shard in range(2):
            catch_up(projector(shard), filled, limit=50)
        ours, reference = snapshot(client, prefix), snapshot(client, clean)
        assert tables_part(ours) == tables_part(reference)
        merged, single = ReadModels(client, prefix, shards=2), ReadModels(client, clean)
        assert merged.lobby() == single.lobby()
        assert merged.analytics() == single.analytics()
    finally:
        clear_prefix(client, prefix)
        clear_prefix(client, clean)


def test_lowering_the_number_of_shards_is_a_rebuild_that_drops_the_extra_parts(
    filled: TableStore, client: redis.Redis, prefixes: Any
) -> None:
    """docs/scaling.md: drain, set the new N, rebuild every shard, start N projectors."""
    one, two = prefixes(), prefixes()
    run_shards(filled, client, one, 1)
    run_shards(filled, client, two, 2)
    keys = Keys(two, 0, 2)
    shard_one = {
        k for k in client.scan_iter(match=keys.shard_pattern()) if keys.shard_of_key(k) == 1
    }
    assert {keys.for_shard(1).position(), keys.for_shard(1).named("lobby")} <= {
        k.decode() for k in shard_one
    }  # shard 1's position and its parts (lobby lines, status sets, counters)
    assert drop_other_shards(client, two, 1) == len(shard_one)
    Projector(filled, client, two).rebuild()
    assert snapshot(client, two) == snapshot(client, one)
