"""The read side on a real Redis Cluster (three ``redis-server --cluster-enabled yes``):
projectors commit slot by slot and end with the keys one projector writes on a single Redis;
``wait_for`` is woken by a commit announced on another node."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from infra.store import TableStore
from projections.digest import snapshot
from projections.keys import Keys
from projections.reader import ReadModels
from projections.runner import Projector
from projections.tracking import Batch, Tracking
from tests.deployed.topology import cluster_client, redis_cluster
from tests.integration.test_projection_exactly_once import fill
from tests.integration.test_projection_support import catch_up, clear_prefix, open_store

pytestmark = [pytest.mark.deployed, pytest.mark.integration]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[redis.Redis]:
    with redis_cluster(tmp_path_factory.mktemp("cluster")) as url:
        client = cluster_client(url)
        yield client
        client.close()


@pytest.fixture
def single(redis_url: str) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(redis_url)
    yield client
    client.close()


def test_sharded_projectors_on_a_cluster_write_what_one_projector_writes_on_one_redis(
    cluster: redis.Redis, single: redis.Redis, tmp_path: Path
) -> None:
    store: TableStore = open_store("sqlite", tmp_path)
    fill(store)
    prefix = f"cardroom-test:single:{uuid.uuid4().hex[:8]}:"
    try:
        catch_up(Projector(store, single, prefix), store)
        for shard in range(2):
            projector = Projector(store, cluster, "c:", shard=shard, shards=2)
            assert projector._tracking.split  # a script per slot
            catch_up(projector, store, limit=40)
        tables = {k: v for k, v in snapshot(cluster, "c:").items() if k.startswith("table:")}
        assert tables == {
            k: v for k, v in snapshot(single, prefix).items() if k.startswith("table:")
        }
        merged, one = ReadModels(cluster, "c:", shards=2), ReadModels(single, prefix)
        assert merged.lobby() == one.lobby()
        assert merged.analytics() == one.analytics()
        live = snapshot(cluster, "c:")
        Projector(store, cluster, "c:", shard=1, shards=2).rebuild()
        assert snapshot(cluster, "c:") == live
    finally:
        clear_prefix(single, prefix)
        store.close()


def test_a_wait_is_woken_by_a_commit_on_another_node(cluster: redis.Redis) -> None:
    keys = Keys("w:", 1, 2)
    reader = ReadModels(cluster, "w:", shards=2)
    Tracking(cluster, keys.for_shard(0)).commit(Batch(), "0", "9")
    committer = threading.Timer(0.2, lambda: Tracking(cluster, keys).commit(Batch(), "0", "9"))
    committer.start()
    try:
        assert reader.wait_for(9, timeout=30)
    finally:
        committer.join()
    assert reader.positions() == [9, 9]
