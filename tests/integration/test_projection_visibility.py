"""Design §5 visibility in the read models: a stored view never holds a card its viewer may
not see — a seat sees its own cards only (Burraco partners included), spectators none.

The projector runs in small batches between bot commands, so views of many intermediate states
are stored; after every batch each stored view is scanned for card codes and checked against
the true hands at that view's version (from the state, not from any view).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from infra.store import TableStore
from projections.reader import ReadModels
from projections.runner import Projector
from tests.documents import card_codes
from tests.integration.store_support import StatesByVersion, bot_moves
from tests.integration.test_projection_support import (
    catch_up,
    hidden_from,
    new_table,
    open_store,
    own_cards,
    seat_everyone,
)

pytestmark = pytest.mark.integration


@pytest.fixture
def store(tmp_path: Path) -> Iterator[TableStore]:
    opened = open_store("sqlite", tmp_path)
    yield opened
    opened.close()


@pytest.mark.parametrize(
    "game, seats, options, commands",
    [
        ("bourre", 7, {"hands": 4}, 2_000),
        ("bourre", 3, {"declaration": "simultaneous", "hands": 12}, 2_000),
        ("burraco", 4, {}, 350),
        ("burraco", 2, {}, 250),
    ],
)
def test_no_stored_view_ever_holds_a_card_its_viewer_may_not_see(
    store: TableStore,
    redis_url: str,
    redis_prefix: str,
    game: str,
    seats: int,
    options: dict[str, object],
    commands: int,
) -> None:
    client = redis.Redis.from_url(redis_url)
    table_id = new_table(store, game, seats, **options)
    seat_everyone(store, table_id, seats)
    projector = Projector(store, client, redis_prefix)
    reader = ReadModels(client, redis_prefix)
    checked = {"views": 0, "own cards": 0}
    truth = StatesByVersion(store, table_id)

    def scan_every_stored_view(complete: bool = False) -> None:
        states = truth.refresh()
        for viewer in (None, *range(seats)):
            view = reader.view(table_id, viewer)
            if view is None:  # that seat's PlayerSeated is not projected yet
                assert not complete
                continue
            state, visible = states[view["version"]], card_codes(view)
            leaked = visible & hidden_from(game, state, viewer)
            assert not leaked, f"{viewer=} at version {view['version']} sees {sorted(leaked)}"
            checked["views"] += 1
            if viewer is not None and (mine := own_cards(game, state, viewer)):
                assert mine <= visible, f"seat {viewer} does not see its own {mine - visible}"
                checked["own cards"] += 1

    for count, _ in enumerate(bot_moves(store, table_id, seed=seats), start=1):
        if count % 3 == 0:  # batches of 4 events every third command: views lag and jump
            projector.run_once(limit=4)
            scan_every_stored_view()
        if count >= commands:
            break
    catch_up(projector, store)
    scan_every_stored_view(complete=True)
    client.close()
    assert checked["views"] > 200
    assert checked["own cards"] > 100  # seats saw their own cards: the check has teeth
