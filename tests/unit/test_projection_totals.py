"""Counters written whole (:mod:`projections.totals`): a total is what is stored plus the
batch's increments; right after a rebuild's flush nothing is stored, so nothing is read."""

from __future__ import annotations

from typing import Any

from projections.totals import Totals
from projections.tracking import Batch


class StoredHashes:
    """A Redis stand-in holding hashes, counting the round trips that read them."""

    def __init__(self, hashes: dict[str, dict[str, bytes]]) -> None:
        self.hashes = hashes
        self.reads = 0

    def pipeline(self, transaction: bool = False) -> Any:
        return self

    def hmget(self, key: str, fields: list[str]) -> None:
        self._asked = [*getattr(self, "_asked", []), (key, fields)]

    def execute(self) -> list[list[bytes | None]]:
        self.reads += 1
        asked, self._asked = self._asked, []
        return [[self.hashes.get(key, {}).get(field) for field in fields] for key, fields in asked]


def written(batch: Batch) -> dict[str, str]:
    (group,) = batch.groups.values()
    return {group.args[i + 1]: group.args[i + 2] for i in range(0, len(group.args), 3)}


def test_a_total_is_the_stored_value_plus_the_increment_read_once() -> None:
    redis = StoredHashes({"h": {"all:events": b"5"}})
    totals = Totals(redis)
    first, second = Batch(), Batch()
    totals.add(first, {"h": {"all:events": 2}})
    totals.add(second, {"h": {"all:events": 3}})
    assert written(first) == {"all:events": "7"} and written(second) == {"all:events": "10"}
    assert redis.reads == 1


def test_after_a_flush_totals_start_from_zero_without_reading_until_forgotten() -> None:
    redis = StoredHashes({"h": {"all:events": b"5"}})  # a value a refused commit would meet
    totals = Totals(redis)
    totals.forget(empty=True)
    batch = Batch()
    totals.add(batch, {"h": {"all:events": 2, "all:hands": 1}})
    assert written(batch) == {"all:events": "2", "all:hands": "1"}
    assert redis.reads == 0
    totals.forget()  # a refused commit: what is stored is read again
    again = Batch()
    totals.add(again, {"h": {"all:events": 2}})
    assert written(again) == {"all:events": "7"}
    assert redis.reads == 1
