"""What a read model is (design §4): it owns its Redis keys and its JSON shape, reads them for
:class:`~projections.reader.ReadModels`, and says what one batch of notifications writes.

The projector (:mod:`projections.runner`) evolves the batch's tables first, then hands every
read model the same :class:`Outcome` and collects their writes into the one position-checked
commit (:mod:`projections.tracking`). A read model therefore never writes Redis itself, and
everything it writes follows from the events alone, so a rebuild reproduces it exactly.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import dataclass, field

import msgspec
import redis

from domain.game import Game
from projections.keys import Keys
from projections.table_projection import NotificationLike, ProjectionError, TableProjection
from projections.totals import Totals
from projections.tracking import Batch

# Sorted keys: a read model's bytes depend on its content only, never on how it was built.
encode = msgspec.json.Encoder(order="deterministic").encode
decode = msgspec.json.Decoder().decode


@dataclass
class Outcome:
    """One batch of notifications as the read models see it, once its tables are evolved."""

    # The tables the batch moved, in the order it first moved them, each as of the batch's end.
    tables: list[TableProjection] = field(default_factory=list)
    # Each table's notifications of the batch, in log order, tables as in ``tables``.
    runs: list[tuple[TableProjection, list[NotificationLike]]] = field(default_factory=list)
    _kinds: dict[tuple[Game, type], list[NotificationLike]] | None = None

    def by_kind(self) -> dict[tuple[Game, type], list[NotificationLike]]:
        """The batch's notifications grouped by game and event class (each group in log
        order per table): counters add up a group at a time. Worked out once per batch."""
        if self._kinds is None:
            games: dict[Game, dict[type, list[NotificationLike]]] = {}
            for table, notes in self.runs:
                kinds = games.setdefault(table.game, {})
                for note in notes:
                    group = kinds.get(type(note.event))
                    if group is None:
                        kinds[type(note.event)] = [note]
                    else:
                        group.append(note)
            self._kinds = {
                (game, kind): group for game, kinds in games.items()
                for kind, group in kinds.items()
            }  # fmt: skip
        return self._kinds


class ReadModel(ABC):
    """A read model under ``keys``' prefix, read (and, for counters, consulted) on ``redis``.

    ``sees_withheld``: whether its outcome holds a tournament's board tables (design §10):
    only read models served per table behind the API's embargo (views, ledger) and the
    tournaments' standings do; the lobby, counters, statistics and ratings see a board table
    only from its ``BoardReleased`` on, its whole log at once (``runner.withheld_out``)."""

    sees_withheld = False

    def __init__(self, redis: redis.Redis, keys: Keys) -> None:
        self._redis = redis
        self.keys = keys

    @abstractmethod
    def write(self, batch: Batch, outcome: Outcome) -> None:
        """Add this read model's writes for ``outcome`` to ``batch``."""

    def flush_keys(self) -> Iterable[str]:
        """Its keys that do not depend on a table (a rebuild deletes them)."""
        return ()

    def forget(self) -> None:
        """Drop what it remembers of Redis (the projector resynchronises: its last batch
        failed or was refused, or a rebuild starts). Most read models remember nothing."""
        return None

    def flush_patterns(self) -> Iterable[str]:
        """SCAN patterns matching its per-table keys (a rebuild deletes what they match)."""
        return ()

    def flushed(self) -> None:
        """Its keys were just deleted (a rebuild): what it would read of them is empty. By
        default the same as :meth:`forget`."""
        self.forget()


class CountingModel(ReadModel):
    """A read model of counters written whole (:mod:`projections.totals`): it remembers the
    totals it wrote, forgets them when the projector resynchronises, and knows them empty
    after a rebuild's flush."""

    def __init__(self, redis: redis.Redis, keys: Keys) -> None:
        super().__init__(redis, keys)
        self._totals = Totals(redis)

    def forget(self) -> None:
        self._totals.forget()

    def flushed(self) -> None:
        self._totals.forget(empty=True)


class TableReadModel(ReadModel):
    """A read model with a value per table, rendered once per batch for each table it moved."""

    def write(self, batch: Batch, outcome: Outcome) -> None:
        for table in outcome.tables:
            try:
                self.write_table(batch, table, outcome)
            except Exception as error:
                raise ProjectionError(
                    f"table {table.table_id} version {table.version}: cannot compute its "
                    f"{type(self).__name__}: {error!r}"
                ) from error

    @abstractmethod
    def write_table(self, batch: Batch, table: TableProjection, outcome: Outcome) -> None:
        """Overwrite ``table``'s value with its state at the end of the batch."""

    def flush_patterns(self) -> Iterable[str]:
        return (self.keys.table_pattern(),)
