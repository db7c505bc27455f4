"""Forks in the read models (design §9.3): a fork (:mod:`domain.table.fork`) is a sandbox, so
the statistics (:mod:`projections.players`, :mod:`projections.accountstats`), the counters
(:mod:`projections.analytics`) and the ratings (:mod:`projections.ratings`) leave its events
out. A fork is marked from its first event (its options), so every batch knows it."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain.table.fork import forked


def forked_tables(outcome: Any) -> set[UUID]:
    """The forks among a batch's tables."""
    return {table.table_id for table in outcome.tables if forked(table.state)}
