"""The feed read whole (an export's ``EventFeed.walk_log``) shows exactly what the feed's
walk from position 0 shows: the same public events, each once, the same held and hidden ones —
for ended tables and live ones, with and without ``spectator_delay``, revealing hands or never;
the walk lists them by release (docs/analytics.md, "The cursor"), the whole read by position,
and an idle delayed table holds back no other table's events in either."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from infra.export import export
from infra.feed import EventFeed
from infra.queries import TableQueries
from infra.settings import Settings
from infra.simulate import play_table
from infra.store import TableStore


def play_some(store: TableStore, game: str, options: dict[str, Any], moves: int, seed: int) -> None:
    """A table left in play after ``moves`` random legal commands."""
    rng = random.Random(seed)
    table_id = store.create_table(game, options, seed=seed).table_id
    seats = store.get(table_id).game.seating(store.get(table_id).state).seats
    for seat in range(seats):
        store.take_seat(table_id, f"p{seat}", seat)
    for _ in range(moves):
        table = store.get(table_id)
        acting = sorted(table.game.to_act(table.state))
        if not acting:
            return
        seat = rng.choice(acting)
        store.execute(table_id, rng.choice(table.game.legal_commands(table.state, seat)))


def steps(walk: Any) -> list[tuple[int, Any, bool]]:
    return [(step.note.position, step.shown, step.held) for step in walk]


def fresh_feed(settings: Settings) -> tuple[TableStore, EventFeed]:
    store = TableStore(settings)
    return store, EventFeed(store, TableQueries(store))


def test_the_whole_log_read_once_shows_what_the_walk_from_zero_shows(tmp_path: Path) -> None:
    settings = Settings(event_store=f"sqlite:///{tmp_path}/events.db", var_dir=tmp_path)
    with TableStore(settings) as store:
        play_table(store, "bourre", 3, 1, options={"seats": 4, "spectator_delay": 3})
        play_table(store, "burraco", 1, 2, options={"reveal": "never"})
        play_some(store, "bourre", {"seats": 3}, 40, 3)
        play_table(store, "bourre", 2, 4, options={"seats": 5})
        play_some(store, "burraco", {"seats": 4, "spectator_delay": 2}, 30, 5)
        play_some(store, "bourre", {"seats": 5, "spectator_delay": 4}, 25, 6)
    store, feed = fresh_feed(settings)
    with store:
        whole = steps(feed.walk_log())
    store, feed = fresh_feed(settings)
    with store:
        walked = steps(feed.walk(0))
    shown_whole = [(position, shown) for position, shown, _ in whole if shown is not None]
    shown_walked = sorted((p, shown) for p, shown, _ in walked if shown is not None)
    assert shown_whole == shown_walked
    assert not any(held for _, _, held in walked)  # nothing holds the walk back
    held = {position for position, shown, held in whole if held}
    assert held and min(held) < shown_whole[-1][0]  # live delayed tables' last, passed over
    assert any(shown is None and not held for _, shown, held in whole)  # an ended table's


def test_an_idle_delayed_table_holds_back_its_own_events_only(tmp_path: Path) -> None:
    settings = Settings(event_store=f"sqlite:///{tmp_path}/events.db", var_dir=tmp_path)
    with TableStore(settings) as store:
        play_some(store, "bourre", {"seats": 2, "spectator_delay": 1}, 0, 1)  # idle
        play_some(store, "burraco", {"seats": 2, "spectator_delay": 3}, 40, 2)
        play_some(store, "bourre", {"seats": 3}, 40, 3)
        stored = store.notifications(1, 100_000)
        heads = {n.table_id: n.version for n in stored}
        delays = {t: TableQueries(store).facts(t).spectator_delay for t in heads}
        visible = [
            n.position for n in stored if n.version <= heads[n.table_id] - delays[n.table_id]
        ]
    store, feed = fresh_feed(settings)
    with store:
        assert [p for p, shown, _ in steps(feed.walk_log()) if shown is not None] == visible
        export(store, tmp_path / "out", "ndjson")
    written = [
        json.loads(line)["position"]
        for path in sorted((tmp_path / "out" / "events").rglob("data.ndjson"))
        for line in path.read_text().splitlines()
    ]
    assert sorted(written) == visible
    store, feed = fresh_feed(settings)
    with store:
        walked = [step for step in feed.walk(0) if step.shown is not None]
    assert sorted(step.note.position for step in walked) == visible
    assert [step.release for step in walked] == sorted({step.release for step in walked})
