"""Every registered game keeps the house's promises (OpenSpiel's ``random_sim_test`` in
spirit): random legal playouts through the real store (SQLite), its projections in the real
Redis and its export, checked with the game contract alone.

* no hidden card to any viewer (:func:`tests.conformance.support.visibility_breaches`);
* replay at every version — the store's time travel, warm and from a cold store — equals the
  fold of the stored events with the game's ``evolve``;
* the event types a game's counters count a type at a time (not in ``by_fields``) add the
  same increments for every event of the type;
* the projected views, ledger and lobby equal what the game makes of the state, and a rebuild
  of the read models equals the live projection key for key;
* export rows add up: a hands row per settled hand, a results row per seat of each, an
  events row per stored event (each redacted for spectators), once and in log order.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
import redis

from domain.games import game_named
from infra.export import export
from infra.settings import Settings
from infra.store import TableStore
from projections.analytics import counters_of, tag_of
from projections.digest import snapshot
from projections.ledger import Ledger
from projections.reader import ReadModels
from projections.runner import Projector
from tests.conformance.conftest import GAMES
from tests.conformance.support import random_playout, visibility_breaches
from tests.integration.test_projection_support import catch_up

pytestmark = pytest.mark.integration

TABLES = 2  # random tables per game, each from a seed of its own
COMMANDS = 160  # random commands per table at most (a few hands of every game)


def played(store: TableStore, name: str, seed: int) -> UUID:
    """A table of ``name`` with its bots' options, every seat taken, played at random."""
    game = game_named(name)
    table_id = store.create_table(name, game.bot_options(2), seed=seed).table_id
    opened = store.get(table_id)
    for seat in range(game.seating(opened.state).seats):
        store.take_seat(table_id, f"p{seat}", seat)
    for _ in random_playout(store, table_id, seed, COMMANDS):
        pass
    return table_id


@pytest.mark.parametrize("name", GAMES)
def test_random_playouts_keep_the_houses_promises(
    name: str,
    store: TableStore,
    store_settings: Settings,
    redis_client: redis.Redis,
    redis_prefix: str,
    tmp_path: Path,
) -> None:
    game = game_named(name)
    tables = [played(store, name, seed) for seed in range(TABLES)]
    settled = 0
    seats_settled = 0
    for table_id in tables:
        events = [recorded.event for recorded in store.events(table_id)]
        final = store.get(table_id)
        seats = game.seating(final.state).seats
        assert final.version == len(events)
        assert visibility_breaches(game, events, seats) == []

        # replay at every version equals the fold, warm and cold
        state: Any = None
        with TableStore(store_settings) as cold:
            for version, event in enumerate(events, start=1):
                state = game.evolve(state, event)
                assert store.get(table_id, version).state == state, version
                if version % 17 == 0 or version == len(events):
                    assert cold.get(table_id, version).state == state, version
        # a type the game counts alike (not in ``by_fields``) adds what its first event adds
        by_fields = game.house.counting.by_fields
        if by_fields is not None:
            first: dict[str, dict[str, int]] = {}
            for event in events:
                if tag_of(event) not in by_fields:
                    counted = counters_of(game, event)
                    assert counted == first.setdefault(tag_of(event), counted), event
        hands = sum(1 for event in events if game.settles_hand(event))
        settled += hands
        seats_settled += hands * seats

    # the projections: views, ledger and lobby as the game makes them; rebuild equals live
    projector = Projector(store, redis_client, redis_prefix)
    catch_up(projector, store)
    reader = ReadModels(redis_client, redis_prefix)
    for table_id in tables:
        final = store.get(table_id)
        for viewer in (None, *range(game.seating(final.state).seats)):
            assert reader.view(table_id, viewer) == {
                "tableId": str(table_id),
                "game": name,
                "version": final.version,
                **game.view(final.state, viewer),
            }
        assert reader.ledger(table_id) == Ledger.shape(game, final.state)
    lines = {line["tableId"]: line for line in reader.lobby(name)}
    for table_id in tables:
        final = store.get(table_id)
        if game.seating(final.state).status != "ended":
            assert lines[str(table_id)] == {
                "tableId": str(table_id),
                "game": name,
                "version": final.version,
                **game.house.lobby(game, final.state),
            }
    assert reader.analytics()[name]["events"] == sum(store.get(t).version for t in tables)
    live = snapshot(redis_client, redis_prefix)
    projector.rebuild()
    catch_up(projector, store)
    assert snapshot(redis_client, redis_prefix) == live

    # the export adds up
    export(store, tmp_path / "out", "ndjson", game=name)
    rows = {
        dataset: [
            json.loads(line)
            for line in (tmp_path / "out" / dataset / f"game={name}" / "data.ndjson")
            .read_text()
            .splitlines()
        ]
        for dataset in ("events", "hands", "results")
    }
    assert len(rows["hands"]) == settled
    assert len(rows["results"]) == seats_settled
    assert {(row["table_id"], row["hand"]) for row in rows["results"]} == {
        (row["table_id"], row["hand"]) for row in rows["hands"]
    }
    positions = [row["position"] for row in rows["events"]]
    assert positions == sorted(set(positions))  # each event once, in log order
    for table_id in tables:  # every event is public (redacted), one row each
        versions = [row["version"] for row in rows["events"] if row["tableId"] == str(table_id)]
        assert versions == list(range(1, store.get(table_id).version + 1))
    for row in rows["hands"]:
        assert row["commands"] >= 1 and row["started_at"] <= row["settled_at"]
