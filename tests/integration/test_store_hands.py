"""The hand index: where each hand started, was dealt and settled, kept as events are stored
(design §3), equal to a scan of the events — also after a cold load from a snapshot."""

from __future__ import annotations

from collections.abc import Iterator
from uuid import UUID

import pytest

from infra.hands import Spans
from infra.queries import TableQueries
from infra.settings import Settings
from infra.store import TableStore
from tests.integration.store_support import decoded_events
from tests.integration.test_store_snapshots import EVERY, long_table, snapshot_versions

pytestmark = pytest.mark.integration


@pytest.fixture
def store(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[TableStore]:
    monkeypatch.setattr("infra.table_cache.CHECKPOINT_EVERY", EVERY)
    monkeypatch.setattr("infra.store.SNAPSHOT_EVERY", EVERY)
    with TableStore(settings) as opened:
        yield opened


def scanned(store: TableStore, table_id: UUID) -> tuple[Spans, dict[int, int]]:
    """The hand spans read off every event (a hand is dealt by its ``Dealt`` event), and the
    hand in play at each version (the last hand any event so far belonged to)."""
    game = store.get(table_id).game
    spans: Spans = {}
    in_play: dict[int, int] = {}
    hand_now = 0
    for recorded in store.events(table_id):
        version, event = recorded.version, recorded.event
        hand = game.hand_of(event)
        if hand:
            hand_now = hand
            start, dealt, settled = spans.get(hand, (version, None, None))
            if dealt is None and type(event).__name__ == "Dealt":
                dealt = version
            if settled is None and game.settles_hand(event):
                settled = version
            spans[hand] = (start, dealt, settled)
        in_play[version] = hand_now
    return spans, in_play


@pytest.mark.parametrize(("game", "versions"), [("bourre", 3 * EVERY), ("burraco", 6 * EVERY)])
def test_the_hand_index_is_a_scan_of_the_events(
    store: TableStore, settings: Settings, game: str, versions: int
) -> None:
    table_id = long_table(store, game, versions)
    spans, in_play = scanned(store, table_id)
    settled = [hand for hand, (_, _, at) in spans.items() if at is not None]
    assert len(spans) >= 2 and settled  # several hands, at least one of them over
    version, index = store.hands(table_id)
    assert index.spans() == spans
    assert {v: index.hand_at(v) for v in in_play} == in_play
    assert snapshot_versions(store, table_id)
    with TableStore(settings) as cold:
        seen = decoded_events(cold)
        cold_version, cold_index = cold.hands(table_id)
        assert (cold_version, cold_index.spans()) == (version, spans)
        # The index before the latest snapshot came with it, not from the events.
        assert all(v > snapshot_versions(store, table_id)[-1] for v in seen)


def test_a_hand_is_seen_only_as_far_as_a_version_shows_it(store: TableStore) -> None:
    table_id = long_table(store, "bourre", 2 * EVERY)
    spans, _ = scanned(store, table_id)
    _, index = store.hands(table_id)
    start, dealt, settled = spans[1]
    assert dealt is not None and settled is not None
    assert index.span(1, start - 1) is None  # not started yet
    early = index.span(1, dealt - 1)
    assert early is not None and (early.dealt, early.settled) == (None, None)
    dealt_only = index.span(1, settled - 1)
    assert dealt_only is not None and (dealt_only.dealt, dealt_only.settled) == (dealt, None)
    assert index.settled_by(settled - 1, {1}) == set()
    assert index.settled_by(settled, {1}) == {1}


def test_timeline_replay_and_verify_read_no_history_beyond_what_they_answer(
    store: TableStore,
) -> None:
    table_id = long_table(store, "bourre", 3 * EVERY)
    spans, _ = scanned(store, table_id)
    hand = max(h for h, (_, _, settled) in spans.items() if settled is not None)
    start, dealt, settled = spans[hand]
    assert dealt is not None and settled is not None
    queries = TableQueries(store)
    queries.facts(table_id)  # the table's options: its first event, once
    seen = decoded_events(store)
    page = queries.timeline(table_id, None, start, start + 4)
    assert [event["version"] for event in page] == list(range(start, start + 5))
    assert sorted(seen) == list(range(start, start + 5))  # the page, nothing else
    seen.clear()
    queries.verify(table_id, None, hand)
    assert sorted(seen) == [dealt, settled]  # the deal and its settlement
    seen.clear()
    at = settled - 1
    view = queries.replay(table_id, None, at)
    assert view["version"] == at
    # Time travel folds from the nearest checkpoint (one is kept about every EVERY versions).
    assert seen and min(seen) > at - 2 * EVERY and max(seen) == at
