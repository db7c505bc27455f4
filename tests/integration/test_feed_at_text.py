"""The feed writes each event's time as the query service does (``at.isoformat()``), though
it writes a second's text once for the commands stored within it."""

from __future__ import annotations

from pathlib import Path

from infra.feed import EventFeed
from infra.queries import TableQueries
from infra.settings import Settings
from infra.simulate import play_table
from infra.store import TableStore


def test_every_event_at_is_its_stored_time_in_iso_format(tmp_path: Path) -> None:
    settings = Settings(event_store=f"sqlite:///{tmp_path}/events.db", var_dir=tmp_path)
    with TableStore(settings) as store:
        play_table(store, "bourre", 2, 1, options={"seats": 4})
        play_table(store, "burraco", 1, 2)
        steps = list(EventFeed(store, TableQueries(store)).walk_log())
    shown = [(step.shown["at"], step.note.at.isoformat()) for step in steps if step.shown]
    assert len(shown) > 100
    assert all(text == stored for text, stored in shown)
