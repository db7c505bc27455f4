"""The feed read whole (an export's ``EventFeed.walk_log``) shows exactly what the feed's
walk from position 0 shows: the same public events, the same held and hidden ones — for ended
tables and live ones, with and without ``spectator_delay``, revealing hands or never."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

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
    assert whole == walked
    assert walked[-1][2]  # the walk stopped at an event spectators may not see yet
    assert any(shown is None and not held for _, shown, held in walked)  # an ended table's
