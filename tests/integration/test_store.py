"""The write side on real stores: SQLite (a file in a tmp dir) and PostgreSQL (a fresh database).

Every test here runs on both stores (design §3: the same code and suite on both).
"""

from __future__ import annotations

from datetime import UTC, datetime
from itertools import islice
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

import pytest

from domain.errors import DomainError, SeatUnavailable
from domain.table import PlayerSeated, TableOpened, TakeSeat, hash_token
from infra.settings import Settings
from infra.store import (
    CommandResult,
    IdempotencyKeyReused,
    InvalidRequest,
    StackedDecksNotAllowed,
    TableNotFound,
    TableStore,
    VersionConflict,
)
from infra.transcoder import StoredTableEvent
from tests.integration.store_support import bot_moves, decoded_events, states_by_version

pytestmark = pytest.mark.integration

BOURRE_3 = {"seats": 3}


@pytest.fixture
def settings(store_url: str, tmp_path: Path) -> Settings:
    """The shared store (conftest), with stacked decks allowed."""
    return Settings(event_store=store_url, var_dir=tmp_path / "var", allow_stacked_decks=True)


def seated_table(store: TableStore, seats: int = 3) -> tuple[UUID, list[str]]:
    """A Bourré table with every seat taken (the first hand is dealt)."""
    table_id = store.create_table("bourre", {"seats": seats}, seed=42).table_id
    tokens = [store.take_seat(table_id, f"p{seat}", seat)[1] for seat in range(seats)]
    return table_id, tokens


def play_random(store: TableStore, table_id: UUID, commands: int, seed: int = 1) -> int:
    """Issue up to ``commands`` random legal commands; returns how many were issued."""
    return sum(1 for _ in islice(bot_moves(store, table_id, seed), commands))


def assert_contiguous(store: TableStore, table_id: UUID) -> list[Any]:
    events = store.events(table_id)
    assert [e.version for e in events] == list(range(1, len(events) + 1))
    assert store.get(table_id).version == len(events)
    return events


def test_a_bourre_table_is_opened_seated_and_played(store: TableStore) -> None:
    opened = store.create_table("bourre", BOURRE_3, seed=7)
    assert opened.version == 1 and opened.position >= 1
    assert isinstance(opened.events[0].event, TableOpened)
    assert opened.events[0].event.seed == 7
    table_id = opened.table_id
    positions = [opened.position]
    for seat in range(3):
        taken, token, result = store.take_seat(table_id, f"player {seat}", None)
        assert taken == seat
        assert store.seat_for_token(table_id, token) == seat
        positions.append(result.position)
    assert positions == sorted(positions) and len(set(positions)) == len(positions)
    # The last seat starts the first hand: antes and the deal come with it.
    assert len(result.events) > 1
    play_random(store, table_id, 40)
    events = assert_contiguous(store, table_id)
    assert len(events) > 10
    assert all(e.at.tzinfo is not None for e in events)


def test_a_burraco_table_is_opened_seated_and_played(store: TableStore) -> None:
    pytest.importorskip("domain.burraco")
    table_id = store.create_table("burraco", {"players": 4}, seed=3).table_id
    for seat in range(4):
        store.take_seat(table_id, f"player {seat}", seat)
    play_random(store, table_id, 40)
    assert len(assert_contiguous(store, table_id)) > 10


def test_replaying_a_table_gives_the_state_the_store_holds(
    store: TableStore, settings: Settings
) -> None:
    table_id, _ = seated_table(store)
    play_random(store, table_id, 30)
    with TableStore(settings) as fresh:  # no cache: folds the stored events
        assert fresh.get(table_id).state == store.get(table_id).state
        assert fresh.get(table_id).version == store.get(table_id).version


def test_time_travel_returns_the_table_as_of_a_version(store: TableStore) -> None:
    table_id, _ = seated_table(store)
    play_random(store, table_id, 10)
    events = store.events(table_id)
    game = store.get(table_id).game
    state = None
    for recorded in events:
        state = game.evolve(state, recorded.event)
        past = store.get(table_id, version=recorded.version)
        assert past.version == recorded.version
        assert past.state == state
    with pytest.raises(InvalidRequest, match="beyond"):
        store.get(table_id, version=len(events) + 1)
    with pytest.raises(InvalidRequest):
        store.get(table_id, version=0)


