"""Shared helpers for the projection tests (no tests here): stores, bots, truth about hands.

The tests play real tables with random legal bots through the real ``TableStore`` (SQLite in a
temporary directory, or PostgreSQL in a database of its own) and project into the real Redis
under a key prefix unique to the test.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any
from uuid import UUID

import redis

from domain.cards import burraco_pack
from infra.settings import Settings
from infra.store import TableStore
from projections.runner import Projector
from tests.integration.store_support import bot_moves

SEATS = {"bourre": "seats", "burraco": "players"}


class Crash(Exception):
    """The projector process 'dies' here."""


def open_store(kind: str, tmp_path: Path, postgres_url: str | None = None) -> TableStore:
    if kind == "sqlite":
        return TableStore(Settings(event_store=f"sqlite:///{tmp_path / 'events.db'}"))
    assert postgres_url is not None
    return TableStore(Settings(event_store=postgres_url))


def new_table(store: TableStore, game: str, seats: int, **options: Any) -> UUID:
    result = store.create_table(game, {SEATS[game]: seats, **options}, seed=seats * 7919)
    return result.table_id


def seat_everyone(store: TableStore, table_id: UUID, seats: int) -> None:
    for seat in range(seats):
        store.take_seat(table_id, f"player-{seat}", seat)


def play(store: TableStore, table_id: UUID, seed: int, commands: int) -> int:
    """Play at most ``commands`` bot commands; returns the last position written."""
    position = 0
    for count, written in enumerate(bot_moves(store, table_id, seed), start=1):
        position = max(position, written)
        if count >= commands:
            break
    return position


def catch_up(projector: Projector, store: TableStore, limit: int = 500) -> int:
    """Run the projector until it has projected everything stored; returns events projected."""
    projected = 0
    for _ in range(100_000):
        if projector.position() >= store.max_position():
            return projected
        projected += projector.run_once(limit)
    raise AssertionError("the projector did not catch up")


def clear_prefix(client: redis.Redis, prefix: str) -> None:
    for key in client.scan_iter(match=f"{prefix}*", count=1000):
        client.delete(key)


def hidden_from(game: str, state: Any, viewer: int | None) -> set[str]:
    """Card codes ``viewer`` cannot possibly see anywhere: every copy is in another seat's
    hand or in a face-down pile (the truth, from the state — not from any view)."""
    if game == "bourre":
        hand = state.hand
        if hand is None:
            return set()
        hidden = {c.code for seat, held in enumerate(hand.holdings) if seat != viewer for c in held}
        hidden.update(c.code for c in hand.stock)
        hidden.discard(hand.trump_card.code)  # the face-up card is public (rule 8)
        if viewer is not None:
            # A seat knows what it discarded, even once another seat drew it (rule 14).
            hidden.difference_update(c.code for c in hand.discards[viewer])
        return hidden
    round_ = state.round
    if round_ is None:
        return set()
    copies: Counter[str] = Counter()
    for seat in range(len(round_.hands)):
        if seat != viewer:
            copies.update(round_.hands[seat])
            copies.update(round_.sealed[seat])
    for pozzetto in round_.pozzetti:
        copies.update(pozzetto)
    copies.update(round_.stock)
    pack = Counter(c.code for c in burraco_pack())
    # Two packs: a code may show for its twin's sake, so flag only codes with every copy hidden.
    return {code for code, count in copies.items() if count >= pack[code]}


def own_cards(game: str, state: Any, seat: int) -> set[str]:
    """The cards in ``seat``'s hand now (the truth, from the state)."""
    if game == "bourre":
        return {c.code for c in state.hand.holdings[seat]} if state.hand else set()
    return set(state.round.hands[seat]) if state.round else set()
