"""Ratings as a projection (design §2.2): after random tables the ratings the projector kept
batch by batch equal those a rebuild computes from the log, and equal what feeding the same
hands to openskill directly gives; tables not all of accounts are not rated."""

from __future__ import annotations

import random
import secrets
from typing import Any

import pytest
import redis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from domain.bourre.events import HandSettled
from domain.table import TakeSeat, hash_token
from infra.store import TableStore
from projections.reader import ReadModels
from projections.runner import Projector
from tests.integration.store_support import bot_moves
from tests.integration.test_projection_support import catch_up, clear_prefix

pytestmark = pytest.mark.integration

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve")
Table = tuple[int, list[int], bool, int]  # seats, which names, all accounts?, bots' seed


def play_tables(store: TableStore, tables: list[Table]) -> None:
    for seats, chosen, accounts, seed in tables:
        table_id = store.create_table("bourre", {"seats": seats, "hands": 2}).table_id
        for seat in range(seats):
            account = "player" if accounts or seat else None
            store.execute(
                table_id,
                TakeSeat(
                    name=NAMES[chosen[seat]],
                    token_hash=hash_token(secrets.token_hex(8)),
                    seat=seat,
                    account=account,
                ),
            )
        for _ in bot_moves(store, table_id, seed):
            pass


def direct(store: TableStore) -> dict[str, tuple[float, float, int]]:
    """The same hands fed to openskill directly, in log order."""
    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    hands: dict[str, int] = {}
    names: dict[Any, dict[int, str]] = {}
    everyone: dict[Any, bool] = {}
    for note in store.notifications(1, 1_000_000):
        event = note.event
        if type(event).__name__ == "PlayerSeated":
            names.setdefault(note.table_id, {})[event.seat] = event.name
            ok = everyone.get(note.table_id, True) and event.account == "player"
            everyone[note.table_id] = ok
        if isinstance(event, HandSettled) and everyone[note.table_id]:
            seated = names[note.table_id]
            chips = [
                event.payouts[s] - (event.bourre_payment if s in event.bourre else 0)
                for s in range(len(seated))
            ]
            teams = [[ratings.get(seated[s]) or model.rating(name=seated[s])] for s in seated]
            ranks = [1.0 + sum(other > mine for other in chips) for mine in chips]
            for s, [new] in zip(seated, model.rate(teams, ranks=ranks), strict=True):
                ratings[seated[s]] = new
                hands[seated[s]] = hands.get(seated[s], 0) + 1
    return {name: (r.mu, r.sigma, hands[name]) for name, r in ratings.items()}


def projected(client: redis.Redis, prefix: str) -> dict[str, tuple[float, float, int]]:
    found: dict[str, tuple[float, float, int]] = {}
    for entry in ReadModels(client, prefix).ratings.board("bourre", "players", 0, 100):
        found[entry["name"]] = (entry["mu"], entry["sigma"], entry["hands"])
    return found


def ratings_keys(client: redis.Redis, prefix: str) -> dict[bytes, Any]:
    keys = sorted(client.scan_iter(match=f"{prefix}*ratings*", count=1000))
    return {
        key[len(prefix) :]: client.hgetall(key)
        if client.type(key) == b"hash"
        else client.zrange(key, 0, -1, withscores=True)
        for key in keys
    }


table_strategy = st.integers(2, 4).flatmap(
    lambda seats: st.tuples(
        st.just(seats),
        st.permutations(range(len(NAMES))).map(lambda names: list(names[:seats])),
        st.booleans(),
        st.integers(0, 2**16),
    )
)


@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(tables=st.lists(table_strategy, min_size=1, max_size=4), batch=st.integers(1, 40))
def test_ratings_equal_a_rebuild_and_openskill_fed_directly(
    sqlite_store: TableStore,
    client: redis.Redis,
    redis_prefix: str,
    tables: list[Table],
    batch: int,
) -> None:
    live, rebuilt = f"{redis_prefix}live{random.random()}:", f"{redis_prefix}rebuilt:"
    clear_prefix(client, rebuilt)
    start = sqlite_store.max_position()
    play_tables(sqlite_store, tables)
    assert sqlite_store.max_position() > start
    catch_up(Projector(sqlite_store, client, live), sqlite_store, limit=batch)
    rebuilder = Projector(sqlite_store, client, rebuilt)
    rebuilder.rebuild()
    catch_up(rebuilder, sqlite_store, limit=500)
    assert ratings_keys(client, live) == ratings_keys(client, rebuilt)
    expected = direct(sqlite_store)
    assert projected(client, live) == expected
    board = ReadModels(client, live).ratings.board("bourre", "players", 0, 100)
    ordinals = [entry["ordinal"] for entry in board]
    assert ordinals == sorted(ordinals, reverse=True)
    clear_prefix(client, live)


def test_only_tables_of_accounts_are_rated(
    sqlite_store: TableStore, client: redis.Redis, redis_prefix: str
) -> None:
    # two rated tables (two hands each); a third where Ann typed her name without signing in
    play_tables(
        sqlite_store, [(3, [0, 1, 2], True, 5), (2, [1, 3], True, 7), (2, [0, 1], False, 3)]
    )
    catch_up(Projector(sqlite_store, client, redis_prefix), sqlite_store, limit=3)
    found = projected(client, redis_prefix)
    assert {name: hands for name, (_, _, hands) in found.items()} == {
        "Ann": 2, "Bob": 4, "Cy": 2, "Dee": 2,
    }  # fmt: skip
    assert found == direct(sqlite_store)
