"""The read models of a stored store, as one JSON document (no tests here).

``make_store.py`` records them next to the golden store it writes; ``test_golden_store.py``
projects the golden store again with the code of the day and holds the result to that record,
byte for byte. Both go through the real store (:class:`infra.store.TableStore`), the real
projector into Redis (:class:`projections.runner.Projector`, its own key prefix) and the
real readers (:class:`projections.reader.ReadModels`, :class:`infra.queries.TableQueries`).
"""

from __future__ import annotations

import json
from typing import Any
from uuid import UUID

import redis

from infra.queries import TableQueries
from infra.store import TableStore
from projections.reader import ReadModels
from projections.runner import Projector

STATUSES = ("waiting", "playing", "ended")


def table_ids(store: TableStore) -> list[UUID]:
    """Every table of the store, in the order they were opened (their first notification)."""
    seen: dict[UUID, None] = {}
    for note in store.notifications(1, 1_000_000):
        seen.setdefault(note.table_id, None)
    return list(seen)


def project(store: TableStore, client: redis.Redis, prefix: str) -> ReadModels:
    """Project everything stored under ``prefix`` and return the reader of it."""
    projector = Projector(store, client, prefix)
    for _ in range(100_000):
        if projector.position() >= store.max_position():
            return ReadModels(client, prefix)
        projector.run_once(100)
    raise AssertionError("the projector did not catch up with the golden store")


def read_models(store: TableStore, client: redis.Redis, prefix: str) -> dict[str, Any]:
    """Every read model of every table of ``store``: the views of the spectators and of each
    seat, the ledger and the timelines (spectator, seat 0 and the last seat), then the lobby,
    the counters, the game totals and each seated name's statistics."""
    reader = project(store, client, prefix)
    queries = TableQueries(store)
    tables: dict[str, Any] = {}
    names: set[str] = set()
    for table_id in table_ids(store):
        loaded = store.get(table_id)
        seating = loaded.game.seating(loaded.state)
        names.update(name for name in seating.names if name is not None)
        viewers: list[int | None] = [None, *range(seating.seats)]
        tables[str(table_id)] = {
            "game": loaded.game.name,
            "version": loaded.version,
            "views": {_label(viewer): reader.view(table_id, viewer) for viewer in viewers},
            "ledger": reader.ledger(table_id),
            "timelines": {
                _label(viewer): queries.timeline(table_id, viewer, 1, None) for viewer in (None, 0)
            },
        }
    return {
        "position": reader.position(),
        "tables": tables,
        "lobby": reader.lobby(),
        "lobbyAll": reader.lobby_page(STATUSES, limit=1000).lines,
        "analytics": reader.analytics(),
        "gameTotals": reader.game_totals(),
        "players": {name: reader.player_stats(name) for name in sorted(names)},
    }


def _label(viewer: int | None) -> str:
    return "spectator" if viewer is None else f"seat {viewer}"


def dumps(models: dict[str, Any]) -> bytes:
    """The recorded form: compact JSON in the read models' own key order."""
    return (json.dumps(models, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
