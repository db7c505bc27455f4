"""Accounts and ratings benchmarks (design §2.2, §6), printed beside the command path's figure.

(a) Sign-in: p50 and p99 of ``POST /sessions``'s work (``api.accounts.sign_in``: the name's
    claim and the account's stream read, one argon2id verification, ``SessionStarted``
    recorded), for a known name and for an unknown one (the dummy hash: the same time), beside
    the p50 of one command through ``TableStore.execute`` on the same store. argon2id's cost is
    deliberate (19 MiB, 2 passes, 1 lane): a sign-in costs tens of milliseconds of a core.
(b) Rating update: the projector's rebuild of tables whose every seat is an account, with and
    without the ratings read model, alternating; the difference per rated hand is what
    rating a hand costs (openskill's update, the keys written).

``python bench/accounts.py [--sign-ins 60] [--tables 30] [--rounds 3]`` (SQLite in a temp dir,
Redis from ``CARDROOM_TEST_REDIS_URL`` or a private one).
"""

from __future__ import annotations

import argparse
import contextlib
import random
import secrets
import statistics
import sys
import time
import uuid
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from projection_rebuild import redis_client
from scratch import sqlite_url

from api import accounts
from api.problems import ApiProblem
from domain.table import TakeSeat, hash_token
from infra.accounts import AccountStore
from infra.settings import Settings
from infra.store import TableStore
from projections.ratings import Ratings
from projections.runner import Projector

PASSWORD = "correct horse battery"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def play(store: TableStore, tables: int, seed: int) -> tuple[int, list[float]]:
    """Bourré tables of three accounts, two hands each, played by random legal commands;
    the hands settled and each command's latency."""
    rng = random.Random(seed)
    latencies: list[float] = []
    for n in range(tables):
        table_id = store.create_table("bourre", {"seats": 3, "hands": 2}).table_id
        for seat in range(3):
            command = TakeSeat(
                name=f"p{(n + seat) % 7}", token_hash=hash_token(secrets.token_hex(8)),
                seat=seat, account="player",
            )  # fmt: skip
            store.execute(table_id, command)
        while True:
            table = store.get(table_id)
            waiting = sorted(table.game.to_act(table.state))
            if not waiting:
                break
            seat = rng.choice(waiting)
            command = rng.choice(table.game.legal_commands(table.state, seat))
            started = time.perf_counter()
            store.execute(table_id, command)
            latencies.append(time.perf_counter() - started)
    return tables * 2, latencies


def sign_ins(url: str, count: int) -> tuple[list[float], list[float]]:
    store = AccountStore(Settings(event_store=url))
    services: Any = SimpleNamespace(accounts=store)
    try:
        accounts.register(services, "Ann", PASSWORD)
        known, unknown = [], []
        for _ in range(count):
            started = time.perf_counter()
            accounts.sign_in(services, "Ann", PASSWORD)
            known.append(time.perf_counter() - started)
            started = time.perf_counter()
            with contextlib.suppress(ApiProblem):  # the one 401
                accounts.sign_in(services, "Nobody", PASSWORD)
            unknown.append(time.perf_counter() - started)
        return known, unknown
    finally:
        store.close()


def rebuild_seconds(store: TableStore, client: Any, prefix: str, ratings: bool) -> float:
    projector = Projector(store, client, prefix)
    if not ratings:
        projector.models = tuple(m for m in projector.models if not isinstance(m, Ratings))
    started = time.perf_counter()
    projector.rebuild()
    while projector.position() < store.max_position():
        projector.run_once(500)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sign-ins", type=int, default=60)
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with sqlite_url() as url, redis_client() as (client, where):
        store = TableStore(Settings(event_store=url))
        try:
            hands, commands = play(store, args.tables, seed=7)
            known, unknown = sign_ins(url, args.sign_ins)
            print("[sqlite]")
            print(
                f"sign-in: p50 {statistics.median(known) * 1000:.1f} ms, "
                f"p99 {percentile(known, 0.99) * 1000:.1f} ms "
                f"(unknown name p50 {statistics.median(unknown) * 1000:.1f} ms); "
                f"command p50 {statistics.median(commands) * 1000:.2f} ms "
                f"-> a sign-in costs {statistics.median(known) / statistics.median(commands):.0f} "
                "commands"
            )
            prefix = f"bench-accounts-{uuid.uuid4().hex[:8]}:"
            timed: dict[bool, list[float]] = {True: [], False: []}
            try:
                for _ in range(args.rounds):
                    for with_ratings in (False, True):
                        timed[with_ratings].append(
                            rebuild_seconds(store, client, prefix, with_ratings)
                        )
            finally:
                for key in client.scan_iter(match=f"{prefix}*", count=1000):
                    client.delete(key)
            extra = statistics.median(timed[True]) - statistics.median(timed[False])
            print(
                f"rating update: {extra / hands * 1e6:.0f} µs per rated hand "
                f"({hands} hands; rebuild {statistics.median(timed[False]):.2f} s without "
                f"ratings, {statistics.median(timed[True]):.2f} s with; Redis {where})"
            )
        finally:
            store.close()


if __name__ == "__main__":
    main()
