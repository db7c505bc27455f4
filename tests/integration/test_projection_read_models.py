"""Read models (design §4): views, ledger, lobby and analytics of played tables, in Redis."""

from __future__ import annotations

from typing import Any

import pytest
import redis

from domain.games import game_named
from infra.store import TableStore
from projections.analytics import Analytics
from projections.keys import Keys
from projections.ledger import Ledger
from projections.reader import ReadModels
from projections.runner import Projector
from tests.integration.store_support import states_by_version
from tests.integration.test_projection_support import (
    catch_up,
    new_table,
    play,
    seat_everyone,
)

pytestmark = pytest.mark.integration


def expected_view(game: str, table_id: Any, state: Any, version: int, viewer: int | None):
    return {
        "tableId": str(table_id),
        "game": game,
        "version": version,
        **game_named(game).view(state, viewer),
    }


@pytest.mark.parametrize("game, seats", [("bourre", 5), ("burraco", 4)])
def test_every_view_is_the_games_own_view_of_the_live_state(
    store: TableStore, client: redis.Redis, redis_prefix: str, game: str, seats: int
) -> None:
    table_id = new_table(store, game, seats)
    seat_everyone(store, table_id, seats)
    play(store, table_id, seed=11, commands=40)
    catch_up(Projector(store, client, redis_prefix), store, limit=17)

    live = store.get(table_id)
    reader = ReadModels(client, redis_prefix)
    assert reader.view(table_id, None) == expected_view(
        game, table_id, live.state, live.version, None
    )
    for seat in range(seats):
        assert reader.view(table_id, seat) == expected_view(
            game, table_id, live.state, live.version, seat
        )
    assert reader.view(table_id, seats) is None  # no such seat
    assert reader.ledger(table_id) == Ledger.shape(game_named(game), live.state)
    assert reader.position() == store.max_position()


def test_bourre_ledger_and_analytics_of_a_finished_table(
    sqlite_store: TableStore, client: redis.Redis, redis_prefix: str
) -> None:
    table_id = new_table(sqlite_store, "bourre", 4, hands=3)
    seat_everyone(sqlite_store, table_id, 4)
    play(sqlite_store, table_id, seed=5, commands=10_000)  # until the table ends
    catch_up(Projector(sqlite_store, client, redis_prefix), sqlite_store, limit=9)
    reader = ReadModels(client, redis_prefix)

    ledger = reader.ledger(table_id)
    assert ledger is not None
    assert [hand["hand"] for hand in ledger["hands"]] == [1, 2, 3]
    assert [player["name"] for player in ledger["players"]] == [f"player-{s}" for s in range(4)]
    # Chips are conserved (bourre rule 28): the nets and the pot sum to zero.
    assert sum(player["net"] for player in ledger["players"]) + ledger["pot"] == 0
    winners = [hand["winner"] for hand in ledger["hands"] if hand["winner"] is not None]
    assert all(0 <= winner < 4 for winner in winners)

    events = sqlite_store.events(table_id)
    counters = reader.analytics()
    assert counters["bourre"]["hands"] == 3
    assert counters["bourre"]["events"] == len(events)
    assert counters["bourre"]["tables_opened"] == 1
    assert counters["bourre"]["tables_ended"] == 1
    assert counters["bourre"]["bourres"] == sum(len(hand["bourre"]) for hand in ledger["hands"])
    assert counters["bourre"]["split_pots"] == sum(1 for hand in ledger["hands"] if hand["tied"])
    assert counters["all"] == counters["bourre"]  # the only game played
    assert reader.lobby() == []  # an ended table leaves the lobby


def test_burraco_ledger_and_analytics_count_hands_and_burracos(
    sqlite_store: TableStore, client: redis.Redis, redis_prefix: str
) -> None:
    table_id = new_table(sqlite_store, "burraco", 4)
    seat_everyone(sqlite_store, table_id, 4)
    play(sqlite_store, table_id, seed=8, commands=400)
    catch_up(Projector(sqlite_store, client, redis_prefix), sqlite_store, limit=25)
    reader = ReadModels(client, redis_prefix)
    state = sqlite_store.get(table_id).state

    ledger = reader.ledger(table_id)
    assert ledger == Ledger.shape(game_named("burraco"), state)
    scored = [
        e.event for e in sqlite_store.events(table_id) if type(e.event).__name__ == "HandScored"
    ]
    counters = reader.analytics()["burraco"]
    assert scored, "the bots should have scored at least one hand"
    assert counters["hands"] == len(scored) == len(ledger["hands"])
    clean = sum(score.clean_burracos for event in scored for score in event.scores)
    dirty = sum(score.dirty_burracos for event in scored for score in event.scores)
    assert counters.get("burracos_clean", 0) == clean
    assert counters.get("burracos_dirty", 0) == dirty
    assert counters["events"] == len(sqlite_store.events(table_id))