def test_time_travel_across_checkpoints_matches_a_plain_fold(
    store: TableStore, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    every = 64  # checkpoints this often here, to keep the table short
    monkeypatch.setattr("infra.table_cache.CHECKPOINT_EVERY", every)
    monkeypatch.setattr("infra.store.SNAPSHOT_EVERY", 4 * every)
    table_id, _ = seated_table(store)
    while store.get(table_id).version < 2 * every + 10:
        assert play_random(store, table_id, 50, seed=store.get(table_id).version) == 50
    states = states_by_version(store, table_id)
    probes = [1, every - 1, every, every + 1]
    probes += [2 * every + 3, len(states) - 1, len(states)]
    with TableStore(settings) as cold:
        for reader in (store, cold):
            for version in probes:
                assert reader.get(table_id, version=version).state == states[version]


def test_events_slices_by_version(store: TableStore) -> None:
    table_id, _ = seated_table(store)
    assert [e.version for e in store.events(table_id, 2, 3)] == [2, 3]
    assert store.events(table_id, 4)[0].version == 4
    assert store.events(table_id, 10_000) == []


def test_a_tables_notifications_by_version_are_the_logs(store: TableStore) -> None:
    """The feed reads the events a delayed table releases by version (``infra.feed``)."""
    table_id, _ = seated_table(store)
    other, _ = seated_table(store)
    play_random(store, table_id, 5)
    log = [n for n in store.notifications(1, 100_000) if n.table_id == table_id]
    assert store.table_notifications(table_id, 2, 6) == log[1:6]
    assert store.table_notifications(table_id, 4, 3) == []
    assert store.table_notifications(other, 10_000, 10_001) == []


def test_a_rejected_command_writes_nothing(store: TableStore) -> None:
    table_id = store.create_table("bourre", BOURRE_3, seed=1).table_id
    before = (store.get(table_id).version, store.max_position())
    with pytest.raises(SeatUnavailable):
        store.take_seat(table_id, "nobody", 99)
    with pytest.raises(DomainError):
        store.create_table("bourre", {"seats": 1})
    with pytest.raises(DomainError, match="game"):
        store.create_table("poker", {})
    assert (store.get(table_id).version, store.max_position()) == before


def test_unknown_tables_are_not_found(store: TableStore) -> None:
    missing = uuid4()
    with pytest.raises(TableNotFound):
        store.get(missing)
    with pytest.raises(TableNotFound):
        store.get(missing, version=1)
    with pytest.raises(TableNotFound):
        store.events(missing)
    with pytest.raises(TableNotFound):
        store.execute(missing, TakeSeat(name="a", token_hash="b"))
    with pytest.raises(TableNotFound):
        store.take_seat(missing, "a")
    for not_an_id in (str(missing), None, 42):
        with pytest.raises(TableNotFound):
            store.get(not_an_id)  # type: ignore[arg-type]
        with pytest.raises(TableNotFound):
            store.execute(not_an_id, TakeSeat(name="a", token_hash="b"))  # type: ignore[arg-type]
        with pytest.raises(TableNotFound):
            store.seat_for_token(not_an_id, "token")  # type: ignore[arg-type]


def test_malformed_table_arguments_are_domain_errors(store: TableStore) -> None:
    with pytest.raises(DomainError, match="options"):
        store.create_table("bourre", ["seats", 3])  # type: ignore[arg-type]
    with pytest.raises(DomainError, match="decks"):
        store.create_table("bourre", BOURRE_3, decks="AS KS")  # type: ignore[arg-type]
    with pytest.raises(DomainError, match="seed"):
        store.create_table("bourre", BOURRE_3, seed=-1)
    with pytest.raises(DomainError, match="seed"):
        store.create_table("bourre", BOURRE_3, seed=2**63)
    assert store.max_position() == 0


def test_expected_version_must_match(store: TableStore) -> None:
    table_id = store.create_table("bourre", BOURRE_3, seed=1).table_id
    command = TakeSeat(name="a", token_hash="h")
    with pytest.raises(VersionConflict, match="expected version 5, but the table is at version 1"):
        store.execute(table_id, command, expected_version=5)
    assert store.get(table_id).version == 1
    assert store.execute(table_id, command, expected_version=1).version == 2


def test_a_retried_idempotency_key_returns_the_first_result_and_writes_nothing(
    store: TableStore, settings: Settings
) -> None:
    table_id = store.create_table("bourre", BOURRE_3, seed=1).table_id
    first = store.execute(table_id, TakeSeat(name="a", token_hash="h1"), idempotency_key="k-1")
    position = store.max_position()
    again = store.execute(table_id, TakeSeat(name="a", token_hash="h1"), idempotency_key="k-1")
    assert again == first
    assert store.max_position() == position
    # It survives a restart, and works from another process's store (no shared memory).
    with TableStore(settings) as reopened:
        assert (
            reopened.execute(table_id, TakeSeat(name="a", token_hash="h1"), idempotency_key="k-1")
            == first
        )
    assert store.max_position() == position
    # Another key, or another table, is another command.
    other = store.execute(table_id, TakeSeat(name="b", token_hash="h2"), idempotency_key="k-2")
    assert other.version == first.version + 1


def test_an_idempotency_key_covers_every_event_its_command_wrote(store: TableStore) -> None:
    table_id = store.create_table("bourre", BOURRE_3, seed=1).table_id
    store.take_seat(table_id, "a", 0)
    store.take_seat(table_id, "b", 1)
    last = store.execute(table_id, TakeSeat(name="c", token_hash="h"), idempotency_key="deal")
    assert len(last.events) > 2  # the seat, the antes and the deal
    assert (
        store.execute(table_id, TakeSeat(name="c", token_hash="h"), idempotency_key="deal") == last
    )


def test_an_idempotency_key_sent_with_a_different_command_is_refused_and_writes_nothing(
    store: TableStore, settings: Settings
) -> None:
    table_id = store.create_table("bourre", BOURRE_3, seed=1).table_id
    seat_a = TakeSeat(name="a", token_hash="h1")
    first = store.execute(table_id, seat_a, idempotency_key="k-1")
    position = store.max_position()
    with pytest.raises(IdempotencyKeyReused, match="'k-1' was already used") as refused:
        store.execute(table_id, TakeSeat(name="b", token_hash="h2"), idempotency_key="k-1")
    assert refused.value.key == "k-1" and refused.value.status == 422
    # The same command with another expectedVersion is another request too.
    with pytest.raises(IdempotencyKeyReused):
        store.execute(table_id, seat_a, expected_version=1, idempotency_key="k-1")
    assert store.max_position() == position
    # The fingerprint is stored with the key: another process refuses it as well.
    with TableStore(settings) as reopened:
        with pytest.raises(IdempotencyKeyReused):
            reopened.execute(table_id, TakeSeat(name="b", token_hash="h2"), idempotency_key="k-1")
        assert reopened.execute(table_id, seat_a, idempotency_key="k-1") == first
    assert store.max_position() == position


def test_a_key_stored_before_fingerprints_existed_still_returns_its_first_result(
    store: TableStore, settings: Settings
) -> None:
    table_id = store.create_table("bourre", BOURRE_3, seed=1).table_id
    seated = PlayerSeated(seat=0, name="a", token_hash="h1")
    # An event as stored before fingerprints: its key, and no fingerprint field at all.
    store.app.save(StoredTableEvent(table_id, 2, datetime.now(UTC), seated, "old-key"))
    row = store.app.recorder.select_events(table_id, gt=1)[0]
    assert b"fingerprint" not in row.state and b"old-key" in row.state
    with TableStore(settings) as reopened:
        again = reopened.execute(
            table_id, TakeSeat(name="b", token_hash="h2"), idempotency_key="old-key"
        )
        assert [recorded.event for recorded in again.events] == [seated]
        assert reopened.get(table_id).version == 2


def test_an_idempotency_key_replayed_with_an_expected_version_still_returns_the_result(
    store: TableStore,
) -> None:
    table_id = store.create_table("bourre", BOURRE_3, seed=1).table_id
    first = store.execute(
        table_id, TakeSeat(name="a", token_hash="h"), expected_version=1, idempotency_key="k"
    )
    store.execute(table_id, TakeSeat(name="b", token_hash="i"))
    again = store.execute(
        table_id, TakeSeat(name="a", token_hash="h"), expected_version=1, idempotency_key="k"
    )
    assert again == first


@pytest.mark.parametrize("key", ["", "x" * 201])
def test_a_malformed_idempotency_key_is_refused(store: TableStore, key: str) -> None:
    table_id = store.create_table("bourre", BOURRE_3, seed=1).table_id
    with pytest.raises(InvalidRequest, match="idempotency key"):
        store.execute(table_id, TakeSeat(name="a", token_hash="h"), idempotency_key=key)


def test_seeds_are_drawn_when_not_given_and_stacked_decks_pass_through(
    store: TableStore, settings: Settings
) -> None:
    seeds = {store.create_table("bourre", BOURRE_3).events[0].event.seed for _ in range(3)}
    assert len(seeds) == 3
    assert all(0 <= seed < 2**63 for seed in seeds)
    from domain.cards import codes, standard_pack

    deck = codes(reversed(standard_pack()))
    opened = store.create_table("bourre", BOURRE_3, seed=5, decks=[deck])
    assert opened.events[0].event.decks == [deck]
    strict = Settings(event_store=settings.event_store, var_dir=settings.var_dir)
    with TableStore(strict) as no_stacking, pytest.raises(StackedDecksNotAllowed):
        no_stacking.create_table("bourre", BOURRE_3, decks=[deck])


def test_only_the_hash_of_a_seat_token_is_stored(store: TableStore) -> None:
    table_id = store.create_table("bourre", BOURRE_3).table_id
    seat, token, result = store.take_seat(table_id, "ann")
    assert len(token) >= 32
    seated = result.events[0].event
    assert isinstance(seated, PlayerSeated) and seated.token_hash == hash_token(token)
    rows = store.app.recorder.select_events(table_id)
    assert all(token.encode() not in row.state for row in rows)
    assert store.seat_for_token(table_id, token) == seat
    assert store.seat_for_token(table_id, "not-a-token") is None


def test_notifications_follow_the_log_in_order(store: TableStore) -> None:
    first, _ = seated_table(store)
    second = store.create_table("bourre", BOURRE_3).table_id
    top = store.max_position()
    notes = store.notifications(1, 1000)
    assert [n.position for n in notes] == sorted(n.position for n in notes)
    assert notes[-1].position == top
    assert {n.table_id for n in notes} == {first, second}
    by_table = [n for n in notes if n.table_id == first]
    assert [(n.version, n.event) for n in by_table] == [
        (e.version, e.event) for e in store.events(first)
    ]
    page = store.notifications(notes[2].position, 2)
    assert [n.position for n in page] == [notes[2].position, notes[3].position]
    assert store.notifications(top + 1, 10) == []
    assert store.notifications(1, 0) == [] and store.notifications(1, -1) == []


def test_a_command_does_not_reread_the_tables_history(store: TableStore) -> None:
    """History independence: with a warm cache a command decodes only the new events."""
    table_id, _ = seated_table(store)
    play_random(store, table_id, 30)
    decoded = decoded_events(store)
    version = store.get(table_id).version
    play_random(store, table_id, 5, seed=9)
    assert decoded == []  # every event this process wrote is already folded in its cache
    assert store.get(table_id).version > version


def test_a_store_picks_up_another_stores_writes(store: TableStore, settings: Settings) -> None:
    table_id = store.create_table("bourre", BOURRE_3, seed=1).table_id
    with TableStore(settings) as other:
        assert other.get(table_id).version == 1  # now cached in `other`
        store.take_seat(table_id, "a", 0)
        store.take_seat(table_id, "b", 1)
        # `other`'s cache is stale: the fast-forward brings it up to date.
        assert other.get(table_id).version == 3
        _, _, result = other.take_seat(table_id, "c", 2)
        assert result.version > 4
    assert_contiguous(store, table_id)


def test_results_carry_what_was_written(store: TableStore) -> None:
    table_id = store.create_table("bourre", BOURRE_3, seed=1).table_id
    result = store.execute(table_id, TakeSeat(name="a", token_hash="h"))
    assert isinstance(result, CommandResult)
    assert result.table_id == table_id
    assert [e.version for e in result.events] == [2]
    assert store.events(table_id, 2, 2) == result.events
    assert store.notifications(result.position, 1)[0].version == 2
