"""Counters written whole (design §4): the shard parts of the analytics counters, the player
statistics and the game totals hold integers that a batch adds to.

They are not written with HINCRBY: chip sums outgrow Redis's 64-bit integers (a pot
that a loser must match doubles hand after hand), and Python's integers do not. So a batch's
new totals are worked out here — what is stored plus the batch's increments — and written
whole in the batch's commit.

What is stored is read once: :class:`Totals` remembers every total it has put in a batch, so a
projector that keeps committing reads Redis only for fields it has not met yet (one pipelined
round trip per batch at most). This is safe because a batch only commits on top of the position
it started from (:mod:`projections.tracking`): if anyone else wrote a part since, the commit is
refused and the projector :meth:`~Totals.forget`\\ s everything it knew before trying again.
Right after a rebuild's flush nothing is stored, so nothing is read (``forget(empty=True)``).
"""

from __future__ import annotations

from typing import Any

from projections.tracking import Batch

# Totals remembered at most; past it they are read again (a bound on memory, not a rule).
_KEPT = 200_000


class Totals:
    """The stored totals of some hashes, as this projector last wrote or read them."""

    def __init__(self, redis: Any) -> None:
        self._redis = redis
        self._known: dict[str, dict[str, int]] = {}
        self._count = 0
        self._empty = False  # the hashes were just deleted: a total not met yet is 0

    def add(self, batch: Batch, increments: dict[str, dict[str, int]]) -> None:
        """Add ``increments`` (hash key -> field -> amount) to the stored totals: the new
        totals go into ``batch``, each hash's fields in sorted order."""
        missing: dict[str, list[str]] = {}
        for key, fields in increments.items():
            known = self._known.get(key, {})
            wanted = [field for field in fields if field not in known]
            if wanted:
                missing[key] = wanted
        if missing and self._empty and self._count + sum(map(len, missing.values())) <= _KEPT:
            for key, wanted in missing.items():
                self._known.setdefault(key, {}).update(dict.fromkeys(wanted, 0))
                self._count += len(wanted)
        elif missing:
            if self._count + sum(map(len, missing.values())) > _KEPT:
                self.forget()
                missing = {key: list(fields) for key, fields in increments.items()}
            self._read(missing)
        for key, fields in increments.items():
            known = self._known[key] if key in self._known else self._known.setdefault(key, {})
            for field in sorted(fields):
                total = known[field] + fields[field]
                known[field] = total
                batch.hset(key, field, str(total))

    def forget(self, *, empty: bool = False) -> None:
        """Forget every total: the next batch reads what it needs from Redis — or, when the
        hashes were just deleted (``empty``: a rebuild's flush), knows they are 0. Any
        later :meth:`forget` (a refused commit) reads Redis again."""
        self._known.clear()
        self._count = 0
        self._empty = empty

    def _read(self, missing: dict[str, list[str]]) -> None:
        pipe = self._redis.pipeline(transaction=False)
        for key, fields in missing.items():
            pipe.hmget(key, fields)
        for (key, fields), values in zip(missing.items(), pipe.execute(), strict=True):
            known = self._known.setdefault(key, {})
            for field, value in zip(fields, values, strict=True):
                known[field] = int(value or 0)
            self._count += len(fields)
