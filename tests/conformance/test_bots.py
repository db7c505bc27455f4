"""Every registered game's bots finish tables: a table of its bot kinds (seated alternately)
plays a hand through the real store and ends, as ``cardroom simulate`` plays it, and each kind
has a description to list."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bots import kinds
from domain.games import game_named
from domain.table import ENDED
from infra.settings import Settings
from infra.simulate import play_table
from infra.store import TableStore
from tests.conformance.conftest import GAMES

pytestmark = pytest.mark.integration


@pytest.fixture
def store(tmp_path: Path) -> Iterator[TableStore]:
    settings = Settings(event_store=f"sqlite:///{tmp_path}/events.db", var_dir=tmp_path / "var")
    with TableStore(settings) as opened:
        yield opened


@pytest.mark.parametrize("name", GAMES)
def test_the_bots_of_every_kind_finish_a_table(name: str, store: TableStore) -> None:
    listed = kinds(name)
    assert "random" in listed and all(listed.values())
    report = play_table(store, name, 1, seed=3, bots=tuple(listed))
    assert report.hands >= 1
    (table_id,) = report.table_ids
    final = store.get(table_id)
    assert game_named(name).seating(final.state).status == ENDED
    assert sum(figures["hands"] for figures in report.tally.as_dict().values()) >= 1