def test_the_lobby_lists_open_tables_in_opening_order_until_they_end(
    sqlite_store: TableStore, client: redis.Redis, redis_prefix: str
) -> None:
    projector = Projector(sqlite_store, client, redis_prefix)
    reader = ReadModels(client, redis_prefix)
    waiting = new_table(sqlite_store, "bourre", 3)
    sqlite_store.take_seat(waiting, "ann", 0)
    playing = new_table(sqlite_store, "burraco", 2)
    seat_everyone(sqlite_store, playing, 2)
    ending = new_table(sqlite_store, "bourre", 2, hands=1)
    seat_everyone(sqlite_store, ending, 2)
    catch_up(projector, sqlite_store)

    lobby = reader.lobby()
    assert [line["tableId"] for line in lobby] == [str(waiting), str(playing), str(ending)]
    assert lobby[0]["status"] == "waiting" and lobby[0]["openSeats"] == [1, 2]
    assert lobby[1]["game"] == "burraco" and lobby[1]["status"] == "playing"
    assert [line["tableId"] for line in reader.lobby(game="bourre")] == [str(waiting), str(ending)]

    play(sqlite_store, ending, seed=3, commands=1_000)  # one hand, then TableEnded
    catch_up(projector, sqlite_store)
    assert [line["tableId"] for line in reader.lobby()] == [str(waiting), str(playing)]
    final = reader.view(ending, None)
    assert final is not None and final["status"] == "ended"


def test_spectators_see_the_table_delay_events_behind_live_even_once_it_ends(
    sqlite_store: TableStore, client: redis.Redis, redis_prefix: str
) -> None:
    delay = 4
    table_id = new_table(sqlite_store, "bourre", 3, hands=1, spectator_delay=delay)
    seat_everyone(sqlite_store, table_id, 3)
    projector = Projector(sqlite_store, client, redis_prefix)
    reader = ReadModels(client, redis_prefix)
    catch_up(projector, sqlite_store)
    # Seating ends with the first ante and deal; spectators are still ``delay`` behind.
    live = sqlite_store.get(table_id).version
    public = reader.view(table_id, None)
    assert live > delay
    assert public is not None and public["version"] == live - delay

    for _ in range(12):
        play(sqlite_store, table_id, seed=2, commands=1)
        catch_up(projector, sqlite_store, limit=3)
        states = states_by_version(sqlite_store, table_id)
        live = max(states)
        if type(sqlite_store.events(table_id, live)[0].event).__name__ == "TableEnded":
            break
        behind = max(1, live - delay)
        assert reader.view(table_id, None) == expected_view(
            "bourre", table_id, states[behind], behind, None
        )
        assert reader.view(table_id, 0) == expected_view("bourre", table_id, states[live], live, 0)
        assert reader.ledger(table_id) == Ledger.shape(game_named("bourre"), states[behind])

    play(sqlite_store, table_id, seed=2, commands=1_000)  # to the end of the table
    catch_up(projector, sqlite_store)
    final = sqlite_store.get(table_id)
    assert type(sqlite_store.events(table_id, final.version)[0].event).__name__ == "TableEnded"
    held = sqlite_store.get(table_id, final.version - delay)
    assert reader.view(table_id, None) == expected_view(
        "bourre", table_id, held.state, held.version, None
    )
    assert reader.view(table_id, 1) == expected_view(
        "bourre", table_id, final.state, final.version, 1
    )


def test_a_table_not_in_memory_is_loaded_from_the_store_with_its_delay(
    sqlite_store: TableStore, client: redis.Redis, redis_prefix: str, redis_url: str
) -> None:
    table_id = new_table(sqlite_store, "bourre", 4, spectator_delay=3)
    seat_everyone(sqlite_store, table_id, 4)
    play(sqlite_store, table_id, seed=4, commands=15)
    catch_up(Projector(sqlite_store, client, redis_prefix), sqlite_store)
    play(sqlite_store, table_id, seed=44, commands=15)
    catch_up(Projector(sqlite_store, client, redis_prefix), sqlite_store)  # a fresh process

    reference = redis_prefix + "reference:"
    try:
        catch_up(Projector(sqlite_store, client, reference), sqlite_store)
        reader, expected = ReadModels(client, redis_prefix), ReadModels(client, reference)
        for viewer in (None, 0, 1, 2, 3):
            assert reader.view(table_id, viewer) == expected.view(table_id, viewer)
        assert reader.ledger(table_id) == expected.ledger(table_id)
        assert reader.analytics() == expected.analytics()
    finally:
        for key in client.scan_iter(match=f"{reference}*"):
            client.delete(key)


def test_analytics_counters_keep_counting_past_64_bit_integers(
    sqlite_store: TableStore, client: redis.Redis, redis_prefix: str
) -> None:
    """Bourré pots double with every bourré (rule 25), so a long-lived service's chip counter
    outgrows Redis's 64-bit HINCRBY; the projector must add them exactly, not get stuck."""
    projector = Projector(sqlite_store, client, redis_prefix)
    already = 2**63 - 1  # chips of every pot settled so far
    analytics = Analytics(client, Keys(redis_prefix)).key()
    client.hset(analytics, "bourre:pot_chips", already)
    client.hset(analytics, "all:pot_chips", already)
    table_id = new_table(sqlite_store, "bourre", 4, hands=2)
    seat_everyone(sqlite_store, table_id, 4)
    play(sqlite_store, table_id, seed=5, commands=10_000)  # until the table ends
    catch_up(projector, sqlite_store)

    settled = [e.event for e in sqlite_store.events(table_id)]
    pots = sum(event.pot for event in settled if type(event).__name__ == "HandSettled")
    counters = ReadModels(client, redis_prefix).analytics()
    assert pots > 0
    assert counters["bourre"]["pot_chips"] == already + pots
    assert counters["all"]["pot_chips"] == already + pots
