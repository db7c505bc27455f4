"""A table's hand index: where each hand started, was dealt and settled (design §3).

The timeline reveals a settled hand's cards, a replay needs the hand in play at a version,
and a deal is verified against the commitment its ``Dealt`` published (design §5). The index
answers all three without reading the table's history: it is kept as events are stored
(:class:`infra.table_cache.FoldedTable` records every stored event here) and travels in snapshots
(:mod:`infra.snapshots`), so a cold load has it too.

For hand ``n`` it holds three versions: ``start``, its first event (``game.hand_of`` is
``n``); ``dealt``, the first of its events that publishes a deal ``commitment``; ``settled``,
the event that ends it (``game.settles_hand``). Hands are numbered 1, 2, … in the order they
are played, so the hand in play at a version is the last one started by then.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Any

from domain.game import Game

# hand -> (start, dealt, settled) versions; the snapshot body stores this mapping as is.
Spans = dict[int, tuple[int, int | None, int | None]]


@dataclass(frozen=True, slots=True)
class HandSpan:
    """Where hand ``hand`` started, was dealt and settled (``None``: not yet)."""

    hand: int
    start: int
    dealt: int | None
    settled: int | None

    def dealt_by(self, version: int) -> bool:
        return self.dealt is not None and self.dealt <= version

    def settled_by(self, version: int) -> bool:
        return self.settled is not None and self.settled <= version


class HandIndex:
    """The hand spans of one table, growing as its events are stored.

    Shared by the successive folded states of the table (like its idempotency-key index), and
    only ever told about stored events, so an older holder seeing newer hands is harmless:
    readers pass the last version they may see.
    """

    __slots__ = ("_hands", "_spans", "_starts")

    def __init__(self, spans: Spans | None = None) -> None:
        self._spans: Spans = {}
        self._starts: list[int] = []
        self._hands: list[int] = []
        for hand, (start, dealt, settled) in sorted((spans or {}).items()):
            self._spans[hand] = (start, dealt, settled)
            self._hands.append(hand)
            self._starts.append(start)

    def record(self, game: Game, version: int, event: Any) -> None:
        """Index one stored event at ``version`` (events arrive in version order)."""
        hand = game.hand_of(event)
        if not hand:
            return
        span = self._spans.get(hand)
        if span is None:
            span = (version, None, None)
            self._hands.append(hand)  # before its start: a concurrent hand_at stays in range
            self._starts.append(version)
        start, dealt, settled = span
        if dealt is None and hasattr(event, "commitment"):
            dealt = version
        if settled is None and game.settles_hand(event):
            settled = version
        self._spans[hand] = (start, dealt, settled)

    def span(self, hand: int, visible: int) -> HandSpan | None:
        """Hand ``hand`` as far as versions up to ``visible`` show it (None: not started)."""
        found = self._spans.get(hand)
        if found is None or found[0] > visible:
            return None
        start, dealt, settled = found
        return HandSpan(
            hand,
            start,
            dealt if dealt is not None and dealt <= visible else None,
            settled if settled is not None and settled <= visible else None,
        )

    def hand_at(self, version: int) -> int:
        """The hand in play at ``version``: the last started by then (0 before the first)."""
        at = bisect.bisect_right(self._starts, version)
        return self._hands[at - 1] if at else 0

    def settled_by(self, version: int, hands: set[int]) -> set[int]:
        """Those of ``hands`` that have settled at or before ``version``."""
        out = set()
        for hand in hands:
            span = self._spans.get(hand)
            if span is not None and span[2] is not None and span[2] <= version:
                out.add(hand)
        return out

    def spans(self) -> Spans:
        """A copy of the index (for snapshots and tests)."""
        return dict(self._spans)
